"""Batch inserts as multi-row statements (`TxBase._insert_values`), and on PostgreSQL by COPY
from `COPY_MIN_ROWS` rows up (`PgRaw.copy_rows`): every chunk size writes every row, a
conflict anywhere leaves nothing behind with the one-row path's message (and the
transaction usable), a NULL in a NOT NULL column fails as it did, and index entries land
for every row."""

from __future__ import annotations

import sqlite3

import pytest

from storage import IndexQuery, Lookup, Store, StoreConflict, StoreError
from storage.elements_sql import COPY_MIN_ROWS
from storage.tx_base import ROW_BUCKETS, ROWS_MAX, _chunks
from tests.storage.conftest import PG_URL, sqlite_only

SIZES = [2, 3, 5, 100, ROWS_MAX - 1, ROWS_MAX, ROWS_MAX + 1, 2 * ROWS_MAX + 3]  # padded: 5, 100, 511, +1, +3


def _vertices(tx, n: int, prefix: str = "v") -> list[int]:
    return tx.elements.vertices_insert([(f"{prefix}{i}", 1, f'{{"i":{i}}}') for i in range(n)])


def _counts(store: Store) -> tuple[int, int, int]:
    with store.read() as tx:
        entries = tx.raw.execute("SELECT count(*) FROM index_entries").fetchone()[0]
        return tx.elements.vertex_count(), tx.elements.edge_count(), entries


