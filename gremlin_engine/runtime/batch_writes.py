"""Batched element writes: `add_vertices` and `add_edges`, one storage round per batch.

The REST batch endpoints (`POST .../vertices/batch`, `.../edges/batch`, 500 elements a
request), the loaders and the bench reach these through the HugeGraph steps or
`api.write_access`. Every element is checked by the same rules a single write uses
(`WritesMixin._prepare_vertex_strict` / `_prepare_edge_strict`, with the label's rules
looked up once per schema version); only the storage differs: the batch is written with one
multi-row insert and one index write instead of two statements per element.

The result must be what the same specs given one at a time to `add_vertex`/`add_edge` would
give, so:

* an id given twice in one batch is one element holding the last spec's properties (the
  later spec upserts the earlier), and a label change between them is HugeGraph's error;
* an id that already exists is upserted (its properties replaced), found with one lookup
  only when the optimistic insert of the whole batch conflicts (the common case, all new,
  costs no lookup at all);
* when spec i is invalid, the specs before it are still written first (their upsert errors
  win, as they would have been raised first), then spec i's error is raised; the caller's
  transaction rolls everything back.

Auto mode (TinkerGraph-like) writes one element at a time: it creates schema on first use
and refuses duplicate ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.runtime.mutations import MutationsMixin
from gremlin_engine.runtime.writes import (
    DEFAULT_EDGE_LABEL,
    DEFAULT_VERTEX_LABEL,
    LabelRules,
    PropInput,
    _norm_props,
)
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.structure.values import encode_edge_props, encode_vertex_values
from storage import Lookup, StoreConflict

# properties: (key, value[, cardinality, meta]) tuples, or a dict key -> value (a REST item)
VertexSpec = tuple[Any, Any, Any]  # (label, id, properties)
EdgeSpec = tuple[Any, Vertex, Vertex, Any]  # (label, out_v, in_v, properties)
# (label, id or None, values per key in key-id order)
PreparedVertex = tuple[Any, Any, dict[str, list[Any]]]
# (label, edge id, sort values, properties in key-id order, out vertex, in vertex)
PreparedEdge = tuple[Any, str, str, dict[str, Any], Vertex, Vertex]


def _entries_of(properties: Any) -> tuple[Iterable[PropInput], Any, Any]:
    """(property entries, `T.id`, `T.label`) of a spec's properties: a dict (a REST item's
    JSON object) is its items, with no meta-properties; a sequence is split by `_norm_props`."""
    if type(properties) is dict:
        return zip(properties, properties.values(), _NONES, _NONES, strict=False), None, None
    return _norm_props(properties)


#: no cardinality, no meta: endless, and only ever read after a shorter first column
_NONES = repeat(None)


class BatchWritesMixin(MutationsMixin):
    # ---- vertices ---------------------------------------------------------------------
    def add_vertices(self, specs: Sequence[VertexSpec]) -> list[Vertex]:
        """`[add_vertex(label, id, props) for ...]` in one storage round (see module doc)."""
        if self.schema.auto:
            return [self.add_vertex(label, id, _pair_list(props)) for label, id, props in specs]
        prepared: list[PreparedVertex] = []
        failure: BaseException | None = None
        rules_of: dict[str, LabelRules] = {}
        loading = self._loading
        for label, id, properties in specs:
            try:
                props, tid, tlabel = _entries_of(properties)
                if label is None:
                    label = tlabel or DEFAULT_VERTEX_LABEL
                rules = rules_of.get(label) if type(label) is str else None
                if rules is None:
                    rules = self._vertex_rules(label)
                    rules_of[label] = rules
                prepared.append(self._prepare_vertex_strict(rules, id if id is not None else tid, props, loading))
            except Exception as exc:  # raised after the specs before it are written
                failure = exc
                break
        made = self._store_vertices(prepared) if prepared else []
        if failure is not None:
            raise failure
        return made

    def _store_vertices(self, prepared: list[PreparedVertex]) -> list[Vertex]:
        # str ids (PRIMARY_KEY, CUSTOMIZE_STRING) are their own storage form
        sids = [vid if type(vid) is str else (None if vid is None else idc.to_storage(vid)) for _l, vid, _v in prepared]
        if None not in sids and len(set(sids)) == len(sids):  # the usual batch: one group per element
            return self._insert_vertex_groups([[*p, sid] for p, sid in zip(prepared, sids, strict=True)])
        # one group per distinct id (AUTOMATIC vertices, id None, are each their own)
        groups: list[list[Any]] = []  # [vl, vid, values, storage id]
        slot_of: dict[Any, int] = {}
        position: list[int] = []
        for (vl, vid, values), sid in zip(prepared, sids, strict=True):
            slot = slot_of.get(sid) if sid is not None else None
            if slot is None:
                slot = len(groups)
                groups.append([vl, vid, values, sid])
                if sid is not None:
                    slot_of[sid] = slot
            else:
                group = groups[slot]
                if group[0].id != vl.id:
                    raise _label_change(vid, group[0].name, vl.name)
                group[2] = values  # the later spec upserts the earlier one
            position.append(slot)
        made = self._insert_vertex_groups(groups)
        return [made[slot] for slot in position]

    def _insert_vertex_groups(self, groups: list[list[Any]]) -> list[Vertex]:
        # the new vertices are not loaded: their stored text waits in the loader's raw cache
        # and is decoded only if someone reads their properties (REST batches return ids)
        vertices = [Vertex(vid, vl.name, None) for vl, vid, _values, _sid in groups]
        rows = [(sid, vl.id, encode_vertex_values(values)) for vl, _vid, values, sid in groups]
        try:
            keys = self.tx.elements.vertices_insert(rows)
        except StoreConflict:
            # some ids exist already (or an AUTOMATIC key is taken by a user id): the
            # savepoint left nothing behind; find them and upsert them, insert the rest
            return self._upsert_vertex_groups(groups, vertices, rows)
        self._finish_new_vertices(vertices, keys, groups, rows)
        return vertices

    def _upsert_vertex_groups(self, groups: list[list[Any]], vertices: list[Vertex], rows: list[Any]) -> list[Vertex]:
        existing = {r.id: r for r in self.tx.elements.find(Lookup.VERTICES_BY_IDS, [g[3] for g in groups if g[3] is not None])}
        for vl, vid, _values, sid in groups:  # label checks first, in spec order
            row = existing.get(sid) if sid is not None else None
            if row is not None and row.label_id != vl.id:
                raise _label_change(vid, self.schema.vertex_label_by_id(row.label_id).name, vl.name)
        fresh = [n for n, g in enumerate(groups) if g[3] is None or g[3] not in existing]
        try:
            keys = self.tx.elements.vertices_insert([rows[n] for n in fresh])
        except StoreConflict:
            keys = None
        out: list[Vertex] = list(vertices)
        if keys is not None:
            self._finish_new_vertices([vertices[n] for n in fresh], keys, [groups[n] for n in fresh], [rows[n] for n in fresh])
        else:  # an AUTOMATIC key collides with a user id: the one-at-a-time store copes
            for n in fresh:
                vl, vid, values, _sid = groups[n]
                out[n] = self._store_vertex(vl.id, vl.name, vid, _entries(values), upsert=True)
        for n, (vl, _vid, values, sid) in enumerate(groups):
            row = existing.get(sid) if sid is not None else None
            if row is not None:
                out[n] = self._overwrite_vertex(row, vl.id, vl.name, _entries(values))
        return out

    def _finish_new_vertices(
        self, vertices: list[Vertex], keys: Sequence[int], groups: list[list[Any]], rows: list[Any]
    ) -> None:
        cache, raw = self._vertices, self._raw
        for v, key, row in zip(vertices, keys, rows, strict=True):
            v.key = key
            if v.id is None:
                v.id = Long(key)
            cache[key] = v
            raw[key] = row[2]
        index_rows: list[tuple[int, Any, int, str]] = []
        indexed: dict[str, bool] = {}
        for v, (_vl, _vid, values, _sid) in zip(vertices, groups, strict=True):
            label = v.label
            has = indexed.get(label)
            if has is None:
                has = indexed[label] = self.schema.has_indexes("vertex", label)
            if has:
                # the values as `_index_view` gives them for a loaded vertex
                view = {k: (xs[0] if len(xs) == 1 else xs) for k, xs in values.items()}
                index_rows += [(i, value, v.key, "v") for i, value in self.schema.index_entries("vertex", label, view)]
        if index_rows:
            self.tx.index.index_add_many(index_rows)

    # ---- edges ------------------------------------------------------------------------
    def vertices_by_id(self, ids: Sequence[Any]) -> dict[Any, Vertex]:
        """id -> Vertex for those of `ids` that exist: the end vertices of an edge batch in
        one lookup of ids, labels and storage keys (their properties are read only if
        someone asks, as for any other element). Auto mode, with its numeric-string
        lookups, goes through `vertices(ids=...)`."""
        if self.schema.auto:
            return {v.id: v for v in self.vertices(ids=list(ids))}
        keys: dict[Any, Any] = dict(zip(ids, ids, strict=True))  # storage form -> id (str ids are their own)
        if set(map(type, ids)) != _STR:
            keys = {}
            for i in ids:
                if type(i) is str:
                    keys[i] = i
                else:
                    lid = idc.lookup_id(i)
                    if lid is not None:
                        keys[idc.to_storage(lid)] = lid
        if not keys:
            return {}
        rows = self.tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, list(keys))
        if not rows:
            return {}
        row_keys, sids, label_ids = zip(*rows, strict=True)
        names = {lid: self.schema.vertex_label_by_id(lid).name for lid in set(label_ids)}
        cache = self._vertices
        made = [
            cache.get(key) or Vertex(keys[sid], names[lid], key) for key, sid, lid in rows
        ]
        cache.update(zip(row_keys, made, strict=True))
        return dict(zip(map(keys.__getitem__, sids), made, strict=True))

    def add_edges(self, specs: Sequence[EdgeSpec]) -> list[Edge]:
        """`[add_edge(label, out_v, in_v, None, props) for ...]` in one storage round."""
        if self.schema.auto:
            return [self.add_edge(label, o, i, None, _pair_list(props)) for label, o, i, props in specs]
        # vertices from outside (bytecode): found by id (the steps resolve theirs)
        self._resolve_vertices([v for _l, o, i, _p in specs for v in (o, i) if v.key is None])
        prepared: list[PreparedEdge] = []
        failure: BaseException | None = None
        rules_of: dict[str, LabelRules] = {}
        cache, loading = self._vertices, self._loading
        for label, out_v, in_v, properties in specs:
            try:
                props, tid, tlabel = _entries_of(properties)
                if label is None:
                    label = tlabel or DEFAULT_EDGE_LABEL
                for end in (out_v, in_v):
                    if end.key is None:
                        raise IllegalArgument(f"Invalid vertex id '{end.id}'")
                out_c = cache.get(out_v.key, out_v)  # type: ignore[arg-type]
                in_c = cache.get(in_v.key, in_v)  # type: ignore[arg-type]
                rules = rules_of.get(label) if type(label) is str else None
                if rules is None:
                    rules = self._edge_rules(label)
                    rules_of[label] = rules
                el, eid, sort_values, ordered = self._prepare_edge_strict(rules, out_c, in_c, tid, props, loading)
            except Exception as exc:  # raised after the specs before it are written
                failure = exc
                break
            prepared.append((el, eid, sort_values, ordered, out_c, in_c))
        made = self._store_edges(prepared) if prepared else []
        if failure is not None:
            raise failure
        return made

    def _store_edges(self, prepared: list[PreparedEdge]) -> list[Edge]:
        # The edge id holds both ends, the label and the sort values: a repeated id is the
        # same edge, whose later spec replaces the properties of the earlier one
        eids = list(map(_EID, prepared))
        if len(set(eids)) == len(eids):  # the usual batch: one group per edge
            return self._insert_edges(prepared)
        groups: dict[str, list[Any]] = {}
        for el, eid, sort_values, ordered, out_v, in_v in prepared:
            g = groups.get(eid)
            if g is None:
                groups[eid] = [el, eid, sort_values, ordered, out_v, in_v]
            else:
                g[3] = ordered
        glist: list[Any] = list(groups.values())
        by_id = dict(zip(groups, self._insert_edges(glist), strict=True))
        return [by_id[eid] for eid in eids]

    def _insert_edges(self, glist: Sequence[PreparedEdge]) -> list[Edge]:
        """Writes prepared edges of distinct ids, returns them in that order."""
        rows = [
            (eid, el.id, out_v.key, in_v.key, sort_values, encode_edge_props(ordered))
            for el, eid, sort_values, ordered, out_v, in_v in glist
        ]
        try:
            keys = self.tx.elements.edges_insert(rows, unique_parts=True)
        except StoreConflict:
            return self._upsert_edge_groups(glist, rows)
        return self._finish_new_edges(glist, keys)

    def _upsert_edge_groups(self, glist: Sequence[PreparedEdge], rows: list[Any]) -> list[Edge]:
        # an edge's id is derived from its parts: look the batch up by them (layout v2 keeps
        # no index on HugeGraph edge ids)
        existing = {r.id for r in self.tx.elements.find(Lookup.EDGES_BY_PARTS, [(g[4].key, g[0].id, g[2], g[5].key) for g in glist])}
        fresh = [n for n, g in enumerate(glist) if g[1] not in existing]
        made: list[Any] = [None] * len(glist)
        new = self._finish_new_edges(
            [glist[n] for n in fresh], self.tx.elements.edges_insert([rows[n] for n in fresh], unique_parts=True)
        )
        for n, e in zip(fresh, new, strict=True):
            made[n] = e
        for n, g in enumerate(glist):
            if g[1] in existing:
                e = self._overwrite_edge(g[1], g[3])
                assert e is not None
                made[n] = e
        return made

    def _finish_new_edges(self, glist: Sequence[PreparedEdge], keys: Sequence[int]) -> list[Edge]:
        """The new edges of `glist`, given their storage keys: made, cached, and indexed
        when their label has indexes."""
        made = [
            Edge(eid, el.name, out_v, in_v, key, ordered)
            for (el, eid, _sv, ordered, out_v, in_v), key in zip(glist, keys, strict=True)
        ]
        self._edges.update(zip(keys, made, strict=True))
        schema = self.schema
        indexed = {label for label in set(map(_LABEL, made)) if schema.has_indexes("edge", label)}
        if indexed:
            index_rows: list[tuple[int, Any, int, str]] = []
            for e in made:
                if e.label in indexed:
                    index_rows += [(i, value, e.key, "e") for i, value in schema.index_entries("edge", e.label, e._props)]
            if index_rows:
                self.tx.index.index_add_many(index_rows)
        return made


_EID = itemgetter(1)  # a prepared edge's id
_STR = {str}
_LABEL = attrgetter("label")


def _pair_list(properties: Any) -> Any:
    """A spec's properties as the (key, value) tuples the one-at-a-time rules take: a dict
    (a REST item's JSON object) becomes its items, keys as strings (as
    `elements.item_properties` gives them); a sequence is already that."""
    if type(properties) is not dict:
        return properties
    return list({str(k): v for k, v in properties.items()}.items())


def _entries(values: dict[str, list[Any]]) -> dict[str, list[tuple[Any, Any, dict[str, Any]]]]:
    """Plain values (lists per key) as the (vertex-property id, value, meta) entries that
    `_store_vertex` / `_overwrite_vertex` take."""
    return {k: [(None, x, {}) for x in xs] for k, xs in values.items()}


def _label_change(vid: Any, old: str, new: str) -> IllegalArgument:
    return IllegalArgument(f"The vertex label of vertex '{vid}' is '{old}', it can't be changed to '{new}'")
