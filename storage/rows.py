"""Row types handed out by the storage layer.

They are `NamedTuple`s rather than dataclasses: building one from a cursor row is a single C
call (`make_vertex(row)`: ``tuple.__new__`` of the row type, through `functools.partial`),
which matters on the hot paths that return thousands of rows and on every point read, and
they still read as named records. (`VertexRow._make` is a Python function that also checks
the row's length: ~30% more per row, for a check the store's own statements never fail.)
Storage never interprets `props`: it is whatever text or bytes the engine stored (the
engine's JSON encoding).
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple


class VertexRow(NamedTuple):
    key: int  # integer row key, never reused within a store
    id: Any  # public id: int, str or bytes, stored without type affinity
    label_id: int
    props: Any  # opaque text/bytes


class EdgeRow(NamedTuple):
    key: int
    id: Any
    label_id: int
    out_key: int
    in_key: int
    sort_values: str
    props: Any


class SchemaRow(NamedTuple):
    id: int
    name: str
    body: Any  # opaque JSON text written by the engine


#: a row type from a cursor row of the store's own statements (fields in the type's order)
make_vertex = partial(tuple.__new__, VertexRow)
make_edge = partial(tuple.__new__, EdgeRow)
make_schema = partial(tuple.__new__, SchemaRow)
