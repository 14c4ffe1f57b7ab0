"""Batched element writes: `add_vertices` and `add_edges`, one storage round per batch.

The REST batch endpoints (`POST .../vertices/batch`, `.../edges/batch`, 500 elements a
request) reach these through the HugeGraph steps. Writing element by element costs two SQL
statements per element (an insert, then an index write) plus Python work per call; here a
batch is validated element by element with exactly the single-element rules
(`WritesMixin._prepare_vertex_strict` / `_prepare_edge_strict`: same checks, same messages),
then written with one multi-row insert and one index write.

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

Auto mode (TinkerGraph-like) keeps the one-at-a-time path: it creates schema on first use
and refuses duplicate ids, and no REST hot path runs on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.runtime.mutations import MutationsMixin
from gremlin_engine.runtime.write_plans import EdgePlan, Fallback, VertexPlan
from gremlin_engine.runtime.writes import DEFAULT_EDGE_LABEL, DEFAULT_VERTEX_LABEL, _norm_props
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.structure.values import encode_edge_props, encode_vertex_values
from storage import StoreConflict

# properties: (key, value[, cardinality, meta]) tuples, or a dict key -> value (a REST item)
VertexSpec = tuple[Any, Any, Any]  # (label, id, properties)
EdgeSpec = tuple[Any, Vertex, Vertex, Any]  # (label, out_v, in_v, properties)


class BatchWritesMixin(MutationsMixin):
    # ---- vertices ---------------------------------------------------------------------
    def add_vertices(self, specs: Sequence[VertexSpec]) -> list[Vertex]:
        """`[add_vertex(label, id, props) for ...]` in one storage round (see module doc)."""
        if self.schema.auto:
            return [self.add_vertex(label, id, _pair_list(props)) for label, id, props in specs]
        if not specs:
            return []
        made = self._add_vertex_columns(specs)
        if made is not None:
            return made
        prepared: list[tuple[Any, Any, dict[str, list[Any]], str | None]] = []
        failure: BaseException | None = None
        plans: dict[Any, VertexPlan | None] = {}
        loading, mode = self._loading, self.graph_mode
        last: Any = _NONE  # the label of the previous spec, whose plan `plan` is
        plan: VertexPlan | None = None
        for label, id, properties in specs:
            try:
                if label != last:
                    plan = plans[label] if label in plans else plans.setdefault(label, VertexPlan.build(self.schema, label))
                    last = label
                if plan is None:
                    raise Fallback
                prepared.append(plan.prepare_row(id, properties, loading, mode))
                continue
            except Exception:  # the reference rules below decide (and word the error)
                pass
            try:
                prepared.append(self._prepare_vertex_reference(label, id, _pair_list(properties)))
            except Exception as exc:  # raised after the specs before it are written
                failure = exc
                break
        made = self._store_vertices(prepared) if prepared else []
        if failure is not None:
            raise failure
        return made

    def _add_vertex_columns(self, specs: Sequence[VertexSpec]) -> list[Vertex] | None:
        """`add_vertices` of a batch of one label that `VertexPlan.prepare_columns` covers (a
        REST vertex batch of a one-TEXT-primary-key label), prepared and written column by
        column; None when the batch needs the element-by-element path (nothing written)."""
        labels, ids, props = zip(*specs, strict=True)
        label = labels[0]
        if type(label) is not str or labels.count(label) != len(labels):
            return None
        plan = VertexPlan.build(self.schema, label)
        if plan is None:
            return None
        columns = plan.prepare_columns(ids, props, self._loading)
        if columns is None:
            return None
        vids, values, texts = columns
        vl = plan.label
        if len(set(vids)) != len(vids):  # a repeated id: the grouping path
            return self._store_vertices([(vl, vid, v, t) for vid, v, t in zip(vids, values, texts, strict=True)])
        rows = list(zip(vids, repeat(vl.id), texts))
        try:
            keys = self.tx.vertices_insert(rows)
        except StoreConflict:
            groups = [[vl, vid, v, t, vid] for vid, v, t in zip(vids, values, texts, strict=True)]
            return self._upsert_vertex_groups(groups, list(map(Vertex, vids, repeat(vl.name))), rows)
        made = list(map(Vertex, vids, repeat(vl.name), keys))
        self._vertices.update(zip(keys, made, strict=True))
        self._raw.update(zip(keys, texts, strict=True))
        if self.schema.has_indexes("vertex", vl.name):
            entries = self.schema.index_entries
            index_rows = [
                (i, value, key, "v") for key, view in zip(keys, values, strict=True)
                for i, value in entries("vertex", vl.name, view)
            ]
            if index_rows:
                self.tx.index_add_many(index_rows)
        return made

    def _prepare_vertex_reference(
        self, label: Any, id: Any, properties: Sequence[tuple[Any, ...]]
    ) -> tuple[Any, Any, dict[str, list[Any]], None]:
        """One vertex by `_prepare_vertex_strict`, the rules a plan only shortcuts (its
        stored text is made when it is written)."""
        props, tid, tlabel = _norm_props(properties)
        vl, vid, values = self._prepare_vertex_strict(
            label if label is not None else (tlabel or DEFAULT_VERTEX_LABEL),
            id if id is not None else tid,
            props,
        )
        return vl, vid, {k: [x for _i, x, _m in vals] for k, vals in values.items()}, None

    def _store_vertices(self, prepared: list[tuple[Any, Any, dict[str, Any], str | None]]) -> list[Vertex]:
        # `prepared`: (label, id, values, stored text); values are flat (key -> value) when
        # the text is given, lists per key when it is None (see `VertexPlan.prepare_row`).
        # str ids (PRIMARY_KEY, CUSTOMIZE_STRING) are their own storage form
        sids = [vid if type(vid) is str else (None if vid is None else idc.to_storage(vid)) for _l, vid, _v, _t in prepared]
        if None not in sids and len(set(sids)) == len(sids):  # the usual batch: one group per element
            return self._insert_vertex_groups([[*p, sid] for p, sid in zip(prepared, sids, strict=True)])
        # one group per distinct id (AUTOMATIC vertices, id None, are each their own)
        groups: list[list[Any]] = []  # [vl, vid, values, stored text or None, storage id]
        slot_of: dict[Any, int] = {}
        position: list[int] = []
        for (vl, vid, values, text), sid in zip(prepared, sids, strict=True):
            slot = slot_of.get(sid) if sid is not None else None
            if slot is None:
                slot = len(groups)
                groups.append([vl, vid, values, text, sid])
                if sid is not None:
                    slot_of[sid] = slot
            else:
                group = groups[slot]
                if group[0].id != vl.id:
                    raise _label_change(vid, group[0].name, vl.name)
                group[2], group[3] = values, text  # the later spec upserts the earlier one
            position.append(slot)
        made = self._insert_vertex_groups(groups)
        return [made[slot] for slot in position]

    def _insert_vertex_groups(self, groups: list[list[Any]]) -> list[Vertex]:
        # the new vertices are not loaded: their stored text waits in the loader's raw cache
        # and is decoded only if someone reads their properties (REST batches return ids)
        vertices = []
        rows = []
        for vl, vid, values, text, sid in groups:
            vertices.append(Vertex(vid, vl.name, None))
            rows.append((sid, vl.id, text if text is not None else encode_vertex_values(values)))
        try:
            keys: list[int | None] = list(self.tx.vertices_insert(rows))
        except StoreConflict:
            # some ids exist already (or an AUTOMATIC key is taken by a user id): the
            # savepoint left nothing behind; find them and upsert them, insert the rest
            return self._upsert_vertex_groups(groups, vertices, rows)
        self._finish_new_vertices(vertices, keys, groups, rows)
        return vertices

    def _upsert_vertex_groups(self, groups: list[list[Any]], vertices: list[Vertex], rows: list[Any]) -> list[Vertex]:
        existing = {r.id: r for r in self.tx.vertices_by_ids([g[4] for g in groups if g[4] is not None])}
        for vl, vid, _values, _text, sid in groups:  # label checks first, in spec order
            row = existing.get(sid) if sid is not None else None
            if row is not None and row.label_id != vl.id:
                raise _label_change(vid, self.schema.vertex_label_by_id(row.label_id).name, vl.name)
        fresh = [n for n, g in enumerate(groups) if g[4] is None or g[4] not in existing]
        try:
            keys = self.tx.vertices_insert([rows[n] for n in fresh])
        except StoreConflict:
            keys = None
        out: list[Vertex] = list(vertices)
        if keys is not None:
            self._finish_new_vertices([vertices[n] for n in fresh], keys, [groups[n] for n in fresh], [rows[n] for n in fresh])
        else:  # an AUTOMATIC key collides with a user id: the one-at-a-time path copes
            for n in fresh:
                vl, vid, values, text, _sid = groups[n]
                out[n] = self._store_vertex(vl.id, vl.name, vid, _entries(values, text), upsert=True)
        for n, (vl, _vid, values, text, sid) in enumerate(groups):
            row = existing.get(sid) if sid is not None else None
            if row is not None:
                out[n] = self._overwrite_vertex(row, vl.id, vl.name, _entries(values, text))
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
        for v, (_vl, _vid, values, text, _sid) in zip(vertices, groups, strict=True):
            label = v.label
            has = indexed.get(label)
            if has is None:
                has = indexed[label] = self.schema.has_indexes("vertex", label)
            if has:
                # the values as `_index_view` gives them for a loaded vertex
                view = values if text is not None else {k: (xs[0] if len(xs) == 1 else xs) for k, xs in values.items()}
                index_rows += [(i, value, v.key, "v") for i, value in self.schema.index_entries("vertex", label, view)]
        if index_rows:
            self.tx.index_add_many(index_rows)

    # ---- edges ------------------------------------------------------------------------
    def vertices_by_id(self, ids: Sequence[Any]) -> dict[Any, Vertex]:
        """id -> Vertex for those of `ids` that exist: the end vertices of an edge batch in
        one lookup, without the query planning of `vertices(ids=...)` (which it equals for
        strict-mode ids; auto mode, with its numeric-string lookups, goes through it)."""
        if self.schema.auto:
            return {v.id: v for v in self.vertices(ids=list(ids))}
        # PRIMARY_KEY / CUSTOMIZE_STRING ids (the usual batch) are their own storage form
        keys: dict[Any, Any] | None = None  # storage form -> id, when some differ
        if _STR == set(map(type, ids)):
            wanted: list[Any] = list(ids)
        else:
            keys = {}
            for i in ids:
                if type(i) is str:
                    keys[i] = i
                else:
                    lid = idc.lookup_id(i)
                    if lid is not None:
                        keys[idc.to_storage(lid)] = lid
            wanted = list(keys)
        if not wanted:
            return {}
        heads = getattr(self.tx, "vertex_heads_by_ids", None)
        if heads is None:
            make = self._vertex
            return {(row.id if keys is None else keys[row.id]): make(row) for row in self.tx.vertices_by_ids(wanted)}
        # ids, labels and keys only: the cached element if there is one, else a new
        # unloaded vertex (its properties are read only if someone asks, as for any other)
        rows = heads(wanted)
        if keys is not None:
            rows = [(key, keys[sid], label_id) for key, sid, label_id in rows]
        cache = self._vertices
        if rows:
            row_keys, vids, label_ids = zip(*rows, strict=True)
            if len(set(label_ids)) == 1 and (not cache or _NONE_TYPE == set(map(type, map(cache.get, row_keys)))):
                # none cached yet, one label (the usual batch): the vertices made column-wise
                name = self.schema.vertex_label_by_id(label_ids[0]).name
                made = list(map(Vertex, vids, repeat(name), row_keys))
                cache.update(zip(row_keys, made, strict=True))
                return dict(zip(vids, made, strict=True))
        out: dict[Any, Vertex] = {}
        names: dict[int, str] = {}
        for key, vid, label_id in rows:
            v = cache.get(key)
            if v is None:
                name = names.get(label_id)
                if name is None:
                    name = names[label_id] = self.schema.vertex_label_by_id(label_id).name
                v = cache[key] = Vertex(vid, name, key)
            out[vid] = v
        return out

    def add_edges(self, specs: Sequence[EdgeSpec]) -> list[Edge]:
        """`[add_edge(label, out_v, in_v, None, props) for ...]` in one storage round."""
        if self.schema.auto:
            return [self.add_edge(label, o, i, None, _pair_list(props)) for label, o, i, props in specs]
        if None in list(map(_KEY, map(_OUT_V, specs))) or None in list(map(_KEY, map(_IN_V, specs))):
            # vertices from outside (bytecode): found by id (the steps resolve theirs)
            self._resolve_vertices([v for _l, o, i, _p in specs for v in (o, i) if v.key is None])
        if not specs:
            return []
        made = self._add_edge_columns(specs)
        if made is not None:
            return made
        prepared: list[tuple[Any, str, str, dict[str, Any], Vertex, Vertex, str | None]] = []
        failure: BaseException | None = None
        plans: dict[Any, EdgePlan | None] = {}
        loading, cache = self._loading, self._vertices
        ends = _end_parts(cache, specs)
        last: Any = _NONE  # the label of the previous spec, whose plan `plan` is
        plan: EdgePlan | None = None
        for label, out_v, in_v, properties in specs:
            try:
                if label != last:
                    plan = plans[label] if label in plans else plans.setdefault(label, EdgePlan.build(self.schema, label))
                    last = label
                if plan is None or out_v.key is None or in_v.key is None:
                    raise Fallback
                prepared.append(plan.prepare_row(cache.get(out_v.key, out_v), cache.get(in_v.key, in_v), properties, loading, ends))
                continue
            except Exception:  # the reference rules below decide (and word the error)
                pass
            props, tid, tlabel = _norm_props(_pair_list(properties))
            try:
                for end in (out_v, in_v):
                    if end.key is None:
                        raise IllegalArgument(f"Invalid vertex id '{end.id}'")
                out_c = cache.get(out_v.key, out_v)  # type: ignore[arg-type]
                in_c = cache.get(in_v.key, in_v)  # type: ignore[arg-type]
                el, eid, sort_values, ordered = self._prepare_edge_strict(
                    label if label is not None else (tlabel or DEFAULT_EDGE_LABEL), out_c, in_c, tid, props
                )
            except Exception as exc:
                failure = exc
                break
            prepared.append((el, eid, sort_values, ordered, out_c, in_c, None))
        made = self._store_edges(prepared) if prepared else []
        if failure is not None:
            raise failure
        return made

    def _add_edge_columns(self, specs: Sequence[EdgeSpec]) -> list[Edge] | None:
        """`add_edges` of a batch of one label that `EdgePlan.prepare_columns` covers (a REST
        edge batch): prepared and written column by column, no tuple per element. None
        when the batch needs the element-by-element path (nothing was written then)."""
        labels, outs, ins, props = zip(*specs, strict=True)
        label = labels[0]
        if type(label) is not str or labels.count(label) != len(labels):
            return None
        plan = EdgePlan.build(self.schema, label)
        if plan is None:
            return None
        out_keys = list(map(_KEY, outs))
        in_keys = list(map(_KEY, ins))
        if None in out_keys or None in in_keys:
            return None
        cache = self._vertices
        outs = list(map(cache.get, out_keys, outs))
        ins = list(map(cache.get, in_keys, ins))
        columns = plan.prepare_columns(outs, ins, props, self._loading)  # type: ignore[arg-type]
        if columns is None:
            return None
        eids, values, texts = columns
        n = len(eids)
        return self._store_edge_columns([plan.label] * n, eids, [""] * n, values, outs, ins, texts)

    def _store_edges(self, prepared: list[tuple[Any, str, str, dict[str, Any], Vertex, Vertex, str | None]]) -> list[Edge]:
        # `prepared`: (label, id, sort values, properties, out, in, stored text or None).
        # The edge id holds both ends, the label and the sort values: a repeated id is the
        # same edge, whose later spec replaces the properties of the earlier one
        eids = list(map(_EID, prepared))
        if len(set(eids)) == len(eids):  # the usual batch: one group per edge
            return self._store_edge_columns(*zip(*prepared, strict=True))
        groups: dict[str, list[Any]] = {}
        for el, eid, sort_values, ordered, out_v, in_v, text in prepared:
            g = groups.get(eid)
            if g is None:
                groups[eid] = [el, eid, sort_values, ordered, out_v, in_v, text]
            else:
                g[3], g[6] = ordered, text
        glist = list(groups.values())
        made = self._store_edge_columns(*zip(*glist, strict=True))
        by_id = dict(zip(map(_EID, glist), made, strict=True))
        return [by_id[eid] for eid in eids]

    def _store_edge_columns(
        self, els: Sequence[Any], ids: Sequence[str], sorts: Sequence[str], props: Sequence[dict[str, Any]],
        outs: Sequence[Vertex], ins: Sequence[Vertex], texts: Sequence[str | None],
    ) -> list[Edge]:
        """Writes edges given column by column (distinct ids), returns them in that order."""
        if len(set(ids)) != len(ids):  # a repeated id: the grouping path
            return self._store_edges(list(zip(els, ids, sorts, props, outs, ins, texts, strict=True)))
        if None in texts:
            texts = tuple(encode_edge_props(p) if t is None else t for p, t in zip(props, texts, strict=True))
        rows = list(zip(ids, map(_ID, els), map(_KEY, outs), map(_KEY, ins), sorts, texts, strict=True))
        try:
            keys = self.tx.edges_insert(rows, unique_parts=True)
        except StoreConflict:
            return self._upsert_edge_groups(list(zip(els, ids, sorts, props, outs, ins, texts, strict=True)), rows)
        return self._finish_new_edge_columns(els, ids, props, outs, ins, keys)

    def _upsert_edge_groups(self, glist: list[Any], rows: list[Any]) -> list[Edge]:
        # an edge's id is derived from its parts: look the batch up by them (layout v2 keeps
        # no index on HugeGraph edge ids)
        existing = {r.id for r in self.tx.edges_by_parts([(g[4].key, g[0].id, g[2], g[5].key) for g in glist])}
        fresh = [n for n, g in enumerate(glist) if g[1] not in existing]
        made: list[Any] = [None] * len(glist)
        new = self._finish_new_edges(
            [glist[n] for n in fresh], self.tx.edges_insert([rows[n] for n in fresh], unique_parts=True)
        )
        for n, e in zip(fresh, new, strict=True):
            made[n] = e
        for n, g in enumerate(glist):
            if g[1] in existing:
                e = self._overwrite_edge(g[1], g[3])
                assert e is not None
                made[n] = e
        return made

    def _finish_new_edges(self, glist: list[Any], keys: Sequence[int]) -> list[Edge]:
        """The new edges of `glist` (prepared tuples, see `_store_edges`), given their
        storage keys: made column-wise, cached, and indexed when their label has indexes."""
        if not glist:
            return []
        els, eids, _svs, props, outs, ins, _texts = zip(*glist, strict=True)
        return self._finish_new_edge_columns(els, eids, props, outs, ins, keys)

    def _finish_new_edge_columns(
        self, els: Sequence[Any], eids: Sequence[str], props: Sequence[dict[str, Any]], outs: Sequence[Vertex],
        ins: Sequence[Vertex], keys: Sequence[int],
    ) -> list[Edge]:
        names = list(map(_NAME, els))
        made = list(map(Edge, eids, names, outs, ins, keys, props))
        self._edges.update(zip(keys, made, strict=True))
        schema = self.schema
        indexed = {label for label in set(names) if schema.has_indexes("edge", label)}
        if indexed:
            index_rows: list[tuple[int, Any, int, str]] = []
            for label, key, values in zip(names, keys, props, strict=True):
                if label in indexed:
                    index_rows += [(i, value, key, "e") for i, value in schema.index_entries("edge", label, values)]
            if index_rows:
                self.tx.index_add_many(index_rows)
        return made


def _end_parts(cache: dict[int, Vertex], specs: Sequence[EdgeSpec]) -> dict[int, str]:
    """Storage key -> the end vertex's part of an edge id (`key_plans.end_part`), made
    column-wise for a batch whose end vertices (as cached) all have string ids needing no
    escape, the usual REST batch; empty otherwise (the plans then make each part once)."""
    given = [*map(_OUT_V, specs), *map(_IN_V, specs)]
    keys = list(map(_KEY, given))
    if None in keys:
        return {}
    ids = list(map(_ID, map(cache.get, keys, given)))
    if _STR != set(map(type, ids)) or ">" in "".join(ids):
        return {}
    return dict(zip(keys, map("S".__add__, ids), strict=True))


_NONE = object()  # no label seen yet
_STR = {str}
_NONE_TYPE = {type(None)}
_KEY = attrgetter("key")
_ID = attrgetter("id")
_NAME = attrgetter("name")
_OUT_V = itemgetter(1)
_IN_V = itemgetter(2)
_EID = itemgetter(1)


def _pair_list(properties: Any) -> Any:
    """A spec's properties as the (key, value) tuples the one-at-a-time rules take: a dict
    (a REST item's JSON object) becomes its items, keys as strings (as
    `elements.item_properties` gives them); a sequence is already that."""
    if type(properties) is not dict:
        return properties
    return list({str(k): v for k, v in properties.items()}.items())


def _entries(values: dict[str, Any], text: str | None) -> dict[str, list[tuple[Any, Any, dict[str, Any]]]]:
    """Plain values (flat when `text` is given, else lists per key) as the (vertex-property
    id, value, meta) entries that `_store_vertex` / `_overwrite_vertex` take."""
    if text is not None:
        return {k: [(None, x, {})] for k, x in values.items()}
    return {k: [(None, x, {}) for x in xs] for k, xs in values.items()}


def _label_change(vid: Any, old: str, new: str) -> IllegalArgument:
    return IllegalArgument(f"The vertex label of vertex '{vid}' is '{old}', it can't be changed to '{new}'")
