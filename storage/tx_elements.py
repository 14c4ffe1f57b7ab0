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
from typing import Any, cast

import orjson

from storage._sql import json_keys, label_key, padded_chunks, unique
from storage.elements_sql import (
    BATCH_STATE,
    BY_END_IDS_SQL,
    BY_PARTS_SQL,
    COPY_COLUMNS,
    COPY_MIN_ROWS,
    E_INSERT,
    FOUND_SQL,
    HEADS_JSON_SQL,
    IDS_JSON_SQL,
    IDS_OF_KEYS_SQL,
    INSERT_OR_SKIP,
    INSERT_VALUES,
    KEY_ID,
    META_SQL,
    MIN_KEY,
    MISSING_SQL,
    NEXT_KEY,
    NOT_NULL,
    ONE_KEY_SQL,
    ONE_PARTS_SQL,
    ONE_SQL,
    PG_BY_PARTS_SQL,
    PG_NEXT_KEYS,
    ROW,
    STR,
    UNIQUE,
    V1_CONFLICT_SQL,
    V_INSERT,
    V_INSERT_AUTO,
    by_ids_sql,
    by_keys_sql,
    count_sql,
    heads_sql,
    scan_sql,
)
from storage.errors import MissingEndpoint, StoreConflict
from storage.queries import Lookup
from storage.rows import EdgeRow, VertexRow, make_edge
from storage.tables import META_V1_EDGE_ROWS
from storage.tx_base import DRIVER_ERRORS, TxCore, translate
from storage.values import encode


