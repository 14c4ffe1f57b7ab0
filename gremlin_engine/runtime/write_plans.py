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

What every plan needs of a key (`KeyPlan`, key order, id parts) is in `runtime/key_plans.py`;
the whole-batch column lanes (`prepare_columns`, `prepare_id_columns`) are mixed in from
`runtime/column_lanes.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from gremlin_engine.runtime.column_lanes import EdgeColumns, VertexColumns
from gremlin_engine.runtime.key_plans import (
    Fallback,
    end_part,
    in_key_order,
    key_name,
    key_order,
    key_plans,
    pairs,
)
from gremlin_engine.runtime.schema_bridge import edge_label_links
from gremlin_engine.schema.model import EdgeLabel, EdgeLabelType, IdStrategy, VertexLabel
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.values import encode_value
from gremlin_engine.traversal.compare import equals

__all__ = ["EdgePlan", "Fallback", "VertexPlan"]

_AUTOMATIC = (IdStrategy.AUTOMATIC, IdStrategy.DEFAULT)


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


class VertexPlan(_LabelPlan, VertexColumns):
    """The strict-mode vertex rules of one label (see `WritesMixin._prepare_vertex_strict`)."""

    __slots__ = (
        "label", "keys", "strategy", "pk_parts", "pk_text", "id_prefix", "needed", "needed_loading", "orders", "raw_names",
        "shapes",
    )

    def __init__(self, schema: Any, vl: VertexLabel) -> None:
        self.label = vl
        self.keys = key_plans(schema, vl)
        self.orders: dict[tuple[str, ...], tuple[str, ...] | None] = {}
        self.raw_names = frozenset(k for k, kp in self.keys.items() if kp.raw)
        # given key order -> (key-id order or None when it is that already, all keys raw)
        self.shapes: dict[tuple[str, ...], tuple[tuple[str, ...] | None, bool]] = {}
        self.strategy = vl.id_strategy
        self.pk_parts: tuple[tuple[str, str], ...] = ()
        self.pk_text: str | None = None  # the one primary key, when it is a TEXT key
        if self.strategy == IdStrategy.PRIMARY_KEY:
            if any(k not in self.keys for k in vl.primary_keys):
                raise Fallback
            self.pk_parts = tuple((k, self.keys[k].data_type) for k in vl.primary_keys)
            if len(self.pk_parts) == 1 and self.pk_parts[0][1] == "TEXT" and self.keys[self.pk_parts[0][0]].raw:
                self.pk_text = self.pk_parts[0][0]
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
        _vl, vid, values, text = self.prepare_row(vid, properties, loading, graph_mode)
        return vid, ({k: [x] for k, x in values.items()} if text is not None else values)

    def prepare_row(
        self, vid: Any, properties: Sequence[tuple[Any, ...]] | dict[str, Any], loading: bool, graph_mode: str
    ) -> tuple[VertexLabel, Any, dict[str, Any], str | None]:
        """`prepare` for a batch insert; the properties may be a dict (a REST item's JSON
        object). The common element, single-valued keys only, comes back as (label, id,
        flat values key -> value, its row's stored text), the text one `orjson.dumps` when
        every key is `raw`; an element with a LIST/SET key as (label, id, values per key as
        lists, None), its text made when it is written (`encode_vertex_values`)."""
        keys = self.keys
        flat: dict[str, Any] = {}
        for key, value in properties.items() if type(properties) is dict else pairs(properties):
            kp = keys.get(key)
            if kp is None or value is None or type(key) is not str:
                raise Fallback
            if not kp.single:
                return self._prepare_multi(vid, properties, loading, graph_mode)
            flat[key] = kp.coerce(value)  # may raise: the reference path raises it again, in order
        for k in self.needed_loading if loading else self.needed:
            if k not in flat:
                raise Fallback
        if self.pk_text is not None:  # one TEXT primary key: `key_name` inline
            if vid is not None:
                raise Fallback
            name = flat[self.pk_text]
            if not name or name[0] <= "\u0003":
                raise Fallback
            if "!" in name:
                name = name.replace("!", "`!")
            vid = self.id_prefix + (name.replace(":", "`:") if ":" in name else name)
        else:
            vid = self._vertex_id(vid, flat, True, graph_mode)
        given = tuple(flat)
        shape = self.shapes.get(given)
        if shape is None:
            wanted = key_order(given, keys, self.orders)
            shape = self.shapes[given] = (wanted, self.raw_names.issuperset(given))
        if shape[0] is not None:
            flat = {k: flat[k] for k in shape[0]}
        if shape[1]:
            return self.label, vid, flat, orjson.dumps(flat).decode()
        return self.label, vid, flat, orjson.dumps({k: encode_value(x) for k, x in flat.items()}).decode()

    def _prepare_multi(
        self, vid: Any, properties: Sequence[tuple[Any, ...]] | dict[str, Any], loading: bool, graph_mode: str
    ) -> tuple[VertexLabel, Any, dict[str, list[Any]], None]:
        """`prepare_row` for an element with a LIST/SET key (values kept as lists)."""
        keys = self.keys
        values: dict[str, list[Any]] = {}
        for key, value in pairs(properties):
            kp = keys.get(key)
            if kp is None or value is None or type(key) is not str:
                raise Fallback
            x = kp.coerce(value)
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
        vid = self._vertex_id(vid, values, False, graph_mode)
        return self.label, vid, in_key_order(values, keys, self.orders), None

    def _vertex_id(self, vid: Any, values: dict[str, Any], flat: bool, graph_mode: str) -> Any:
        """The element's id by the label's strategy (`values` flat or lists per key)."""
        strategy = self.strategy
        if strategy == IdStrategy.PRIMARY_KEY:
            if vid is not None:
                raise Fallback
            name = key_name(self.pk_parts, values, flat)
            vid = self.id_prefix + (name.replace(":", "`:") if ":" in name else name)
        elif strategy in _AUTOMATIC:
            if vid is not None:
                if graph_mode not in ("RESTORING", "MERGING"):
                    raise Fallback
                vid = idc.customized_vertex_id(vid, "CUSTOMIZE_NUMBER", self.label.name)
        else:
            vid = idc.customized_vertex_id(vid, strategy.value, self.label.name)
        return vid


