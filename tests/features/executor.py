"""Where conformance scenarios run: "execute this script with these bindings on graph X".

The runner (`runner.py`) knows Gherkin steps and expected values; it reaches a graph only
through a `ScriptExecutor`, so the same scenarios can run embedded (`EngineExecutor`, the
engine facade `Graph.execute`) or, later, over the wire (a gremlinpython executor that
submits scripts to a running server). An executor must return engine values
(`gremlin_engine.structure` elements and numbers, `Path`, tokens, dict/list/set), so a wire
executor converts what its client decodes before handing results back.

Datasets are the TinkerPop toy graphs by their corpus names (`modern`, `classic`, `crew`,
`grateful`, `sink`) plus `empty`. `open(dataset, fresh=False)` hands out one shared graph
per dataset for the whole session (read-only scenarios); `fresh=True` gives a private graph
the scenario may change, which the runner closes afterwards.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from gremlin_engine.io import GraphRecords, read_graphson_lines
from gremlin_engine.structure.elements import Edge, Vertex
from tests.backends import ON_POSTGRES, new_database_name
from tests.backends import server_url as backend_server_url

#: the modern graph in GraphML, for Read.feature's GraphML scenarios
MODERN_GRAPHML = Path(__file__).resolve().parents[1] / "io" / "data" / "tinkerpop-modern.xml"
DATASET_FILES = {
    "modern": "tinkerpop-modern-v3.json",
    "classic": "tinkerpop-classic-v3.json",
    "crew": "tinkerpop-crew-v3.json",
    "grateful": "grateful-dead-v3.json",
    "sink": "tinkerpop-sink-v3.json",
}

#: GraphConfig extras that turn the engine's optimisation strategies off (STYLE.md §26:
#: the corpus runs twice, with and without strategies). The traversal helpers read it.
NO_STRATEGIES = {"gremlin.strategies": "none"}


def corpus_dir() -> Path:
    """The TinkerPop corpus (`features/`, `data/`): `$HUGELITE_TINKERPOP_DIR`, else
    `shared/tinkerpop` beside the repository, as laid out locally and in CI."""
    env = os.environ.get("HUGELITE_TINKERPOP_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "shared" / "tinkerpop"


def scenario_timeout_ms() -> float:
    """Per-script time limit (`HUGELITE_CONFORMANCE_TIMEOUT_MS`, default 5 s): a scenario the
    engine cannot finish in time fails alone instead of stalling the whole run."""
    return float(os.environ.get("HUGELITE_CONFORMANCE_TIMEOUT_MS", "5000"))


def strategies_enabled() -> bool:
    """`HUGELITE_CONFORMANCE_STRATEGIES=off` runs the corpus with strategies off."""
    return os.environ.get("HUGELITE_CONFORMANCE_STRATEGIES", "on").strip().lower() not in ("off", "0", "no", "none")


class GraphHandle(Protocol):
    dataset: str
    fresh: bool


#: graph properties for scenarios tagged with a graph feature the default graph lacks
#: (the default graph is TinkerGraph's default: null property values are not allowed)
FEATURE_PROPERTIES = {"@AllowNullPropertyValues": {"gremlin.allow_null_property_values": "true"}}


class ScriptExecutor(Protocol):
    def open(self, dataset: str, fresh: bool, graph_properties: Mapping[str, str] | None = None) -> Any:
        """A graph handle for `dataset` (shared, or a private copy when `fresh`); a fresh
        graph gets `graph_properties` added to its configuration."""
        ...

    def execute(self, handle: Any, script: str, bindings: Mapping[str, Any]) -> list[Any]:
        """Runs Gremlin script text with `g` bound to the handle's graph; the results as a
        list of engine values. Errors propagate as exceptions."""
        ...

    def close(self, handle: Any) -> None:
        """Releases a fresh handle (shared ones live until `shutdown`)."""
        ...

    def records(self, dataset: str) -> GraphRecords | None:
        """The dataset's records (for seeding element look-ups), None for `empty`."""
        ...

    def shutdown(self) -> None: ...


