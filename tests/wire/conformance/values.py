"""Values across the wire: engine values -> gremlinpython (requests), and back (results).

The conformance runner checks Java types (`d[29].i` is not `d[29].l`), but gremlinpython's
stock GraphBinary reader turns Int, Long and Short alike into a Python `int`, a Float into
a `float` and a Set map key into a tuple, and its writer has no Float at all. So the wire
executor uses gremlinpython's own GraphBinary serializer with a few type IOs swapped
(`typed_serializer`): Long, Short, BigInteger and Float are read into classes that remember
their type, map keys keep their kind, and Float is written as a Float. Everything else (framing, the WebSocket transport, bytecode encoding) is stock
gremlinpython.

Results are then turned into engine values by `gremlin_engine.bytecode.from_wire`, the same
conversion the server applies to what clients send, so the runner compares like with like.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable
from typing import Any

from gremlin_python import statics
from gremlin_python.driver.serializer import GraphBinarySerializersV1
from gremlin_python.process import traversal as gpt
from gremlin_python.structure import graph as gps
from gremlin_python.structure.io import graphbinaryV1 as gb

from gremlin_engine.bytecode import CardinalityValue, from_wire
from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.traversal import tokens as tk
from gremlin_engine.traversal.values import Subgraph


def _typed_io(base: Any, read: Callable[[Any, Any], Any]) -> Any:
    """gremlinpython's reader `base` for one number type, answering `read(cls, buffer)`: the
    value in the Java type's own class (gremlinpython reads them all as plain int/float).
    The class name starts with `_` so gremlinpython's metaclass does not register it as the
    process-wide reader of that type."""

    class _TypedIO(base):  # type: ignore[misc, valid-type]
        @classmethod
        def objectify(cls, buff: Any, reader: Any, nullable: bool = True) -> Any:
            return cls.is_null(buff, reader, lambda b, r: read(cls, b), nullable)

    return _TypedIO


_LongIO = _typed_io(gb.LongIO, lambda cls, b: statics.long(gb.int64_unpack(b.read(8))))
_ShortIO = _typed_io(gb.ShortIO, lambda cls, b: statics.short(gb.int16_unpack(b.read(2))))
_BigIntIO = _typed_io(gb.BigIntIO, lambda cls, b: statics.bigint(cls.read_bigint(b)))
_FloatIO = _typed_io(gb.FloatIO, lambda cls, b: num.Float(gb.float_unpack(b.read(4))))


class _MapIO(gb.MapIO):
    """gremlinpython turns a Set or List map key into a tuple; keep a Set a (frozen)set."""

    @classmethod
    def _read_map(cls, b: Any, r: Any) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for _ in range(cls.read_int(b)):
            key = _wire_key(r.read_object(b))
            out[key] = r.read_object(b)
        return out


def _wire_key(k: Any) -> Any:
    if isinstance(k, set | frozenset):
        return frozenset(_wire_key(x) for x in k)
    if isinstance(k, list | tuple):
        return tuple(_wire_key(x) for x in k)
    if isinstance(k, dict):
        return gb.HashableDict.of(k)
    return k


def typed_serializer() -> GraphBinarySerializersV1:
    """gremlinpython's GraphBinary 1.0 serializer that keeps Java number types both ways."""
    reader = gb.GraphBinaryReader({
        gb.DataType.long: _LongIO, gb.DataType.short: _ShortIO,
        gb.DataType.biginteger: _BigIntIO, gb.DataType.float: _FloatIO, gb.DataType.map: _MapIO,
    })
    writer = gb.GraphBinaryWriter({num.Float: gb.FloatIO})
    return GraphBinarySerializersV1(reader=reader, writer=writer)


# ---- engine -> gremlinpython ---------------------------------------------------------------
def gp_token(enum_name: str, gremlin_name: str) -> Any:
    """The gremlinpython member for a Gremlin token spelling (`Scope`, `global` -> global_)."""
    if enum_name == "WithOptions":
        return getattr(gpt.WithOptions, gremlin_name)
    if enum_name == "Direction":
        gremlin_name = {"from": "OUT", "to": "IN"}.get(gremlin_name, gremlin_name)
    enum = getattr(gpt, enum_name)
    snake = "".join("_" + c.lower() if c.isupper() else c for c in gremlin_name).lstrip("_")
    for candidate in (gremlin_name, gremlin_name + "_", snake, snake + "_"):
        if candidate in enum.__members__:
            return enum[candidate]
    raise KeyError(f"gremlinpython has no {enum_name}.{gremlin_name}")


