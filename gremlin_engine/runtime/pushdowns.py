"""The optional `GraphAccess` aggregates that storage answers in one statement.

Steps look these up on the access's class (`walk_count`, `walk_count_all`, `group_counts`;
the walk count from one id also `walk_count_from_id`), so filtering
views (which wrap an access through `__getattr__`) and the in-memory test graph never
offer them and take the general path. Each returns None when it cannot answer (an old
SQLite, props that are not JSON text on SQLite, a PostgreSQL database not in UTF8 for a
group count by key, an interrupted statement): the caller then checks its
cancel token and runs the ordinary steps, so an aggregate here can only ever be faster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson

from gremlin_engine.runtime import query as qp
from gremlin_engine.runtime.reads import storage_direction, stored_id
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.values import decode_value, decode_vertex_entry
from gremlin_engine.traversal.tokens import Direction, T
from storage import CHAIN_MAX_HOPS, AggregateUnsupported, GroupCount, Tx, WalkCount, WalkStart

#: start vertices per `walk_count` statement (counts add up, so chunks are independent)
WALK_CHUNK = 5000


class PushdownsMixin:
    """Mixed into `StoreAccess`; uses its `tx`, `schema` and the loader's key resolution."""

    tx: Tx
    schema: Any

    def walk_count(
        self,
        starts: Sequence[tuple[Vertex, int]],
        hops: Sequence[tuple[Direction, Sequence[str]]],
        stop: Callable[[], bool] | None = None,
    ) -> int | None:
        """The number of walks `out/in/both(labels)` x len(hops) make from `starts`
        ((vertex, bulk) pairs): what iterating the vertex steps and summing the bulk of
        what comes out gives, without building a traverser or reading a vertex row."""
        vertices = [v for v, _ in starts]
        self._resolve_vertices(vertices)  # type: ignore[attr-defined]
        merged: dict[int, int] = {}
        for v, bulk in starts:
            if v.key is not None:
                merged[v.key] = merged.get(v.key, 0) + bulk
        query = self._walk_query(hops, WalkStart.PAIRS)
        if query.hops is None:
            return 0
        items = list(merged.items())
        total = 0
        try:
            for start in range(0, len(items), WALK_CHUNK):
                n = self.tx.aggregates.count(query, items[start : start + WALK_CHUNK], stop)
                if n is None:
                    return None
                total += n
        except AggregateUnsupported:
            return None
        return total

    def walk_count_from_id(
        self, ident: Any, hops: Sequence[tuple[Direction, Sequence[str]]], stop: Callable[[], bool] | None = None,
    ) -> int | None:
        """`walk_count([(V(ident), 1)], hops)` in ONE statement that finds the start vertex
        by id as well (`Aggregates.count` from `WalkStart.ID`): 0 when `V(ident)` finds nothing. None when it cannot
        answer: auto mode (`V(id)` also tries alternate ids there), more hops than one
        statement takes, an old SQLite, or `stop` interrupted it. The start is found in
        storage, as `vertices([ident])` finds it (the walk reads storage only either way)."""
        if self.schema.auto or len(hops) > CHAIN_MAX_HOPS:
            return None
        key = stored_id(ident)
        if key is None:
            return 0
        query = self._walk_query(hops, WalkStart.ID)
        if query.hops is None:
            return 0
        try:
            return self.tx.aggregates.count(query, key, stop)
        except AggregateUnsupported:
            return None

    def walk_count_all(
        self,
        labels: Sequence[str] | None,
        hops: Sequence[tuple[Direction, Sequence[str]]],
        stop: Callable[[], bool] | None = None,
    ) -> int | None:
        """`walk_count` from every vertex (with one of `labels`, when given), each once:
        `g.V().out().out().count()` without building a vertex for the start either."""
        q = qp.split("vertex", None, labels, ())
        if q.empty:
            return 0
        lids = qp.label_ids(self.schema, q)
        if lids is not None and not lids:
            return 0
        query = self._walk_query(hops, WalkStart.ALL, lids)
        if query.hops is None:
            return 0
        try:
            return self.tx.aggregates.count(query, None, stop)
        except AggregateUnsupported:
            return None

    def _walk_query(
        self, hops: Sequence[tuple[Direction, Sequence[str]]], start: WalkStart, start_labels: Sequence[int] | None = None,
    ) -> WalkCount:
        """The `WalkCount` of `hops` from `start` (its `hops` None when a hop's labels are all
        unknown: no walk gets past it), per schema snapshot and walk shape as
        `SchemaBridge.derived_for_edge_labels` keeps it."""
        shape = hops if type(hops) is tuple else tuple((d, tuple(labels)) for d, labels in hops)
        starts = None if start_labels is None else tuple(start_labels)
        lids = self.schema.edge_label_filter
        query: WalkCount = self.schema.derived_for_edge_labels(
            ("walk count", start, starts, shape), [labels for _, labels in shape],
            lambda: WalkCount([(storage_direction(d), lids(labels)) for d, labels in shape], start, starts))
        return query

    def group_counts(
        self,
        kind: str,
        labels: Sequence[str] | None,
        key: Any,
        missing: Any,
        stop: Callable[[], bool] | None = None,
    ) -> list[tuple[Any, int]] | None:
        """(value, number of elements) for `V()/E()[.hasLabel(labels)].groupCount().by(key)`
        with `key` a property name (its first value; `missing` for elements without it) or
        `T.label`, in the order a scan meets each value first. Values equal as Java objects
        may come in several groups (their JSON differs); the caller merges them."""
        q = qp.split(kind, None, labels, ())
        if q.empty:
            return []
        lids = qp.label_ids(self.schema, q)
        if lids is not None and not lids:
            return []
        try:
            if key is T.label:
                rows = self.tx.aggregates.groups(GroupCount(kind, lids), stop)
                if rows is None:
                    return None
                name = self.schema.vertex_label_by_id if kind == "vertex" else self.schema.edge_label_by_id
                return [(name(lid).name, n) for lid, n in rows]
            groups = self.tx.aggregates.groups(GroupCount(kind, lids, key), stop)
        except AggregateUnsupported:
            return None
        if groups is None:
            return None
        out: list[tuple[Any, int]] = []
        for text, n in groups:
            if text is None:
                out.append((missing, n))
            elif kind == "vertex":
                out.append((decode_vertex_entry(orjson.loads(text), missing), n))
            else:
                out.append((decode_value(orjson.loads(text)), n))
        return out