class EngineHandle:
    def __init__(self, dataset: str, fresh: bool, graph: Any) -> None:
        self.dataset = dataset
        self.fresh = fresh
        self.graph = graph

    def __repr__(self) -> str:
        return f"<{self.dataset}{' (fresh)' if self.fresh else ''} {self.graph.name}>"


class EngineExecutor:
    """Runs scenarios in process, on memory graphs in `schema.mode=auto` (TinkerGraph-like);
    under `make test-postgres` (`tests/backends.py`) on PostgreSQL-backed graphs instead."""

    def __init__(self, strategies: bool = True, timeout_ms: float | None = None, data_dir: Path | None = None) -> None:
        from gremlin_engine.graph import GraphRegistry

        self.strategies = strategies
        self.timeout_ms = timeout_ms if timeout_ms is not None else scenario_timeout_ms()
        self.data_dir = data_dir or corpus_dir() / "data"
        self._import_dir = tempfile.TemporaryDirectory(prefix="hugelite-tp-import-")
        self.registry = GraphRegistry(evaluation_timeout_ms=self.timeout_ms, import_dir=self._prepare_import_dir())
        self._shared: dict[str, EngineHandle] = {}
        self._records: dict[str, GraphRecords] = {}
        self._names = itertools.count(1)
        self._free_databases: list[str] = []  # PostgreSQL: cleared databases to reuse

    def _prepare_import_dir(self) -> Path:
        """The folder `g.io()` may read: Read.feature names `data/tinkerpop-modern.json`,
        which is the modern graph's GraphSON 3.0 file under TinkerPop's old name, and
        `data/tinkerpop-modern.xml`, its GraphML file (`MODERN_GRAPHML`: the corpus copy
        holds no GraphML, so the tests carry one)."""
        root = Path(self._import_dir.name)
        (root / "data").mkdir()
        src = self.data_dir / DATASET_FILES["modern"]
        if src.exists():
            shutil.copy(src, root / "data" / "tinkerpop-modern.json")
        shutil.copy(MODERN_GRAPHML, root / "data" / "tinkerpop-modern.xml")
        return root

    def records(self, dataset: str) -> GraphRecords | None:
        if dataset == "empty":
            return None
        if dataset not in self._records:
            if dataset not in DATASET_FILES:
                raise KeyError(f"unknown graph {dataset!r}")
            self._records[dataset] = read_graphson_lines(self.data_dir / DATASET_FILES[dataset])
        return self._records[dataset]

    def _config(self, name: str, extra: dict[str, str]) -> Any:
        """A memory graph's config, or under `make test-postgres` a PostgreSQL one: in a
        database a closed fresh graph left (cleared), else in a new one. Creating a database
        costs ~0.1-0.3 s and half the corpus asks for a fresh graph, so they are reused."""
        from gremlin_engine.graph import GraphConfig

        if not ON_POSTGRES:
            return GraphConfig(name=name, backend="memory", schema_mode="auto", extra=extra)
        database = self._free_databases.pop() if self._free_databases else new_database_name("tp")
        return GraphConfig(name=name, backend="postgresql", store=database, schema_mode="auto",
                           extra={"sqlalchemy.url": backend_server_url(), **extra})

    def _new_graph(self, dataset: str, graph_properties: Mapping[str, str] | None = None) -> Any:
        from gremlin_engine.io import load_graph_records

        extra = {} if self.strategies else dict(NO_STRATEGIES)
        extra.update(graph_properties or {})
        cfg = self._config(f"tp_{dataset}_{next(self._names)}", extra)
        graph = self.registry.create(cfg)
        records = self.records(dataset)
        if records is not None:
            load_graph_records(graph, records)
        return graph

    def open(self, dataset: str, fresh: bool, graph_properties: Mapping[str, str] | None = None) -> EngineHandle:
        if fresh or graph_properties:
            return EngineHandle(dataset, True, self._new_graph(dataset, graph_properties))
        handle = self._shared.get(dataset)
        if handle is None:
            handle = self._shared[dataset] = EngineHandle(dataset, False, self._new_graph(dataset))
        return handle

    def execute(self, handle: EngineHandle, script: str, bindings: Mapping[str, Any]) -> list[Any]:
        return list(handle.graph.execute(script, dict(bindings), timeout_ms=self.timeout_ms))

    def close(self, handle: EngineHandle) -> None:
        if not handle.fresh:
            return
        if ON_POSTGRES:  # the database is cleared and kept for the next fresh graph
            handle.graph.clear()
            self.registry.drop(handle.graph.name, delete_store=False)
            self._free_databases.append(handle.graph.config.store)
            return
        self.registry.drop(handle.graph.name)

    def shutdown(self) -> None:
        for handle in self._shared.values():
            self.registry.drop(handle.graph.name)
        self._shared.clear()
        self._import_dir.cleanup()


