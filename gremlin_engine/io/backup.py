"""Backup and restore: a graph as a folder of its schema and its elements.

A backup folder holds:

================  ===========================================================================
`schema.json`     the schema as `GET /graphs/{g}/schema` answers it, ids included
`vertices.jsonl`  one vertex a line: `{"id", "label", "properties": {key: value or [values]}}`
`edges.jsonl`     one edge a line: `{"id", "label", "outV", "outVLabel", "inV", "inVLabel",
                  "properties"}`
`manifest.json`   graph name, element counts, when it was taken, the format version
================  ===========================================================================

Values are plain JSON: dates as epoch milliseconds, UUIDs as text, blobs as base64; the
restoring graph converts each back by its property key, as it does any written value.

In process the backup is read by ONE streaming traversal (`inject(1).union(V(), E())`), so
vertices and edges come from one read transaction: a consistent snapshot even while a
server writes the same store (SQLite WAL readers see the database as of their start).

Restore is hugegraph-tools': into a graph without data in RESTORING mode, which keeps the
schema ids and AUTOMATIC vertex ids; into a graph with data in MERGING mode, where schema
elements that exist already are kept and the others are created with new ids (vertex ids
made of a label id are remade with the target's label ids). The graph is in NONE mode
afterwards, even when the restore fails. Elements are written through the same `GraphSink`
as a load, so the engine's batch-write path checks them.
"""

from __future__ import annotations

import base64
import datetime as dt
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson

from gremlin_engine.errors import ExistedError, IllegalArgument
from gremlin_engine.graph import Graph
from gremlin_engine.io.sink import GraphSink
from gremlin_engine.schema.model import Cardinality, IdStrategy
from gremlin_engine.structure import ids as idc
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from storage import StoreError, snapshot_file

FORMAT_VERSION = 1
SCHEMA_ORDER = (("propertykeys", "propertykey"), ("vertexlabels", "vertexlabel"), ("edgelabels", "edgelabel"),
                ("indexlabels", "indexlabel"))
RESTORE_BATCH = 2000


class BackupError(IllegalArgument):
    """A backup folder that cannot be written or read back."""


