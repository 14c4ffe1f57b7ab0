"""Adjacency: the incident edges (or just neighbour keys) of a whole batch of vertices.

One statement answers the whole batch: the vertex keys travel as one JSON array read by
``json_each(?)``, which drives a nested loop over the adjacency index
``ix_edges_out (out_key, label_id, sort_values, in_key)`` / ``ix_edges_in``. Rows come back
ordered by (position of the vertex key in the input, label_id, sort_values, other key, edge
key), so parallel edges keep insertion order; for 'both' the out-edges of a vertex precede
its in-edges, so a self-loop appears twice, as in TinkerPop. Each distinct input key is answered once, at its first position.

Ties (parallel edges) are broken by insertion order: on the out side by ``dup`` (the last
column of the unique ``ix_edges_out``, equal to the edge key for id-identified edges and 0
for HugeGraph ones, which cannot tie), on the in side by the key (the rowid ending every
entry of ``ix_edges_in``). Naming the index's own last column keeps the ORDER BY a walk of
the index, with no sort (`TIE`).

`limit_per_vertex` is pushed into SQL as a correlated ``LIMIT`` sub-select per vertex, so a
vertex with a million edges costs `limit` index steps, not a million.

The statements themselves are built in `storage/adjacency_sql.py` (this module binds and
runs them; their names stay importable from here).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from storage._sql import json_keys, unique
from storage.adjacency_sql import (
    IDS_OF_KEYS_SQL,
    OTHER_ID,
    SIDES,
    WIDTH,
    adjacent_sql,
    count_sql,
    heads_sql,
    joining_sql,
    loop_ordered,
    neighbour_ids_sql,
    one_key_sql,
    one_target_sql,
    per_key_sql,
    targets_sql,
    to_key_ids_sql,
    to_keys_sql,
)
from storage.errors import StoreError
from storage.queries import AdjacencyQuery, Project
from storage.rows import EdgeRow, make_edge
from storage.tx_base import TxCore
from storage.values import encode


def _start_keys(q: AdjacencyQuery, keys: Iterable[int]) -> list[int]:
    """The distinct start keys of an adjacency read, or none when the read can have no row
    (no keys, an empty label set, a per-vertex limit of 0 or less): every reader answers
    that case without SQL."""
    return [] if q.empty else unique(keys)


class Adjacency:
    """The adjacency family of a transaction: `read` runs an `AdjacencyQuery` over a batch
    of vertex keys, `from_id` over one vertex named by its stored id, `joining` finds the
    edge each (from, to) pair takes. Each projection has one private reader below; the
    statements they run are built per shape in `adjacency_sql` and cached there."""

    __slots__ = ("core", "raw", "cur", "pg")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw
        self.cur = core.cur  # statements read to their end at once (`TxCore.cur`)
        #: PostgreSQL: every statement says its ORDER BY (no loop order to rely on), and the
        #: projections SQLite reads as JSON arrays are taken from ordered pairs
        self.pg = core.dialect.pg

    def read(self, query: AdjacencyQuery, keys: Iterable[int]) -> Any:
        """`query`'s projection (`Project`) of the incident edges of every vertex in `keys`,
        ordered by (input position, label_id, sort_values, other key), each distinct key
        answered once at its first position; for 'both' out-edges come first and a
        self-loop appears twice. ``NEIGHBOUR_IDS`` takes `from_id`, not this."""
        return _READERS[query.project](self, query, keys)

    def from_id(self, query: AdjacencyQuery, vertex_id: Any) -> list[tuple[int, Any]]:
        """(start key, neighbour id) per edge of the vertex whose stored id is `vertex_id`,
        in ``PAIRS`` order for one vertex, by one statement: the start id resolved and the
        adjacency index walked, which holds the neighbours' ids on the out side (layout v3;
        the in side joins them by key, see `tables.IN_SIDE_IDS`). Empty when the vertex
        does not exist, has no such edge, or the label set is empty: `g.V(id).out('knows').id()`
        (`steps/point.py`). The query's per-vertex limit and projection are not used."""
        d, labels = query.direction, query.labels
        if labels is None:
            labels = ()  # the statements' "any label" (`AdjacencyQuery.label_key`)
        elif not labels:
            return []
        if self.pg:
            vertex_id = encode(vertex_id)
        rows = self.cur.execute(neighbour_ids_sql(d, labels), (vertex_id,) * len(SIDES[d])).fetchall()
        if d == "both":
            return [(r[0], r[1]) for r in rows]
        return rows

    def joining(self, query: AdjacencyQuery, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], EdgeRow]:
        """(from_key, to_key) -> the first edge of `query`'s direction and labels leading
        from `from_key` to `to_key` in adjacency order (for 'both' an out-edge before an
        in-edge); pairs no edge joins are left out. Which edge a path step takes, without
        reading the other edges of either vertex (the traverser path responses)."""
        wanted = unique((int(a), int(b)) for a, b in pairs)
        if not wanted or (query.labels is not None and not query.labels):
            return {}
        labels = query.label_key
        found: dict[tuple[int, int], EdgeRow] = {}
        for this, other in SIDES[query.direction]:
            todo = [p for p in wanted if p not in found]
            if not todo:
                break
            arg = json.dumps(todo)  # [[this key, other key], ...]: p.key is the pair's position
            for r in self.raw.execute(joining_sql(this, other, labels, self.pg), [arg]).fetchall():
                found[todo[r[0]]] = make_edge(r[1:])
        return found

    # ---- one reader per projection --------------------------------------------------------
    def _rows(self, q: AdjacencyQuery, keys: Iterable[int], keys_only: bool) -> tuple[list[Any], bool]:
        """The raw rows, and whether they carry trailing sort columns ('both')."""
        d = q.direction
        wanted = _start_keys(q, keys)
        if not wanted:
            return [], False
        limited = q.per_vertex is not None
        if len(wanted) == 1 and d != "both" and not limited:
            sql = one_key_sql(d, q.label_key, keys_only)
            params = [int(wanted[0])]
        else:
            sql = adjacent_sql(d, q.label_key, limited, keys_only, self.pg)
            params = _side_params(d, wanted, q.per_vertex)
        rows = self.cur.execute(sql, params).fetchall()
        if d != "both":
            return rows, False
        if limited:
            rows = _trim_per_vertex(rows, WIDTH[keys_only], int(q.per_vertex))  # type: ignore[arg-type]
        return rows, True

    def _edges(self, q: AdjacencyQuery, keys: Iterable[int]) -> list[EdgeRow]:
        rows, wide = self._rows(q, keys, False)
        make = make_edge
        if wide:
            return [make(r[:7]) for r in rows]
        return list(map(make, rows))

    def _pairs(self, q: AdjacencyQuery, keys: Iterable[int]) -> list[tuple[int, int]]:
        """Read from the adjacency index alone (no edge row is touched)."""
        rows, wide = self._rows(q, keys, True)
        if wide:
            return [(r[0], r[1]) for r in rows]
        return rows

    def _to_keys(self, q: AdjacencyQuery, keys: Iterable[int]) -> list[int]:
        """One direction with one label or none reads the to keys as JSON arrays: one
        without a per-vertex limit (`to_keys_sql`), one per key with one (`per_key_sql`);
        other shapes take `_pairs`."""
        d, labels, limit = q.direction, q.label_key, q.per_vertex
        if self.pg:
            return [to for _, to in self._pairs(q, keys)]
        if d != "both" and limit is not None and len(labels) <= 1:
            wanted = _start_keys(q, keys)
            if not wanted:
                return []
            return self._per_key_lists(d, labels, [int(k) for k in wanted], limit)
        if d == "both" or limit is not None or not loop_ordered(labels, False):
            return [to for _, to in self._pairs(q, keys)]
        wanted = _start_keys(q, keys)
        if not wanted:
            return []
        one = len(wanted) == 1
        params: list[Any] = [int(wanted[0])] if one else [orjson.dumps([int(k) for k in wanted]).decode()]
        return orjson.loads(self.cur.execute(to_keys_sql(d, labels, one), params).fetchone()[0])  # type: ignore[no-any-return]

    def _to_key_ids(self, q: AdjacencyQuery, keys: Iterable[int]) -> tuple[list[int], dict[int, Any]]:
        """One statement reads both from the covering adjacency index where it holds the
        far id (layout v3: 'out'; one label or none, no per-vertex limit); otherwise, and
        for ids JSON cannot hold (UUID blobs), the ids are read by key after the keys."""
        d, labels = q.direction, q.label_key
        if (d != "both" and q.per_vertex is None and OTHER_ID[SIDES[d][0][0]] is not None
                and loop_ordered(labels, False) and not self.pg):
            wanted = _start_keys(q, keys)
            if not wanted:
                return [], {}
            try:
                row = self.raw.execute(to_key_ids_sql(d, labels), (orjson.dumps([int(k) for k in wanted]).decode(),))
                tos_text, ids_text = row.fetchone()
            except sqlite3.OperationalError as e:
                if "BLOB" not in str(e):
                    raise
            else:
                tos = orjson.loads(tos_text)
                return tos, dict(zip(tos, orjson.loads(ids_text), strict=True))
        tos = self._to_keys(q, keys)
        distinct = list(dict.fromkeys(tos))
        if not distinct:
            return tos, {}
        return tos, dict(self.raw.execute(IDS_OF_KEYS_SQL, (orjson.dumps(distinct).decode(),)).fetchall())

    def _per_key_lists(self, d: str, labels: tuple[int, ...], wanted: list[Any], limit: int) -> list[int]:
        """The to keys of a per-vertex-limited read of one direction and one label or none,
        in ``PAIRS`` order (`per_key_sql`: one JSON array per key)."""
        tos: list[int] = []
        loads = orjson.loads
        for (array,) in self.raw.execute(per_key_sql(d, labels), (int(limit), orjson.dumps(wanted).decode())):
            tos += loads(array)
        return tos

    def _counts(self, q: AdjacencyQuery, keys: Iterable[int]) -> dict[int, int]:
        """For 'both' a self-loop counts twice, as ``EDGES`` lists it twice; keys with no
        edges map to 0. The per-vertex limit is not used."""
        wanted = unique(keys) if not (q.labels is not None and not q.labels) else []
        if not wanted:
            return {}
        return dict(self.cur.execute(count_sql(q.direction, q.label_key), [json_keys(wanted)]).fetchall())

    def _heads(self, q: AdjacencyQuery, keys: Iterable[int]) -> list[tuple[int, int, Any, int]]:
        """The neighbours' identities joined in by primary key, without their props (the
        form for `out().id()`); direction 'out' or 'in'."""
        if q.direction == "both":
            raise StoreError("an adjacency read projecting HEADS takes direction 'out' or 'in'")
        wanted = _start_keys(q, keys)
        if not wanted:
            return []
        return self.cur.execute(heads_sql(q.direction, q.label_key, self.pg), [json_keys(wanted)]).fetchall()

    def _targets(self, q: AdjacencyQuery, keys: Iterable[int]) -> list[int]:
        """The multiset of ``TO_KEYS`` (one entry per edge, each vertex's first
        `per_vertex` edges in adjacency order), in no particular order: for callers that
        only count the neighbours (k-hop reaches)."""
        d, limit = q.direction, q.per_vertex
        if (d == "both" and limit is not None) or self.pg:  # the limit spans both sides: trimmed in order
            return [to for _, to in self._pairs(q, keys)]
        wanted = _start_keys(q, keys)
        if not wanted:
            return []
        labels = q.label_key
        if limit is not None and d != "both" and len(labels) <= 1:
            return self._per_key_lists(d, labels, [int(k) for k in wanted], limit)
        if len(wanted) == 1 and d != "both" and limit is None:
            sql = one_target_sql(d, labels)
            params = [int(wanted[0])]
        else:
            sql = targets_sql(d, labels, limit is not None)
            params = _side_params(d, wanted, limit)
        return orjson.loads(self.raw.execute(sql, params).fetchone()[0])  # type: ignore[no-any-return]


