"""Single-statement reads (``store.read(ctx, single=True)``): the same answers as a snapshot
read, every commit made before them seen, and a second statement refused loudly. The `store`
fixture runs these on SQLite (memory and file) and, under `tests/run_postgres.py`, on
PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event

from storage import AdjacencyQuery, Lookup, Project, ReadOnlyTransaction, StoreError

MISUSE = "a single-statement read ran a second statement"


def _graph(store) -> tuple[int, int, int]:
    """Three vertices, a -> b and a -> c: their keys."""
    with store.write() as tx:
        a, b, c = tx.elements.vertices_insert([("a", 1, '{"n":1}'), ("b", 1, '{"n":2}'), ("c", 2, None)])
        tx.elements.edges_insert([("ab", 1, a, b, "", None), ("ac", 1, a, c, "", None)])
    return a, b, c


def test_single_read_answers_as_a_snapshot_read(store) -> None:
    a, b, c = _graph(store)
    asks = [
        lambda tx: tx.elements.find(Lookup.VERTICES_BY_IDS, ["b"]),
        lambda tx: tx.elements.find(Lookup.VERTICES_BY_IDS, ["a", "c", "missing"]),
        lambda tx: tx.elements.find(Lookup.VERTICES_BY_KEYS, [c]),
        lambda tx: tx.elements.find(Lookup.EDGES_BY_IDS, ["ac"]),
        lambda tx: tx.adjacency.read(AdjacencyQuery("out", project=Project.TO_KEYS), [a]),
        lambda tx: tx.elements.vertex_count(),
    ]
    for ask in asks:
        with store.read() as tx:
            expected = ask(tx)
        with store.read(single=True) as tx:
            assert ask(tx) == expected
    with store.read(single=True) as tx:
        assert [(r.id, r.props) for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["b"])] == [("b", '{"n":2}')]


def test_second_statement_raises_and_the_store_stays_usable(store) -> None:
    _graph(store)
    with pytest.raises(StoreError, match=MISUSE), store.read(single=True) as tx:
        assert len(tx.elements.find(Lookup.VERTICES_BY_IDS, ["a"])) == 1
        tx.elements.find(Lookup.VERTICES_BY_IDS, ["b"])
    with pytest.raises(StoreError, match=MISUSE), store.read(single=True) as tx:
        tx.elements.vertex_count()
        tx.records.task_list()  # through the SQLAlchemy connection: the same budget
    for _ in range(3):  # the connections went back in order
        with store.read(single=True) as tx:
            assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["c"])] == ["c"]
        with store.read() as tx:
            assert tx.elements.vertex_count() == 3


def test_a_read_nested_in_a_single_read_shares_its_one_statement(store) -> None:
    _graph(store)
    with store.read(single=True) as tx:
        assert tx.elements.vertex_count() == 3
        with pytest.raises(StoreError, match=MISUSE), store.read() as inner:
            inner.elements.vertex_count()


def test_single_read_nested_in_a_write_sees_its_uncommitted_rows_once(store) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("new", 1)
        with store.read(single=True) as inner:
            assert [r.id for r in inner.elements.find(Lookup.VERTICES_BY_IDS, ["new"])] == ["new"]
            with pytest.raises(StoreError, match=MISUSE):
                inner.elements.vertex_count()
        with store.read(single=True) as inner:
            with pytest.raises(ReadOnlyTransaction):
                inner.elements.vertex_insert("other", 1)
        tx.elements.vertex_insert("more", 1)  # the outer transaction goes on
    with store.read() as tx:
        assert tx.elements.vertex_count() == 2


def test_single_read_refuses_writes(store) -> None:
    with store.read(single=True) as tx, pytest.raises(ReadOnlyTransaction):
        tx.elements.vertex_insert("a", 1)
    with store.read() as tx:
        assert tx.elements.vertex_count() == 0


def test_commits_between_single_reads_are_seen(store) -> None:
    """Each single read is a statement of its own, so it sees what committed before it;
    a reader's connection that served the first one serves the next (its statement ended)."""
    _graph(store)
    for n in range(3):
        with store.read(single=True) as tx:
            assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["a", f"x{n}"])] == ["a"]
        with store.write() as tx:
            tx.elements.vertex_insert(f"x{n}", 1)
        with store.read(single=True) as tx:
            assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["a", f"x{n}"])] == ["a", f"x{n}"]


def test_a_writer_committing_from_another_thread_is_seen(store) -> None:
    _graph(store)
    with store.read(single=True) as tx:
        assert tx.elements.find(Lookup.VERTICES_BY_IDS, ["late"]) == []

    def write() -> None:
        with store.write() as wtx:
            wtx.elements.vertex_insert("late", 1)

    writer = threading.Thread(target=write)
    writer.start()
    writer.join()
    with store.read(single=True) as tx:
        assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["late"])] == ["late"]


def test_memory_store_single_read_holds_the_store_lock(memory_store) -> None:
    """A memory store's one connection serves every transaction under its lock: a writer
    waits for a single read as for any other."""
    _graph(memory_store)
    order: list[str] = []
    with memory_store.read(single=True) as tx:
        waiter = threading.Thread(target=_write_one, args=(memory_store, order))
        waiter.start()
        waiter.join(0.2)
        order.append("read")
        assert tx.elements.vertex_count() == 3
    waiter.join()
    assert order == ["read", "write"]
    with memory_store.read(single=True) as tx:
        assert tx.elements.vertex_count() == 4


def _write_one(store, order: list[str]) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("w", 1)
    order.append("write")


def test_single_read_checks_out_once_for_a_listener(file_store) -> None:
    """A pool checkout listener (statement tracing) sees one checkout per transaction."""
    _graph(file_store)
    seen: list[int] = []

    def on_checkout(*_args: object) -> None:
        seen.append(1)

    event.listen(file_store.engine, "checkout", on_checkout)
    try:
        for _ in range(3):
            with file_store.read(single=True) as tx:
                assert len(tx.elements.find(Lookup.VERTICES_BY_IDS, ["a"])) == 1
    finally:
        event.remove(file_store.engine, "checkout", on_checkout)
    assert len(seen) == 3


def test_context_travels_with_a_single_read(store) -> None:
    ctx = object()
    with store.read(ctx, single=True) as tx:
        assert tx.ctx is ctx
        with store.read() as inner:
            assert inner.ctx is ctx


def test_a_kept_transaction_object_pins_no_snapshot(store) -> None:
    """The caller may keep the transaction object (and rows) after the block: its statement
    has ended, so the connection it used serves later reads at their own time."""
    _graph(store)
    kept = []
    for n in range(3):
        with store.read(single=True) as tx:
            kept.append(tx)
            assert tx.core.one("SELECT id FROM vertices ORDER BY key")[0] == "a"  # one row of several
        with store.write() as wtx:
            wtx.elements.vertex_insert(f"k{n}", 1)
        with store.read(single=True) as tx:
            kept.append(tx)
            assert tx.elements.vertex_count() == 4 + n


def test_single_read_nested_in_a_single_read_spends_the_outer_statement(store) -> None:
    with store.read(single=True) as tx:
        with store.read(single=True) as inner:
            assert inner.records.task_list() == []
        with pytest.raises(StoreError, match=MISUSE):
            tx.elements.vertex_count()


def test_a_failing_statement_becomes_a_store_error_and_leaves_the_store_usable(store) -> None:
    _graph(store)
    with pytest.raises(StoreError, match="no such table|does not exist"), store.read(single=True) as tx:
        tx.core.one("SELECT 1 FROM no_such_table")
    with store.read(single=True) as tx:
        assert tx.elements.vertex_count() == 3