class Elements:
    __slots__ = ("core", "raw", "cur", "pg")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw
        self.cur = core.cur  # statements read to their end at once (`TxCore.cur`)
        #: PostgreSQL: ids and props are bound `encode`d, keys come from sequences
        self.pg = core.dialect.pg

    def find(self, lookup: Lookup, values: Any) -> list[Any]:
        """The elements `lookup` (a `queries.Lookup`) names by `values`, as it says."""
        return _FINDERS[lookup](self, values)

    # ---- shared helpers ------------------------------------------------------------------
    def _scan(self, table: str, label_ids: Sequence[int] | None, after_key: int | None, limit: int | None) -> list[Any]:
        if label_ids is not None and len(label_ids) == 0:
            return []
        sql = scan_sql(table, label_key(label_ids))
        params = (MIN_KEY if after_key is None else int(after_key),
                  (None if self.pg else -1) if limit is None else int(limit))
        make = ROW[table]
        return [make(r) for r in self.raw.execute(sql, params)]

    def _count(self, table: str, label_ids: Sequence[int] | None) -> int:
        if label_ids is not None and len(label_ids) == 0:
            return 0
        return int(self.core.scalar(count_sql(table, label_key(label_ids))))

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
        if self.pg:
            return int(self.core.scalar(PG_NEXT_KEYS[table], (1,)))
        return int(self.core.scalar(NEXT_KEY[table]))

    def _pg_batch_state(self, table: str, n: int) -> tuple[list[int], None]:
        """PostgreSQL: `n` keys reserved from the table's sequence (in increasing order, not
        necessarily consecutive: another writer may take keys meanwhile), and whether the
        store holds v1 edge rows (None, never: a PostgreSQL store starts at layout v3)."""
        keys = [r[0] for r in self.raw.execute(PG_NEXT_KEYS[table], (n,)).fetchall()]
        return sorted(keys), None

    # ---- vertices ------------------------------------------------------------------------
    def _vertex_ids_by_keys(self, keys: Sequence[int]) -> list[Any]:
        """The stored ids of the vertices among `keys` that exist, in the order of `keys`
        (a key given twice gives its id twice): the ids-only projection of what a walk
        reached, without building rows (label, properties) as `vertices_by_keys` does.
        One statement whose answer is one JSON array (a row per id cost pysqlite a step
        and a tuple each); ids JSON cannot hold (UUID blobs) come back as rows instead."""
        if not keys:
            return []
        arg = orjson.dumps([int(k) for k in keys]).decode()
        if self.pg:  # ids come back decoded by the driver: rows, in the keys' order
            return [r[1] for r in self.raw.execute(IDS_OF_KEYS_SQL + " ORDER BY k.key", (arg,))]
        try:
            return orjson.loads(self.raw.execute(IDS_JSON_SQL, (arg,)).fetchone()[0])  # type: ignore[no-any-return]
        except sqlite3.OperationalError as e:
            if "BLOB" not in str(e):
                raise
        return [r[1] for r in self.raw.execute(IDS_OF_KEYS_SQL, (arg,))]

    def _vertex_heads_by_ids(self, ids: Iterable[Any]) -> list[tuple[int, Any, int]]:
        """(key, id, label_id) of the vertices with these ids, in no particular order: the
        end vertices of an edge batch need no properties, and skipping the props column
        saves building a string and a row object per vertex (write path)."""
        wanted = ids if type(ids) is list and len(set(ids)) == len(ids) else unique(ids)  # distinct already: as given
        if not self.pg and STR == set(map(type, wanted)) and "".join(wanted).isprintable():
            # string ids (the usual edge batch) as one JSON array: one statement, and a
            # json_each probe of the id index costs ~20% less than an IN list's
            keys, at, labels = self.raw.execute(HEADS_JSON_SQL, (orjson.dumps(wanted).decode(),)).fetchone()
            out = list(zip(orjson.loads(keys), map(wanted.__getitem__, orjson.loads(at)), orjson.loads(labels), strict=True))
        else:
            out = []
            for size, part in padded_chunks(wanted):
                out += self.raw.execute(heads_sql(size), list(map(encode, part)) if self.pg else part).fetchall()
        if not self.core.readonly:  # these exist until a vertex is deleted: the edge inserts' check and end ids
            self.core.found_vertex_keys = dict(map(KEY_ID, out))
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
        if self.pg:
            key = self._next_key("vertices")
            row = (key, encode(key if id is None else id), label_id, encode(props))
            if self.raw.execute(INSERT_OR_SKIP["vertices", True], row).rowcount == 0:
                raise StoreConflict(f"insert vertex {id!r}: UNIQUE constraint failed: vertices.id")
            return key
        try:
            if id is None:
                key = self._next_key("vertices")
                self.raw.execute(V_INSERT, (key, key, label_id, props))
                return key
            cur = self.raw.execute(V_INSERT_AUTO, (id, label_id, props))
        except DRIVER_ERRORS as exc:
            raise translate(exc, f"insert vertex {id!r}") from exc
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def vertices_insert(self, rows: Iterable[tuple[Any, int, Any]]) -> list[int]:
        """Insert (id, label_id, props) rows (a multi-row statement, see `_insert_or_undo`); all or nothing."""
        self.core.check_writable()
        rows = rows if type(rows) is list else list(rows)
        if self.pg:
            return self._pg_vertices_insert(rows)
        seq, top, _v1 = self.raw.execute(BATCH_STATE["vertices"]).fetchone()
        base = max(seq or 0, top or 0) + 1  # `_next_key`
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
            self.core.savepoint_many(V_INSERT, params, "insert vertices")
        return [p[0] for p in params]

    def _pg_vertices_insert(self, rows: list[tuple[Any, int, Any]]) -> list[int]:
        if not rows:
            return []
        keys, _v1 = self._pg_batch_state("vertices", len(rows))
        params = [(key, encode(key if id_ is None else id_), label_id, encode(props))
                  for key, (id_, label_id, props) in zip(keys, rows, strict=True)]
        self._insert_or_undo("vertices", params, keys, None)
        return keys

    def vertex_update(self, key: int, props: Any = None, label_id: int | None = None) -> bool:
        """Replace props and/or label of one vertex; None leaves a field unchanged."""
        self.core.check_writable()
        sets, params = [], []
        if props is not None:
            sets.append("props = ?")
            params.append(encode(props) if self.pg else props)
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
        enc = encode if self.pg else _same
        self.raw.executemany("UPDATE vertices SET props = ? WHERE key = ?", [(enc(p), k) for k, p in rows])

    def vertices_delete(self, keys: Iterable[int]) -> int:
        """Delete vertices; their incident edges and all their index entries go with them.
        Returns the number of vertices deleted."""
        return self._delete("vertices", keys)

    # ---- edges ---------------------------------------------------------------------------
    def _edges_by_parts(self, parts: Iterable[tuple[int, int, str, int]]) -> list[EdgeRow]:
        """The edges with these (out_key, label_id, sort_values, in_key), in order of first
        occurrence of each distinct tuple; per tuple the ``dup = 0`` edge first, then any
        id-identified ones in insertion order. One probe of ``ix_edges_out`` per tuple."""
        wanted = unique((int(o), int(lb), s or "", int(i)) for o, lb, s, i in parts)
        if not wanted:
            return []
        make = make_edge
        if len(wanted) == 1:
            return [make(r) for r in self.raw.execute(ONE_PARTS_SQL, wanted[0])]
        return [make(r) for r in self.raw.execute(PG_BY_PARTS_SQL if self.pg else BY_PARTS_SQL, (json.dumps(wanted),))]

    def _edges_by_end_ids(self, ends: Iterable[tuple[Any, int, str, Any]]) -> list[EdgeRow]:
        out: list[EdgeRow] = []
        for out_id, label_id, sort_values, in_id in ends:
            if self.pg:
                out_id, in_id = encode(out_id), encode(in_id)
            rows = self.raw.execute(BY_END_IDS_SQL, (int(label_id), sort_values or "", out_id, in_id))
            out += map(make_edge, rows)
        return out

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
        if self.pg:
            row = _pg_edge_row(row)
            if self.raw.execute(INSERT_OR_SKIP["edges", bool(unique_parts)], row).rowcount == 0:
                raise StoreConflict(f"{what}: UNIQUE constraint failed: {UNIQUE['edges', bool(unique_parts)]}")
            return key
        try:
            self.raw.execute(E_INSERT[bool(unique_parts)], row)
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
        if self.pg:
            pg_keys, v1 = self._pg_batch_state("edges", len(rows))
            base, seq = pg_keys[0], None
        else:
            seq, top, v1 = self.raw.execute(BATCH_STATE["edges"]).fetchone()
            base = max(seq or 0, top or 0) + 1  # `_next_key`
        # column-wise (a REST batch is 500 rows): ids given, sort values set
        ids, label_ids, outs, ins, sorts, props = zip(*rows, strict=True)
        keys: Sequence[int] = pg_keys if self.pg else range(base, base + len(rows))
        if None in sorts:
            sorts = tuple(sort_values or "" for sort_values in sorts)
        end_ids = self._check_edges(
            outs + ins, (lambda: list(zip(outs, label_ids, sorts, ins, strict=True))) if unique_parts else None,
            "insert edges", v1 is not None)
        id_of = end_ids.__getitem__
        if None in ids:
            ids = tuple(key if id_ is None else id_ for key, id_ in zip(keys, ids, strict=True))
        params = list(zip(keys, ids, label_ids, outs, ins, sorts, props, map(id_of, outs), map(id_of, ins), strict=True))
        if self.pg:
            self._insert_or_undo("edges", list(map(_pg_edge_row, params)), pg_keys, None, bool(unique_parts))
            return list(keys)
        if len(rows) > 1:
            self._insert_or_undo("edges", params, base, seq, bool(unique_parts))
            return list(keys)
        self.core.savepoint_many(E_INSERT[bool(unique_parts)], params, "insert edges")
        return list(keys)

    def _insert_or_undo(
        self, table: str, params: list[tuple[Any, ...]], base: int | list[int], seq: int | None, by_parts: bool = True
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
        `seq`: the table's key sequence before the batch (None: it had no row).
        On PostgreSQL a batch of `COPY_MIN_ROWS` or more goes in by COPY instead (`_pg_copy`)."""
        raw = self.raw
        if self.pg and len(params) >= COPY_MIN_ROWS:
            self._pg_copy(table, params, by_parts)
            return
        try:
            inserted = self.core.insert_values(*INSERT_VALUES[table, by_parts], params)
        except DRIVER_ERRORS as exc:
            raise translate(exc, f"insert {table}") from exc
        if inserted == len(params):
            return
        if isinstance(base, list):  # PostgreSQL: the reserved keys (the sequence goes on)
            raw.execute(f"DELETE FROM {table} WHERE key IN (SELECT value FROM json_each(?))", (json_keys(base),))
            raise StoreConflict(f"insert {table}: UNIQUE constraint failed: {UNIQUE[table, by_parts]}")
        raw.execute(f"DELETE FROM {table} WHERE key >= ?", (base,))
        if seq is None:
            raw.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
        else:
            raw.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (seq, table))
        columns = list(zip(*params, strict=True))
        if any(None in columns[n] for n in NOT_NULL[table]):
            try:  # the error (and the rows before the NULL) the one-row statement gives
                raw.executemany(INSERT_OR_SKIP[table, by_parts], params)
            except DRIVER_ERRORS as exc:
                raise translate(exc, f"insert {table}") from exc
        raise StoreConflict(f"insert {table}: UNIQUE constraint failed: {UNIQUE[table, by_parts]}")

    def _pg_copy(self, table: str, params: list[tuple[Any, ...]], by_parts: bool) -> None:
        """PostgreSQL: the batch by COPY (`PgRaw.copy_rows`), all or nothing; a unique
        index's refusal is the `StoreConflict` the multi-row INSERT's shortfall gives."""
        if table == "edges":  # dup: 0, or the key again (`E_INSERT`)
            params = [(*p, 0) for p in params] if by_parts else [(*p, p[0]) for p in params]
        try:
            cast(Any, self.raw).copy_rows(table, COPY_COLUMNS[table], params)
        except DRIVER_ERRORS as exc:
            error = translate(exc, f"insert {table}")
            if isinstance(error, StoreConflict):
                error = StoreConflict(f"insert {table}: UNIQUE constraint failed: {UNIQUE[table, by_parts]}")
            raise error from exc

    def _check_edges(
        self, ends: Iterable[int], parts: Callable[[], Sequence[tuple[int, int, str, int]]] | None, what: str,
        v1: bool | None = None,
    ) -> dict[int, Any]:
        # (PostgreSQL: `v1` is False, a PostgreSQL store never held v1 rows)
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
            v1 = self.core.scalar(META_SQL, (META_V1_EDGE_ROWS,)) is not None
        if parts is not None and v1:
            hit = self.core.scalar(V1_CONFLICT_SQL, (json.dumps([list(p) for p in parts()]),))
            if hit is not None:
                raise StoreConflict(
                    f"{what}: UNIQUE constraint failed: edges.out_key, edges.label_id, edges.sort_values, edges.in_key"
                )
        return found

    def _end_ids(self, wanted: list[int], what: str) -> dict[int, Any]:
        """key -> stored id of every key of `wanted` (sorted), or `MissingEndpoint` unless
        each is a vertex's."""
        arg = orjson.dumps(wanted).decode()  # the same array json.dumps writes, ~5x faster
        found = dict(self.raw.execute(FOUND_SQL, (arg,)).fetchall())
        if len(found) != len(wanted):
            missing = self.core.scalar(MISSING_SQL, (arg,))
            raise MissingEndpoint(f"{what}: an end vertex does not exist (vertex key {missing})")
        return found

    def edge_update(self, key: int, props: Any) -> bool:
        self.core.check_writable()
        return self.raw.execute("UPDATE edges SET props = ? WHERE key = ?",
                                (encode(props) if self.pg else props, key)).rowcount > 0

    def edges_update(self, rows: Iterable[tuple[int, Any]]) -> None:
        """Replace the props of many edges: (key, props) rows in one executemany."""
        self.core.check_writable()
        enc = encode if self.pg else _same
        self.raw.executemany("UPDATE edges SET props = ? WHERE key = ?", [(enc(p), k) for k, p in rows])

    def edges_delete(self, keys: Iterable[int]) -> int:
        """Delete edges and their index entries; returns the number deleted."""
        return self._delete("edges", keys)


def _same(value: Any) -> Any:
    return value


def _pg_edge_row(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """An edge row (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id)
    with its untyped values `encode`d (PostgreSQL)."""
    k, id_, label_id, out_key, in_key, sort_values, props, out_id, in_id = row
    return (k, encode(id_), label_id, out_key, in_key, sort_values, encode(props), encode(out_id), encode(in_id))


def _by_ids(table: str) -> Callable[[Elements, Any], list[Any]]:
    """The finder of `table`'s rows by stored id (``VERTICES_BY_IDS``, ``EDGES_BY_IDS``:
    id-identified edges only, auto mode's and v1 rows; HugeGraph-mode edges are found by
    their parts), its statements and row type bound once: a point lookup is one call from
    `Elements.find` to the driver."""
    one, make = ONE_SQL[table], ROW[table]

    def find(self: Elements, ids: Any) -> list[Any]:
        if type(ids) is list and len(ids) == 1:  # a point lookup: one probe of the id index
            row = self.cur.execute(one, [encode(ids[0])] if self.pg else ids).fetchone()  # a unique id: one row at most
            return [] if row is None else [make(row)]
        wanted = unique(ids)
        if not wanted:
            return []
        found: dict[Any, Any] = {}
        for size, part in padded_chunks(wanted):
            for row in self.cur.execute(by_ids_sql(table, size), list(map(encode, part)) if self.pg else part):
                found[row[1]] = row
        return [make(found[i]) for i in wanted if i in found]

    return find


def _by_keys(table: str) -> Callable[[Elements, Any], list[Any]]:
    """The finder of `table`'s rows by key (``VERTICES_BY_KEYS``, ``EDGES_BY_KEYS``), bound
    once as `_by_ids`'."""
    one, many, make = ONE_KEY_SQL[table], by_keys_sql(table), ROW[table]

    def find(self: Elements, keys: Any) -> list[Any]:
        if type(keys) is list and len(keys) == 1:  # one row by primary key
            row = self.cur.execute(one, (int(keys[0]),)).fetchone()  # the primary key: one row at most
            return [] if row is None else [make(row)]
        wanted = unique(keys)
        if not wanted:
            return []
        return [make(r) for r in self.cur.execute(many, (json_keys(wanted),))]

    return find


_FINDERS: dict[Lookup, Callable[[Elements, Any], list[Any]]] = {
    Lookup.VERTICES_BY_IDS: _by_ids("vertices"),
    Lookup.VERTICES_BY_KEYS: _by_keys("vertices"),
    Lookup.VERTEX_HEADS_BY_IDS: Elements._vertex_heads_by_ids,
    Lookup.VERTEX_IDS_BY_KEYS: Elements._vertex_ids_by_keys,
    Lookup.EDGES_BY_IDS: _by_ids("edges"),
    Lookup.EDGES_BY_KEYS: _by_keys("edges"),
    Lookup.EDGES_BY_PARTS: Elements._edges_by_parts,
    Lookup.EDGES_BY_END_IDS: Elements._edges_by_end_ids,
}
