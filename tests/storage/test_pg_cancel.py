"""A guarded aggregate statement on PostgreSQL stops when its `stop` turns true
(`pg_cancel.WATCHER` cancels it; `Aggregates._stoppable` returns None), within a bound, on a
read, a single-statement read and a write transaction, and the pooled connection it ran on
answers its next statement correctly, with no late cancel reaching that statement.

The slow statement: a 3-hop 'both' walk count from one vertex of a complete directed graph
of `N` vertices as one join chain (`WalkStart.ID`): (2(N-1))**3 join rows, ~8 s uncancelled
on an idle host, from a load of ~90k edges (~2 s).

Run by `make test-postgres` (`python -m tests.run_postgres`), skipped on SQLite.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from storage import Store, WalkCount, WalkStart, pg_cancel
from tests.storage.conftest import PG_URL, drop_pg, fresh_pg_url

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only (HUGELITE_TEST_PG_URL)")

N = 300
SLOW = WalkCount([("both", None)] * 3, WalkStart.ID)
ONE_HOP = WalkCount([("both", None)], WalkStart.ID)
#: a count of some ms (the next statement in the race)
FOLLOW = WalkCount([("both", None)] * 2, WalkStart.ID)
#: seconds after `stop` turns true by which the statement must have stopped (a loaded host:
#: the watcher polls every 25 ms and the cancel is a few ms more)
BOUND_S = 1.5


@pytest.fixture(scope="module")
def clique() -> Iterator[Store]:
    """A store holding the complete directed graph of `N` vertices (ids 1..N), label 10."""
    from storage import open_store

    url = fresh_pg_url()
    store = open_store(url)
    store.initialise()
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, None) for i in range(1, N + 1)])
        tx.elements.edges_insert([(None, 10, a, b, "", None) for a in keys for b in keys if a != b])
    yield store
    store.close()
    drop_pg(url)


def _after(seconds: float) -> tuple[Callable[[], bool], list[float]]:
    """A `stop` that turns true `seconds` from now, and a list holding the time it first said so."""
    at = time.monotonic() + seconds
    seen: list[float] = []

    def stop() -> bool:
        now = time.monotonic()
        if now >= at:
            if not seen:
                seen.append(now)
            return True
        return False

    return stop, seen


def _backend(tx: Any) -> int:
    return int(tx.core.scalar("SELECT pg_backend_pid()"))


def _stopped_within_bound(run: Callable[[Callable[[], bool]], Any]) -> None:
    stop, seen = _after(0.2)
    started = time.monotonic()
    assert run(stop) is None
    ended = time.monotonic()
    assert seen, "stop was never polled true"
    assert ended - seen[0] < BOUND_S, f"stopped {ended - seen[0]:.2f} s after stop turned true"
    assert ended - started < 0.2 + BOUND_S


def test_a_read_stops_and_its_connection_answers_next(clique: Store) -> None:
    with clique.read() as tx:
        pid = _backend(tx)
        _stopped_within_bound(lambda stop: tx.aggregates.count(SLOW, 1, stop))
    with clique.read() as tx:  # the same pooled connection (idle readers: last in, first out)
        assert _backend(tx) == pid
        assert tx.aggregates.count(ONE_HOP, 1) == 2 * (N - 1)
        assert tx.aggregates.count(ONE_HOP, 2, stop=lambda: False) == 2 * (N - 1)


def test_a_single_statement_read_stops(clique: Store) -> None:
    with clique.read() as tx:
        pid = _backend(tx)
    with clique.read(single=True) as tx:
        _stopped_within_bound(lambda stop: tx.aggregates.count(SLOW, 1, stop))
    with clique.read() as tx:
        assert _backend(tx) == pid
        assert tx.aggregates.count(ONE_HOP, 3) == 2 * (N - 1)


def test_a_write_transaction_stopped_rolls_back_and_the_writer_goes_on(clique: Store) -> None:
    """The cancel aborts the write transaction; the caller raises (as the engine raises its
    timeout), the scope rolls back, nothing it wrote stays, and the writer's connection
    writes the next transaction."""
    with pytest.raises(TimeoutError), clique.write() as tx:
        tx.elements.vertices_insert([(10_001, 1, None)])
        _stopped_within_bound(lambda stop: tx.aggregates.count(SLOW, 1, stop))
        raise TimeoutError
    with clique.write() as tx:
        tx.elements.vertices_insert([(10_002, 1, None)])
    with clique.read() as tx:
        found = tx.core.all("SELECT count(*) FROM vertices WHERE key > ?", [N])
        assert found[0][0] == 1  # 10_002 only
        assert tx.aggregates.count(WalkCount([], WalkStart.ID), 10_002) == 1
        assert tx.aggregates.count(WalkCount([], WalkStart.ID), 10_001) == 0


def test_a_cancel_sent_as_the_statement_ends_never_reaches_the_next(clique: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race: `stop` turns true about when a short guarded count ends, and an unguarded
    count of some ms follows at once on the same connection. Whatever the timing, that
    next statement is never cancelled: the guarded count answers or returns None, the
    next one always answers. (Without `Watcher.remove` waiting out a cancel in flight,
    the cancel lands on the next statement within a few rounds.)"""
    monkeypatch.setattr(pg_cancel, "POLL_S", 0.0005)
    answered = stopped = 0
    for i in range(60):
        with clique.read() as tx:
            stop, _seen = _after(0.0003 * (i % 10))
            n = tx.aggregates.count(ONE_HOP, 1 + i % N, stop)
            if n is not None:
                assert n == 2 * (N - 1)
                answered += 1
                assert tx.aggregates.count(FOLLOW, 2) == (2 * (N - 1)) ** 2
                continue
            stopped += 1  # the transaction is aborted: the next statement is the next one's
        with clique.read(single=True) as tx:
            assert tx.aggregates.count(FOLLOW, 2) == (2 * (N - 1)) ** 2
    assert answered and stopped  # both sides of the race were met


