"""Reads GraphSON 3.0 adjacency-list files (TinkerPop's `GraphSONWriter` line format).

Each line is one vertex with its properties and its incident edges (`outE` and `inE`,
grouped by label); values are typed (`{"@type": "g:Int32", "@value": 1}`). This is how the
TinkerPop toy graphs (modern, classic, crew, grateful dead, sink) are shipped, and what
`g.io(path).read()` accepts.

Parsing is kept apart from loading (`gremlin_engine/io/loader.py`): `read_graphson_lines`
turns a file into plain records with engine values (Java-typed numbers, `uuid.UUID`,
aware UTC datetimes, lists/sets/dicts), so it can be tested without a graph and reused by
anything that needs the records. Edges appear twice in the format (in the `outE` of one
vertex and the `inE` of the other); the reader reports each edge once.
"""

from __future__ import annotations

import datetime
import decimal
import math
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short, normalize
from gremlin_engine.structure.values import hashable_member
from gremlin_engine.traversal.tokens import Cardinality, token


class GraphSONError(IllegalArgument):
    """A file or value that is not GraphSON 3.0 as this reader understands it."""


@dataclass
class PropertyRecord:
    """One vertex property: its value, its id in the file (kept for reference) and its
    meta-properties (the crew graph's `startTime`/`endTime`)."""

    key: str
    value: Any
    id: Any = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class VertexRecord:
    id: Any
    label: str
    properties: list[PropertyRecord] = field(default_factory=list)

    def cardinality(self, key: str) -> Cardinality:
        """`list` when a key holds several values (TinkerGraph multi-properties)."""
        n = sum(1 for p in self.properties if p.key == key)
        return Cardinality.list if n > 1 else Cardinality.single


@dataclass
class EdgeRecord:
    id: Any
    label: str
    out_v: Any
    in_v: Any
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass
class GraphRecords:
    vertices: list[VertexRecord]
    edges: list[EdgeRecord]


# ---- typed values ---------------------------------------------------------------------


def _special_float(v: Any) -> float:
    if isinstance(v, str):
        try:
            return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[v]
        except KeyError:
            raise GraphSONError(f"not a floating point value: {v!r}") from None
    return float(v)


def _date(v: Any) -> datetime.datetime:
    # g:Date / g:Timestamp are epoch milliseconds
    return datetime.datetime.fromtimestamp(int(v) / 1000, tz=datetime.UTC)


def _offset_datetime(v: Any) -> datetime.datetime:
    text = str(v)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    dt = datetime.datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.UTC)
    return dt.astimezone(datetime.UTC)


def _pairs(flat: list[Any]) -> Iterator[tuple[Any, Any]]:
    if len(flat) % 2:
        raise GraphSONError("g:Map needs an even number of entries")
    for i in range(0, len(flat), 2):
        yield decode_value(flat[i]), decode_value(flat[i + 1])


_SCALARS: dict[str, Any] = {
    "g:Int32": lambda v: Int(int(v)),
    "g:Int64": lambda v: Long(int(v)),
    "g:Double": _special_float,
    "g:Float": lambda v: Float(_special_float(v)),
    "g:UUID": lambda v: uuid.UUID(str(v)),
    "g:Date": _date,
    "g:Timestamp": _date,
    "gx:OffsetDateTime": _offset_datetime,
    "gx:Byte": lambda v: Byte(int(v)),
    "gx:Int16": lambda v: Short(int(v)),
    "gx:BigInteger": lambda v: BigInt(int(v)),
    "gx:BigDecimal": lambda v: decimal.Decimal(str(v)),
    "g:Class": str,
}

_TOKENS = {"g:T": "T", "g:Direction": "Direction", "g:Cardinality": "Cardinality", "g:Order": "Order"}


def decode_value(obj: Any) -> Any:
    """One GraphSON 3.0 value to its engine form. Untyped JSON numbers follow the engine's
    rule (`numbers.normalize`): integers are Integer or Long by size, decimals Double."""
    if isinstance(obj, dict):
        if "@type" not in obj:
            # GraphSON 3 writes maps as g:Map; a bare object only appears in loose input
            return {k: decode_value(v) for k, v in obj.items()}
        typ, val = obj["@type"], obj.get("@value")
        fn = _SCALARS.get(typ)
        if fn is not None:
            try:
                return fn(val)
            except (TypeError, ValueError, decimal.InvalidOperation) as e:
                raise GraphSONError(f"bad {typ} value {val!r}: {e}") from None
        if typ == "g:List":
            return [decode_value(x) for x in val or []]
        if typ == "g:Set":
            return {hashable_member(decode_value(x)) for x in val or []}
        if typ == "g:Map":
            return {hashable_member(k): v for k, v in _pairs(val or [])}
        if typ in _TOKENS:
            return token(_TOKENS[typ], str(val))
        raise GraphSONError(f"unsupported GraphSON type {typ}")
    if isinstance(obj, list):
        return [decode_value(x) for x in obj]
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, int | float):
        return normalize(obj)
    raise GraphSONError(f"unexpected JSON value {obj!r}")


