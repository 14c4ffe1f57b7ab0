"""The property value codec: element properties to and from the storage `props` JSON column.

Storage treats `props` as opaque text; this module alone gives it meaning. Two goals pull
against each other: Java types must survive a round trip exactly (a Long 5 must come back a
Long, a Float 1.5 a Float, a date a date), and the common row (a few strings and small ints)
must encode and decode with nothing but one `orjson` call.

So plain `str`, `bool`, finite `float` (Double) and `int` that already mean what they say
(Integer when it fits 32 bits, Long beyond) are stored untagged; everything else is a tag
object `{"@t": code, "v": ...}`:

====  ======================  ==============================
code  Java type               "v"
====  ======================  ==============================
L     Long within int range   number
B/S   Byte / Short            number
F     Float                   number, or "NaN"/"Infinity"/"-Infinity"
D     Double NaN/±Infinity    the same strings
N     BigInteger              decimal string
M     BigDecimal              decimal string
T     Date / OffsetDateTime   ISO-8601 text with offset
U     UUID                    dashed string
X     byte[] (BLOB)           base64
list  List                    [encoded...]
set   Set                     [encoded...]
map   Map                     [[encoded key, encoded value]...] (keys need not be strings)
====  ======================  ==============================

Vertex rows map each key to one *entry*, or to a JSON array of entries for multi-properties
(cardinality list/set): an entry is an encoded value, or `{"@v": value, "@m": {meta...},
"@i": id}` when the vertex property carries meta-properties or a user-supplied id. A bare
JSON array can never be a value (lists are tagged), which keeps the two apart. Edge rows map
each key to an encoded value. Keys appear in the order given to `encode_*`; the runtime
writes them in property-key id order, which is the order HugeGraph's REST output shows.
"""

from __future__ import annotations

import base64
import datetime as _dt
import decimal
import math
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import PropertyMap, Vertex, VertexProperty
from gremlin_engine.structure.numbers import (
    INT_MAX,
    INT_MIN,
    LONG_MAX,
    LONG_MIN,
    BigInt,
    Byte,
    Float,
    Int,
    Long,
    Short,
)

_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    return "Infinity" if x > 0 else "-Infinity"


def encode_value(v: Any) -> Any:
    """One property value as a JSON-able object (see the table above)."""
    t = type(v)
    if t is str or t is bool or v is None:
        return v
    if t is int or t is Int:
        if t is int and not (LONG_MIN <= v <= LONG_MAX):
            return {"@t": "N", "v": str(v)}
        return int(v) if t is Int else v
    if t is float:
        return v if math.isfinite(v) else {"@t": "D", "v": _float_text(v)}
    if t is Long:
        return {"@t": "L", "v": int(v)} if INT_MIN <= v <= INT_MAX else int(v)
    if t is Float:
        return {"@t": "F", "v": float(v) if math.isfinite(v) else _float_text(v)}
    if t is Byte:
        return {"@t": "B", "v": int(v)}
    if t is Short:
        return {"@t": "S", "v": int(v)}
    if t is BigInt:
        return {"@t": "N", "v": str(int(v))}
    if isinstance(v, decimal.Decimal):
        return {"@t": "M", "v": str(v)}
    if isinstance(v, _dt.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=_dt.UTC)
        return {"@t": "T", "v": v.isoformat()}
    if isinstance(v, uuid.UUID):
        return {"@t": "U", "v": str(v)}
    if isinstance(v, bytes | bytearray):
        return {"@t": "X", "v": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, list | tuple):
        return {"@t": "list", "v": [encode_value(x) for x in v]}
    if isinstance(v, set | frozenset):
        return {"@t": "set", "v": [encode_value(x) for x in v]}
    if isinstance(v, dict):
        return {"@t": "map", "v": [[encode_value(k), encode_value(x)] for k, x in v.items()]}
    if isinstance(v, int):  # other int subclasses (e.g. bool handled above)
        return encode_value(int(v))
    raise IllegalArgument(f"Unsupported property value type {type(v).__name__}: {v!r}")


def hashable_member(v: Any) -> Any:
    """A decoded value made fit to be a set member or map key: lists become tuples (nested
    ones too) and sets frozensets; maps stay as they are. Every decoder of tagged or typed
    values (this codec, GraphSON, the feature runner's) rebuilds sets and maps with it."""
    if isinstance(v, list):
        return tuple(hashable_member(x) for x in v)
    if isinstance(v, set):
        return frozenset(v)
    return v


def _decode_tag(tag: str, raw: Any) -> Any:
    if tag == "L":
        return Long(raw)
    if tag == "F":
        return Float(_SPECIAL_FLOATS[raw] if isinstance(raw, str) else raw)
    if tag == "D":
        return _SPECIAL_FLOATS[raw]
    if tag == "B":
        return Byte(raw)
    if tag == "S":
        return Short(raw)
    if tag == "N":
        n = int(raw)
        return BigInt(n)
    if tag == "M":
        return decimal.Decimal(raw)
    if tag == "T":
        return _dt.datetime.fromisoformat(raw)
    if tag == "U":
        return uuid.UUID(raw)
    if tag == "X":
        return base64.b64decode(raw)
    if tag == "list":
        return [decode_value(x) for x in raw]
    if tag == "set":
        return {hashable_member(decode_value(x)) for x in raw}
    if tag == "map":
        return {hashable_member(decode_value(k)): decode_value(x) for k, x in raw}
    raise ValueError(f"unknown value tag {tag!r}")


def decode_value(j: Any) -> Any:
    t = type(j)
    if t is dict:
        return _decode_tag(j["@t"], j["v"])
    if t is int and not (INT_MIN <= j <= INT_MAX):
        return Long(j)
    return j