class EdgePlan(_LabelPlan, EdgeColumns):
    """The strict-mode edge rules of one label (see `WritesMixin._prepare_edge_strict`)."""

    __slots__ = ("label", "keys", "links", "sort_parts", "id_middle", "needed", "needed_loading", "orders")

    def __init__(self, schema: Any, el: EdgeLabel) -> None:
        self.label = el
        self.keys = key_plans(schema, el)
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
        _el, eid, sort_values, values, _o, _i, _text = self.prepare_row(out_v, in_v, properties, loading, ends)
        return eid, sort_values, values

    def prepare_row(
        self, out_v: Vertex, in_v: Vertex, properties: Any, loading: bool, ends: dict[int, str]
    ) -> tuple[EdgeLabel, str, str, dict[str, Any], Vertex, Vertex, str | None]:
        """`prepare` for a batch insert: (label, edge id, sort values, properties in key-id
        order, out vertex, in vertex, the row's stored text or None). The text is one
        `orjson.dumps` when every key is `raw` (each value its own stored form, which is what
        `encode_edge_props` would find), else None (made when the row is written)."""
        if (out_v.label, in_v.label) not in self.links:
            raise Fallback
        keys = self.keys
        values: dict[str, Any] = {}
        raw = True
        for key, value in properties.items() if type(properties) is dict else pairs(properties):
            kp = keys.get(key)
            if kp is None or value is None or type(key) is not str:
                raise Fallback
            if kp.raw:
                values[key] = kp.coerce(value)
            else:
                raw = False
                x = kp.coerce(value)
                values[key] = x if kp.single else list(x)
        for k in self.needed_loading if loading else self.needed:
            if k not in values:
                raise Fallback
        if self.sort_parts:
            sort_values = key_name(self.sort_parts, values, True)
            middle = self.id_middle + (sort_values.replace(">", "`>") if ">" in sort_values else sort_values)
        else:
            sort_values, middle = "", self.id_middle
        out_part = ends.get(out_v.key) or end_part(out_v, ends)  # type: ignore[arg-type]
        in_part = ends.get(in_v.key) or end_part(in_v, ends)  # type: ignore[arg-type]
        if len(values) > 1:
            values = in_key_order(values, keys, self.orders)
        return (
            self.label, out_part + middle + ">" + in_part, sort_values, values, out_v, in_v,
            orjson.dumps(values).decode() if raw else None,
        )
