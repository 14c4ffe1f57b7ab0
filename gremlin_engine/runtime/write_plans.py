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
from itertools import repeat
from math import isfinite
from operator import attrgetter, getitem
from typing import Any

import orjson

from gremlin_engine.runtime.schema_bridge import edge_label_links
from gremlin_engine.schema.coercion import coercer
from gremlin_engine.schema.model import (
    Cardinality,
    DataType,
    EdgeLabel,
    EdgeLabelType,
    IdStrategy,
    VertexLabel,
)
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import INT_MAX, INT_MIN, Int
from gremlin_engine.structure.values import encode_value
from gremlin_engine.traversal.compare import equals


class Fallback(Exception):
    """This element needs the reference (one-at-a-time) rules."""


_AUTOMATIC = (IdStrategy.AUTOMATIC, IdStrategy.DEFAULT)


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


def _raw_column(data_type: str, col: list[Any]) -> list[Any] | None:
    """A `raw` key's values for a whole batch, coerced column-wise exactly as its plan's
    coercer would coerce each (`_exact_text`, `_finite_double`, `coercion.coercer` for INT
    and BOOLEAN); None when any value would need more (the row path decides then)."""
    types = set(map(type, col))
    if data_type == "TEXT":
        return col if types == _STR else None
    if data_type == "DOUBLE":
        if not types <= _FLOAT_INT:
            return None
        if types != _FLOAT:
            try:
                col = list(map(float, col))
            except OverflowError:
                return None
        return col if all(map(isfinite, col)) else None
    if data_type == "INT":
        if types <= _INTS and INT_MIN <= min(col) and max(col) <= INT_MAX:
            return list(map(Int, col))
        return None
    if data_type == "BOOLEAN":
        return col if types == _BOOL else None
    return None


_STR = {str}
_FLOAT = {float}
_FLOAT_INT = {float, int}
_INTS = {int, Int}
_BOOL = {bool}
_DICT = {dict}


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