# ---- records --------------------------------------------------------------------------


def _unwrap(obj: Any, typ: str) -> Any:
    if isinstance(obj, dict) and obj.get("@type") == typ:
        return obj["@value"]
    return obj


def _vertex_properties(raw: dict[str, Any]) -> list[PropertyRecord]:
    out: list[PropertyRecord] = []
    for key, entries in raw.items():
        if not isinstance(entries, list):
            entries = [entries]
        for entry in entries:
            entry = _unwrap(entry, "g:VertexProperty")
            if not isinstance(entry, dict) or "value" not in entry:
                raise GraphSONError(f"vertex property {key!r} has no value")
            meta = {k: decode_value(_unwrap(v, "g:Property")) for k, v in (entry.get("properties") or {}).items()}
            meta = {k: (v["value"] if isinstance(v, dict) and set(v) == {"key", "value"} else v) for k, v in meta.items()}
            out.append(
                PropertyRecord(
                    key=entry.get("label", key),
                    value=decode_value(entry["value"]),
                    id=decode_value(entry["id"]) if "id" in entry else None,
                    meta=meta,
                )
            )
    return out


def _edge_properties(raw: dict[str, Any] | None) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for k, v in (raw or {}).items():
        v = _unwrap(v, "g:Property")
        if isinstance(v, dict) and "@type" not in v and "value" in v:
            v = v["value"]
        props[k] = decode_value(v)
    return props


def parse_vertex_line(obj: dict[str, Any]) -> tuple[VertexRecord, list[EdgeRecord]]:
    """One adjacency line: the vertex and every edge listed on it (out and in)."""
    obj = _unwrap(obj, "g:Vertex")
    if not isinstance(obj, dict) or "id" not in obj:
        raise GraphSONError("a vertex line needs an id")
    vid = decode_value(obj["id"])
    vertex = VertexRecord(id=vid, label=obj.get("label") or "vertex",
                          properties=_vertex_properties(obj.get("properties") or {}))
    edges: list[EdgeRecord] = []
    for direction, other_key in (("outE", "inV"), ("inE", "outV")):
        for label, entries in (obj.get(direction) or {}).items():
            for raw in entries:
                raw = _unwrap(raw, "g:Edge")
                other = decode_value(raw[other_key])
                out_v, in_v = (vid, other) if direction == "outE" else (other, vid)
                edges.append(EdgeRecord(id=decode_value(raw.get("id")), label=label, out_v=out_v, in_v=in_v,
                                        properties=_edge_properties(raw.get("properties"))))
    return vertex, edges


def parse_lines(lines: Iterable[str | bytes], source: str = "<lines>") -> GraphRecords:
    """Records from adjacency lines; each edge once (first sighting wins, `outE` before `inE`)."""
    vertices: list[VertexRecord] = []
    edges: dict[Any, EdgeRecord] = {}
    anonymous: list[EdgeRecord] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            raise GraphSONError(f"{source}:{n}: not JSON: {e}") from None
        try:
            vertex, vedges = parse_vertex_line(obj)
        except GraphSONError as e:
            raise GraphSONError(f"{source}:{n}: {e}") from None
        except (KeyError, TypeError, AttributeError) as e:
            raise GraphSONError(f"{source}:{n}: malformed vertex line ({e!r})") from None
        vertices.append(vertex)
        # outE entries are seen from their own vertex: prefer them over inE copies
        for e in sorted(vedges, key=lambda e: e.out_v != vertex.id):
            if e.id is None:
                if e.out_v == vertex.id:
                    anonymous.append(e)
                continue
            key = (type(e.id).__name__, e.id) if not isinstance(e.id, int) else e.id
            edges.setdefault(key, e)
    return GraphRecords(vertices=vertices, edges=list(edges.values()) + anonymous)


def read_graphson_lines(path: str | Path) -> GraphRecords:
    """Reads a GraphSON 3.0 adjacency-list file into records."""
    p = Path(path)
    with p.open("rb") as f:
        return parse_lines(f, source=str(p))
