"""The write half of `GraphAccess`: add, upsert, set and remove properties, drop.

Writes go straight to the current storage transaction (nothing is buffered), keep the
element cache in step (a property set through one reference is seen through every other:
property maps are shared and only ever changed in place), and maintain index entries on
every change. Strict mode applies HugeGraph's rules (`validate.py`) and its upsert semantics:
adding a vertex or edge whose id already exists replaces its properties. Auto mode is
TinkerGraph-like: labels and keys appear on first use, values are stored as given, and a
duplicate user id is an error.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Sequence
from typing import Any

from gremlin_engine.bytecode import CardinalityValue
from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.runtime import validate as chk
from gremlin_engine.runtime.edge_lookup import edge_rows
from gremlin_engine.runtime.reads import ReadsMixin
from gremlin_engine.runtime.schema_bridge import edge_label_links
from gremlin_engine.schema.coercion import coercer
from gremlin_engine.schema.model import Cardinality as KeyCardinality
from gremlin_engine.schema.model import EdgeLabel, EdgeLabelType, IdStrategy
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Element, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Long
from gremlin_engine.structure.values import default_vp_id, encode_edge_props, encode_vertex_props
from gremlin_engine.traversal.compare import equals
from gremlin_engine.traversal.tokens import Cardinality, T
from storage import Lookup, StoreConflict

DEFAULT_VERTEX_LABEL = "vertex"
DEFAULT_EDGE_LABEL = "edge"
_BASE_MS = 1511827200000  # 2017-11-28, HugeGraph's snowflake epoch
_SEQ = itertools.count()

# (key, value, Cardinality | None, meta dict | None)
PropInput = tuple[str, Any, Any, Any]


def _snowflake() -> Long:
    """A fresh AUTOMATIC-style id, used only when the row key is already taken as a user id."""
    return Long(((int(time.time() * 1000) - _BASE_MS) << 22) | (next(_SEQ) & 0x3FFFFF))


def unwrap_cardinality(value: Any, card: Any) -> tuple[Any, Any]:
    """`Cardinality.set('x')` given as a value (mergeV maps, `property(map)`) carries its own
    cardinality: (value, cardinality)."""
    if isinstance(value, CardinalityValue):
        return value.value, value.cardinality
    return value, card


def _norm_props(properties: Sequence[tuple[Any, ...]]) -> tuple[list[PropInput], Any, Any]:
    """Splits `T.id`/`T.label` out of property tuples and pads every tuple to four fields."""
    out: list[PropInput] = []
    id_, label = None, None
    for p in properties:
        key, value = p[0], p[1]
        if key is T.id:
            id_ = value
            continue
        if key is T.label:
            label = value
            continue
        value, card = unwrap_cardinality(value, p[2] if len(p) > 2 else None)
        meta = p[3] if len(p) > 3 else None
        out.append((str(key), value, card, dict(meta) if meta else None))
    return out, id_, label


def _split_meta(meta: dict[Any, Any] | None, keep_nulls: bool = False) -> tuple[Any, dict[str, Any]]:
    """(user-supplied vertex-property id, the remaining meta-properties; null ones only
    where the graph allows null values)."""
    if not meta:
        return None, {}
    vp_id = meta.pop(T.id, None)
    return vp_id, {str(k): v for k, v in meta.items() if keep_nulls or v is not None}


class _Key:
    """One property key of a label, as a write needs it: its coercer (`coercion.coercer`,
    the general `coerce` for anything but the JSON type the key expects, so results and
    messages are the same), cardinality, output position and id-part type."""

    __slots__ = ("pk", "coerce", "single", "is_list", "order", "data_type")

    def __init__(self, pk: Any) -> None:
        self.pk = pk
        self.coerce = coercer(pk)
        self.single = pk.cardinality is KeyCardinality.SINGLE
        self.is_list = pk.cardinality is KeyCardinality.LIST
        self.order = pk.id
        self.data_type = pk.data_type.value


class LabelRules:
    """What the strict write rules need of one vertex or edge label, looked up once per
    schema version (kept on the schema snapshot, `SchemaBridge.derived`) instead of through
    the schema service for every element of a batch: its keys, the keys every element must
    have (id parts first), and the key-id order of each set of keys met so far."""

    __slots__ = ("label", "keys", "needed", "needed_loading", "orders", "parts", "links", "parent_id")

    def __init__(self, schema: Any, label: Any, id_keys: Sequence[str]) -> None:
        self.label = label
        self.keys = {name: _Key(pk) for name in label.properties if (pk := schema.property_key(name)) is not None}
        required = [k for k in label.properties if k not in label.nullable_keys]
        self.needed_loading = tuple(id_keys)
        self.needed = tuple(dict.fromkeys([*id_keys, *required]))
        self.orders: dict[tuple[str, ...], tuple[str, ...]] = {}
        # (name, data type) of the primary / sort keys that exist
        self.parts = tuple((k, self.keys[k].data_type) for k in id_keys if k in self.keys)
        self.links = edge_label_links(label) if isinstance(label, EdgeLabel) else set()
        self.parent_id = label.id
        if isinstance(label, EdgeLabel) and label.edgelabel_type == EdgeLabelType.SUB and label.parent_label:
            parent = schema.edge_label(label.parent_label)
            self.parent_id = parent.id if parent is not None else label.id

    def key(self, schema: Any, name: str) -> _Key:
        """The key `name` of this label, or HugeGraph's error for an unknown or foreign key."""
        found = self.keys.get(name)
        if found is None:
            found = _Key(chk.key_for(schema, self.label, name))
        return found

    def ordered(self, values: dict[str, Any]) -> dict[str, Any]:
        """`values` with its keys in property-key id order (the order rows are written in)."""
        if len(values) < 2:
            return values
        given = tuple(values)
        wanted = self.orders.get(given)
        if wanted is None:
            keys = self.keys
            wanted = tuple(sorted(given, key=lambda k: keys[k].order if k in keys else 1 << 62))
            if len(self.orders) < 64:  # a client may list keys in any order: keep the few usual ones
                self.orders[given] = wanted
        return values if wanted == given else {k: values[k] for k in wanted}


