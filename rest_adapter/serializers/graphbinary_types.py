"""GraphBinary 1.0 writers for the engine's values, on top of gremlinpython's type IOs.

gremlinpython's `GraphBinaryWriter` knows its own model (a Python `int` is always an Int32,
`statics.long` a Long, its `Vertex` carries no properties). Results here are engine values,
so this module maps them to the wire types a Java Gremlin Server would send:

* `Int`/`Long`/`Short`/`Byte`/`BigInt`/`Float` keep their Java type; a plain `int` is an
  Int, a Long or a BigInteger by size; `float` is a Double; `Decimal` a BigDecimal;
* `Vertex`/`Edge` are written WITH their properties (Gremlin Server 3.7+ default,
  `materializeProperties=all`), vertex properties with their meta-properties; an element
  whose properties were never loaded is written as a reference (null properties);
* tokens are written as their enum type (`T`, `Order`, `Direction`, ...);
* a `subgraph()` result as the Map `{"vertices": [...], "edges": [...]}`;
* `Tree` is written as nested Maps (gremlinpython has no Tree reader, so a Tree type code
  would break every Python client), `BulkSet` (a list) as a List;
* engine objects with a `to_json()` (schema labels from `graph.schema()...create()`) are
  written as that HugeGraph JSON map.

Nothing is registered globally in gremlinpython's tables: the embedded connection and
tests run gremlinpython clients in the same process, and they must keep its defaults.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gremlin_python.structure.io import graphbinaryV1 as gb

from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.traversal import tokens as tk
from gremlin_engine.traversal.values import Subgraph
from rest_adapter.serializers.mime import SerializationError

DT = gb.DataType
NULL = bytes(gb.NULL_BYTES)
_prefix = gb._GraphBinaryTypeIO.prefix_bytes
_int32 = gb.int32_pack
_int64 = gb.int64_pack


@dataclass
class WireTraverser:
    """A bytecode result: Gremlin Server answers the `bytecode` op with traversers."""

    object: Any
    bulk: int = 1


Writer = Callable[[Any, "ResultWriter", bytearray, bool, bool], Any]


def _str_value(s: str, out: bytearray) -> None:
    b = s.encode("utf-8")
    out += _int32(len(b))
    out += b


def _plain_int(obj: int, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    if num.INT_MIN <= obj <= num.INT_MAX:
        return gb.IntIO.dictify(obj, w, out, as_value, nullable)
    if num.LONG_MIN <= obj <= num.LONG_MAX:
        return gb.LongIO.dictify(obj, w, out, as_value, nullable)
    return gb.BigIntIO.dictify(obj, w, out, as_value, nullable)


def _decimal(obj: decimal.Decimal, w: ResultWriter, out: bytearray, as_value: bool = False,
             nullable: bool = True) -> Any:
    if not obj.is_finite():
        raise SerializationError(f"BigDecimal cannot hold {obj}")
    sign, digits, exponent = obj.as_tuple()
    unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    _prefix(DT.bigdecimal, as_value, nullable, out)
    out += _int32(-int(exponent))
    return gb.BigIntIO.write_bigint(unscaled, out)


def _datetime(obj: datetime.datetime, w: ResultWriter, out: bytearray, as_value: bool = False,
              nullable: bool = True) -> Any:
    if obj.tzinfo is None:
        obj = obj.replace(tzinfo=datetime.UTC)
    return gb.OffsetDateTimeIO.dictify(obj, w, out, as_value, nullable)


def _vertex(v: Vertex, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    _prefix(DT.vertex, as_value, nullable, out)
    w.to_dict(v.id, out)
    _str_value(v.label, out)
    if v.loaded:
        w.to_dict(list(v.properties()), out)
    else:
        out += NULL
    return out


def _edge(e: Edge, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    _prefix(DT.edge, as_value, nullable, out)
    w.to_dict(e.id, out)
    _str_value(e.label, out)
    w.to_dict(e.in_v.id, out)
    _str_value(e.in_v.label, out)
    w.to_dict(e.out_v.id, out)
    _str_value(e.out_v.label, out)
    out += NULL  # parent
    if e.loaded:
        w.to_dict(list(e.properties()), out)
    else:
        out += NULL
    return out


def _vertex_property(vp: VertexProperty, w: ResultWriter, out: bytearray, as_value: bool = False,
                     nullable: bool = True) -> Any:
    _prefix(DT.vertexproperty, as_value, nullable, out)
    w.to_dict(vp.id, out)
    _str_value(vp.key, out)
    w.to_dict(vp.value, out)
    out += NULL  # parent
    w.to_dict([Property(k, v) for k, v in vp.meta.items()], out)
    return out


def _property(p: Property, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    _prefix(DT.property, as_value, nullable, out)
    _str_value(p.key, out)
    w.to_dict(p.value, out)
    out += NULL  # parent
    return out


def _path(p: Path, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    _prefix(DT.path, as_value, nullable, out)
    w.to_dict([set(ls) for ls in p.labels], out)
    w.to_dict(list(p.objects), out)
    return out


def _traverser(t: WireTraverser, w: ResultWriter, out: bytearray, as_value: bool = False,
               nullable: bool = True) -> Any:
    _prefix(DT.traverser, as_value, nullable, out)
    out += _int64(t.bulk)
    w.to_dict(t.object, out)
    return out


def _bulkset(bs: Any, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    """Any object with `bulk_items() -> iterable of (value, bulk)`."""
    items = list(bs.bulk_items())
    _prefix(DT.bulkset, as_value, nullable, out)
    out += _int32(len(items))
    for value, bulk in items:
        w.to_dict(value, out)
        out += _int64(int(bulk))
    return out


_ENUM_TYPES: dict[type, Any] = {
    tk.T: DT.t, tk.Direction: DT.direction, tk.Order: DT.order, tk.Scope: DT.scope, tk.Column: DT.column,
    tk.Pop: DT.pop, tk.Cardinality: DT.cardinality, tk.Operator: DT.operator, tk.Pick: DT.pick,
    tk.Merge: DT.merge, tk.DT: DT.dt, tk.Barrier: DT.barrier, tk.GType: DT.gtype,
}
_DIRECTION_ALIAS = {"from": "OUT", "to": "IN"}


def _enum(obj: Any, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    _prefix(_ENUM_TYPES[type(obj)], as_value, nullable, out)
    name = obj.name if isinstance(obj, tk.GType) else _DIRECTION_ALIAS.get(obj.value, obj.value)
    return gb.StringIO.dictify(name, w, out)


_WITH_OPTIONS = {"none": 0, "ids": 1, "labels": 2, "keys": 4, "values": 8, "all": 15, "list": 0, "map": 1}


def _with_options(obj: tk.WithOptions, w: ResultWriter, out: bytearray, as_value: bool = False,
                  nullable: bool = True) -> Any:
    return w.to_dict(_WITH_OPTIONS.get(obj.name, obj.value), out)


def _from(io: Any) -> Writer:
    return io.dictify  # type: ignore[no-any-return]


WRITERS: dict[type, Writer] = {
    bool: _from(gb.BooleanIO),
    int: _plain_int,
    num.Int: _from(gb.IntIO),
    num.Long: _from(gb.LongIO),
    num.Short: _from(gb.ShortIO),
    num.Byte: _from(gb.ByteIO),
    num.BigInt: _from(gb.BigIntIO),
    num.Float: _from(gb.FloatIO),
    float: _from(gb.DoubleIO),
    decimal.Decimal: _decimal,
    str: _from(gb.StringIO),
    uuid.UUID: _from(gb.UuidIO),
    datetime.datetime: _datetime,
    datetime.timedelta: _from(gb.DurationIO),
    bytes: _from(gb.ByteBufferIO),
    bytearray: _from(gb.ByteBufferIO),
    list: _from(gb.ListIO),
    tuple: _from(gb.ListIO),
    set: _from(gb.SetDeserializer),
    frozenset: _from(gb.SetDeserializer),
    dict: _from(gb.MapIO),
    Vertex: _vertex,
    Edge: _edge,
    VertexProperty: _vertex_property,
    Property: _property,
    Path: _path,
    WireTraverser: _traverser,
    tk.WithOptions: _with_options,
    **{cls: _enum for cls in _ENUM_TYPES},
}


def subgraph_map(sg: Subgraph) -> dict[str, list[Any]]:
    """The shape every codec gives a `subgraph()` result."""
    return {"vertices": list(sg.vertices), "edges": list(sg.edges)}


class ResultWriter(gb.GraphBinaryWriter):
    """gremlinpython's writer with the engine's value types; exact-type dispatch first,
    then the nearest registered base class (subclasses of dict, list, Vertex...)."""

    def __init__(self) -> None:
        super().__init__()
        self.writers = dict(WRITERS)

    def to_dict(self, obj: Any, to_extend: bytearray | None = None) -> Any:
        if to_extend is None:
            to_extend = bytearray()
        if obj is None:
            to_extend += NULL
            return to_extend
        fn = self.writers.get(type(obj))
        if fn is None:
            fn = self._resolve(obj)
        fn(obj, self, to_extend)
        return to_extend

    def _resolve(self, obj: Any) -> Writer:
        if hasattr(obj, "bulk_items"):
            fn: Writer = _bulkset
        elif hasattr(obj, "tree_items"):
            fn = _tree_as_map
        elif isinstance(obj, Subgraph):
            fn = _subgraph_as_map
        elif callable(getattr(obj, "to_json", None)):
            fn = _json_shape
        else:
            for cls in type(obj).__mro__[1:]:
                if cls in self.writers:
                    fn = self.writers[cls]
                    break
            else:
                raise SerializationError(
                    f"cannot serialize a {type(obj).__name__} result in GraphBinary")
        self.writers[type(obj)] = fn
        return fn


def _json_shape(obj: Any, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    """Engine objects with a HugeGraph JSON shape (schema labels, tasks) go as that map, as
    HugeGraph's own serialiser module sends them."""
    return w.to_dict(obj.to_json(), out)


def _subgraph_as_map(sg: Subgraph, w: ResultWriter, out: bytearray, as_value: bool = False,
                     nullable: bool = True) -> Any:
    """`subgraph()` results as a Map `{"vertices": [...], "edges": [...]}`: GraphBinary's
    Graph type is TinkerGraph's serialised form, which no gremlinpython can read."""
    return gb.MapIO.dictify(subgraph_map(sg), w, out, as_value, nullable)


def _tree_as_map(tree: Any, w: ResultWriter, out: bytearray, as_value: bool = False, nullable: bool = True) -> Any:
    """`Tree` as a Map of key -> subtree (any object with `tree_items()`)."""
    return gb.MapIO.dictify(dict(tree.tree_items()), w, out, as_value, nullable)
