"""The read half of `GraphAccess`: element lookups, scans, counts and adjacency.

Each call is answered with as few storage statements as the batch allows: ids in one
lookup, a label scan in pages of `PAGE` rows (so `g.V().limit(1)` reads one page, not the
graph), an index lookup when `query.index_plan` finds one, and one adjacency statement per
batch of vertices.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import orjson

from gremlin_engine.runtime import eq_recipe as eqr
from gremlin_engine.runtime import query as qp
from gremlin_engine.runtime.edge_lookup import edge_rows
from gremlin_engine.runtime.loader import ElementLoader
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Element, Vertex
from gremlin_engine.structure.numbers import LONG_MAX, LONG_MIN, Int, Long
from gremlin_engine.structure.values import entry_value
from gremlin_engine.traversal.tokens import Direction
from storage import AdjacencyQuery, IndexProject, IndexQuery, Lookup, Project

PAGE = 1000

#: a scan in a read-only transaction drops the element cache between pages once it holds
#: more than this many elements (see `_scan`)
SCAN_CACHE_LIMIT = 20_000

_DIRECTIONS = {
    Direction.OUT: "out",
    Direction.IN: "in",
    Direction.BOTH: "both",
    Direction.from_: "out",
    Direction.to: "in",
}


def storage_direction(direction: Any) -> str:
    d = _DIRECTIONS.get(direction)
    if d is None:
        d = str(getattr(direction, "value", direction)).lower()
        if d not in ("out", "in", "both"):
            raise ValueError(f"not a direction: {direction!r}")
    return d


#: a shape whose index read depends on the values (`query.index_recipe` None), kept as such
_UNCACHED: Any = "uncached"
#: id types stored as the plain integer (`ids.lookup_id` then `ids.to_storage`, inline)
_INT_IDS = frozenset({int, Long, Int})


def stored_id(ident: Any) -> Any:
    """What `ids.to_storage(ids.lookup_id(ident))` gives (None: no stored id can match),
    with the common id types (integers, strings) decided inline: every point read asks."""
    t = type(ident)
    if t in _INT_IDS:
        return int(ident) if LONG_MIN <= ident <= LONG_MAX else None
    if t is str:
        return ident
    wanted = idc.lookup_id(ident.id if isinstance(ident, Element) else ident)
    return None if wanted is None else idc.to_storage(wanted)


#: a text id that has a number twin: ASCII digits only (`str.isdigit` also takes "²", which
#: `int` refuses), one optional minus sign
_DECIMAL = re.compile(r"-?[0-9]+")


class ReadsMixin(ElementLoader):
    #: set on an access over a single-statement read (`StoreAccess.one_statement`)
    one_statement: bool = False

    # ---- V() / E() ------------------------------------------------------------------------
    def vertices(
        self,
        ids: Sequence[Any] | None = None,
        labels: Sequence[str] | None = None,
        conditions: Sequence[Any] = (),
        limit: int | None = None,
    ) -> Iterator[Vertex]:
        self._trim()
        if ids is not None and len(ids) == 1 and labels is None and not conditions and not self.schema.auto:
            return self._one_vertex(ids[0], limit)
        return self._run(qp.split("vertex", ids, labels, conditions), limit)

    def _one_vertex(self, ident: Any, limit: int | None) -> Iterator[Vertex]:
        """`V(id)` alone (a REST GET, a point lookup): what `_by_ids` answers, without
        planning a query. Strict mode only (auto mode also tries numeric alternates)."""
        if limit is not None and limit <= 0:
            return
        wanted = idc.lookup_id(ident.id if isinstance(ident, Element) else ident)
        if wanted is None:
            return
        rows = self.tx.elements.find(Lookup.VERTICES_BY_IDS, [idc.to_storage(wanted)])
        if rows:
            yield self._vertex(rows[0])

    def point_vertex(self, ident: Any) -> tuple[Any, ...] | None:
        """`V(id)`'s one vertex as `(id, label, raw property JSON)`, `()` when there is none,
        or None when the caller must take the general path (auto mode, which also tries
        numeric alternates; or a vertex this transaction already holds as an element, which
        may carry changes of its own). For fused point plans (`strategies/point_lookup.py`):
        no `Vertex` is built and nothing is cached."""
        schema = self.schema
        if schema.auto:
            return None
        key = stored_id(ident)
        if key is None:
            return ()
        rows = self.tx.elements.find(Lookup.VERTICES_BY_IDS, [key])
        if not rows:
            return ()
        row = rows[0]
        if row.key in self._vertices:
            return None
        vid = row.id
        return Long(vid) if type(vid) is int else idc.from_storage(vid), schema.vertex_label_by_id(row.label_id).name, row.props

    def point_neighbour_ids(self, ident: Any, direction: Any, labels: Sequence[str] = ()) -> list[Any] | None:
        """The ids `V(ident).out|in|both(labels).id()` gives, in adjacency order (one per
        edge, so parallel edges and a 'both' self-loop repeat an id), read by one statement;
        or None when the caller must take the general path (auto mode; a start vertex this
        transaction holds as an element). For fused point plans: nothing is cached."""
        if self.schema.auto:
            return None
        key = stored_id(ident)
        if key is None:
            return []
        # a query of no label (none of `labels` exists) reads nothing: `from_id` answers []
        rows = self.tx.adjacency.from_id(self._hop_query(direction, labels), key)
        if not rows:
            return []
        if rows[0][0] in self._vertices:
            return None
        # numeric ids (most graphs') become `Long` inline, as `from_storage` makes them
        from_storage = idc.from_storage
        return [Long(vid) if type(vid) is int else from_storage(vid) for _, vid in rows]

    def point_index_ids(self, labels: Sequence[str] | None, conditions: Sequence[Any]) -> list[Any] | None:
        """The ids `V().hasLabel(labels).has(conditions).id()` gives when equality index
        lookups answer it (what `_by_index` reads: the union of the lookups in key order,
        every condition re-tested on the raw property JSON unless the index decided it
        exactly, see `eq_recipe`), without building a vertex; or None when the caller must
        take the general path (auto mode, id or label tests, a primary-key label, no
        equality index, or a candidate this transaction holds)."""
        schema = self.schema
        if schema.auto:
            return None
        # the value-independent decisions, once per schema snapshot and shape
        shape = (tuple(labels) if labels is not None else None, tuple((key, p.op) for key, p in conditions))
        recipe = schema.derived(("point index", shape), lambda: eqr.index_recipe(schema, labels, conditions) or _UNCACHED)
        if recipe is eqr.GENERAL:
            return None
        exact, props = False, conditions
        if recipe is _UNCACHED:
            found = eqr.planned_lookups(schema, labels, conditions)
            if found is None or not found[0]:
                return None if found is None else []
            lookups, allowed, props = found
        else:
            if recipe.reads is None:
                return []
            lookups, exact = eqr.eq_lookups(recipe, conditions)
            allowed = recipe.allowed
        if self.one_statement and (len(lookups) > 1 or len(lookups[0][1]) > 1):
            return None  # perhaps more than one statement (one per index and value): not in this read
        read = self.tx.index.read
        if len(lookups) == 1:  # one index: its rows come each once, in key order
            query, values = lookups[0]
            rows = read(query, values) if values else []
        else:
            merged: dict[int, Any] = {}
            for query, values in lookups:
                if values:
                    for r in read(query, values):
                        merged[r.key] = r
            rows = [merged[k] for k in sorted(merged)]
        held = self._vertices
        from_storage = idc.from_storage
        out: list[Any] = []
        for r in rows:
            if allowed is not None and r.label_id not in allowed:
                continue
            if r.key in held:
                return None
            if exact or _props_match_raw(props, r.props):
                vid = r.id
                out.append(Long(vid) if type(vid) is int else from_storage(vid))
        return out

    def edges(
        self,
        ids: Sequence[Any] | None = None,
        labels: Sequence[str] | None = None,
        conditions: Sequence[Any] = (),
        limit: int | None = None,
    ) -> Iterator[Edge]:
        self._trim()
        if ids is not None and len(ids) == 1 and labels is None and not conditions and not self.schema.auto:
            return self._one_edge(ids[0], limit)
        return self._run(qp.split("edge", ids, labels, conditions), limit)

    def _one_edge(self, ident: Any, limit: int | None) -> Iterator[Edge]:
        """`E(id)` alone, as `_one_vertex`."""
        if limit is not None and limit <= 0:
            return
        wanted = self._edge_lookup_id(ident)
        if wanted is None:
            return
        rows = edge_rows(self.tx, [idc.to_storage(wanted)], False)
        if rows:
            yield self._edges_from_rows(rows)[0]

    def count(self, kind: str, labels: Sequence[str] | None = None, conditions: Sequence[Any] = ()) -> int:
        q = qp.split(kind, None, labels, conditions)
        if q.empty:
            return 0
        if q.ids is None and not q.id_tests:
            lids = qp.label_ids(self.schema, q)
            if lids is not None and not lids:
                return 0
            if not q.props:
                if kind == "vertex":
                    return int(self.tx.elements.vertex_count(lids))
                return int(self.tx.elements.edge_count(lids))
            if len(q.props) == 1 and qp.primary_key_ids(self.schema, q, lids) is None:
                plan = qp.index_plan(self.schema, q, lids)
                if plan is not None and not plan.ranges and len(plan.eq) == 1:
                    # one equality index whose entries are exactly the matches (a TEXT or
                    # integer key and values of its kind: not NaN, -0.0, multi-properties)
                    key, p = plan.condition
                    exact = eqr.exact_value_types(self.schema.property_key(key), plan.indexes, True)
                    if exact and all(type(v) in exact for v in eqr.values_sought(p)):
                        index_id, values = plan.eq[0]
                        return int(self.tx.index.read(IndexQuery(index_id, project=IndexProject.COUNT), values)) if values else 0
        return sum(1 for _ in self._run(q, None))

    def _run(self, q: qp.Query, limit: int | None) -> Iterator[Any]:
        if q.empty or (limit is not None and limit <= 0):
            return iter(())
        if q.ids is not None:
            return self._limited(self._by_ids(q), limit)
        lids = qp.label_ids(self.schema, q)
        if lids is not None and not lids:
            return iter(())
        pk_ids = qp.primary_key_ids(self.schema, q, lids)
        if pk_ids is not None:
            q.ids = pk_ids
            return self._limited(self._by_ids(q, lids), limit)
        plan = qp.index_plan(self.schema, q, lids) if q.props else None
        if plan is not None:
            return self._limited(self._by_index(q, plan, lids), limit)
        return self._scan(q, lids, limit)

    @staticmethod
    def _limited(it: Iterator[Any], limit: int | None) -> Iterator[Any]:
        if limit is None:
            yield from it
            return
        n = 0
        for x in it:
            yield x
            n += 1
            if n >= limit:
                return

    def _matches(self, q: qp.Query, el: Any) -> bool:
        if q.kind == "vertex":
            if q.props and el._props is None:
                raw = self._raw.get(el.key, _NO_RAW) if el.key is not None else _NO_RAW
                if raw is not _NO_RAW:
                    return _matches_raw(q, el, raw)
                self.load([el])
            return qp.matches_vertex(q, el)
        return qp.matches_edge(q, el)

    def _by_ids(self, q: qp.Query, lids: list[int] | None = None) -> Iterator[Any]:
        assert q.ids is not None
        if lids is None and (q.label_names is not None or q.label_tests):
            lids = qp.label_ids(self.schema, q)
        allowed = set(lids) if lids is not None else None
        if q.kind == "vertex":
            wanted = [idc.lookup_id(i) for i in q.ids]
        else:
            wanted = [self._edge_lookup_id(i) for i in q.ids]
        keys = [idc.to_storage(w) for w in wanted if w is not None]
        alternates = self._numeric_alternates(wanted) if self.schema.auto else {}
        keys.extend(idc.to_storage(a) for a in alternates.values())
        if q.kind == "vertex":
            rows = self.tx.elements.find(Lookup.VERTICES_BY_IDS, keys)
        else:
            rows = edge_rows(self.tx, keys, self.schema.auto)
        make = self._vertex if q.kind == "vertex" else None
        by_id = {r.id: r for r in rows if allowed is None or r.label_id in allowed}
        for text, number in alternates.items():
            if text not in by_id and int(number) in by_id:
                by_id[text] = by_id[int(number)]
        if q.kind == "vertex":
            elements = {rid: make(r) for rid, r in by_id.items()}  # type: ignore[misc]
        else:
            built = self._edges_from_rows(list(by_id.values()))
            elements = {rid: e for rid, e in zip(by_id, built, strict=True)}
        for w in wanted:
            if w is None:
                continue
            el = elements.get(idc.to_storage(w))
            if el is not None and self._matches(q, el):
                yield el

    @staticmethod
    def _numeric_alternates(wanted: list[Any]) -> dict[str, Any]:
        """Auto mode finds the Long id 1 when asked for "1", as TinkerGraph's id managers
        convert ids given as strings."""
        out = {}
        for w in wanted:
            if isinstance(w, str) and _DECIMAL.fullmatch(w) and LONG_MIN <= (n := int(w)) <= LONG_MAX:
                out[w] = Long(n)  # past a Java long a text id has no number twin
        return out

    def _by_index(self, q: qp.Query, plan: qp.IndexPlan, lids: list[int] | None) -> Iterator[Any]:
        keys: set[int] = set()
        for index_id, values in plan.eq:
            if values:
                keys.update(self.tx.index.read(IndexQuery(index_id), values))
        for index_id, lo, hi, lo_incl, hi_incl in plan.ranges:
            keys.update(self.tx.index.read(IndexQuery(index_id, True, lo_incl=lo_incl, hi_incl=hi_incl), (lo, hi)))
        allowed = set(lids) if lids is not None else None
        ordered = sorted(keys)
        for start in range(0, len(ordered), PAGE):
            chunk = ordered[start:start + PAGE]
            if q.kind == "vertex":
                rows = [r for r in self.tx.elements.find(Lookup.VERTICES_BY_KEYS, chunk) if allowed is None or r.label_id in allowed]
                batch: list[Any] = [self._vertex(r) for r in rows]
            else:
                rows = [r for r in self.tx.elements.find(Lookup.EDGES_BY_KEYS, chunk) if allowed is None or r.label_id in allowed]
                batch = self._edges_from_rows(rows)
            for el in sorted(batch, key=lambda x: x.key):
                if self._matches(q, el):
                    yield el

    def _scan(self, q: qp.Query, lids: list[int] | None, limit: int | None) -> Iterator[Any]:
        filtered = bool(q.props or q.id_tests or q.label_tests)
        page = PAGE if filtered or limit is None else min(PAGE, limit)
        after: int | None = None
        produced = 0
        scan = self.tx.elements.vertices_scan if q.kind == "vertex" else self.tx.elements.edges_scan
        while True:
            rows = scan(lids, after, page)
            if not rows:
                return
            after = rows[-1].key
            if q.kind == "vertex":
                batch: list[Any] = [self._vertex(r) for r in rows]
            else:
                batch = self._edges_from_rows(rows)
            for el in batch:
                if not filtered or self._matches(q, el):
                    yield el
                    produced += 1
                    if limit is not None and produced >= limit:
                        return
            if len(rows) < page:
                return
            if self._drop_scanned():
                self._vertices.clear()
                self._edges.clear()
                self._raw.clear()

    def _drop_scanned(self) -> bool:
        """Whether a scan should forget what it cached before reading its next page: a
        whole-graph `V().groupCount().by(k)` must not keep every vertex alive for the call.
        Only in read-only transactions (nothing written can go stale), and only once the
        cache is big; identity then holds as after `_trim`: elements stay equal by id, and a
        vertex met again is rebuilt from its row."""
        if len(self._vertices) + len(self._edges) <= SCAN_CACHE_LIMIT:
            return False
        return bool(self.tx.readonly)

    # ---- adjacency ----------------------------------------------------------------------
    def _positions(self, vertices: Sequence[Vertex]) -> dict[int, list[int]]:
        self._resolve_vertices(vertices)
        pos: dict[int, list[int]] = {}
        for i, v in enumerate(vertices):
            if v.key is not None:
                pos.setdefault(v.key, []).append(i)
        return pos

    def _hop_query(self, direction: Any, labels: Sequence[str]) -> AdjacencyQuery:
        """The adjacency query of one `out/in/both(labels)` hop, derived once per schema
        snapshot and hop shape (label ids and direction are the schema's, not the request's)
        when every name is an edge label; a hop naming one that is not is made per call, so
        names a client sends cannot grow the cache."""
        shape = labels if type(labels) is tuple else tuple(labels)
        schema = self.schema
        # the ids empty, so no row, when no name is a label
        query: AdjacencyQuery = schema.derived_for_edge_labels(
            ("hop query", direction, shape), (shape,),
            lambda: AdjacencyQuery(storage_direction(direction), schema.edge_label_filter(shape)))
        return query

    def adjacent_vertices(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[tuple[int, Vertex]]:
        self._trim()
        pos = self._positions(vertices)
        lids = self.schema.edge_label_filter(labels)
        if not pos or (lids is not None and not lids):
            return []
        pairs = self.tx.adjacency.read(AdjacencyQuery(storage_direction(direction), lids, None, Project.PAIRS), list(pos))
        neighbours = self._vertices_by_keys({to for _, to in pairs})
        grouped: dict[int, list[Vertex]] = {}
        for frm, to in pairs:
            n = neighbours.get(to)
            if n is not None:
                grouped.setdefault(frm, []).append(n)
        return self._spread(vertices, grouped)

    def adjacent_heads(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[tuple[int, Vertex]]:
        """`adjacent_vertices` for a consumer that reads only ids/labels (`out().id()`):
        one statement joins the neighbours' ids and labels, never their property JSON. A
        vertex built here has no raw row; `load` fetches it if asked after all."""
        d = storage_direction(direction)
        if d == "both":
            return self.adjacent_vertices(vertices, direction, labels)
        self._trim()
        pos = self._positions(vertices)
        lids = self.schema.edge_label_filter(labels)
        if not pos or (lids is not None and not lids):
            return []
        cache = self._vertices
        label_name = self.schema.vertex_label_by_id
        grouped: dict[int, list[Vertex]] = {}
        for frm, to, vid, lid in self.tx.adjacency.read(AdjacencyQuery(d, lids, None, Project.HEADS), list(pos)):
            n = cache.get(to)
            if n is None:
                n = cache[to] = Vertex(idc.from_storage(vid), label_name(lid).name, to)
            grouped.setdefault(frm, []).append(n)
        return self._spread(vertices, grouped)

    def adjacent_counts(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[int]:
        """Per input vertex, how many neighbours `adjacent_vertices` would give it, answered
        from the adjacency index alone: `out().count()` needs no neighbour row. Storage
        cascades vertex deletes to edges, so every edge counted has its neighbour."""
        self._trim()
        pos = self._positions(vertices)
        lids = self.schema.edge_label_filter(labels)
        if not pos or (lids is not None and not lids):
            return [0] * len(vertices)
        counts = self.tx.adjacency.read(AdjacencyQuery(storage_direction(direction), lids, None, Project.COUNTS), list(pos))
        return [counts.get(v.key, 0) if v.key is not None else 0 for v in vertices]

    def adjacent_edges(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[tuple[int, Edge]]:
        self._trim()
        pos = self._positions(vertices)
        lids = self.schema.edge_label_filter(labels)
        if not pos or (lids is not None and not lids):
            return []
        d = storage_direction(direction)
        grouped: dict[int, list[Edge]] = {}
        # 'both' asks for each side on its own: the rows of one statement do not say which
        # input vertex they belong to when both ends are in the batch
        for side in ("out", "in") if d == "both" else (d,):
            rows = self.tx.adjacency.read(AdjacencyQuery(side, lids), list(pos))
            owner = "out_key" if side == "out" else "in_key"
            for r, e in zip(rows, self._edges_from_rows(rows), strict=True):
                grouped.setdefault(getattr(r, owner), []).append(e)
        return self._spread(vertices, grouped)

    @staticmethod
    def _spread(vertices: Sequence[Vertex], grouped: dict[int, list[Any]]) -> list[tuple[int, Any]]:
        out: list[tuple[int, Any]] = []
        get = grouped.get
        for i, v in enumerate(vertices):
            items = get(v.key)  # type: ignore[arg-type]
            if items:
                out += [(i, x) for x in items]
        return out


_NO_RAW: Any = object()


def _matches_raw(q: qp.Query, v: Vertex, raw: Any) -> bool:
    """`qp.matches_vertex` on a vertex whose property JSON is still raw: only the keys the
    conditions name are decoded, and the vertex stays unloaded (a filtered scan or an index
    hit re-tested here never builds every property of every candidate)."""
    return qp.matches_head(q, v) and _props_match_raw(q.props, raw)


def _props_match_raw(props: Sequence[tuple[str, Any]], raw: Any) -> bool:
    """Whether the property JSON `raw` satisfies every (key, P) of `props` (some value of a
    multi-property passes), decoding only those keys' values."""
    doc = orjson.loads(raw) if raw else {}
    for key, p in props:
        entry = doc.get(key, _NO_RAW)
        if entry is _NO_RAW:
            return False
        entries = entry if type(entry) is list else (entry,)
        if not any(p.test(entry_value(e)) for e in entries):
            return False
    return True
