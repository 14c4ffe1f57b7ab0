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
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import orjson

from storage._sql import json_keys, label_filter, label_key, unique
from storage.adjacency_sql import (  # noqa: F401 - the SQL builders, importable from here as before
    _E_COLS,
    _IDS_OF_KEYS_SQL,
    _SIDES,
    _VERTEX_KEY_SQL,
    _WIDTH,
    OTHER_ID,
    TIE,
    _adjacent_sql,
    _count_sql,
    _direction,
    _heads_sql,
    _joining_sql,
    _json_list,
    _loop_ordered,
    _one_key_sql,
    _one_target_sql,
    _per_key_sql,
    _side_sql,
    _targets_sql,
    _to_key_ids_sql,
    _to_keys_sql,
    tie,
)
from storage.errors import StoreError
from storage.rows import EdgeRow
from storage.tx_base import TxCore


def _start_keys(keys: Iterable[int], label_ids: Sequence[int] | None, limit_per_vertex: int | None = None) -> list[int]:
    """The distinct start keys of an adjacency read, or none when the read can have no row
    (no keys, an empty label set, a per-vertex limit of 0 or less): every read method
    answers that case without SQL."""
    if (label_ids is not None and len(label_ids) == 0) or (limit_per_vertex is not None and limit_per_vertex <= 0):
        return []
    return unique(keys)


def _far_id(this: str, other: str) -> tuple[str, str]:
    """(the select expression of the other end's id, the join that gives it): the adjacency
    index's own copy where it holds one (layout v3: covering, no row of `edges` or
    `vertices` read), else a primary-key probe of `vertices` per edge."""
    col = OTHER_ID[this]
    if col is not None:
        return f"e.{col}", ""
    return "v.id", f" CROSS JOIN vertices AS v ON v.key = e.{other}"


@lru_cache(maxsize=128)
def _neighbour_ids_sql(direction: str, labels: tuple[int, ...]) -> str:
    """`neighbour_ids`' statement: one start vertex by public id; the CROSS JOINs pin the
    loop order (id index probe, then one range of the adjacency index, then the other
    end's id: `_far_id`)."""
    sides = _SIDES[direction]
    parts = []
    for dir_no, (this, other) in enumerate(sides):
        far, join = _far_id(this, other)
        head = (
            f"SELECT s.key, {far}{{tail}} FROM vertices AS s CROSS JOIN edges AS e ON e.{this} = s.key"
            f"{label_filter('e.label_id', labels)}{join} WHERE s.id = ?"
        )
        if len(sides) == 1:
            return head.format(tail="") + f" ORDER BY e.label_id, e.sort_values, e.{other}, {tie('e', this)}"
        tail = f", {dir_no} AS d, e.label_id AS o_label, e.sort_values AS o_sort, e.{other} AS other, e.{TIE[this]} AS o_key"
        parts.append(head.format(tail=tail))
    return " UNION ALL ".join(parts) + " ORDER BY d, o_label, o_sort, other, o_key"


#: `vertex_ids`' statement: the CROSS JOIN keeps the keys' order, which the array follows
_IDS_JSON_SQL = "SELECT json_group_array(v.id) FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"