# ---- vertex rows ---------------------------------------------------------------------


def _encode_entry(vp: VertexProperty, default_id: str) -> Any:
    value = encode_value(vp.value)
    explicit = vp.id is not None and vp.id != default_id
    if not vp.meta and not explicit:
        return value
    entry: dict[str, Any] = {"@v": value}
    if vp.meta:
        entry["@m"] = {k: encode_value(m) for k, m in vp.meta.items()}
    if explicit:
        entry["@i"] = encode_value(vp.id)
    return entry


def encode_vertex_props(props: PropertyMap, vertex_id: Any) -> str:
    """A vertex's PropertyMap as the JSON text of its `props` column.

    A vertex property whose id differs from `default_vp_id` (a user-supplied id, TinkerPop
    `property(k, v, T.id, x)`) keeps that id; the others get theirs back computed."""
    out: dict[str, Any] = {}
    for key, vps in props.items():
        if not vps:
            continue
        if len(vps) == 1:
            out[key] = _encode_entry(vps[0], default_vp_id(vertex_id, key, 0))
        else:
            out[key] = [_encode_entry(vp, default_vp_id(vertex_id, key, i)) for i, vp in enumerate(vps)]
    return orjson.dumps(out).decode()


def encode_vertex_values(values: Mapping[str, Sequence[Any]]) -> str:
    """`encode_vertex_props` for plain values (key -> values, no meta-properties, default
    vertex-property ids): what a strict-mode write stores, without building a
    `VertexProperty` per value first (batch inserts keep the text and decode it on demand)."""
    out: dict[str, Any] = {}
    for key, xs in values.items():
        if not xs:
            continue
        out[key] = encode_value(xs[0]) if len(xs) == 1 else [encode_value(x) for x in xs]
    return orjson.dumps(out).decode()


def default_vp_id(vertex_id: Any, key: str, index: int) -> str:
    """HugeGraph's property id `<owner id>>key` (`1:marko>name`); later values of a
    multi-property get `>1`, `>2`... so that every vertex property has its own id."""
    base = f"{vertex_id if not isinstance(vertex_id, int) else int(vertex_id)}>{key}"
    return base if index == 0 else f"{base}>{index}"


def _decode_entry(entry: Any, key: str, index: int, vertex: Vertex) -> VertexProperty:
    t = type(entry)
    if t is str or t is bool or t is float or (t is int and INT_MIN <= entry <= INT_MAX):
        return VertexProperty(default_vp_id(vertex.id, key, index), key, entry, vertex)
    if t is dict and "@v" in entry:
        meta = {k: decode_value(m) for k, m in entry.get("@m", {}).items()}
        vid = decode_value(entry["@i"]) if "@i" in entry else default_vp_id(vertex.id, key, index)
        return VertexProperty(vid, key, decode_value(entry["@v"]), vertex, meta)
    return VertexProperty(default_vp_id(vertex.id, key, index), key, decode_value(entry), vertex)


def decode_vertex_props(raw: str | bytes | None, vertex: Vertex) -> PropertyMap:
    """The PropertyMap of `vertex` from its stored JSON (key order preserved)."""
    if not raw:
        return {}
    out: PropertyMap = {}
    for key, entry in orjson.loads(raw).items():
        if type(entry) is list:
            out[key] = [_decode_entry(e, key, i, vertex) for i, e in enumerate(entry)]
        else:
            out[key] = [_decode_entry(entry, key, 0, vertex)]
    return out


def decode_vertex_value(raw: str | bytes | None, key: str, missing: Any = None) -> Any:
    """The first value of `key` in a vertex's stored JSON, or `missing`: what
    `decode_vertex_props(raw, v)[key][0].value` gives, without building a VertexProperty
    for every key of the row (`groupCount().by('city')` over a whole graph reads one key)."""
    if not raw:
        return missing
    return decode_vertex_entry(orjson.loads(raw).get(key, _ABSENT), missing)


def entry_value(entry: Any) -> Any:
    """The value of one stored vertex-property entry: the `.value` `decode_vertex_props`
    gives its `VertexProperty` (for condition tests that need no property objects)."""
    t = type(entry)
    if t is str or t is bool or t is float or (t is int and INT_MIN <= entry <= INT_MAX):
        return entry
    if t is dict and "@v" in entry:
        return decode_value(entry["@v"])
    return decode_value(entry)


def decode_vertex_entry(entry: Any, missing: Any = None) -> Any:
    """The first value of one decoded-JSON member of a vertex row (an entry, or a list of
    entries for a multi-property), or `missing`: also for members SQL extracted alone."""
    if type(entry) is list:
        entry = entry[0] if entry else _ABSENT
    if entry is _ABSENT:
        return missing
    return entry_value(entry)


_ABSENT = object()


# ---- edge rows -----------------------------------------------------------------------


def encode_edge_props(props: dict[str, Any]) -> str:
    """An edge's properties as the text of its `props` column. The usual values (str, Int,
    bool, finite float) are their own encoding, and a dict of only those is dumped as it is."""
    for v in props.values():
        t = type(v)
        if not (t is str or t is Int or t is bool or (t is float and v - v == 0.0)):
            return orjson.dumps({k: encode_value(v) for k, v in props.items()}).decode()
    return orjson.dumps(props).decode()


def decode_edge_props(raw: str | bytes | None) -> dict[str, Any]:
    if not raw:
        return {}
    out = orjson.loads(raw)
    for k, v in out.items():
        t = type(v)
        if t is dict or (t is int and not (INT_MIN <= v <= INT_MAX)):
            out[k] = decode_value(v)
    return out
