"""Vertex and edge rows: point lookups, scans, counts, inserts, updates, deletes.

Every batch method takes the whole batch in one statement (or one per 900 ids), see `_sql`.
Lookups return rows in the order of first occurrence of each distinct id/key in the input;
unknown ids are skipped. Scans go in key order (insertion order), paged by `after_key`.

Edges are identified one of two ways (``dup`` in `tables.py`): HugeGraph-mode edges by their
parts, inserted with ``unique_parts=True`` and found with `edges_by_parts`; id-identified
(auto-mode) edges by their id, found with `edges_by_ids` through the partial id index. The
edge table has no foreign keys, so the inserts check the end vertices themselves.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

import orjson

from storage._sql import json_keys, label_filter, label_key, padded_chunks, placeholders, unique
from storage.errors import MissingEndpoint, StoreConflict
from storage.queries import Lookup
from storage.rows import EdgeRow, VertexRow
from storage.tables import META_V1_EDGE_ROWS
from storage.tx_base import DRIVER_ERRORS, TxCore, translate

_V_COLS = "key, id, label_id, props"
_E_COLS = "key, id, label_id, out_key, in_key, sort_values, props"
_COLS = {"vertices": _V_COLS, "edges": _E_COLS}
_ROW = {"vertices": VertexRow._make, "edges": EdgeRow._make}
_MIN_KEY = -(2**63)
_META_SQL = "SELECT value FROM meta WHERE key = ?"
#: `vertex_ids`' statements: the CROSS JOIN keeps the keys' order, which the array follows
_IDS_JSON_SQL = "SELECT json_group_array(v.id) FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"
_IDS_OF_KEYS_SQL = "SELECT k.value, v.id FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"


# edges are found by id only among id-identified rows: the condition that lets SQLite use
# the partial index ix_edges_id (HugeGraph-mode rows, dup = 0, are found by their parts)
_ID_FILTER = {"vertices": "", "edges": " AND dup <> 0"}


@lru_cache(maxsize=256)
def _by_ids_sql(table: str, n: int) -> str:
    return f"SELECT {_COLS[table]} FROM {table} WHERE id IN ({placeholders(n)}){_ID_FILTER[table]}"


_ONE_SQL = {t: f"SELECT {c} FROM {t} WHERE id = ?{_ID_FILTER[t]}" for t, c in _COLS.items()}
_E_PARTS = "out_key = ? AND label_id = ? AND sort_values = ? AND in_key = ?"
# INDEXED BY: ix_edges_in would serve the same equalities, but only ix_edges_out ends in
# dup, the order asked for (the planner, seeing two equal choices, took either)
_ONE_PARTS_SQL = f"SELECT {_E_COLS} FROM edges INDEXED BY ix_edges_out WHERE {_E_PARTS} ORDER BY dup"
# one edge by its end vertices' public ids: two id-index probes, then one of ix_edges_out
_BY_END_IDS_SQL = (
    f"SELECT {', '.join('e.' + c.strip() for c in _E_COLS.split(','))} FROM vertices AS o CROSS JOIN vertices AS i "
    "CROSS JOIN edges AS e INDEXED BY ix_edges_out ON e.out_key = o.key AND e.label_id = ? AND e.sort_values = ? "
    "AND e.in_key = i.key WHERE o.id = ? AND i.id = ? ORDER BY e.dup"
)
# json_each drives one probe of ix_edges_out per (out_key, label_id, sort_values, in_key)
_JSON_PARTS = (
    "e.out_key = p.value ->> 0 AND e.label_id = p.value ->> 1 AND e.sort_values = p.value ->> 2 "
    "AND e.in_key = p.value ->> 3"
)
_BY_PARTS_SQL = (
    f"SELECT {', '.join('e.' + c.strip() for c in _E_COLS.split(','))} FROM json_each(?) AS p "
    f"CROSS JOIN edges AS e INDEXED BY ix_edges_out ON {_JSON_PARTS} ORDER BY p.key, e.dup"
)
_V1_CONFLICT_SQL = (
    f"SELECT p.key FROM json_each(?) AS p CROSS JOIN edges AS e INDEXED BY ix_edges_out ON {_JSON_PARTS} "
    "AND e.dup <> 0 LIMIT 1"
)
# end vertices found, of a sorted key list (probes in key order: ~0.7 us a key, against
# ~1.2 us for a correlated NOT EXISTS per key); only on a shortfall is the missing key sought
# with their ids: the edges' out_id / in_id (layout v3)
_FOUND_SQL = "SELECT v.key, v.id FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"
_MISSING_SQL = (
    "SELECT k.value FROM json_each(?) AS k WHERE NOT EXISTS (SELECT 1 FROM vertices AS v WHERE v.key = k.value) LIMIT 1"
)
_ONE_KEY_SQL = {t: f"SELECT {c} FROM {t} WHERE key = ?" for t, c in _COLS.items()}


@lru_cache(maxsize=64)
def _heads_sql(n: int) -> str:
    return f"SELECT key, id, label_id FROM vertices WHERE id IN ({placeholders(n)})"


# printable string ids only: SQLite's JSON reader gives back exactly the text Python wrote.
# One row of three JSON arrays (the keys, each found id's position in the input, the label
# ids) rather than a row per vertex: one step, where a row each is one step each, and the
# driver gives up and retakes the GIL around every step (~1.7 against ~2.6 us an id alone,
# and no convoy behind request threads; see `TxCore.insert_values`)
_HEADS_JSON_SQL = (
    "SELECT json_group_array(v.key), json_group_array(k.key), json_group_array(v.label_id) "
    "FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.id = k.value"
)
_STR = {str}
_KEY_ID = itemgetter(0, 1)


@lru_cache(maxsize=8)
def _by_keys_sql(table: str) -> str:
    cols = ", ".join(f"t.{c.strip()}" for c in _COLS[table].split(","))
    return (
        f"SELECT {cols} FROM json_each(?) AS k CROSS JOIN {table} AS t ON t.key = k.value "
        f"ORDER BY k.key"
    )


@lru_cache(maxsize=256)
def _scan_sql(table: str, labels: tuple[int, ...]) -> str:
    return (
        f"SELECT {_COLS[table]} FROM {table} WHERE key > ?{label_filter('label_id', labels)} "
        f"ORDER BY key LIMIT ?"
    )


@lru_cache(maxsize=256)
def _count_sql(table: str, labels: tuple[int, ...]) -> str:
    where = f" WHERE 1{label_filter('label_id', labels)}" if labels else ""
    return f"SELECT count(*) FROM {table}{where}"


def _next_key_sql(table: str) -> str:
    return (
        "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = '" + table + "'), 0), "
        "coalesce((SELECT max(key) FROM " + table + "), 0)) + 1"
    )


_NEXT_KEY = {t: _next_key_sql(t) for t in ("vertices", "edges")}
# what a batch insert reads first, in one statement (each statement is a GIL round trip, see
# `TxCore.insert_values`): the table's key sequence (None: no row yet), its largest key,
# and (edges) whether the store holds v1 edge rows (`_check_edges`)
_BATCH_STATE = {
    t: f"SELECT (SELECT seq FROM sqlite_sequence WHERE name = '{t}'), (SELECT max(key) FROM {t}), "
    f"(SELECT 1 FROM meta WHERE key = '{META_V1_EDGE_ROWS}')"
    for t in ("vertices", "edges")
}
_V_INSERT = "INSERT INTO vertices (key, id, label_id, props) VALUES (?, ?, ?, ?)"
_V_INSERT_AUTO = "INSERT INTO vertices (id, label_id, props) VALUES (?, ?, ?)"
# rows (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id); dup is 0
# (parts-identified) or the key again (?1), so it is not bound a second time
_E_INSERT = {
    unique: "INSERT INTO edges (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup) "
    f"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {'0' if unique else '?1'})"
    for unique in (True, False)
}
# batch rows that skip what a unique index refuses: see `Elements._insert_or_undo`
# (table, edges identified by their parts?) -> the insert that skips rows a unique index refuses
_INSERT_OR_SKIP = {
    ("vertices", True): _V_INSERT + " ON CONFLICT DO NOTHING",
    ("edges", True): _E_INSERT[True] + " ON CONFLICT DO NOTHING",
    ("edges", False): _E_INSERT[False] + " ON CONFLICT DO NOTHING",
}
# the same rows as multi-row `INSERT OR IGNORE`s (`TxCore.insert_values`): (head, row
# template, parameters per row); OR IGNORE skips what ON CONFLICT DO NOTHING skips, and a
# NULL in a NOT NULL column too, which `_insert_or_undo` tells apart on a shortfall. Plain
# `?`s where the row is bound as it is: the driver asks SQLite the name of every parameter
# it binds, a list walk for numbered ones
_E_HEAD = "INSERT OR IGNORE INTO edges (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup)"
_INSERT_VALUES = {
    ("vertices", True): ("INSERT OR IGNORE INTO vertices (key, id, label_id, props)", "(?,?,?,?)", 4),
    ("edges", True): (_E_HEAD, "(?,?,?,?,?,?,?,?,?,0)", 9),
    ("edges", False): (_E_HEAD, "(?{0},?{1},?{2},?{3},?{4},?{5},?{6},?{7},?{8},?{0})", 9),
}
# the row positions of each table's NOT NULL columns (key, id, label_id, ...)
_NOT_NULL = {"vertices": range(3), "edges": range(6)}
# what the refusing unique index covers, in SQLite's words
_UNIQUE = {
    ("vertices", True): "vertices.id",
    ("edges", True): "edges.out_key, edges.label_id, edges.sort_values, edges.in_key, edges.dup",
    ("edges", False): "edges.id",
}


class Elements:
    __slots__ = ("core", "raw")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw

    def find(self, lookup: Lookup, values: Any) -> list[Any]:
        """The elements `lookup` (a `queries.Lookup`) names by `values`, as it says."""
        return _FINDERS[lookup](self, values)

    # ---- shared helpers ------------------------------------------------------------------
    def _by_ids(self, table: str, ids: Iterable[Any]) -> list[Any]:
        if type(ids) is list and len(ids) == 1:  # a point lookup: one probe of the id index
            row = self.raw.execute(_ONE_SQL[table], ids).fetchone()
            return [] if row is None else [_ROW[table](row)]
        wanted = unique(ids)
        if not wanted:
            return []
        make = _ROW[table]
        found: dict[Any, Any] = {}
        for size, part in padded_chunks(wanted):
            for row in self.raw.execute(_by_ids_sql(table, size), part):
                found[row[1]] = row
        return [make(found[i]) for i in wanted if i in found]

    def _by_keys(self, table: str, keys: Iterable[int]) -> list[Any]:
        if type(keys) is list and len(keys) == 1:  # one row by primary key
            row = self.raw.execute(_ONE_KEY_SQL[table], (int(keys[0]),)).fetchone()
            return [] if row is None else [_ROW[table](row)]
        wanted = unique(keys)
        if not wanted:
            return []
        make = _ROW[table]
        return [make(r) for r in self.raw.execute(_by_keys_sql(table), (json_keys(wanted),))]

    def _scan(self, table: str, label_ids: Sequence[int] | None, after_key: int | None, limit: int | None) -> list[Any]:
        if label_ids is not None and len(label_ids) == 0:
            return []
        sql = _scan_sql(table, label_key(label_ids))
        params = (_MIN_KEY if after_key is None else int(after_key), -1 if limit is None else int(limit))
        make = _ROW[table]
        return [make(r) for r in self.raw.execute(sql, params)]

    def _count(self, table: str, label_ids: Sequence[int] | None) -> int:
        if label_ids is not None and len(label_ids) == 0:
            return 0
        return int(self.core.scalar(_count_sql(table, label_key(label_ids))))

    def _delete(self, table: str, keys: Iterable[int]) -> int:
        self.core.check_writable()
        if table == "vertices":
            self.core.found_vertex_keys = None
        wanted = unique(keys)
        if not wanted:
            return 0
        sql = f"DELETE FROM {table} WHERE key IN (SELECT value FROM json_each(?))"
        return self.raw.execute(sql, (json_keys(wanted),)).rowcount

    def _next_key(self, table: str) -> int:
        return int(self.core.scalar(_NEXT_KEY[table]))

    # ---- vertices ------------------------------------------------------------------------
    def _vertices_by_ids(self, ids: Iterable[Any]) -> list[VertexRow]:
        return self._by_ids("vertices", ids)

    def _vertex_ids_by_keys(self, keys: Sequence[int]) -> list[Any]:
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

    def _vertices_by_keys(self, keys: Iterable[int]) -> list[VertexRow]:
        return self._by_keys("vertices", keys)

    def _vertex_heads_by_ids(self, ids: Iterable[Any]) -> list[tuple[int, Any, int]]:
        """(key, id, label_id) of the vertices with these ids, in no particular order: the
        end vertices of an edge batch need no properties, and skipping the props column
        saves building a string and a row object per vertex (write path)."""
        wanted = ids if type(ids) is list and len(set(ids)) == len(ids) else unique(ids)  # distinct already: as given
        if _STR == set(map(type, wanted)) and "".join(wanted).isprintable():
            # string ids (the usual edge batch) as one JSON array: one statement, and a
            # json_each probe of the id index costs ~20% less than an IN list's
            keys, at, labels = self.raw.execute(_HEADS_JSON_SQL, (orjson.dumps(wanted).decode(),)).fetchone()
            out = list(zip(orjson.loads(keys), map(wanted.__getitem__, orjson.loads(at)), orjson.loads(labels), strict=True))
        else:
            out = []
            for size, part in padded_chunks(wanted):
                out += self.raw.execute(_heads_sql(size), part).fetchall()
        if not self.core.readonly:  # these exist until a vertex is deleted: the edge inserts' check and end ids
            self.core.found_vertex_keys = dict(map(_KEY_ID, out))
        return out


    def vertices_scan(
        self, label_ids: Sequence[int] | None = None, after_key: int | None = None, limit: int | None = None
    ) -> list[VertexRow]:
        """Vertices with key > after_key (and a label in label_ids), in key order."""
        return self._scan("vertices", label_ids, after_key, limit)

    def vertex_count(self, label_ids: Sequence[int] | None = None) -> int:
        return self._count("vertices", label_ids)

    def vertex_insert(self, id: Any, label_id: int, props: Any = None) -> int:
        """Insert one vertex and return its key. `id=None` makes the id equal to the key."""
        self.core.check_writable()
        try:
            if id is None:
                key = self._next_key("vertices")
                self.raw.execute(_V_INSERT, (key, key, label_id, props))
                return key
            cur = self.raw.execute(_V_INSERT_AUTO, (id, label_id, props))
        except DRIVER_ERRORS as exc:
            raise translate(exc, f"insert vertex {id!r}") from exc
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def vertices_insert(self, rows: Iterable[tuple[Any, int, Any]]) -> list[int]:
        """Insert (id, label_id, props) rows (a multi-row statement, see `_insert_or_undo`); all or nothing."""
        self.core.check_writable()
        seq, top, _v1 = self.raw.execute(_BATCH_STATE["vertices"]).fetchone()
        base = max(seq or 0, top or 0) + 1  # `_next_key`
        rows = rows if type(rows) is list else list(rows)
        columns = list(zip(*rows, strict=True))
        if columns and None not in columns[0]:  # ids given (a REST batch): zipped with their keys, in C
            params = list(zip(range(base, base + len(rows)), *columns, strict=True))
        else:
            params = []
            for n, (id_, label_id, props) in enumerate(rows):
                key = base + n
                params.append((key, key if id_ is None else id_, label_id, props))
        if len(params) > 1:
            self._insert_or_undo("vertices", params, base, seq)
        elif params:
            self.core.savepoint_many(_V_INSERT, params, "insert vertices")
        return [p[0] for p in params]

    def vertex_update(self, key: int, props: Any = None, label_id: int | None = None) -> bool:
        """Replace props and/or label of one vertex; None leaves a field unchanged."""
        self.core.check_writable()
        sets, params = [], []
        if props is not None:
            sets.append("props = ?")
            params.append(props)
        if label_id is not None:
            sets.append("label_id = ?")
            params.append(int(label_id))
        if not sets:
            return self.core.one("SELECT 1 FROM vertices WHERE key = ?", (key,)) is not None
        params.append(key)
        return self.raw.execute(f"UPDATE vertices SET {', '.join(sets)} WHERE key = ?", params).rowcount > 0

    def vertices_update(self, rows: Iterable[tuple[int, Any]]) -> None:
        """Replace the props of many vertices: (key, props) rows in one executemany."""
        self.core.check_writable()
        self.raw.executemany("UPDATE vertices SET props = ? WHERE key = ?", [(p, k) for k, p in rows])

    def vertices_delete(self, keys: Iterable[int]) -> int:
        """Delete vertices; their incident edges and all their index entries go with them.
        Returns the number of vertices deleted."""
        return self._delete("vertices", keys)

    # ---- edges ---------------------------------------------------------------------------
    def _edges_by_ids(self, ids: Iterable[Any]) -> list[EdgeRow]:
        """Id-identified edges (auto mode, v1 rows) by id; HugeGraph-mode edges (inserted
        with ``unique_parts=True``) are not found here: see `edges_by_parts`."""
        return self._by_ids("edges", ids)

    def _edges_by_parts(self, parts: Iterable[tuple[int, int, str, int]]) -> list[EdgeRow]:
        """The edges with these (out_key, label_id, sort_values, in_key), in order of first
        occurrence of each distinct tuple; per tuple the ``dup = 0`` edge first, then any
        id-identified ones in insertion order. One probe of ``ix_edges_out`` per tuple."""
        wanted = unique((int(o), int(lb), s or "", int(i)) for o, lb, s, i in parts)
        if not wanted:
            return []
        make = EdgeRow._make
        if len(wanted) == 1:
            return [make(r) for r in self.raw.execute(_ONE_PARTS_SQL, wanted[0])]
        return [make(r) for r in self.raw.execute(_BY_PARTS_SQL, (json.dumps(wanted),))]

    def _edges_by_end_ids(self, ends: Iterable[tuple[Any, int, str, Any]]) -> list[EdgeRow]:
        out: list[EdgeRow] = []
        for out_id, label_id, sort_values, in_id in ends:
            rows = self.raw.execute(_BY_END_IDS_SQL, (int(label_id), sort_values or "", out_id, in_id))
            out += map(EdgeRow._make, rows)
        return out

    def _edges_by_keys(self, keys: Iterable[int]) -> list[EdgeRow]:
        return self._by_keys("edges", keys)

    def edges_scan(
        self, label_ids: Sequence[int] | None = None, after_key: int | None = None, limit: int | None = None
    ) -> list[EdgeRow]:
        return self._scan("edges", label_ids, after_key, limit)

    def edge_count(self, label_ids: Sequence[int] | None = None) -> int:
        return self._count("edges", label_ids)

    def edge_insert(
        self, id: Any, label_id: int, out_key: int, in_key: int, sort_values: str = "", props: Any = None,
        *, unique_parts: bool = False,
    ) -> int:
        """Insert one edge and return its key. `id=None` makes the id equal to the key.
        `unique_parts`: identified by (out, label, sort values, in), at most one such edge
        (HugeGraph mode; find it with `edges_by_parts`); else by its id (find it with
        `edges_by_ids`), and parallel edges are allowed. A duplicate raises `StoreConflict`."""
        self.core.check_writable()
        what = f"insert edge {id!r}"
        parts = (lambda: [(out_key, label_id, sort_values or "", in_key)]) if unique_parts else None
        end_ids = self._check_edges((out_key, in_key), parts, what)
        key = self._next_key("edges")
        row = (key, key if id is None else id, label_id, out_key, in_key, sort_values or "", props,
               end_ids[out_key], end_ids[in_key])
        try:
            self.raw.execute(_E_INSERT[bool(unique_parts)], row)
        except DRIVER_ERRORS as exc:
            raise translate(exc, what) from exc
        return key

    def edges_insert(
        self, rows: Iterable[tuple[Any, int, int, int, str, Any]], *, unique_parts: bool = False
    ) -> list[int]:
        """Insert (id, label_id, out_key, in_key, sort_values, props) rows; all or nothing.
        `unique_parts` as for `edge_insert`, for every row."""
        self.core.check_writable()
        rows = rows if type(rows) is list else list(rows)
        if not rows:
            return []
        seq, top, v1 = self.raw.execute(_BATCH_STATE["edges"]).fetchone()
        base = max(seq or 0, top or 0) + 1  # `_next_key`
        # column-wise (a REST batch is 500 rows): ids given, sort values set
        ids, label_ids, outs, ins, sorts, props = zip(*rows, strict=True)
        keys = range(base, base + len(rows))
        if None in sorts:
            sorts = tuple(sort_values or "" for sort_values in sorts)
        end_ids = self._check_edges(
            outs + ins, (lambda: list(zip(outs, label_ids, sorts, ins, strict=True))) if unique_parts else None,
            "insert edges", v1 is not None)
        id_of = end_ids.__getitem__
        if None in ids:
            ids = tuple(key if id_ is None else id_ for key, id_ in zip(keys, ids, strict=True))
        params = list(zip(keys, ids, label_ids, outs, ins, sorts, props, map(id_of, outs), map(id_of, ins), strict=True))
        if len(rows) > 1:
            self._insert_or_undo("edges", params, base, seq, bool(unique_parts))
            return list(keys)
        self.core.savepoint_many(_E_INSERT[bool(unique_parts)], params, "insert edges")
        return list(keys)

    def _insert_or_undo(
        self, table: str, params: list[tuple[Any, ...]], base: int, seq: int | None, by_parts: bool = True
    ) -> None:
        """Rows of a batch (keys from `base` up) written without a savepoint, whose journal
        of every page the batch changes (~1,000 index pages for 500 edges) spills to a
        temporary file (a file store's temp_store): ~5 us an edge. The rows go in as
        multi-row statements (`TxCore.insert_values`), skipping any that a unique index
        refuses (a taken vertex id, a taken edge's parts, or with `by_parts` False, auto
        mode's, a taken edge id); a shortfall means a conflict, and the rows that went in
        (all this batch's: keys from `base` up) are deleted and the table's key sequence
        put back before `StoreConflict` is raised: nothing is left, as with the savepoint.
        A shortfall from a NULL in a NOT NULL column is undone alike, and the rows then go
        through the one-row statement, which raises the driver's NOT NULL error as before.
        Any other error aborts the caller's transaction, which is rolled back whole.
        `seq`: the table's key sequence before the batch (None: it had no row)."""
        raw = self.raw
        try:
            inserted = self.core.insert_values(*_INSERT_VALUES[table, by_parts], params)
        except DRIVER_ERRORS as exc:
            raise translate(exc, f"insert {table}") from exc
        if inserted == len(params):
            return
        raw.execute(f"DELETE FROM {table} WHERE key >= ?", (base,))
        if seq is None:
            raw.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
        else:
            raw.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (seq, table))
        columns = list(zip(*params, strict=True))
        if any(None in columns[n] for n in _NOT_NULL[table]):
            try:  # the error (and the rows before the NULL) the one-row statement gives
                raw.executemany(_INSERT_OR_SKIP[table, by_parts], params)
            except DRIVER_ERRORS as exc:
                raise translate(exc, f"insert {table}") from exc
        raise StoreConflict(f"insert {table}: UNIQUE constraint failed: {_UNIQUE[table, by_parts]}")

    def _check_edges(
        self, ends: Iterable[int], parts: Callable[[], Sequence[tuple[int, int, str, int]]] | None, what: str,
        v1: bool | None = None,
    ) -> dict[int, Any]:
        """What the v1 foreign keys and id index did for an insert: every end vertex exists
        (`MissingEndpoint`), and a ``unique_parts`` edge does not repeat a v1 row's parts
        (`StoreConflict`; only while the store holds v1 rows, see `migrations`). `parts`
        gives the (out, label, sort values, in) of the new edges, asked only then.
        Returns key -> stored id of (at least) the end vertices: the new rows' ``out_id`` /
        ``in_id``, from the keys `vertex_heads_by_ids` found when they cover the ends (a
        REST batch: no SQL), else from the one statement that checks them. `v1`: whether
        the store holds v1 rows, when the caller has read it (None: read here)."""
        wanted = set(map(int, ends))
        found = self.core.found_vertex_keys
        if found is None or not found.keys() >= wanted:
            found = self._end_ids(sorted(wanted), what)
        if v1 is None and parts is not None:
            v1 = self.core.scalar(_META_SQL, (META_V1_EDGE_ROWS,)) is not None
        if parts is not None and v1:
            hit = self.core.scalar(_V1_CONFLICT_SQL, (json.dumps([list(p) for p in parts()]),))
            if hit is not None:
                raise StoreConflict(
                    f"{what}: UNIQUE constraint failed: edges.out_key, edges.label_id, edges.sort_values, edges.in_key"
                )
        return found

    def _end_ids(self, wanted: list[int], what: str) -> dict[int, Any]:
        """key -> stored id of every key of `wanted` (sorted), or `MissingEndpoint` unless
        each is a vertex's."""
        arg = orjson.dumps(wanted).decode()  # the same array json.dumps writes, ~5x faster
        found = dict(self.raw.execute(_FOUND_SQL, (arg,)).fetchall())
        if len(found) != len(wanted):
            missing = self.core.scalar(_MISSING_SQL, (arg,))
            raise MissingEndpoint(f"{what}: an end vertex does not exist (vertex key {missing})")
        return found

    def edge_update(self, key: int, props: Any) -> bool:
        self.core.check_writable()
        return self.raw.execute("UPDATE edges SET props = ? WHERE key = ?", (props, key)).rowcount > 0

    def edges_update(self, rows: Iterable[tuple[int, Any]]) -> None:
        """Replace the props of many edges: (key, props) rows in one executemany."""
        self.core.check_writable()
        self.raw.executemany("UPDATE edges SET props = ? WHERE key = ?", [(p, k) for k, p in rows])

    def edges_delete(self, keys: Iterable[int]) -> int:
        """Delete edges and their index entries; returns the number deleted."""
        return self._delete("edges", keys)


_FINDERS: dict[Lookup, Callable[[Elements, Any], list[Any]]] = {
    Lookup.VERTICES_BY_IDS: Elements._vertices_by_ids,
    Lookup.VERTICES_BY_KEYS: Elements._vertices_by_keys,
    Lookup.VERTEX_HEADS_BY_IDS: Elements._vertex_heads_by_ids,
    Lookup.VERTEX_IDS_BY_KEYS: Elements._vertex_ids_by_keys,
    Lookup.EDGES_BY_IDS: Elements._edges_by_ids,
    Lookup.EDGES_BY_KEYS: Elements._edges_by_keys,
    Lookup.EDGES_BY_PARTS: Elements._edges_by_parts,
    Lookup.EDGES_BY_END_IDS: Elements._edges_by_end_ids,
}
