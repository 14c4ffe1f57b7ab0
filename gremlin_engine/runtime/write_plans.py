"""Per-label write plans: the strict-mode checks of a batch insert, resolved once per label.

`WritesMixin._prepare_vertex_strict` / `_prepare_edge_strict` are the reference rules for
one element: they look up the label, each key, its coercion, the required keys and the id
strategy on every call, through three layers of schema calls. A REST batch (500 elements,
usually one label and the same few keys) repeats every one of those lookups 500 times, and
that was most of a batch load's CPU. A plan looks them up once per label and batch, so the
per-element work is a dict lookup and a specialised coercer per property.

The plans only cover the common, valid case. Anything else (an unknown label or key, a
null, a meta-property, `T.id` among the properties, a missing required key, a value the
coercer refuses...) raises `Fallback`, and the caller hands that element to the reference
path, which raises exactly the error (or gives exactly the result) it always did. Plans
therefore never need their own error messages, and cannot drift from the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gremlin_engine.runtime.schema_bridge import edge_label_links
from gremlin_engine.schema.coercion import coercer
from gremlin_engine.schema.model import Cardinality, EdgeLabel, EdgeLabelType, IdStrategy, VertexLabel
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.traversal.compare import equals


class Fallback(Exception):
    """This element needs the reference (one-at-a-time) rules."""


_AUTOMATIC = (IdStrategy.AUTOMATIC, IdStrategy.DEFAULT)


class KeyPlan:
    """One property key of a label: its coercer, cardinality and output position."""

    __slots__ = ("name", "order", "single", "is_list", "coerce", "data_type")

    def __init__(self, pk: Any) -> None:
        self.name = pk.name
        self.order = pk.id
        self.single = pk.cardinality is Cardinality.SINGLE
        self.is_list = pk.cardinality is Cardinality.LIST
        self.coerce = coercer(pk)
        self.data_type = pk.data_type.value


def _key_plans(schema: Any, label: VertexLabel | EdgeLabel) -> dict[str, KeyPlan]:
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


def _key_name(parts: Sequence[tuple[str, str]], values: dict[str, Any], single: bool) -> str:
    """`ids.primary_key_name` of the given keys' (first) values."""
    encoded = []
    for name, data_type in parts:
        value = values[name]
        if not single:
            value = value[0]
        part = _key_part(value, data_type)
        encoded.append(part.replace("!", "`!") if "!" in part else part)
    return "!".join(encoded)


