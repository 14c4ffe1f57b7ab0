"""`WireExecutor`: the conformance runner's `ScriptExecutor` over the Gremlin Server protocol.

It starts a real server (`python -m rest_adapter serve`, a separate process) with no graphs
configured, creates every graph at run time with `POST /graphs/{name}` and the `text/plain`
body `backend=memory` / `schema.mode=auto`, and loads the TinkerPop toy graphs with the
script `g.io('<file>').read()` from the server's `gremlin.import_dir` (a temporary folder
holding copies of `../shared/tinkerpop/data/`); a server that cannot read them gets the same
elements written with gremlinpython bytecode (`loader.py`, `io_problem` says why). Then each
scenario goes over gremlinpython (GraphBinary, `values.typed_serializer`):

* `eval`: the scenario text as a script, `Client.submit(text, bindings)`, with the request
  option `aliases = {"g": <graph>}` choosing the graph;
* `bytecode`: the text turned into gremlinpython calls (`translate.py`) on a
  `DriverRemoteConnection(url, <graph>)` traversal source, then `to_list()`.

Graphs: one shared graph per dataset for read-only scenarios; a scenario that writes gets a
private graph, which is dropped (`DELETE /graphs/{name}`) and created again for the next one,
so every mutating scenario starts from a freshly loaded (or empty) graph, as in process.

Errors reach the runner as `ServerError(message)` with the server's own message (the status
code is kept as an attribute), so message checks compare what a Java runner would see.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal

from gremlin_engine.io import GraphRecords, read_graphson_lines
from tests.features.executor import DATASET_FILES, MODERN_GRAPHML, corpus_dir, scenario_timeout_ms
from tests.wire.conformance.loader import load_by_bytecode
from tests.wire.conformance.translate import translate
from tests.wire.conformance.values import to_engine, to_gp, typed_serializer
from tests.wire.server import Server, free_port, write_conf

MODES = ("eval", "bytecode")
GRAPH_PROPERTIES = "backend=memory\nschema.mode=auto\n"
CONFIRM_DROP = "I'm sure to drop the graph"


class ServerError(Exception):
    """A request the server answered with an error status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class WireHandle:
    def __init__(self, dataset: str, fresh: bool, name: str) -> None:
        self.dataset = dataset
        self.fresh = fresh
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.dataset}{' (fresh)' if self.fresh else ''} {self.name}>"


