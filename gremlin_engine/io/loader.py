"""Loads GraphSON records into a graph through the engine's own write path.

The loader writes only through a `GraphAccess` (`add_vertex`, `add_edge`), the same calls
`addV()`/`addE()` make, so schema rules, id handling and index upkeep apply to imported data
exactly as to data written by a traversal; there is no bulk side door into storage. Original
vertex and edge ids are kept, which needs a graph in `schema.mode=auto` (or a strict schema
whose labels use customized ids).

`read_into(access, path, import_dir, reader)` is the hook behind `g.io(path).read()`: it
refuses any file outside the configured import folder (`folders.py`), since a Gremlin
script is untrusted input and must never name arbitrary server files, and reads GraphSON
3.0 or GraphML (`graphml.py`) into the same records.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gremlin_engine.graph_handle import GraphHandle
from gremlin_engine.io.folders import detect_format, resolve_import_path
from gremlin_engine.io.graphml import read_graphml
from gremlin_engine.io.graphson import GraphRecords, GraphSONError, read_graphson_lines
from gremlin_engine.runtime import api
from gremlin_engine.traversal.tokens import T

__all__ = ["load_graph_records", "load_graphson", "load_records", "read_into", "resolve_import_path",
           "write_access"]


def load_records(access: Any, records: GraphRecords) -> tuple[int, int]:
    """Adds every vertex, then every edge; returns (vertices, edges) added."""
    added: dict[Any, Any] = {}
    # TinkerGraph keeps vertex property ids; the runtime takes a user-supplied one as T.id
    # in the meta map, which only auto-mode (TinkerGraph-like) graphs accept
    keep_vp_ids = getattr(access, "schema_mode", "strict") == "auto"
    for vr in records.vertices:
        props = []
        for p in vr.properties:
            meta: dict[Any, Any] = dict(p.meta)
            if keep_vp_ids and p.id is not None:
                meta[T.id] = p.id
            props.append((p.key, p.value, vr.cardinality(p.key), meta))
        added[vr.id] = access.add_vertex(vr.label, vr.id, props)
    n_edges = 0
    for er in records.edges:
        try:
            out_v, in_v = added[er.out_v], added[er.in_v]
        except KeyError as e:
            raise GraphSONError(f"edge {er.id!r} names vertex {e.args[0]!r}, which the file does not hold") from None
        access.add_edge(er.label, out_v, in_v, er.id, list(er.properties.items()))
        n_edges += 1
    return len(added), n_edges


def read_into(access: Any, path: str | Path, import_dir: str | Path | None,
              reader: str | None = None) -> tuple[int, int]:
    """`g.io(path).read()`: checks the path and its format (`reader`, else the suffix), then
    loads the file through `access` (which the caller holds inside its write transaction).
    Returns (vertices, edges) added."""
    target = resolve_import_path(path, import_dir, reader)
    if detect_format(target, reader) == "graphml":
        return load_records(access, read_graphml(target))
    return load_records(access, read_graphson_lines(target))


@contextlib.contextmanager
def write_access(graph: GraphHandle, ctx: Any = None) -> Iterator[Any]:
    """A GraphAccess over one write transaction of `graph`; commits when the block ends
    normally, rolls back when it raises. `ctx`: the `ExecutionContext` (None: the loader
    door's administrator)."""

    with api.write_access(graph, ctx=ctx) as access:
        yield access


def load_graph_records(graph: GraphHandle, records: GraphRecords) -> tuple[int, int]:
    """Loads already-read records into `graph` in one write transaction."""
    with write_access(graph) as access:
        return load_records(access, records)


def load_graphson(graph: GraphHandle, path: str | Path) -> tuple[int, int]:
    """Loads a GraphSON 3.0 adjacency file into `graph` in one write transaction, keeping
    the file's vertex and edge ids. Not path-restricted: this is for trusted callers (tests,
    the CLI); scripts go through `read_into`."""
    return load_graph_records(graph, read_graphson_lines(path))
