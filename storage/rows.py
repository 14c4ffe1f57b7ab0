"""Row types handed out by the storage layer.

They are `NamedTuple`s rather than dataclasses: building one from a cursor row is a single C
call (`VertexRow._make(row)`), which matters on the hot paths that return thousands of rows, and
they still read as named records. Storage never interprets `props`: it is whatever text or
bytes the engine stored (the engine's JSON encoding).
"""

from __future__ import annotations

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