def _pairs(properties: Any) -> Any:
    """The (key, value) pairs of a spec's properties: a dict's items (a REST item's JSON
    object), or the given sequence when every entry is a plain pair."""
    if type(properties) is dict:
        return properties.items()
    for p in properties:
        if len(p) != 2:
            raise Fallback
    return properties


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

    __slots__ = (
        "label", "keys", "strategy", "pk_parts", "pk_text", "id_prefix", "needed", "needed_loading", "orders", "raw_names",
        "shapes",
    )

    def __init__(self, schema: Any, vl: VertexLabel) -> None:
        self.label = vl
        self.keys = _key_plans(schema, vl)
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
        for key, value in properties.items() if type(properties) is dict else _pairs(properties):
            kp = keys.get(key)
            if kp is None or value is None or type(key) is not str:
                raise Fallback
            if not kp.single:
                return self._prepare_multi(vid, properties, loading, graph_mode)
            flat[key] = kp.coerce(value)  # may raise: the reference path raises it again, in order
        for k in self.needed_loading if loading else self.needed:
            if k not in flat:
                raise Fallback
        if self.pk_text is not None:  # one TEXT primary key: `_key_name` inline
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
            wanted = _key_order(given, keys, self.orders)
            shape = self.shapes[given] = (wanted, self.raw_names.issuperset(given))
        if shape[0] is not None:
            flat = {k: flat[k] for k in shape[0]}
        if shape[1]:
            return self.label, vid, flat, orjson.dumps(flat).decode()
        return self.label, vid, flat, orjson.dumps({k: encode_value(x) for k, x in flat.items()}).decode()

    def prepare_columns(
        self, ids: Sequence[Any], props: Sequence[Any], loading: bool
    ) -> tuple[list[str], list[dict[str, Any]], list[str]] | None:
        """`prepare_row` for a whole batch of a label with one TEXT primary key, column by
        column: (vertex ids, flat values in key-id order, stored texts), what `prepare_row`
        gives each element, or None when any element needs `prepare_row`.

        Covered: no id given, every element's properties a dict with the same keys, all of
        them `raw`, the required ones among them, every value coerced column-wise, every
        primary key value starting above U+0003 (`_key_part` inline). A REST vertex batch
        of such a label; anything else is None."""
        pk = self.pk_text
        if pk is None or ids.count(None) != len(ids):
            return None
        columns = _raw_columns(self.keys, props)
        if columns is None:
            return None
        given, cols = columns
        if pk not in given or not set(given).issuperset(self.needed_loading if loading else self.needed):
            return None
        names_col = cols[given.index(pk)]
        if min(names_col) < "\u0004":  # empty, or starting at or below U+0003
            return None
        if len(given) > 1:
            wanted = _key_order(given, self.keys, self.orders)
            if wanted is not None:
                cols = [cols[given.index(k)] for k in wanted]
                given = wanted
        values = _dicts(given, cols, len(props))
        texts = list(map(bytes.decode, map(orjson.dumps, values)))
        prefix = self.id_prefix
        joined = "".join(names_col)
        if "!" in joined or ":" in joined:
            vids = [prefix + n.replace("!", "`!").replace(":", "`:") for n in names_col]
        else:
            vids = [prefix + n for n in names_col]
        return vids, values, texts

    def _prepare_multi(
        self, vid: Any, properties: Sequence[tuple[Any, ...]] | dict[str, Any], loading: bool, graph_mode: str
    ) -> tuple[VertexLabel, Any, dict[str, list[Any]], None]:
        """`prepare_row` for an element with a LIST/SET key (values kept as lists)."""
        keys = self.keys
        values: dict[str, list[Any]] = {}
        for key, value in _pairs(properties):
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
        return self.label, vid, _in_key_order(values, keys, self.orders), None

    def _vertex_id(self, vid: Any, values: dict[str, Any], flat: bool, graph_mode: str) -> Any:
        """The element's id by the label's strategy (`values` flat or lists per key)."""
        strategy = self.strategy
        if strategy == IdStrategy.PRIMARY_KEY:
            if vid is not None:
                raise Fallback
            name = _key_name(self.pk_parts, values, flat)
            vid = self.id_prefix + (name.replace(":", "`:") if ":" in name else name)
        elif strategy in _AUTOMATIC:
            if vid is not None:
                if graph_mode not in ("RESTORING", "MERGING"):
                    raise Fallback
                vid = idc.customized_vertex_id(vid, "CUSTOMIZE_NUMBER", self.label.name)
        else:
            vid = idc.customized_vertex_id(vid, strategy.value, self.label.name)
        return vid


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
        for key, value in properties.items() if type(properties) is dict else _pairs(properties):
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
            sort_values = _key_name(self.sort_parts, values, True)
            middle = self.id_middle + (sort_values.replace(">", "`>") if ">" in sort_values else sort_values)
        else:
            sort_values, middle = "", self.id_middle
        out_part = ends.get(out_v.key) or _end_part(out_v, ends)  # type: ignore[arg-type]
        in_part = ends.get(in_v.key) or _end_part(in_v, ends)  # type: ignore[arg-type]
        if len(values) > 1:
            values = _in_key_order(values, keys, self.orders)
        return (
            self.label, out_part + middle + ">" + in_part, sort_values, values, out_v, in_v,
            orjson.dumps(values).decode() if raw else None,
        )


    def prepare_columns(
        self, outs: list[Vertex], ins: list[Vertex], props: Sequence[Any], loading: bool
    ) -> tuple[list[str], list[dict[str, Any]], list[str]] | None:
        """`prepare_row` for a whole batch, column by column: (edge ids, properties in key-id
        order, stored texts), the same values `prepare_row` gives each element, or None
        when any element needs `prepare_row` (the caller then takes that path for all).

        Covered: every pair of end labels allowed, no sort keys, every element's properties
        a dict with the same keys in the same order, all of them `raw` keys, the required
        ones among them, every value coerced column-wise (`_raw_column`). That is a REST edge
        batch; anything else is None."""
        out_ids = list(map(_ID, outs))
        in_ids = list(map(_ID, ins))
        if _plain_end_ids(out_ids, in_ids):
            return self.prepare_id_columns(out_ids, in_ids, list(map(_LABEL, outs)), list(map(_LABEL, ins)), props, loading)
        columns = self._value_columns(list(map(_LABEL, outs)), list(map(_LABEL, ins)), props, loading)
        if columns is None:
            return None
        middle = self.id_middle + ">"
        parts: dict[int, str] = {}
        eids = [_end_part(o, parts) + middle + _end_part(i, parts) for o, i in zip(outs, ins, strict=True)]
        return eids, columns[0], columns[1]

    def prepare_id_columns(
        self, out_ids: list[str], in_ids: list[str], out_labels: list[str], in_labels: list[str], props: Sequence[Any],
        loading: bool,
    ) -> tuple[list[str], list[dict[str, Any]], list[str]] | None:
        """`prepare_columns` from the end vertices' ids and labels alone, for ends whose ids
        are strings without a `>` (`_plain_end_ids`: an end's id part is `S` + its id, no
        escape, no storage key needed). The prepare phase of a REST edge batch calls it
        before any vertex is looked up (`runtime/batch_prepare.py`): the labels are the ones
        the items name, which the write phase then checks against the vertices found."""
        columns = self._value_columns(out_labels, in_labels, props, loading)
        if columns is None:
            return None
        middle = self.id_middle + ">S"
        eids = [f"S{o}{middle}{i}" for o, i in zip(out_ids, in_ids, strict=True)]
        return eids, columns[0], columns[1]

    def _value_columns(
        self, out_labels: list[str], in_labels: list[str], props: Sequence[Any], loading: bool
    ) -> tuple[list[dict[str, Any]], list[str]] | None:
        """(properties in key-id order, stored texts) of a batch `prepare_columns` covers,
        else None."""
        if self.sort_parts or not _links_allow(self.links, out_labels, in_labels):
            return None
        found = _raw_columns(self.keys, props)
        if found is None:
            return None
        given, columns = found
        keys = self.keys
        if not set(given).issuperset(self.needed_loading if loading else self.needed):
            return None
        names = given
        if len(given) > 1:
            wanted = _key_order(given, keys, self.orders)
            if wanted is not None:
                columns = [columns[given.index(k)] for k in wanted]
                names = wanted
        values = _dicts(names, columns, len(props))
        return values, list(map(bytes.decode, map(orjson.dumps, values)))