_READERS: dict[Project, Callable[[Adjacency, AdjacencyQuery, Iterable[int]], Any]] = {
    Project.EDGES: Adjacency._edges,
    Project.PAIRS: Adjacency._pairs,
    Project.TO_KEYS: Adjacency._to_keys,
    Project.TO_KEY_IDS: Adjacency._to_key_ids,
    Project.TARGETS: Adjacency._targets,
    Project.HEADS: Adjacency._heads,
    Project.COUNTS: Adjacency._counts,
}


def _trim_per_vertex(rows: list[Any], pos_col: int, limit: int) -> list[Any]:
    """Keep the first `limit` rows of each input position (rows are ordered by position)."""
    out = []
    current, seen = None, 0
    for r in rows:
        pos = r[pos_col]
        if pos != current:
            current, seen = pos, 0
        if seen < limit:
            out.append(r)
        seen += 1
    return out


def _side_params(d: str, wanted: list[Any], limit_per_vertex: int | None) -> list[Any]:
    """The parameters of an adjacency statement: the key list (and the per-vertex limit)
    once per side it reads (`both` reads two). The array is `json_keys`' (ints), written
    by orjson (~30x faster than json.dumps at ten keys)."""
    arg = orjson.dumps([int(k) for k in wanted]).decode()
    params: list[Any] = []
    for _ in SIDES[d]:
        params.append(arg)
        if limit_per_vertex is not None:
            params.append(int(limit_per_vertex))
    return params