def plain(value: Any) -> Any:
    """orjson's `default`: engine values as plain JSON."""
    if isinstance(value, dt.datetime):
        return round(value.timestamp() * 1000)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, float):
        return float(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot back up a {type(value).__name__} value")


_DUMP = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_APPEND_NEWLINE


class BackupSource(Protocol):
    name: str

    def schema_json(self) -> dict[str, Any]: ...

    def elements(self) -> Iterator[dict[str, Any]]: ...


class GraphReader:
    """A `BackupSource` over a graph in this process: one read transaction for all."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.name = graph.name

    def schema_json(self) -> dict[str, Any]:
        return dict(self.graph.schema.schema_json())

    def elements(self) -> Iterator[dict[str, Any]]:
        schema = self.schema_json()
        many = {k["name"] for k in schema.get("propertykeys") or () if k.get("cardinality") != Cardinality.SINGLE}

        def anon(step: str) -> TraversalIR:
            return TraversalIR((), (Instruction(step, ()),), True)

        ir = TraversalIR((), (Instruction("inject", (1,)), Instruction("union", (anon("V"), anon("E")))))
        for e in self.graph.iterate(ir):
            if e.kind == "vertex":
                props: dict[str, Any] = {}
                for vp in e.properties():
                    if vp.key in many:
                        props.setdefault(vp.key, []).append(vp.value)
                    else:
                        props[vp.key] = vp.value
                yield {"id": e.id, "label": e.label, "properties": props}
            else:
                yield {"id": e.id, "label": e.label, "outV": e.out_v.id, "outVLabel": e.out_v.label,
                       "inV": e.in_v.id, "inVLabel": e.in_v.label,
                       "properties": {p.key: p.value for p in e.properties()}}


@dataclass
class BackupSummary:
    vertices: int = 0
    edges: int = 0
    seconds: float = 0.0


def backup(source: BackupSource, folder: Path) -> BackupSummary:
    """Writes `source` into `folder` (created; files in it are replaced)."""
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    summary = BackupSummary()
    schema = source.schema_json()
    with open(folder / "vertices.jsonl", "wb") as vf, open(folder / "edges.jsonl", "wb") as ef:
        for element in source.elements():
            if "outV" in element:
                ef.write(orjson.dumps(element, default=plain, option=_DUMP))
                summary.edges += 1
            else:
                vf.write(orjson.dumps(element, default=plain, option=_DUMP))
                summary.vertices += 1
    (folder / "schema.json").write_bytes(orjson.dumps(schema, default=plain, option=orjson.OPT_INDENT_2))
    summary.seconds = time.perf_counter() - started
    manifest = {"format": FORMAT_VERSION, "graph": source.name, "vertices": summary.vertices,
                "edges": summary.edges, "taken": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
    (folder / "manifest.json").write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return summary


class RestoreTarget(GraphSink, Protocol):
    """A `GraphSink` that can also create schema elements from their JSON."""

    def create_schema(self, kind: str, body: dict[str, Any]) -> None: ...

    def has_data(self) -> bool: ...


def _read_json(path: Path) -> Any:
    try:
        return orjson.loads(path.read_bytes())
    except OSError as e:
        raise BackupError(f"{path}: {e.strerror or e}; is it a hugelite backup folder?") from None
    except orjson.JSONDecodeError as e:
        raise BackupError(f"{path}: not JSON: {e}") from None


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield orjson.loads(line)
                except orjson.JSONDecodeError as e:
                    raise BackupError(f"{path.name} line {n}: not JSON: {e}") from None


def restore(target: RestoreTarget, folder: Path, mode: str | None = None,
            batch_size: int = RESTORE_BATCH) -> BackupSummary:
    """Restores `folder` into `target`: RESTORING mode when the graph holds nothing (or
    `mode` says so), MERGING otherwise; NONE afterwards, whatever happens. Elements are
    written `batch_size` at a time (a server takes 500 a request)."""
    started = time.perf_counter()
    _read_json(folder / "manifest.json")
    schema = _read_json(folder / "schema.json")
    mode = mode or ("MERGING" if target.has_data() else "RESTORING")
    if mode not in ("RESTORING", "MERGING"):
        raise BackupError(f"restore runs in RESTORING or MERGING mode, not {mode!r}")
    summary = BackupSummary()
    target.hold_mode(mode, "restore")
    try:
        _restore_schema(target, schema, keep_ids=mode == "RESTORING")
        remap = _label_id_remap(schema, target.schema_json())
        pk_labels = {vl["name"] for vl in schema.get("vertexlabels") or () if vl.get("id_strategy") == "PRIMARY_KEY"}
        counts = {"vertex": 0, "edge": 0}
        for kind, file in (("vertex", "vertices.jsonl"), ("edge", "edges.jsonl")):
            batch: list[dict[str, Any]] = []
            for item in _lines(folder / file):
                if kind == "vertex":
                    if item["label"] in pk_labels:
                        item["id"] = None  # remade from the primary keys by the graph
                else:
                    item["id"] = None  # edge ids are made of their ends, label and sort values
                    item["outV"], item["inV"] = remap(item["outV"]), remap(item["inV"])
                batch.append(item)
                if len(batch) >= batch_size:
                    target.write(kind, batch)
                    batch = []
                counts[kind] += 1
            if batch:
                target.write(kind, batch)
        summary.vertices, summary.edges = counts["vertex"], counts["edge"]
        target.wait_for_tasks()
    finally:
        target.release_mode("NONE")
    summary.seconds = time.perf_counter() - started
    return summary


def _restore_schema(target: RestoreTarget, schema: dict[str, Any], keep_ids: bool) -> None:
    have = target.schema_json()
    for family, kind in SCHEMA_ORDER:
        existing = {e["name"] for e in have.get(family) or ()}
        for body in schema.get(family) or ():
            if body["name"] in existing:
                continue  # MERGING: the target's definition stands
            body = {k: v for k, v in body.items() if k not in ("status", "index_labels")}
            if not keep_ids:
                body.pop("id", None)
            elif kind == "indexlabel":
                body["rebuild"] = False  # RESTORING: no data yet, the writes that follow index it
            try:
                target.create_schema(kind, body)
            except ExistedError:
                continue


def _label_id_remap(backup_schema: dict[str, Any], target_schema: dict[str, Any]) -> Any:
    """A function giving a backed-up vertex id as the target names it: PRIMARY_KEY ids begin
    with their label's id, which a MERGING target may have numbered differently."""
    old = {vl["id"]: vl["name"] for vl in backup_schema.get("vertexlabels") or ()
           if vl.get("id_strategy") == IdStrategy.PRIMARY_KEY}
    new = {vl["name"]: vl["id"] for vl in target_schema.get("vertexlabels") or ()}
    moved = {i: new[n] for i, n in old.items() if n in new and new[n] != i}
    if not moved:
        return lambda vid: vid

    def remap(vid: Any) -> Any:
        if isinstance(vid, str) and ":" in vid:
            label_id, parts = idc.parse_primary_key_id(vid)
            if label_id in moved:
                return idc.escape_join(":", [str(moved[label_id]), idc.escape_join("!", parts)])
        return vid

    return remap


def snapshot(config: Any, dest: Path) -> int:
    """A consistent copy of the SQLite store of the graph configured by `config` (a
    `GraphConfig`), taken while a server may be using it; returns its size in bytes."""
    path = config.store_path
    if path is None:
        why = "use pg_dump, or `hugelite backup`" if config.backend == "postgresql" else "nothing to copy"
        raise BackupError(f"graph '{config.name}' has no store file (backend {config.backend}): {why}")
    try:
        return snapshot_file(path, dest)
    except StoreError as e:
        raise BackupError(str(e)) from None
