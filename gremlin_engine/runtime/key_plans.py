"""The per-key pieces of write plans: key plans, their coercers, key order and id parts.

`runtime/write_plans.py` builds one plan per label and batch; what it needs of each
property key (its coercer, cardinality and position), how a row's keys are put in
property-key id order, and how primary/sort key values and end vertices become parts of an
element id are the same for vertex and edge plans and for the column lanes
(`runtime/column_lanes.py`), so they live here. Anything a plan cannot settle raises
`Fallback`: the caller hands that element to the reference path, which answers it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gremlin_engine.schema.coercion import coercer
from gremlin_engine.schema.model import Cardinality, DataType, EdgeLabel, VertexLabel
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Vertex


class Fallback(Exception):
    """This element needs the reference (one-at-a-time) rules."""


#: single-valued key types whose plan values are stored as they are: `encode_value` of the
#: value is the value itself (exact str, Int, bool, finite float), so a row of such keys is
#: one `orjson.dumps` of the values
_RAW_TYPES = (DataType.TEXT, DataType.INT, DataType.BOOLEAN, DataType.DOUBLE)


class KeyPlan:
    """One property key of a label: its coercer, cardinality and output position.

    `raw` keys coerce only to values that are their own stored form; any other input (a str
    subclass for TEXT, NaN for DOUBLE...) is `Fallback`, which the reference path answers."""

    __slots__ = ("name", "order", "single", "is_list", "coerce", "data_type", "raw")

    def __init__(self, pk: Any) -> None:
        self.name = pk.name
        self.order = pk.id
        self.single = pk.cardinality is Cardinality.SINGLE
        self.is_list = pk.cardinality is Cardinality.LIST
        self.coerce = coercer(pk)
        self.data_type = pk.data_type.value
        self.raw = self.single and pk.data_type in _RAW_TYPES
        if self.raw and pk.data_type is DataType.TEXT:
            self.coerce = _exact_text
        elif self.raw and pk.data_type is DataType.DOUBLE:
            self.coerce = _finite_double


def _exact_text(value: Any) -> str:
    if type(value) is str:
        return value
    raise Fallback


def _finite_double(value: Any) -> float:
    tv = type(value)
    if tv is float:
        if value - value == 0.0:  # NaN and the infinities are stored tagged
            return value  # type: ignore[no-any-return]
        raise Fallback
    if tv is int:
        return float(value)
    raise Fallback


def pairs(properties: Any) -> Any:
    """The (key, value) pairs of a spec's properties: a dict's items (a REST item's JSON
    object), or the given sequence when every entry is a plain pair."""
    if type(properties) is dict:
        return properties.items()
    for p in properties:
        if len(p) != 2:
            raise Fallback
    return properties


def key_plans(schema: Any, label: VertexLabel | EdgeLabel) -> dict[str, KeyPlan]:
    """Plans for the label's keys that exist; an absent one is the reference path's error."""
    out = {}
    for name in label.properties:
        pk = schema.property_key(name)
        if pk is not None:
            out[name] = KeyPlan(pk)
    return out


def _key_part(value: Any, data_type: str) -> str:
    """`ids.encode_key_value` for one primary/sort key value, inline for plain text."""
    if data_type == "TEXT" and type(value) is str and value and value[0] > "\u0003":
        return value
    return idc.encode_key_value(value, data_type)


def key_name(parts: Sequence[tuple[str, str]], values: dict[str, Any], single: bool) -> str:
    """`ids.primary_key_name` of the given keys' (first) values."""
    encoded = []
    for name, data_type in parts:
        value = values[name]
        if not single:
            value = value[0]
        part = _key_part(value, data_type)
        encoded.append(part.replace("!", "`!") if "!" in part else part)
    return "!".join(encoded)


def in_key_order(
    values: dict[str, Any], keys: dict[str, KeyPlan], orders: dict[tuple[str, ...], tuple[str, ...] | None]
) -> dict[str, Any]:
    """`values` with its keys in property-key id order (the order rows are written in).
    `orders` (per plan) maps a given key order to the sorted one, None when it is sorted
    already: the items of a batch nearly always list their keys alike."""
    if len(values) < 2:
        return values
    wanted = key_order(tuple(values), keys, orders)
    return values if wanted is None else {k: values[k] for k in wanted}


def key_order(
    given: tuple[str, ...], keys: dict[str, KeyPlan], orders: dict[tuple[str, ...], tuple[str, ...] | None]
) -> tuple[str, ...] | None:
    """The key-id order of the `given` keys, None when it is that already (`orders` caches)."""
    try:
        return orders[given]
    except KeyError:
        ordered = tuple(sorted(given, key=lambda k: keys[k].order))
        wanted = orders[given] = None if ordered == given else ordered
        return wanted


def end_part(v: Vertex, cache: dict[int, str]) -> str:
    """A vertex's part of an edge id (`S1:marko`), escaped as `ids.format_edge_id` does."""
    part = cache.get(v.key)  # type: ignore[arg-type]
    if part is None:
        vid = v.id
        if type(vid) is str:
            part = "S" + vid
        else:
            part = idc.id_prefix(vid) + (str(int(vid)) if isinstance(vid, int) else str(vid))
        if ">" in part:
            part = part.replace(">", "`>")
        cache[v.key] = part  # type: ignore[index]
    return part