class Adjacency:
    __slots__ = ("core", "raw")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw

    def neighbour_ids(
        self, vertex_id: Any, direction: Any, label_ids: Sequence[int] | None = None,
    ) -> list[tuple[int, Any]]:
        """(start key, neighbour id) per edge of the vertex whose stored id is `vertex_id`
        (direction 'out', 'in' or 'both'), in `adjacent_keys`' order for one vertex, by one
        statement: the start id resolved and the adjacency index walked, which holds the
        neighbours' ids on the out side (layout v3; the in side joins them by key, see
        `tables.IN_SIDE_IDS`). Empty when the vertex does not exist, has no such edge, or
        `label_ids` is empty: `g.V(id).out('knows').id()` (`steps/point.py`)."""
        d = _direction(direction)
        if label_ids is not None and len(label_ids) == 0:
            return []
        rows = self.raw.execute(_neighbour_ids_sql(d, label_key(label_ids)), (vertex_id,) * len(_SIDES[d])).fetchall()
        if d == "both":
            return [(r[0], r[1]) for r in rows]
        return rows

    def vertex_key(self, stored_id: Any) -> int | None:
        """The key of the vertex whose stored id is `stored_id` (None: there is none), by the
        id index alone: where a walk starts (a traverser's source)."""
        row = self.raw.execute(_VERTEX_KEY_SQL, (stored_id,)).fetchone()
        return None if row is None else row[0]

    def vertex_ids(self, keys: Sequence[int]) -> list[Any]:
        """The stored ids of the vertices among `keys` that exist, in the order of `keys`
        (a key given twice gives its id twice): the ids-only projection of what a walk
        reached, without building rows (label, properties) as `vertices_by_keys` does.
        One statement whose answer is one JSON array (a row per id cost pysqlite a step
        and a tuple each); ids JSON cannot hold (UUID blobs) come back as rows instead."""
        if not keys:
            return []
        arg = orjson.dumps([int(k) for k in keys]).decode()
        try:
            return orjson.loads(self.raw.execute(_IDS_JSON_SQL, (arg,)).fetchone()[0])  # type: ignore[no-any-return]
        except sqlite3.OperationalError as e:
            if "BLOB" not in str(e):
                raise
        return [r[1] for r in self.raw.execute(_IDS_OF_KEYS_SQL, (arg,))]

    def _adjacent_rows(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None,
        limit_per_vertex: int | None, keys_only: bool,
    ) -> tuple[list[Any], bool]:
        """The raw rows, and whether they carry trailing sort columns ('both')."""
        d = _direction(direction)
        wanted = _start_keys(keys, label_ids, limit_per_vertex)
        if not wanted:
            return [], False
        limited = limit_per_vertex is not None
        if len(wanted) == 1 and d != "both" and not limited:
            sql = _one_key_sql(d, label_key(label_ids), keys_only)
            params = [int(wanted[0])]
        else:
            sql = _adjacent_sql(d, label_key(label_ids), limited, keys_only)
            params = _side_params(d, wanted, limit_per_vertex)
        rows = self.raw.execute(sql, params).fetchall()
        if d != "both":
            return rows, False
        if limited:
            rows = _trim_per_vertex(rows, _WIDTH[keys_only], int(limit_per_vertex))  # type: ignore[arg-type]
        return rows, True

    def adjacent(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
        limit_per_vertex: int | None = None,
    ) -> list[EdgeRow]:
        """Incident edges of every vertex in `keys` (direction 'out', 'in' or 'both').

        Ordered by (input position, label_id, sort_values, other key); for 'both' out-edges
        come first and a self-loop appears twice. `limit_per_vertex` keeps the first n edges
        of each vertex in that order (for 'both': n in total, out-edges first)."""
        rows, wide = self._adjacent_rows(keys, direction, label_ids, limit_per_vertex, False)
        make = EdgeRow._make
        if wide:
            return [make(r[:7]) for r in rows]
        return list(map(make, rows))

    def adjacent_keys(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
        limit_per_vertex: int | None = None,
    ) -> list[tuple[int, int]]:
        """(from_key, to_key) pairs in the same order as `adjacent`, read from the adjacency
        index alone (no edge row is touched): the form for `out()` without edge data."""
        rows, wide = self._adjacent_rows(keys, direction, label_ids, limit_per_vertex, True)
        if wide:
            return [(r[0], r[1]) for r in rows]
        return rows

    def adjacent_to_keys(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
        limit_per_vertex: int | None = None,
    ) -> list[int]:
        """The to-keys of `adjacent_keys` (same arguments), in its order: for callers that
        want the neighbours in adjacency order but not which vertex each came from (k-out /
        k-neighbor ids). One direction with one label or none reads them as JSON arrays: one
        without a per-vertex limit (`_to_keys_sql`), one per key with one (`_per_key_sql`);
        other shapes take `adjacent_keys`."""
        d = _direction(direction)
        labels = label_key(label_ids)
        if d != "both" and limit_per_vertex is not None and len(labels) <= 1:
            wanted = _start_keys(keys, label_ids, limit_per_vertex)
            if not wanted:
                return []
            return self._per_key_lists(d, labels, [int(k) for k in wanted], int(limit_per_vertex))
        if d == "both" or limit_per_vertex is not None or not _loop_ordered(labels, False):
            return [to for _, to in self.adjacent_keys(keys, d, label_ids, limit_per_vertex)]
        wanted = _start_keys(keys, label_ids)
        if not wanted:
            return []
        one = len(wanted) == 1
        params: list[Any] = [int(wanted[0])] if one else [orjson.dumps([int(k) for k in wanted]).decode()]
        return orjson.loads(self.raw.execute(_to_keys_sql(d, labels, one), params).fetchone()[0])  # type: ignore[no-any-return]

    def adjacent_to_key_ids(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
        limit_per_vertex: int | None = None,
    ) -> tuple[list[int], dict[int, Any]]:
        """`adjacent_to_keys` (same arguments, same list) and the stored id of each far end
        reached (key -> id): the keys-and-ids projection of a walk's listed layer. One
        statement reads both from the covering adjacency index where it holds the far id
        (layout v3: 'out'; one label or none, no per-vertex limit); otherwise, and for ids
        JSON cannot hold (UUID blobs), the ids are read by key after the keys."""
        d = _direction(direction)
        labels = label_key(label_ids)
        if (d != "both" and limit_per_vertex is None and OTHER_ID[_SIDES[d][0][0]] is not None
                and _loop_ordered(labels, False)):
            wanted = _start_keys(keys, label_ids)
            if not wanted:
                return [], {}
            try:
                row = self.raw.execute(_to_key_ids_sql(d, labels), (orjson.dumps([int(k) for k in wanted]).decode(),))
                tos_text, ids_text = row.fetchone()
            except sqlite3.OperationalError as e:
                if "BLOB" not in str(e):
                    raise
            else:
                tos = orjson.loads(tos_text)
                return tos, dict(zip(tos, orjson.loads(ids_text), strict=True))
        tos = self.adjacent_to_keys(keys, d, label_ids, limit_per_vertex)
        distinct = list(dict.fromkeys(tos))
        if not distinct:
            return tos, {}
        return tos, dict(self.raw.execute(_IDS_OF_KEYS_SQL, (orjson.dumps(distinct).decode(),)).fetchall())

    def _per_key_lists(self, d: str, labels: tuple[int, ...], wanted: list[Any], limit: int) -> list[int]:
        """The to-keys of a per-vertex-limited read of one direction and one label or none,
        in `adjacent_keys`' order (`_per_key_sql`: one JSON array per key)."""
        tos: list[int] = []
        loads = orjson.loads
        for (array,) in self.raw.execute(_per_key_sql(d, labels), (int(limit), orjson.dumps(wanted).decode())):
            tos += loads(array)
        return tos

    def adjacent_counts(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
    ) -> dict[int, int]:
        """key -> number of incident edges (direction 'out', 'in' or 'both'; for 'both' a
        self-loop counts twice, as `adjacent` lists it twice). Keys with no edges map to 0.
        The form for `out().count()`: the count alone, from the adjacency index."""
        d = _direction(direction)
        wanted = _start_keys(keys, label_ids)
        if not wanted:
            return {k: 0 for k in wanted}
        sql = _count_sql(d, label_key(label_ids))
        return dict(self.raw.execute(sql, [json_keys(wanted)]).fetchall())


    def adjacent_heads(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
    ) -> list[tuple[int, int, Any, int]]:
        """(from_key, to_key, to_id, to_label_id) in the order of `adjacent_keys`, direction
        'out' or 'in': the neighbours' identities joined in by primary key, without their
        props (the form for `out().id()`)."""
        d = _direction(direction)
        if d == "both":
            raise StoreError("adjacent_heads takes direction 'out' or 'in'")
        wanted = _start_keys(keys, label_ids)
        if not wanted:
            return []
        return self.raw.execute(_heads_sql(d, label_key(label_ids)), [json_keys(wanted)]).fetchall()


    def adjacent_targets(
        self, keys: Iterable[int], direction: Any, label_ids: Sequence[int] | None = None,
        limit_per_vertex: int | None = None,
    ) -> list[int]:
        """The `to_key` column of `adjacent_keys` (same multiset: one entry per edge, a
        vertex's first `limit_per_vertex` edges in adjacency order), in no particular order.
        For callers that only need the set of neighbours (counting k-hop reaches, H5)."""
        d = _direction(direction)
        if d == "both" and limit_per_vertex is not None:  # the limit spans both sides: trimmed in order
            return [to for _, to in self.adjacent_keys(keys, d, label_ids, limit_per_vertex)]
        wanted = _start_keys(keys, label_ids, limit_per_vertex)
        if not wanted:
            return []
        limited = limit_per_vertex is not None
        if limit_per_vertex is not None and d != "both" and len(label_key(label_ids)) <= 1:
            return self._per_key_lists(d, label_key(label_ids), [int(k) for k in wanted], int(limit_per_vertex))
        if len(wanted) == 1 and d != "both" and not limited:
            sql = _one_target_sql(d, label_key(label_ids))
            params = [int(wanted[0])]
        else:
            sql = _targets_sql(d, label_key(label_ids), limited)
            params = _side_params(d, wanted, limit_per_vertex)
        return orjson.loads(self.raw.execute(sql, params).fetchone()[0])  # type: ignore[no-any-return]

    def edges_joining(
        self, pairs: Iterable[tuple[int, int]], direction: Any, label_ids: Sequence[int] | None = None,
    ) -> dict[tuple[int, int], EdgeRow]:
        """(from_key, to_key) -> the first edge leading from `from_key` to `to_key` in the
        order of `adjacent` (for 'both' an out-edge before an in-edge); pairs no edge joins
        are left out. The form for "which edge does this path step take", without reading
        the other edges of either vertex (added for the traverser path responses, H5)."""
        d = _direction(direction)
        wanted = unique((int(a), int(b)) for a, b in pairs)
        if not wanted or (label_ids is not None and len(label_ids) == 0):
            return {}
        labels = label_key(label_ids)
        found: dict[tuple[int, int], EdgeRow] = {}
        for this, other in _SIDES[d]:
            todo = [p for p in wanted if p not in found]
            if not todo:
                break
            arg = json.dumps(todo)  # [[this key, other key], ...]: p.key is the pair's position
            for r in self.raw.execute(_joining_sql(this, other, labels), [arg]).fetchall():
                found[todo[r[0]]] = EdgeRow._make(r[1:])
        return found


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
    for _ in _SIDES[d]:
        params.append(arg)
        if limit_per_vertex is not None:
            params.append(int(limit_per_vertex))
    return params