def test_chunks_cover_the_total_in_buckets() -> None:
    for total in range(0, 3 * ROWS_MAX):
        chunks = _chunks(total, ROWS_MAX)
        assert sum(rows for rows, _bucket in chunks) == total
        assert all(bucket in ROW_BUCKETS and rows <= bucket for rows, bucket in chunks)
        assert all(bucket - rows <= bucket // 3 for rows, bucket in chunks)  # a third at most is padding
    assert _chunks(500, 512) == [(500, 512)]
    assert _chunks(1025, 512) == [(512, 512), (512, 512), (1, 1)]
    assert _chunks(30, 8) == [(8, 8), (8, 8), (8, 8), (6, 6)]


@pytest.mark.parametrize("n", SIZES)
def test_vertex_batch_of_any_size_writes_every_row(store: Store, n: int) -> None:
    with store.write() as tx:
        keys = _vertices(tx, n)
    assert keys == list(range(keys[0], keys[0] + n))
    with store.read() as tx:
        rows = tx.elements.find(Lookup.VERTICES_BY_KEYS, keys)
    assert [(r.key, r.id, r.label_id, r.props) for r in rows] == [
        (k, f"v{i}", 1, f'{{"i":{i}}}') for i, k in enumerate(keys)
    ]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("unique_parts", [True, False])
def test_edge_batch_of_any_size_writes_every_row(store: Store, n: int, unique_parts: bool) -> None:
    with store.write() as tx:
        vk = _vertices(tx, n + 1)
        rows = [(f"e{i}", 2, vk[i], vk[i + 1], "", f"p{i}") for i in range(n)]
        keys = tx.elements.edges_insert(rows, unique_parts=unique_parts)
    assert keys == list(range(keys[0], keys[0] + n))
    with store.read() as tx:
        got = tx.raw.execute(
            "SELECT key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup FROM edges ORDER BY key"
        ).fetchall()
    assert got == [
        (k, f"e{i}", 2, vk[i], vk[i + 1], "", f"p{i}", f"v{i}", f"v{i + 1}", 0 if unique_parts else k)
        for i, k in enumerate(keys)
    ]


@pytest.mark.parametrize("n", SIZES)
def test_index_entries_for_every_row(store: Store, n: int) -> None:
    with store.write() as tx:
        keys = _vertices(tx, n)
        tx.index.index_add_many([(7, f"c{i % 5}", k, "v") for i, k in enumerate(keys)] + [(7, "c0", keys[0], "v")])
    with store.read() as tx:
        scanned = tx.index.index_scan(7)
        kinds = {r[0] for r in tx.raw.execute("SELECT elem_kind FROM index_entries")}
        assert tx.index.read(IndexQuery(7), ["c0"]) == [k for i, k in enumerate(keys) if i % 5 == 0]
    assert sorted(scanned) == sorted((f"c{i % 5}", k) for i, k in enumerate(keys))  # the repeat: once
    assert kinds == {"v"}


@pytest.mark.parametrize("at", [0, ROWS_MAX // 2, ROWS_MAX - 1, ROWS_MAX, ROWS_MAX + 2])
def test_vertex_conflict_inside_a_chunk_leaves_nothing(store: Store, at: int) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("taken", 1, None)
    before = _counts(store)
    with store.write() as tx:
        with pytest.raises(StoreConflict) as err:
            tx.elements.vertices_insert([("taken" if i == at else f"v{i}", 1, None) for i in range(ROWS_MAX + 3)])
        assert tx.elements.vertex_count() == 1
        fresh = _vertices(tx, 2, "w")  # the key sequence was put back
    assert str(err.value) == "insert vertices: UNIQUE constraint failed: vertices.id"
    # SQLite puts the key sequence back; PostgreSQL's sequences never go back (keys unused, never reused)
    assert fresh == [2, 3] if not PG_URL else fresh[0] > 1
    assert _counts(store) == (before[0] + 2, 0, 0)


@pytest.mark.parametrize("at", [1, ROWS_MAX - 1, ROWS_MAX + 1])
@pytest.mark.parametrize("unique_parts", [True, False])
def test_edge_conflict_inside_a_chunk_leaves_nothing(store: Store, at: int, unique_parts: bool) -> None:
    n = ROWS_MAX + 2
    with store.write() as tx:
        vk = _vertices(tx, n + 1)
        tx.elements.edges_insert([("e-old", 2, vk[at], vk[at + 1], "", None)], unique_parts=unique_parts)
    with store.write() as tx:
        # a repeat of the old edge: its parts (HugeGraph mode) or its id (auto mode)
        rows = [("e-old" if i == at else f"e{i}", 2, vk[i], vk[i + 1], "", None) for i in range(n)]
        with pytest.raises(StoreConflict) as err:
            tx.elements.edges_insert(rows, unique_parts=unique_parts)
        assert tx.elements.edge_count() == 1
        new = tx.elements.edges_insert([("e-new", 2, vk[0], vk[2], "", None)] * 1, unique_parts=unique_parts)
        assert new == [2] if not PG_URL else new[0] > 2  # (sequences never go back on PostgreSQL)
    cols = ("edges.out_key, edges.label_id, edges.sort_values, edges.in_key, edges.dup" if unique_parts
            else "edges.id")
    assert str(err.value) == f"insert edges: UNIQUE constraint failed: {cols}"


def test_conflict_within_the_batch_itself(store: Store) -> None:
    with store.write() as tx:
        with pytest.raises(StoreConflict):
            tx.elements.vertices_insert([(f"v{i % (ROWS_MAX + 1)}", 1, None) for i in range(ROWS_MAX + 5)])
        assert tx.elements.vertex_count() == 0


@sqlite_only  # PostgreSQL names the column in its own words
def test_null_in_a_not_null_column_fails_as_the_one_row_statement_does(store: Store) -> None:
    with store.write() as tx:
        vk = _vertices(tx, 4)
    with pytest.raises(StoreError) as err, store.write() as tx:
        tx.elements.edges_insert([("e0", 2, vk[0], vk[1], "", None), ("e1", None, vk[1], vk[2], "", None)], unique_parts=True)
    assert not isinstance(err.value, StoreConflict)
    assert str(err.value) == "insert edges: NOT NULL constraint failed: edges.label_id"
    assert _counts(store) == (4, 0, 0)  # the transaction was rolled back whole


def test_null_in_a_large_batch_is_not_a_conflict(store: Store) -> None:
    """A batch past `COPY_MIN_ROWS` (COPY on PostgreSQL) with a NULL label: the driver's
    NOT NULL error, nothing of the batch written, and the transaction goes on."""
    n = COPY_MIN_ROWS + 4
    with store.write() as tx:
        vk = _vertices(tx, n + 1)
        rows = [(f"e{i}", None if i == n - 1 else 2, vk[i], vk[i + 1], "", None) for i in range(n)]
        with pytest.raises(StoreError) as err:
            tx.elements.edges_insert(rows, unique_parts=True)
        assert not isinstance(err.value, StoreConflict)
        assert "label_id" in str(err.value)
        if PG_URL:  # a savepoint kept the transaction: the rest of it commits
            assert tx.elements.edge_count() == 0
            tx.elements.edges_insert([(f"f{i}", 2, vk[i], vk[i + 1], "", None) for i in range(n)], unique_parts=True)
    if PG_URL:
        assert _counts(store) == (n + 1, n, 0)


@sqlite_only  # SQLite's host-parameter limit
def test_chunks_follow_the_connection_parameter_limit(store: Store) -> None:
    with store.write() as tx:
        old = tx.raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 100)  # 24 vertices, 8 edges a statement
        try:
            vk = _vertices(tx, 60)
            keys = tx.elements.edges_insert([(f"e{i}", 2, vk[i], vk[i + 1], "", None) for i in range(59)], unique_parts=True)
        finally:
            tx.raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, old)
    assert len(keys) == 59
    assert _counts(store) == (60, 59, 0)


@pytest.mark.parametrize("at", [0, 98, 99])
def test_conflict_in_a_padded_chunk_leaves_nothing(store: Store, at: int) -> None:
    """100 rows go as one statement of 128: the last row repeated 28 times."""
    with store.write() as tx:
        tx.elements.vertex_insert("taken", 1, None)
    with store.write() as tx:
        with pytest.raises(StoreConflict):
            tx.elements.vertices_insert([("taken" if i == at else f"v{i}", 1, None) for i in range(100)])
        assert tx.elements.vertex_count() == 1
        fresh = _vertices(tx, 100)
        assert fresh == list(range(2, 102)) if not PG_URL else len(set(fresh)) == 100
    assert _counts(store) == (101, 0, 0)


@sqlite_only  # SQLite's trace callback
def test_a_batch_is_one_insert_statement(store: Store) -> None:
    """500 rows: one multi-row INSERT per table (the driver runs an executemany row by row,
    and every row would be a GIL round trip), and one read before it."""
    seen: list[str] = []
    with store.write() as tx:
        tx.raw.set_trace_callback(seen.append)
        try:
            vk = _vertices(tx, 500)
            vertices = list(seen)
            seen.clear()
            heads = tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, [f"v{i}" for i in range(500)])
            tx.elements.edges_insert([(f"e{i}", 2, vk[i], vk[i + 1], "", None) for i in range(499)], unique_parts=True)
            edges = list(seen)
            seen.clear()
            tx.index.index_add_many([(3, i, k, "v") for i, k in enumerate(vk)])
            index = list(seen)
        finally:
            tx.raw.set_trace_callback(None)
    assert len(heads) == 500
    assert [s.split(" (")[0] for s in vertices if s.startswith("INSERT")] == ["INSERT OR IGNORE INTO vertices"]
    assert [s.split(" (")[0] for s in edges if s.startswith("INSERT")] == ["INSERT OR IGNORE INTO edges"]
    assert len(edges) == 3  # the end vertices (one row of arrays), the key sequence, the insert
    assert [s.split(" (")[0] for s in index] == ["INSERT OR IGNORE INTO index_entries"]
    assert _counts(store) == (500, 499, 500)