def _plain_end_ids(out_ids: list[Any], in_ids: list[Any]) -> bool:
    """Every end id a string without `>`: its edge-id part is `S` + the id, unescaped."""
    return (
        set(map(type, out_ids)) == _STR == set(map(type, in_ids))
        and ">" not in "".join(out_ids) and ">" not in "".join(in_ids)
    )


_LABEL = attrgetter("label")
_ID = attrgetter("id")


def _raw_columns(keys: dict[str, KeyPlan], props: Sequence[Any]) -> tuple[tuple[str, ...], list[list[Any]]] | None:
    """(the keys, their coerced values column by column) of a batch whose every element's
    properties are a dict with the same keys, all of them known `raw` keys whose values
    `_raw_column` takes; None otherwise."""
    if set(map(type, props)) != _DICT or len(set(map(len, props))) != 1:
        return None
    given = tuple(props[0])  # every dict has as many keys, each of these (below): the same keys
    columns = []
    try:
        for key in given:
            kp = keys.get(key)
            if kp is None or not kp.raw or type(key) is not str:
                return None
            col = _raw_column(kp.data_type, list(map(getitem, props, repeat(key))))
            if col is None:
                return None
            columns.append(col)
    except KeyError:  # some element has other keys
        return None
    return given, columns


def _links_allow(links: set[tuple[str, str]], out_labels: list[str], in_labels: list[str]) -> bool:
    """Every (out label, in label) pair of the batch is among `links` (one label each side,
    the usual batch, is one test)."""
    if all((a, b) in links for a in set(out_labels) for b in set(in_labels)):
        return True
    return links.issuperset(zip(out_labels, in_labels, strict=True))


def _dicts(names: tuple[str, ...], columns: list[list[Any]], n: int) -> list[dict[str, Any]]:
    """One dict per row of `columns` (keys `names`, in that order): the row dicts of a batch."""
    if len(names) == 1:
        (k,) = names
        return [{k: v} for v in columns[0]]
    if len(names) == 2:
        k0, k1 = names
        return [{k0: a, k1: b} for a, b in zip(*columns, strict=True)]
    if len(names) == 3:
        k0, k1, k2 = names
        return [{k0: a, k1: b, k2: c} for a, b, c in zip(*columns, strict=True)]
    if not names:
        return [{} for _ in range(n)]
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def _in_key_order(
    values: dict[str, Any], keys: dict[str, KeyPlan], orders: dict[tuple[str, ...], tuple[str, ...] | None]
) -> dict[str, Any]:
    """`values` with its keys in property-key id order (the order rows are written in).
    `orders` (per plan) maps a given key order to the sorted one, None when it is sorted
    already: the items of a batch nearly always list their keys alike."""
    if len(values) < 2:
        return values
    wanted = _key_order(tuple(values), keys, orders)
    return values if wanted is None else {k: values[k] for k in wanted}


def _key_order(
    given: tuple[str, ...], keys: dict[str, KeyPlan], orders: dict[tuple[str, ...], tuple[str, ...] | None]
) -> tuple[str, ...] | None:
    """The key-id order of the `given` keys, None when it is that already (`orders` caches)."""
    try:
        return orders[given]
    except KeyError:
        ordered = tuple(sorted(given, key=lambda k: keys[k].order))
        wanted = orders[given] = None if ordered == given else ordered
        return wanted


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
