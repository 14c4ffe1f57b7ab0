"""`g.io(path).write()`: the whole graph to a file in the export folder.

The graph is read through the traversal's own `GraphAccess` (so inside the request's
transaction: a consistent snapshot, with the same view a `g.V()` in that request would have)
into the records `graphson.py` and `graphml.py` share, then written in the chosen format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gremlin_engine.io.folders import detect_format, resolve_export_path, write_new_file
from gremlin_engine.io.graphml import graphml_text
from gremlin_engine.io.graphson import EdgeRecord, GraphRecords, PropertyRecord, VertexRecord
from gremlin_engine.io.graphson_write import graphson_lines

_BATCH = 1000


def _batches(items: Any) -> Any:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) == _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def graph_records(access: Any) -> GraphRecords:
    """Every vertex (properties, their ids and meta-properties) and edge the access sees."""
    vertices: list[VertexRecord] = []
    for batch in _batches(access.vertices()):
        access.load(batch)
        for v in batch:
            props = [PropertyRecord(vp.key, vp.value, vp.id, dict(vp.meta or {})) for vp in v.properties()]
            vertices.append(VertexRecord(id=v.id, label=v.label, properties=props))
    edges: list[EdgeRecord] = []
    for batch in _batches(access.edges()):
        access.load(batch)
        for e in batch:
            edges.append(EdgeRecord(id=e.id, label=e.label, out_v=e.out_v.id, in_v=e.in_v.id,
                                    properties={p.key: p.value for p in e.properties()}))
    return GraphRecords(vertices=vertices, edges=edges)


def write_from(access: Any, path: str | Path, export_dir: str | Path | None,
               writer: str | None = None) -> tuple[int, int]:
    """Writes the graph `access` sees to `path` inside `export_dir`, as GraphSON 3.0 or
    GraphML (`writer`, else the suffix). Returns (vertices, edges) written."""
    target = resolve_export_path(path, export_dir, writer)
    records = graph_records(access)
    fmt = detect_format(target, writer)
    write_new_file(target, graphml_text(records) if fmt == "graphml" else graphson_lines(records))
    return len(records.vertices), len(records.edges)