class _LabelPlan:
    """What vertex and edge plans share: the plan of a label name, or None when only the
    reference path can answer (`Fallback` while building means the same)."""

    __slots__ = ()

    @classmethod
    def build(cls, schema: Any, label: Any) -> Any:
        if type(label) is not str:
            return None
        found = cls.lookup(schema, label)
        if found is None:
            return None
        try:
            return cls(schema, found)  # type: ignore[call-arg]
        except Fallback:
            return None

    @classmethod
    def lookup(cls, schema: Any, label: str) -> Any:
        raise NotImplementedError

    @staticmethod
    def needed_keys(label: Any, id_keys: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(keys a LOADING-mode element needs: its id parts; keys any other element needs: id
        parts and the non-nullable properties)."""
        required = [k for k in label.properties if k not in label.nullable_keys]
        return tuple(id_keys), tuple(dict.fromkeys([*id_keys, *required]))


class VertexPlan(_LabelPlan):
    """The strict-mode vertex rules of one label (see `WritesMixin._prepare_vertex_strict`)."""

    __slots__ = ("label", "keys", "strategy", "pk_parts", "id_prefix", "needed", "needed_loading", "orders")

    def __init__(self, schema: Any, vl: VertexLabel) -> None:
        self.label = vl
        self.keys = _key_plans(schema, vl)
        self.orders: dict[tuple[str, ...], tuple[str, ...] | None] = {}
        self.strategy = vl.id_strategy
        self.pk_parts: tuple[tuple[str, str], ...] = ()
        if self.strategy == IdStrategy.PRIMARY_KEY:
            if any(k not in self.keys for k in vl.primary_keys):
                raise Fallback
            self.pk_parts = tuple((k, self.keys[k].data_type) for k in vl.primary_keys)
        self.id_prefix = f"{int(vl.id)}:"
        self.needed_loading, self.needed = self.needed_keys(vl, vl.primary_keys)

    @classmethod
    def lookup(cls, schema: Any, label: str) -> VertexLabel | None:
        return schema.vertex_label(label)

    def prepare(
        self, vid: Any, properties: Sequence[tuple[Any, ...]], loading: bool, graph_mode: str
    ) -> tuple[Any, dict[str, list[Any]]]:
        """(vertex id or None for AUTOMATIC, values per key in key-id order); `Fallback`
        for anything but a plain valid element."""
        keys = self.keys
        values: dict[str, list[Any]] = {}
        for p in properties:
            if len(p) != 2:
                raise Fallback
            key, value = p
            kp = keys.get(key)
            if kp is None or value is None:
                raise Fallback
            x = kp.coerce(value)  # may raise: the reference path raises it again, in order
            if kp.single:
                values[key] = [x]
            else:
                have = values.setdefault(key, [])
                for item in x:
                    if kp.is_list or all(not equals(item, h) for h in have):
                        have.append(item)
        for k in self.needed_loading if loading else self.needed:
            if k not in values:
                raise Fallback
        strategy = self.strategy
        if strategy == IdStrategy.PRIMARY_KEY:
            if vid is not None:
                raise Fallback
            name = _key_name(self.pk_parts, values, False)
            vid = self.id_prefix + (name.replace(":", "`:") if ":" in name else name)
        elif strategy in _AUTOMATIC:
            if vid is not None:
                if graph_mode not in ("RESTORING", "MERGING"):
                    raise Fallback
                vid = idc.customized_vertex_id(vid, "CUSTOMIZE_NUMBER", self.label.name)
        else:
            vid = idc.customized_vertex_id(vid, strategy.value, self.label.name)
        return vid, _in_key_order(values, keys, self.orders)


class EdgePlan(_LabelPlan):
    """The strict-mode edge rules of one label (see `WritesMixin._prepare_edge_strict`)."""

    __slots__ = ("label", "keys", "links", "sort_parts", "id_middle", "needed", "needed_loading", "orders")

    def __init__(self, schema: Any, el: EdgeLabel) -> None:
        self.label = el
        self.keys = _key_plans(schema, el)
        self.orders: dict[tuple[str, ...], tuple[str, ...] | None] = {}
        self.links = edge_label_links(el)
        if any(k not in self.keys for k in el.sort_keys):
            raise Fallback
        self.sort_parts = tuple((k, self.keys[k].data_type) for k in el.sort_keys)
        parent_id = el.id
        if el.edgelabel_type == EdgeLabelType.SUB and el.parent_label:
            parent = schema.edge_label(el.parent_label)
            parent_id = parent.id if parent is not None else el.id
        self.id_middle = f">{int(parent_id)}>{int(el.id)}>"
        self.needed_loading, self.needed = self.needed_keys(el, el.sort_keys)

    @classmethod
    def lookup(cls, schema: Any, label: str) -> EdgeLabel | None:
        el = schema.edge_label(label)
        return None if el is None or el.edgelabel_type == EdgeLabelType.PARENT else el

    def prepare(
        self, out_v: Vertex, in_v: Vertex, properties: Sequence[tuple[Any, ...]], loading: bool,
        ends: dict[int, str],
    ) -> tuple[str, str, dict[str, Any]]:
        """(edge id, sort values, properties in key-id order) of an edge between resolved
        vertices; `ends` caches each end vertex's escaped id part by storage key."""
        if (out_v.label, in_v.label) not in self.links:
            raise Fallback
        keys = self.keys
        values: dict[str, Any] = {}
        for p in properties:
            if len(p) != 2:
                raise Fallback
            key, value = p
            kp = keys.get(key)
            if kp is None or value is None:
                raise Fallback
            x = kp.coerce(value)
            values[key] = x if kp.single else list(x)
        for k in self.needed_loading if loading else self.needed:
            if k not in values:
                raise Fallback
        sort_values = _key_name(self.sort_parts, values, True) if self.sort_parts else ""
        middle = self.id_middle + (sort_values.replace(">", "`>") if ">" in sort_values else sort_values)
        eid = _end_part(out_v, ends) + middle + ">" + _end_part(in_v, ends)
        return eid, sort_values, _in_key_order(values, keys, self.orders)


def _in_key_order(
    values: dict[str, Any], keys: dict[str, KeyPlan], orders: dict[tuple[str, ...], tuple[str, ...] | None]
) -> dict[str, Any]:
    """`values` with its keys in property-key id order (the order rows are written in).
    `orders` (per plan) maps a given key order to the sorted one, None when it is sorted
    already: the items of a batch nearly always list their keys alike."""
    if len(values) < 2:
        return values
    given = tuple(values)
    try:
        wanted = orders[given]
    except KeyError:
        ordered = tuple(sorted(given, key=lambda k: keys[k].order))
        wanted = orders[given] = None if ordered == given else ordered
    return values if wanted is None else {k: values[k] for k in wanted}


def _end_part(v: Vertex, cache: dict[int, str]) -> str:
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
