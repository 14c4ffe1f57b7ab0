"""Transactions: commit/rollback, read-only guard, nesting, snapshots, threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from storage import AdjacencyQuery, Project, ReadOnlyTransaction, StoreBusy, StoreError, open_store


class Boom(Exception):
    pass


def test_rollback_leaves_nothing(store) -> None:
    with pytest.raises(Boom), store.write() as tx:
        a, b = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None)])
        tx.elements.edge_insert("ab", 1, a, b)
        tx.index.index_add(1, "x", a)
        tx.schema.schema_put("propertykey", 1, "name", "{}")
        tx.records.var_put("v", "1")
        tx.records.task_insert({"type": "t"})
        tx.schema.meta_set("k", "v")
        raise Boom
    with store.read() as tx:
        assert (tx.elements.vertex_count(), tx.elements.edge_count()) == (0, 0)
        assert tx.index.index_scan(1) == []
        assert tx.schema.schema_list("propertykey") == []
        assert tx.records.var_list() == {}
        assert tx.records.task_list() == []
        assert tx.schema.meta_get("k") is None


def test_commit_is_visible_to_later_transactions(store) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("a", 1)
    with store.read() as tx:
        assert tx.elements.vertex_count() == 1


WRITE_CALLS = [
    ("schema.meta_set", ("k", "v")),
    ("schema.schema_put", ("propertykey", 1, "n", "{}")),
    ("schema.schema_delete", ("propertykey", 1)),
    ("schema.schema_next_id", ("propertykey",)),
    ("elements.vertex_insert", ("a", 1, None)),
    ("elements.vertices_insert", ([("a", 1, None)],)),
    ("elements.vertex_update", (1, "{}")),
    ("elements.vertices_update", ([(1, "{}")],)),
    ("elements.vertices_delete", ([1],)),
    ("elements.edge_insert", ("e", 1, 1, 1)),
    ("elements.edges_insert", ([("e", 1, 1, 1, "", None)],)),
    ("elements.edge_update", (1, "{}")),
    ("elements.edges_update", ([(1, "{}")],)),
    ("elements.edges_delete", ([1],)),
    ("index.index_add", (1, "x", 1)),
    ("index.index_add_many", ([(1, "x", 1, "v")],)),
    ("index.index_remove", (1, 1)),
    ("index.index_drop", (1,)),
    ("records.var_put", ("v", "1")),
    ("records.var_delete", ("v",)),
    ("records.task_insert", ({"type": "t"},)),
    ("records.task_update", (1, {"status": "x"})),
    ("records.task_delete", (1,)),
    ("clear", ()),
]


@pytest.mark.parametrize(("method", "args"), WRITE_CALLS, ids=[m for m, _ in WRITE_CALLS])
def test_read_transaction_refuses_writes(store, method, args) -> None:
    with store.read() as tx:
        with pytest.raises(ReadOnlyTransaction, match="store.write"):
            target = tx
            for name in method.split("."):
                target = getattr(target, name)
            target(*args)
        assert tx.elements.vertex_count() == 0


def test_nested_read_sees_outer_write_and_nested_write_fails(store) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("a", 1)
        with store.read() as inner:
            assert inner.elements.vertex_count() == 1  # same transaction, uncommitted write visible
            with pytest.raises(ReadOnlyTransaction):
                inner.elements.vertex_insert("b", 1)
        with pytest.raises(StoreError, match="inside another transaction"), store.write():
            pass
        tx.elements.vertex_insert("b", 1)  # the outer transaction is still usable
    with store.read() as tx:
        assert tx.elements.vertex_count() == 2


def test_driver_errors_become_store_errors(store) -> None:
    with pytest.raises(StoreError, match="no such table|does not exist"), store.read() as tx:
        tx.core.all("SELECT * FROM not_a_table")
    with store.read() as tx:  # and the store still works
        assert tx.elements.vertex_count() == 0


def test_wal_reader_keeps_its_snapshot(file_store) -> None:
    with file_store.write() as tx:
        tx.elements.vertex_insert("a", 1)
    started = threading.Event()
    proceed = threading.Event()
    seen: list[int] = []

    def reader() -> None:
        with file_store.read() as tx:
            seen.append(tx.elements.vertex_count())
            started.set()
            proceed.wait(10)
            seen.append(tx.elements.vertex_count())  # same snapshot despite the commit below
        with file_store.read() as tx:
            seen.append(tx.elements.vertex_count())

    t = threading.Thread(target=reader)
    t.start()
    assert started.wait(10)
    with file_store.write() as tx:  # not blocked by the open reader
        tx.elements.vertex_insert("b", 1)
    proceed.set()
    t.join(10)
    assert seen == [1, 1, 2]


@contextmanager
def _writer_holding(store) -> Iterator[None]:
    """For the block, another thread holds a write transaction that has inserted one vertex
    and not committed; it commits when the block ends."""
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with store.write() as tx:
            tx.elements.vertex_insert("a", 1)
            holding.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    assert holding.wait(10)
    try:
        yield
    finally:
        release.set()
        t.join(10)


def test_uncommitted_writes_are_invisible_to_other_threads(file_store) -> None:
    counts: list[int] = []
    with _writer_holding(file_store):
        with file_store.read() as tx:
            counts.append(tx.elements.vertex_count())
    with file_store.read() as tx:
        counts.append(tx.elements.vertex_count())
    assert counts == [0, 1]


def _hammer(store, writers: int, readers: int, batches: int) -> list[str]:
    """Writers add batches of 10 vertices with one edge chain each; readers check that every
    snapshot is whole (a multiple of 10 vertices, 9 edges per batch)."""
    errors: list[str] = []
    stop = threading.Event()

    def write(w: int) -> None:
        try:
            for i in range(batches):
                with store.write() as tx:
                    keys = tx.elements.vertices_insert([(f"w{w}-{i}-{j}", 1, None) for j in range(10)])
                    tx.elements.edges_insert([(None, 1, keys[j], keys[j + 1], "", None) for j in range(9)])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(f"writer: {exc!r}")

    def read() -> None:
        try:
            while not stop.is_set():
                with store.read() as tx:
                    v, e = tx.elements.vertex_count(), tx.elements.edge_count()
                    if v % 10 or e != v // 10 * 9:
                        errors.append(f"torn snapshot: {v} vertices, {e} edges")
                    rows = tx.elements.vertices_scan(limit=50)
                    tx.adjacency.read(AdjacencyQuery("both", None, None, Project.PAIRS), [r.key for r in rows])
                time.sleep(0)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(f"reader: {exc!r}")

    rs = [threading.Thread(target=read) for _ in range(readers)]
    ws = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in rs + ws:
        t.start()
    for t in ws:
        t.join(60)
    stop.set()
    for t in rs:
        t.join(60)
    with store.read() as tx:
        if tx.elements.vertex_count() != writers * batches * 10:
            errors.append(f"lost writes: {tx.elements.vertex_count()}")
    return errors


def test_threads_file_backend(file_store) -> None:
    assert _hammer(file_store, writers=2, readers=4, batches=30) == []


def test_threads_memory_backend(memory_store) -> None:
    assert _hammer(memory_store, writers=2, readers=4, batches=30) == []


def test_two_store_objects_on_one_file(tmp_path: Path) -> None:
    """Two Store objects (as two processes would) serialise on SQLite's own lock."""
    path = tmp_path / "g.db"
    s1, s2 = open_store(path), open_store(path)
    s1.initialise()

    def write(s, prefix: str) -> None:
        for i in range(20):
            with s.write() as tx:
                tx.elements.vertex_insert(f"{prefix}{i}", 1)

    ts = [threading.Thread(target=write, args=(s, p)) for s, p in ((s1, "a"), (s2, "b"))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    with s2.read() as tx:
        assert tx.elements.vertex_count() == 40
    s1.close()
    s2.close()


def test_waiting_writer_gives_up_with_store_busy(tmp_path: Path) -> None:
    s = open_store(tmp_path / "g.db", write_wait_s=0.2)
    s.initialise()
    with _writer_holding(s):
        with pytest.raises(StoreBusy, match="no write lock after 0.2s"), s.write():
            pass
        with s.read() as tx:  # readers are not blocked by the writer
            assert tx.elements.vertex_count() == 0
    with s.write() as tx:
        assert tx.elements.vertex_count() == 1
    s.close()


def test_connections_are_reused_between_transactions(file_store) -> None:
    """A cleanly ended read leaves its connection idle for the next one (no pool round trip
    per call); every write runs on the writer's own connection, and a failed one never
    leaves a transaction open on it."""
    with file_store.read() as tx:
        first = tx.raw
    with file_store.read() as tx:
        assert tx.raw is first
    with file_store.write() as tx:
        writer = tx.raw
        assert writer is not first
    with pytest.raises(RuntimeError):
        with file_store.write() as tx:
            assert tx.raw is writer
            raise RuntimeError("boom")
    assert not writer.in_transaction
    with file_store.write() as tx:
        assert tx.raw is writer
    with file_store.read() as tx:
        assert tx.raw is first
        assert tx.raw.in_transaction
    assert not first.in_transaction
    assert file_store.read_ready()
    file_store.close()
    assert not file_store.read_ready()