class ElementWorld:
    """Resolves `v[name]` / `e[a-label->b]` in one graph (by the `name` property).

    Shared toy graphs are seeded from their GraphSON records, so look-ups cost nothing and do
    not depend on the engine; graphs built by an initializer are asked through the executor
    (`g.V().has("name", n)` and its `outE(label)`), once per name."""

    def __init__(self, executor: ScriptExecutor, handle: Any, records: GraphRecords | None = None) -> None:
        self.executor = executor
        self.handle = handle
        self._vertices: dict[str, Vertex] = {}
        self._edges: dict[tuple[str, str, str], Edge] = {}
        self._synced = records is None
        if records is not None:
            names: dict[Any, str] = {}
            for vr in records.vertices:
                name = next((p.value for p in vr.properties if p.key == "name"), None)
                if isinstance(name, str):
                    names[vr.id] = name
                    self._vertices.setdefault(name, Vertex(vr.id, vr.label))
            for er in records.edges:
                a, b = names.get(er.out_v), names.get(er.in_v)
                if a is not None and b is not None:
                    self._edges.setdefault(
                        (a, er.label, b), Edge(er.id, er.label, self._vertices[a], self._vertices[b])
                    )

    def _sync(self) -> None:
        """Swaps the seeded elements for the engine's own (same ids by value), so ids carry
        the engine's types: `v[marko].id` must equal what `g.V().id()` returns."""
        self._synced = True
        try:
            vs = {v.id: v for v in self.executor.execute(self.handle, "g.V()", {})}
            es = {e.id: e for e in self.executor.execute(self.handle, "g.E()", {})}
        except Exception:  # an engine that cannot run g.V() yet: keep the seeded copies
            return
        self._vertices = {n: vs.get(v.id, v) for n, v in self._vertices.items()}
        self._edges = {k: es.get(e.id, e) for k, e in self._edges.items()}

    def vertex(self, name: str) -> Vertex:
        if not self._synced:
            self._sync()
        v = self._vertices.get(name)
        if v is None:
            found = self.executor.execute(self.handle, 'g.V().has("name", xname)', {"xname": name})
            if not found:
                raise LookupError(f"no vertex named {name!r} in the graph")
            v = self._vertices[name] = found[0]
        return v

    def edge(self, out_name: str, label: str, in_name: str) -> Edge:
        if not self._synced:
            self._sync()
        key = (out_name, label, in_name)
        e = self._edges.get(key)
        if e is None:
            target = self.vertex(in_name)
            found = self.executor.execute(
                self.handle, 'g.V().has("name", xname).outE(xlabel)', {"xname": out_name, "xlabel": label}
            )
            e = next((x for x in found if x.in_v.id == target.id), None)
            if e is None:
                raise LookupError(f"no edge {out_name}-{label}->{in_name} in the graph")
            self._edges[key] = e
        return e