class WireExecutor:
    """Runs scenarios on a server process it starts itself (`mode`: eval or bytecode)."""

    def __init__(self, mode: str, workdir: Path | None = None, timeout_ms: float | None = None,
                 data_dir: Path | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.mode = mode
        # gremlinpython logs every error answer at ERROR; here they are expected outcomes
        logging.getLogger("gremlinpython").setLevel(logging.CRITICAL)
        self.data_dir = data_dir or corpus_dir() / "data"
        self._tmp = tempfile.TemporaryDirectory(prefix="hugelite-wire-tp-") if workdir is None else None
        self.workdir = Path(self._tmp.name) if self._tmp is not None else workdir
        import_dir = self._prepare_import_dir(self.workdir / "import")
        timeout = int(timeout_ms if timeout_ms is not None else scenario_timeout_ms())
        port = free_port()
        conf = write_conf(self.workdir / "conf", port, graphs={}, extra=f"gremlin.import_dir={import_dir}\n",
                          timeout_ms=timeout)
        self.server = Server(conf, port)
        self.serializer = typed_serializer()
        self.client = Client(self.server.url, "g", pool_size=1, message_serializer=self.serializer)
        self._sources: dict[str, tuple[DriverRemoteConnection, Any]] = {}
        self._shared: dict[str, WireHandle] = {}
        self._records: dict[str, GraphRecords] = {}
        #: whether `g.io(file).read()` works on this server (else `loader.load_by_bytecode`)
        self.server_reads_files = True
        self.io_problem = ""

    def _prepare_import_dir(self, root: Path) -> Path:
        """Copies of the toy graphs (the server refuses files outside its import folder, and
        symlinks are resolved), plus `data/tinkerpop-modern.json` and `.xml` for Read.feature."""
        (root / "data").mkdir(parents=True)
        for name in DATASET_FILES.values():
            src = self.data_dir / name
            if src.exists():
                shutil.copy(src, root / name)
        modern = self.data_dir / DATASET_FILES["modern"]
        if modern.exists():
            shutil.copy(modern, root / "data" / "tinkerpop-modern.json")
        shutil.copy(MODERN_GRAPHML, root / "data" / "tinkerpop-modern.xml")
        return root

    # ---- graphs ----------------------------------------------------------------------
    def _create(self, name: str, dataset: str, graph_properties: Mapping[str, str] | None = None) -> None:
        text = GRAPH_PROPERTIES + "".join(f"{k}={v}\n" for k, v in (graph_properties or {}).items())
        status, body = self.server.request("POST", f"/graphs/{name}", text)
        if status not in (200, 201):
            raise RuntimeError(f"POST /graphs/{name}: {status} {body[:300]!r}")
        if dataset == "empty":
            return
        if self.server_reads_files:
            try:
                self._eval(name, f"g.io('{DATASET_FILES[dataset]}').read()", {})
                return
            except ServerError as e:  # one transaction: nothing of the file was kept
                self.server_reads_files = False
                self.io_problem = str(e)
        records = self.records(dataset)
        assert records is not None
        load_by_bytecode(self._source(name), records)

    def _drop(self, name: str) -> None:
        status, body = self.server.request("DELETE", f"/graphs/{name}?confirm_message={quote(CONFIRM_DROP)}")
        if status != 204:
            raise RuntimeError(f"DELETE /graphs/{name}: {status} {body[:300]!r}")

    def open(self, dataset: str, fresh: bool, graph_properties: Mapping[str, str] | None = None) -> WireHandle:
        if dataset not in DATASET_FILES and dataset != "empty":
            raise KeyError(f"unknown graph {dataset!r}")
        if fresh or graph_properties:
            handle = WireHandle(dataset, True, f"fresh_{dataset}")
            self._create(handle.name, dataset, graph_properties)
            return handle
        handle = self._shared.get(dataset)
        if handle is None:
            handle = WireHandle(dataset, False, f"shared_{dataset}")
            self._create(handle.name, dataset)
            self._shared[dataset] = handle
        return handle

    def close(self, handle: WireHandle) -> None:
        if handle.fresh:
            self._drop(handle.name)

    def records(self, dataset: str) -> GraphRecords | None:
        if dataset == "empty":
            return None
        if dataset not in self._records:
            self._records[dataset] = read_graphson_lines(self.data_dir / DATASET_FILES[dataset])
        return self._records[dataset]

    # ---- scenarios -------------------------------------------------------------------
    def execute(self, handle: WireHandle, script: str, bindings: Mapping[str, Any]) -> list[Any]:
        if self.mode == "eval":
            return self._eval(handle.name, script, bindings)
        return self._bytecode(handle.name, script, bindings)

    def _eval(self, graph: str, script: str, bindings: Mapping[str, Any]) -> list[Any]:
        wire = {k: to_gp(v) for k, v in bindings.items()}
        try:
            rs = self.client.submit(script, wire or None, request_options={"aliases": {"g": graph}})
            return [to_engine(r) for r in rs.all().result()]
        except GremlinServerError as e:
            raise ServerError(e.status_message or str(e), e.status_code) from None

    def _source(self, graph: str) -> Any:
        entry = self._sources.get(graph)
        if entry is None:
            conn = DriverRemoteConnection(self.server.url, graph, pool_size=1, message_serializer=self.serializer)
            entry = self._sources[graph] = (conn, traversal().with_(conn))
        return entry[1]

    def _bytecode(self, graph: str, script: str, bindings: Mapping[str, Any]) -> list[Any]:
        t = translate(script, self._source(graph), bindings)
        try:
            return [to_engine(r) for r in t.to_list()]
        except GremlinServerError as e:
            raise ServerError(e.status_message or str(e), e.status_code) from None

    def shutdown(self) -> None:
        try:
            for conn, _ in self._sources.values():
                conn.close()
            self.client.close()
        finally:
            self.server.stop()
            if self._tmp is not None:
                self._tmp.cleanup()
