"""HugeGraph's REST JSON shapes for engine values.

One function, `to_json(value)`, turns any engine result (elements, paths, trees, maps,
Java-typed numbers, dates, UUIDs, schema objects) into plain JSON-ready Python data, in the
shapes HugeGraph 1.x emits both from its REST element endpoints and inside `/gremlin`
results (HugeGraph registers the same compact serializers in its Gremlin Server):

* Vertex: `{"id", "label", "type": "vertex", "properties": {key: value}}` — a multi-valued
  (list/set cardinality) key shows a JSON list.
* Edge: `{"id", "label", "type": "edge", "outV", "outVLabel", "inV", "inVLabel",
  "properties"}` — field order as HugeGraph's.
* VertexProperty: `{"id", "value", "label"}`; edge Property: `{"key", "value"}`.
* Path: `{"labels": [[...]...], "objects": [...]}`; Tree: `[{"key", "value": [...]}]`.
* Map keys become strings (an element key shows its id); dates
  `"yyyy-MM-dd HH:mm:ss.SSS"` in the server's local time zone; UUIDs strings; BLOBs base64;
  BigInteger/BigDecimal exact JSON numbers.
* Anything with `to_json()` (schema elements) serialises as that.

The vertex and edge REST endpoints call `vertex_json`/`edge_json` directly.
"""

from __future__ import annotations

import base64
import datetime as _dt
import decimal
import enum
import math
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import orjson

from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt
from gremlin_engine.traversal.values import Subgraph

#: `cardinality_of(key)` -> "SINGLE" | "LIST" | "SET" (or None): makes a one-valued
#: list/set property show as a one-element JSON list, as HugeGraph does.
CardinalityOf = Callable[[str], Any]


def id_json(value: Any) -> Any:
    """Ids: numbers as JSON numbers, everything else (strings, UUIDs, edge ids) as strings."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return value
    return str(value)


def id_key(value: Any) -> str:
    """An id as a JSON object key (`"1:marko"`, `"123"`)."""
    return str(id_json(value))


def format_date(value: _dt.datetime | _dt.date) -> str:
    if isinstance(value, _dt.datetime):
        local = value.astimezone() if value.tzinfo is not None else value
        return local.strftime("%Y-%m-%d %H:%M:%S.") + f"{local.microsecond // 1000:03d}"
    return value.strftime("%Y-%m-%d 00:00:00.000")


_MULTI: dict[Any, bool] = {}  # cardinality value -> shown as a JSON list


def _is_multi(card: Any) -> bool:
    multi = _MULTI.get(card)
    if multi is None:
        multi = str(getattr(card, "value", card) or "").upper() in ("LIST", "SET")
        if len(_MULTI) < 64:
            _MULTI[card] = multi
    return multi


def vertex_properties_json(v: Vertex, cardinality_of: CardinalityOf | None = None,
                           multi: dict[str, bool] | None = None) -> dict[str, Any]:
    """`multi`: a dict kept across the vertices of one answer, remembering per key whether
    its cardinality shows a single value as a list (one schema lookup per key, not per
    vertex: a 500-vertex list answer's properties ~1.6 -> ~0.6 ms)."""
    out: dict[str, Any] = {}
    props = v._props or {}
    for key, vps in props.items():
        if len(vps) == 1:
            if cardinality_of is None:
                many = False
            elif multi is None:
                many = _is_multi(cardinality_of(key))
            else:
                many = multi.get(key)  # type: ignore[assignment]
                if many is None:
                    many = multi[key] = _is_multi(cardinality_of(key))
            if not many:
                value = vps[0].value
                t = type(value)
                # what to_json gives, without its type walk: strings and 64-bit ints as they are
                out[key] = value if t is str or (t is int and _LOW <= value < _HIGH) else to_json(value)
                continue
        out[key] = [to_json(vp.value) for vp in vps]
    return out


_LOW, _HIGH = -(2**63), 2**64  # the ints `to_json` passes on as they are (others: exact text)


def vertex_json(v: Vertex, cardinality_of: CardinalityOf | None = None,
                multi: dict[str, bool] | None = None) -> dict[str, Any]:
    return {
        "id": id_json(v.id),
        "label": v.label,
        "type": "vertex",
        "properties": vertex_properties_json(v, cardinality_of, multi),
    }


def edge_json(e: Edge) -> dict[str, Any]:
    props = e._props or {}
    return {
        "id": id_json(e.id),
        "label": e.label,
        "type": "edge",
        "outV": id_json(e.out_v.id),
        "outVLabel": e.out_v.label,
        "inV": id_json(e.in_v.id),
        "inVLabel": e.in_v.label,
        "properties": {k: to_json(v) for k, v in props.items()},
    }


def _key(k: Any) -> str:
    if isinstance(k, str):
        return k
    if isinstance(k, (Vertex, Edge)):
        return id_key(k.id)
    if isinstance(k, enum.Enum):
        return str(k.value)
    if isinstance(k, bool):
        return str(k).lower()
    if isinstance(k, int):
        return str(int(k))
    if isinstance(k, (float, decimal.Decimal)):
        return str(k) if not isinstance(k, float) else repr(float(k))
    if isinstance(k, (_dt.datetime, _dt.date)):
        return format_date(k)
    if k is None:
        return "null"
    j = to_json(k)
    return j if isinstance(j, str) else orjson.dumps(j).decode()


def _is_tree(value: Any) -> bool:
    return type(value).__name__ == "Tree" and isinstance(value, Mapping)


def tree_json(tree: Mapping[Any, Any]) -> list[dict[str, Any]]:
    return [{"key": to_json(k), "value": tree_json(sub) if isinstance(sub, Mapping) else to_json(sub)}
            for k, sub in tree.items()]


def to_json(value: Any, cardinality_of: CardinalityOf | None = None) -> Any:
    """Any engine value as JSON-ready data (see the module docstring for the shapes)."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if isinstance(value, BigInt) or not -(2**63) <= value < 2**64:
            return orjson.Fragment(str(int(value)))
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, decimal.Decimal):
        return orjson.Fragment(str(value)) if value.is_finite() else None
    if isinstance(value, Vertex):
        return vertex_json(value, cardinality_of)
    if isinstance(value, Edge):
        return edge_json(value)
    if isinstance(value, VertexProperty):
        return {"id": id_json(value.id), "value": to_json(value.value), "label": value.key}
    if isinstance(value, Property):
        return {"key": value.key, "value": to_json(value.value)}
    if isinstance(value, Path):
        return {
            "labels": [sorted(labels) for labels in value.labels],
            "objects": [to_json(o, cardinality_of) for o in value.objects],
        }
    if _is_tree(value):
        return tree_json(value)
    if isinstance(value, Mapping):
        return {_key(k): to_json(v, cardinality_of) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v, cardinality_of) for v in value]
    if isinstance(value, (_dt.datetime, _dt.date)):
        return format_date(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, enum.Enum):
        return value.name if not isinstance(value.value, str) else value.value
    as_json = getattr(value, "to_json", None)
    if callable(as_json):
        return to_json(as_json())
    if isinstance(value, Subgraph):
        return {"vertices": to_json(value.vertices, cardinality_of), "edges": to_json(value.edges, cardinality_of)}
    iterate = getattr(value, "__iter__", None)
    if iterate is not None:  # BulkSet and other engine collections
        return [to_json(v, cardinality_of) for v in value]
    return str(value)


def dumps(value: Any) -> bytes:
    """`to_json` then orjson, in one call."""
    return orjson.dumps(to_json(value), option=orjson.OPT_NON_STR_KEYS)