def test_concurrent_statements_stop_each_on_its_own(clique: Store) -> None:
    """One watcher serves several connections: a statement whose stop stays false answers
    while others on other connections are cancelled around it."""
    results: dict[str, Any] = {}

    def slow(name: str) -> None:
        with clique.read() as tx:
            stop, _seen = _after(0.3)
            results[name] = tx.aggregates.count(SLOW, 1, stop)

    def steady() -> None:
        with clique.read() as tx:
            results["steady"] = tx.aggregates.count(WalkCount([("out", None)] * 2, WalkStart.ID), 1, lambda: False)

    threads = [threading.Thread(target=slow, args=(f"slow{i}",)) for i in range(2)] + [threading.Thread(target=steady)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == {"slow0": None, "slow1": None, "steady": (N - 1) ** 2}


def test_unguarded_and_guarded_short_statements_answer_alike(clique: Store) -> None:
    """No stop: no registration; a stop that stays false: the same answer, and the watcher
    holds nothing once the statement returned."""
    with clique.read() as tx:
        for start in (1, 2, 3):
            assert tx.aggregates.count(ONE_HOP, start, lambda: False) == 2 * (N - 1)
            assert tx.aggregates.count(ONE_HOP, start) == 2 * (N - 1)
    assert not pg_cancel.WATCHER.running and not pg_cancel.WATCHER.cancelling


def test_the_store_sessions_run_without_the_jit(clique: Store) -> None:
    """A JIT-compiled statement took ~0.5 s to end after a cancel (`bench/pg_cancel.py`):
    the store's connections turn the JIT off (`engine_pg.turn_jit_off`), the pooled ones
    and the writer's alike."""
    with clique.read() as tx:
        assert tx.core.scalar("SHOW jit") == "off"
    with clique.write() as tx:
        assert tx.core.scalar("SHOW jit") == "off"
