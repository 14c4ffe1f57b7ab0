"""Getting data in and out of a graph.

* GraphSON 3.0 adjacency-list files (the TinkerPop toy graphs, `g.io().read()`):
  `graphson.py`, `loader.py`; GraphML (`graphml.py`), GraphSON writing (`graphson_write.py`)
  and `g.io().write()` (`export.py`); the folders and formats `g.io()` accepts (`folders.py`);
* hugegraph-loader mappings (`struct.json` over CSV/TEXT/JSON files): `mapping.py` (the
  model), `csv_input.py` (reading), `field_values.py` (text to values), `row_elements.py`
  (records to batch items), `load_job.py` (the load), `load_progress.py` (resume and reject
  files), `sink.py` (the in-process writer: the REST batch traversals);
* backup, restore and store snapshots: `backup.py`.
"""

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
