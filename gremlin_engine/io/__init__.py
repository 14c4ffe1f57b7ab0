"""Graph import: GraphSON 3.0 adjacency-list files (the TinkerPop toy graphs, `g.io().read()`)."""

from __future__ import annotations

from gremlin_engine.io.graphson import (
    EdgeRecord,
    GraphRecords,
    GraphSONError,
    PropertyRecord,
    VertexRecord,
    decode_value,
    parse_lines,
    read_graphson_lines,
)
from gremlin_engine.io.loader import (
    load_graph_records,
    load_graphson,
    load_records,
    read_into,
    resolve_import_path,
    write_access,
)

__all__ = [
    "EdgeRecord",
    "GraphRecords",
    "GraphSONError",
    "PropertyRecord",
    "VertexRecord",
    "decode_value",
    "load_graph_records",
    "load_graphson",
    "load_records",
    "parse_lines",
    "read_graphson_lines",
    "read_into",
    "resolve_import_path",
    "write_access",
]