class WritesMixin(ReadsMixin):
    schema_mode: str
    graph_mode: str
    #: whether a null property value is stored (`gremlin.allow_null_property_values=true` on
    #: an auto graph, TinkerPop 3.7's AllowNullPropertyValues); else null removes or skips
    allow_nulls: bool = False

    @property
    def _loading(self) -> bool:
        return self.graph_mode == "LOADING"

    # ---- shared persistence -----------------------------------------------------------------
    def _index_view(self, props: Any, kind: str) -> dict[str, Any]:
        if kind == "edge":
            return props
        return {k: (vps[0].value if len(vps) == 1 else [vp.value for vp in vps]) for k, vps in props.items()}

    def _reindex(self, kind: str, label: str, key: int, props: Any, old_label: str | None = None) -> None:
        for lb in {label, old_label or label}:
            for il in self.schema.index_labels_for(kind, lb):
                self.tx.index.index_remove(il.id, key)
        self._index_add(kind, label, key, props)

    def _index_add(self, kind: str, label: str, key: int, props: Any) -> None:
        if not self.schema.has_indexes(kind, label):
            return
        elem_kind = "v" if kind == "vertex" else "e"
        rows = [(index_id, value, key, elem_kind)
                for index_id, value in self.schema.index_entries(kind, label, self._index_view(props, kind))]
        if rows:
            self.tx.index.index_add_many(rows)

    def _ordered(self, props: dict[str, Any]) -> None:
        """Puts keys in property-key id order, in place (the map may be shared)."""
        items = sorted(props.items(), key=lambda kv: self.schema.key_order(kv[0]))
        if [k for k, _ in items] != list(props):
            props.clear()
            props.update(items)

    def _save_vertex(self, v: Vertex) -> None:
        self.tx.elements.vertex_update(v.key, encode_vertex_props(v._props, v.id))
        if self.schema.has_indexes("vertex", v.label):
            self._reindex("vertex", v.label, v.key, v._props)

    def _save_edge(self, e: Edge) -> None:
        self.tx.elements.edge_update(e.key, encode_edge_props(e._props))
        if self.schema.has_indexes("edge", e.label):
            self._reindex("edge", e.label, e.key, e._props)

    def _canonical(self, el: Element) -> Any:
        """The cached, loaded instance of an element; NotFound when it does not exist."""
        self.load([el])
        if el.key is None:
            kind = "Vertex" if isinstance(el, Vertex) else "Edge"
            raise NotFound(f"{kind} '{el.id}' does not exist")
        cache: dict[int, Any] = self._vertices if isinstance(el, Vertex) else self._edges  # type: ignore[assignment]
        canon = cache.get(el.key)
        if canon is None:
            cache[el.key] = canon = el
        return canon

    # ---- vertices -----------------------------------------------------------------------
    def add_vertex(self, label: str | None, id: Any = None, properties: Sequence[tuple[Any, ...]] = ()) -> Vertex:
        props, tid, tlabel = _norm_props(properties)
        label = label if label is not None else (tlabel or DEFAULT_VERTEX_LABEL)
        id = id if id is not None else tid
        if self.schema.auto:
            return self._add_vertex_auto(label, id, props)
        return self._add_vertex_strict(label, id, props)

    def _add_vertex_strict(self, label: str, id: Any, props: list[PropInput]) -> Vertex:
        vl, vid, values = self._prepare_vertex_strict(self._vertex_rules(label), id, props, self._loading)
        entries = {k: [(None, x, {}) for x in xs] for k, xs in values.items()}
        return self._store_vertex(vl.id, vl.name, vid, entries, upsert=True)

    def _vertex_rules(self, label: str) -> LabelRules:
        """The write rules of vertex label `label`; HugeGraph's error when it is undefined."""
        schema = self.schema
        rules: LabelRules | None = schema.derived(
            ("vertex write", label),
            lambda: None if (vl := schema.vertex_label(label)) is None else LabelRules(schema, vl, vl.primary_keys),
        )
        if rules is None:
            chk.vertex_label_or_fail(schema, label)  # raises
            raise AssertionError(label)
        return rules

    def _edge_rules(self, label: str) -> LabelRules:
        """The write rules of edge label `label`; HugeGraph's error when it is undefined or a
        parent label."""
        schema = self.schema
        rules: LabelRules | None = schema.derived(
            ("edge write", label),
            lambda: None if (el := schema.edge_label(label)) is None else LabelRules(schema, el, el.sort_keys),
        )
        if rules is None or rules.label.edgelabel_type == EdgeLabelType.PARENT:
            chk.edge_label_or_fail(schema, label)  # raises
            raise AssertionError(label)
        return rules

    def _prepare_vertex_strict(
        self, rules: LabelRules, id: Any, props: Iterable[PropInput], loading: bool
    ) -> tuple[Any, Any, dict[str, list[Any]]]:
        """The strict-mode rules of one vertex: (vertex label, its id or None for AUTOMATIC,
        the values per key in key-id order). `add_vertex` and `add_vertices` both write
        what this gives; `props` are (key, value, cardinality, meta) entries, `loading`
        whether the graph is in LOADING mode (read once per batch)."""
        vl = rules.label
        keys = rules.keys
        values: dict[str, list[Any]] = {}
        for key, value, card, meta in props:
            if meta:
                chk.check_no_meta(meta)
            k = keys.get(key)
            if k is None:
                key = str(key)
                k = rules.key(self.schema, key)
            if card is not None and k.single:
                chk.check_cardinality(k.pk, card)
            if value is None:
                chk.coerce_values(self.schema, k.pk, value, f"vertex label '{vl.name}'")  # raises
            x = k.coerce(value)
            if k.single:
                values[key] = [x]
            else:
                have = values.setdefault(key, [])
                for item in x:
                    if k.is_list or all(not equals(item, h) for h in have):
                        have.append(item)
        strategy = vl.id_strategy
        missing = False
        for name in rules.needed_loading if loading else rules.needed:
            if name not in values:
                missing = True
                break
        if strategy == IdStrategy.PRIMARY_KEY:
            if id is not None:
                raise IllegalArgument(
                    f"Can't customize vertex id when id strategy is 'PRIMARY_KEY' for vertex label '{vl.name}'"
                )
            if missing:
                chk.check_vertex_required(vl, list(values), loading)  # raises
            vid = idc.primary_key_id(vl.id, [(values[k][0], t) for k, t in rules.parts])
        elif strategy in (IdStrategy.AUTOMATIC, IdStrategy.DEFAULT):
            if id is not None and self.graph_mode not in ("RESTORING", "MERGING"):
                raise IllegalArgument(
                    f"Can't customize vertex id when id strategy is 'AUTOMATIC' for vertex label '{vl.name}'"
                )
            vid = None if id is None else idc.customized_vertex_id(id, "CUSTOMIZE_NUMBER", vl.name)
        else:
            vid = idc.customized_vertex_id(id, strategy.value, vl.name)
        if missing:
            chk.check_vertex_required(vl, list(values), loading)  # raises
        return vl, vid, rules.ordered(values)

    def _add_vertex_auto(self, label: str, id: Any, props: list[PropInput]) -> Vertex:
        vl = self.schema.ensure_vertex_label(label)
        vid = None if id is None else idc.auto_mode_id(id)
        values: dict[str, list[tuple[Any, Any, dict[str, Any]]]] = {}
        for key, value, card, meta in props:
            if value is None and not self.allow_nulls:
                continue
            self.schema.ensure_property_key(key, value)
            vp_id, m = _split_meta(meta, self.allow_nulls)
            entry = (vp_id, value, m)
            # as TinkerGraph's addVertex: a key given twice without a cardinality keeps both
            if card is Cardinality.single:
                values[key] = [entry]
            elif card is Cardinality.list or all(not equals(value, h[1]) for h in values.get(key, ())):
                values.setdefault(key, []).append(entry)
        if values:
            self.schema.ensure_label_keys(vl, list(values))
        return self._store_vertex(vl.id, vl.name, vid, values, upsert=False)

    def _store_vertex(
        self, label_id: int, label: str, vid: Any, values: dict[str, list[tuple[Any, Any, dict[str, Any]]]],
        upsert: bool,
    ) -> Vertex:
        v = Vertex(vid, label, None, {})
        v._props = {k: [VertexProperty(i, k, x, v, m) for i, x, m in vals] for k, vals in values.items()}
        text = encode_vertex_props(v._props, vid)
        if vid is None:
            try:
                v.key = self.tx.elements.vertex_insert(None, label_id, text)
                v.id = Long(v.key)
            except StoreConflict:
                v.key, v.id = self._insert_with_fresh_id(lambda i: self.tx.elements.vertex_insert(i, label_id, text))
        else:
            # insert first: a new id is the common case, and the unique id column tells us
            # about an existing one without a lookup per vertex
            try:
                v.key = self.tx.elements.vertex_insert(idc.to_storage(vid), label_id, text)
            except StoreConflict:
                rows = self.tx.elements.find(Lookup.VERTICES_BY_IDS, [idc.to_storage(vid)])
                if not rows:
                    raise
                if not upsert:
                    raise IllegalArgument(f"Vertex with id already exists: {vid}") from None
                return self._overwrite_vertex(rows[0], label_id, label, values)
        self._fill_vp_ids(v)
        self._vertices[v.key] = v
        self._index_add("vertex", label, v.key, v._props)
        return v

    @staticmethod
    def _insert_with_fresh_id(insert: Any) -> tuple[int, Long]:
        for _ in range(64):
            cand = _snowflake()
            try:
                return insert(int(cand)), cand
            except StoreConflict:
                continue
        raise IllegalArgument("could not allocate a free element id")

    @staticmethod
    def _fill_vp_ids(v: Vertex) -> None:
        for k, vps in v._props.items():
            for i, vp in enumerate(vps):
                if vp.id is None:
                    vp.id = default_vp_id(v.id, k, i)

    def _overwrite_vertex(self, row: Any, label_id: int, label: str, values: dict[str, Any]) -> Vertex:
        v = self._vertex(row)
        if row.label_id != label_id:
            raise IllegalArgument(
                f"The vertex label of vertex '{v.id}' is '{v.label}', it can't be changed to '{label}'"
            )
        self.load([v])
        new = {k: [VertexProperty(i, k, x, v, m) for i, x, m in vals] for k, vals in values.items()}
        v._props.clear()
        v._props.update(new)
        self._fill_vp_ids(v)
        self._save_vertex(v)
        return v

    # ---- edges --------------------------------------------------------------------------
    def add_edge(
        self, label: str, out_v: Vertex, in_v: Vertex, id: Any = None, properties: Sequence[tuple[Any, ...]] = ()
    ) -> Edge:
        props, tid, tlabel = _norm_props(properties)
        label = label if label is not None else (tlabel or DEFAULT_EDGE_LABEL)
        id = id if id is not None else tid
        self._resolve_vertices([out_v, in_v])
        for end in (out_v, in_v):
            if end.key is None:
                raise IllegalArgument(f"Invalid vertex id '{end.id}'")
        out_c = self._vertices.get(out_v.key, out_v)
        in_c = self._vertices.get(in_v.key, in_v)
        if self.schema.auto:
            return self._add_edge_auto(label, out_c, in_c, id, props)
        return self._add_edge_strict(label, out_c, in_c, id, props)

    def _add_edge_strict(self, label: str, out_v: Vertex, in_v: Vertex, id: Any, props: list[PropInput]) -> Edge:
        el, eid, sort_values, ordered = self._prepare_edge_strict(
            self._edge_rules(label), out_v, in_v, id, props, self._loading
        )
        try:
            key = self.tx.elements.edge_insert(
                eid, el.id, out_v.key, in_v.key, sort_values, encode_edge_props(ordered), unique_parts=True
            )
        except StoreConflict:
            e = self._overwrite_edge(eid, ordered)
            if e is None:
                raise
            return e
        e = Edge(eid, el.name, out_v, in_v, key, ordered)
        self._edges[key] = e
        self._index_add("edge", el.name, key, ordered)
        return e

    def _overwrite_edge(self, eid: str, ordered: dict[str, Any]) -> Edge | None:
        """HugeGraph's upsert of an existing edge: same identity, the new properties (None
        when no edge has that id)."""
        rows = edge_rows(self.tx, [eid], False)
        if not rows:
            return None
        e = self._edges_from_rows(rows)[0]
        e._props.clear()
        e._props.update(ordered)
        self._save_edge(e)
        return e

    def _prepare_edge_strict(
        self, rules: LabelRules, out_v: Vertex, in_v: Vertex, id: Any, props: Iterable[PropInput], loading: bool
    ) -> tuple[Any, str, str, dict[str, Any]]:
        """The strict-mode rules of one edge between resolved vertices: (edge label, edge id,
        sort values, properties in key-id order). `add_edge` and `add_edges` both write what
        this gives."""
        el = rules.label
        if id is not None:
            raise IllegalArgument(f"Can't customize edge id for edge label '{el.name}'")
        if (out_v.label, in_v.label) not in rules.links:
            chk.check_link(el, out_v.label, in_v.label)  # raises
        keys = rules.keys
        values: dict[str, Any] = {}
        for key, value, _card, _meta in props:
            k = keys.get(key)
            if k is None:
                key = str(key)
                k = rules.key(self.schema, key)
            if value is None:
                chk.coerce_values(self.schema, k.pk, value, f"edge label '{el.name}'")  # raises
            x = k.coerce(value)
            values[key] = x if k.single else list(x)
        for name in rules.needed_loading if loading else rules.needed:
            if name not in values:
                chk.check_edge_required(el, list(values), loading)  # raises
        sort_values = idc.primary_key_name([(values[k], t) for k, t in rules.parts]) if rules.parts else ""
        eid = idc.format_edge_id(out_v.id, rules.parent_id, el.id, sort_values, in_v.id)
        return el, eid, sort_values, rules.ordered(values)

    def _add_edge_auto(self, label: str, out_v: Vertex, in_v: Vertex, id: Any, props: list[PropInput]) -> Edge:
        el = self.schema.ensure_edge_label(label, out_v.label, in_v.label)
        values: dict[str, Any] = {}
        for key, value, _card, _meta in props:
            if value is None and not self.allow_nulls:
                continue
            self.schema.ensure_property_key(key, value)
            values[key] = value
        if values:
            self.schema.ensure_label_keys(el, list(values))
        text = encode_edge_props(values)
        if id is not None:
            eid = idc.auto_mode_id(id)
            try:
                key = self.tx.elements.edge_insert(idc.to_storage(eid), el.id, out_v.key, in_v.key, "", text)
            except StoreConflict:
                raise IllegalArgument(f"Edge with id already exists: {eid}") from None
        else:
            try:
                key = self.tx.elements.edge_insert(None, el.id, out_v.key, in_v.key, "", text)
                eid = Long(key)
            except StoreConflict:
                key, eid = self._insert_with_fresh_id(
                    lambda i: self.tx.elements.edge_insert(i, el.id, out_v.key, in_v.key, "", text)
                )
        e = Edge(eid, el.name, out_v, in_v, key, values)
        self._edges[key] = e
        self._index_add("edge", el.name, key, values)
        return e
