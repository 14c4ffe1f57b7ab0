"""Writes GraphSON 3.0 adjacency-list files, the format `graphson.py` reads.

One line per vertex: its typed id, label, properties (each with its id and meta-properties)
and its incident edges under `outE` and `inE` grouped by label, as TinkerPop's
`GraphSONWriter.writeGraph` lays out the toy graphs. Writing the records `graphson.py` reads
back makes `g.io(path).write()` then `g.io(path).read()` a round trip that keeps ids, Java
number types, multi-properties and meta-properties.
"""

from __future__ import annotations

import datetime
import decimal
import math
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.io.graphson import EdgeRecord, GraphRecords, VertexRecord
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short

_INT_TYPES: tuple[tuple[type, str], ...] = (
    (Byte, "gx:Byte"), (Short, "gx:Int16"), (Int, "g:Int32"), (Long, "g:Int64"), (BigInt, "gx:BigInteger"),
)


def _typed(typ: str, value: Any) -> dict[str, Any]:
    return {"@type": typ, "@value": value}


def _double(value: float) -> Any:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float(value)


def encode_value(value: Any) -> Any:
    """One engine value in GraphSON 3.0's typed form (`graphson.decode_value` undoes it)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        for cls, typ in _INT_TYPES:
            if isinstance(value, cls):
                return _typed(typ, int(value))
        return _typed("g:Int32" if -(2**31) <= value < 2**31 else "g:Int64", value)
    if isinstance(value, Float):
        return _typed("g:Float", _double(value))
    if isinstance(value, float):
        return _typed("g:Double", _double(value))
    if isinstance(value, decimal.Decimal):
        return _typed("gx:BigDecimal", str(value))
    if isinstance(value, uuid.UUID):
        return _typed("g:UUID", str(value))
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.UTC)
        return _typed("g:Date", int(value.timestamp() * 1000))
    if isinstance(value, list | tuple):
        return _typed("g:List", [encode_value(v) for v in value])
    if isinstance(value, set | frozenset):
        return _typed("g:Set", [encode_value(v) for v in value])
    if isinstance(value, dict):
        flat: list[Any] = []
        for k, v in value.items():
            flat += [encode_value(k), encode_value(v)]
        return _typed("g:Map", flat)
    raise IllegalArgument(f"GraphSON: cannot write a {type(value).__name__} value ({value!r})")


def _vertex_line(v: VertexRecord, out_e: list[EdgeRecord], in_e: list[EdgeRecord]) -> dict[str, Any]:
    line: dict[str, Any] = {"id": encode_value(v.id), "label": v.label}
    for name, edges, other, end in (("inE", in_e, "outV", "out_v"), ("outE", out_e, "inV", "in_v")):
        if not edges:
            continue
        by_label: dict[str, list[Any]] = defaultdict(list)
        for e in edges:
            entry: dict[str, Any] = {"id": encode_value(e.id), other: encode_value(getattr(e, end))}
            if e.properties:
                entry["properties"] = {k: encode_value(x) for k, x in e.properties.items()}
            by_label[e.label].append(entry)
        line[name] = dict(by_label)
    props: dict[str, list[Any]] = defaultdict(list)
    for p in v.properties:
        entry = {"id": encode_value(p.id), "value": encode_value(p.value)}
        if p.meta:
            entry["properties"] = {k: encode_value(x) for k, x in p.meta.items()}
        props[p.key].append(entry)
    if props:
        line["properties"] = dict(props)
    return line


def graphson_lines(records: GraphRecords) -> bytes:
    """The records as GraphSON 3.0 adjacency lines (UTF-8, one vertex a line)."""
    out_e: dict[Any, list[EdgeRecord]] = defaultdict(list)
    in_e: dict[Any, list[EdgeRecord]] = defaultdict(list)
    for e in records.edges:
        out_e[e.out_v].append(e)
        in_e[e.in_v].append(e)
    return b"".join(orjson.dumps(_vertex_line(v, out_e[v.id], in_e[v.id])) + b"\n" for v in records.vertices)


def write_graphson_lines(records: GraphRecords, path: str | Path) -> None:
    """Writes the records to `path` as a GraphSON 3.0 adjacency-list file."""
    Path(path).write_bytes(graphson_lines(records))