def to_gp(value: Any) -> Any:
    """An engine value (a binding, a literal of the scenario text) in gremlinpython's model."""
    if value is None or isinstance(value, bool | str | uuid.UUID):
        return value
    if isinstance(value, int):
        if isinstance(value, num.Long):
            return statics.long(value)
        if isinstance(value, num.Short):
            return statics.short(value)
        if isinstance(value, num.Byte):
            return statics.SingleByte(value)
        if isinstance(value, num.BigInt):
            return statics.bigint(value)
        if num.INT_MIN <= value <= num.INT_MAX:
            return int(value)
        return statics.long(value) if num.LONG_MIN <= value <= num.LONG_MAX else statics.bigint(value)
    if isinstance(value, float):
        return value if isinstance(value, num.Float) else float(value)
    if isinstance(value, decimal.Decimal):
        sign, digits, exponent = value.as_tuple()
        unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
        return statics.BigDecimal(-int(exponent), unscaled)
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)
    if isinstance(value, Vertex):
        return gps.Vertex(to_gp(value.id), value.label)
    if isinstance(value, Edge):
        return gps.Edge(to_gp(value.id), to_gp(value.out_v), value.label, to_gp(value.in_v))
    if isinstance(value, VertexProperty):
        return gps.VertexProperty(to_gp(value.id), value.key, to_gp(value.value), None)
    if isinstance(value, Property):
        return gps.Property(value.key, to_gp(value.value), None)
    if isinstance(value, Path):
        return gps.Path([set(ls) for ls in value.labels], [to_gp(o) for o in value.objects])
    if isinstance(value, tk._Token):
        name = value.value if isinstance(value, tk.Direction) else value.name.rstrip("_")
        return gp_token(type(value).__name__, name)
    if isinstance(value, CardinalityValue):
        return gpt.CardinalityValue(to_gp(value.cardinality), to_gp(value.value))
    if isinstance(value, dict):
        return {_key(to_gp(k)): to_gp(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return {_key(to_gp(v)) for v in value}
    if isinstance(value, list | tuple):
        return [to_gp(v) for v in value]
    raise TypeError(f"no gremlinpython form for {type(value).__name__}: {value!r}")


def _key(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else frozenset(k) if isinstance(k, set) else k


# ---- gremlinpython -> engine ---------------------------------------------------------------
def to_engine(value: Any) -> Any:
    """A decoded result in the engine's model, for the runner's typed comparison."""
    if _is_subgraph(value):
        sg = Subgraph()
        for e in value["edges"]:
            sg.add_edge(from_wire(e))
        return sg
    if isinstance(value, dict):  # incl. gremlinpython's HashableDict keys
        return {_engine_key(to_engine(k)): to_engine(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_engine(v) for v in value]
    if isinstance(value, set | frozenset):
        return {_engine_key(to_engine(v)) for v in value}
    if isinstance(value, gps.Path):
        return Path(tuple(frozenset(ls) for ls in value.labels), tuple(to_engine(o) for o in value.objects))
    return from_wire(value)


def _is_subgraph(value: Any) -> bool:
    """A `subgraph()` result travels as the map `{"vertices": [...], "edges": [...]}` (no
    gremlinpython reads GraphBinary's TinkerGraph type)."""
    return (isinstance(value, dict) and set(value) == {"vertices", "edges"}
            and isinstance(value["edges"], list) and all(isinstance(e, gps.Edge) for e in value["edges"])
            and isinstance(value["vertices"], list) and all(isinstance(v, gps.Vertex) for v in value["vertices"]))


def _engine_key(k: Any) -> Any:
    if isinstance(k, list):
        return tuple(_engine_key(x) for x in k)
    if isinstance(k, set):
        return frozenset(k)
    if isinstance(k, dict):
        return tuple(k.items())
    return k
