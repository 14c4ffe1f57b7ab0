"""Group commit of prepared batches (`runtime/batch_commit.py`).

Batches queued while the writer is busy are written by one leader in one transaction, and
each request still gets exactly its own answer: its ids, its own error (an expired token, a
missing end vertex), and after a failure inside the group (here an unbindable value), its
traversal's answer, as if it had run alone.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import batch_commit, batch_prepare
from tests.runtime.test_batch_column_lane import _edge, _pair, _person, _rows
from tests.runtime.test_batch_direct_path import _ir
from tests.runtime.test_batch_prepare import _erun, _vrun


@pytest.fixture
def graph(registry: GraphRegistry, tmp_path: Path) -> Graph:
    g = _pair(registry, tmp_path)[0]
    assert _vrun(g, [_person({"name": f"g{i}"}) for i in range(40)])[0] == "ok"
    return g


@pytest.fixture
def transactions(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Any]]:
    """(id of the transaction, result) of every prepared write."""
    seen: list[tuple[int, Any]] = []
    real = batch_prepare.Prepared.write

    def spy(self: Any, graph: Any, tx: Any, token: Any) -> Any:
        out = real(self, graph, tx, token)
        seen.append((id(tx), out))
        return out

    monkeypatch.setattr(batch_prepare.Prepared, "write", spy)
    return seen


def _batch(k: int, n: int = 10) -> list[dict[str, Any]]:
    return [_edge("knows", f"1:g{i}", f"1:g{(i + k + 1) % 40}", {"weight": float(k)}) for i in range(n)]


def _queued_behind_the_writer(g: Graph, jobs: list[Any]) -> list[Any]:
    """Runs the jobs on threads while this thread holds the store's writer, so their batches
    queue up (waiting a moment for all to be prepared and queued), then lets them go. The
    first job's request is the first leader (it holds the group's lock before the others
    start), so its batch is the oldest of the group it writes, however the threads are
    scheduled."""
    out: list[Any] = [None] * len(jobs)
    group = batch_commit._group_of(g)

    def run(n: int) -> None:
        out[n] = jobs[n]()

    def wait_for(ready: Any) -> None:
        deadline = time.monotonic() + 10
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        assert ready()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(jobs))]
    with g.store.write():
        threads[0].start()
        wait_for(lambda: len(group.queue) == 1 and group.lock.locked())
        for t in threads[1:]:
            t.start()
        wait_for(lambda: len(group.queue) == len(jobs))
    for t in threads:
        t.join(30)
    return out


def test_batches_queued_together_share_one_transaction(graph: Graph, transactions: list[tuple[int, Any]]) -> None:
    before = len(_rows(graph))
    results = _queued_behind_the_writer(graph, [lambda k=k: _erun(graph, _batch(k)) for k in range(4)])
    assert [r[0] for r in results] == ["ok"] * 4
    assert [r[1][0] for r in results] == [f"S1:g0>1>1>>S1:g{k + 1}" for k in range(4)]
    assert len({tx for tx, _out in transactions}) == 1 and len(transactions) == 4  # one leader, one commit
    assert len(_rows(graph)) == before + 40


def test_each_request_gets_its_own_error(graph: Graph, monkeypatch: pytest.MonkeyPatch,
                                         transactions: list[tuple[int, Any]]) -> None:
    before = len(_rows(graph))
    missing = _batch(1)[:5] + [_edge("knows", "1:g1", "1:nobody", {"weight": 1.0})]
    jobs = [lambda: _erun(graph, _batch(0)), lambda: _erun(graph, missing), lambda: _erun(graph, _batch(2)),
            lambda: _cancelled(graph, _batch(3))]
    results = _queued_behind_the_writer(graph, jobs)
    assert results[0][0] == "ok" and results[2][0] == "ok"
    assert results[1] == ("IllegalArgument", "Invalid vertex id '1:nobody'")
    assert results[3] == ("TraversalCancelled", "traversal was cancelled")
    assert len(_rows(graph)) == before + 20  # the two valid batches, nothing of the others
    assert len({tx for tx, _out in transactions}) == 1  # the three looked at under one writer (the cancelled one raised)


def _cancelled(g: Graph, items: list[Any]) -> tuple[str, Any]:
    """Runs a batch whose caller's token is cancelled (as a closed connection cancels it)."""
    token = CancelToken()
    token.cancel()
    try:
        return "ok", g.traverse(_ir(("inject", *items), ("hgAddEdges", True), ("id",)), cancel=token)
    except Exception as exc:
        return type(exc).__name__, str(exc)


def test_a_failure_inside_the_group_runs_every_request_alone(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    real = batch_prepare.prepare

    def spoil_one(g: Any, ir: Any) -> Any:
        found = real(g, ir)
        if found is not None and found.ids[0].endswith("g3"):  # batch 2 (its first edge: g0 -> g3)
            found.texts = [found.texts[0], object(), *found.texts[2:]]
        return found

    monkeypatch.setattr(batch_prepare, "prepare", spoil_one)
    before = len(_rows(graph))
    results = _queued_behind_the_writer(graph, [lambda k=k: _erun(graph, _batch(k)) for k in range(4)])
    assert [r[0] for r in results] == ["ok"] * 4  # each ran its traversal after the group rolled back
    assert len(_rows(graph)) == before + 40
    assert sorted(r[1][0] for r in results) == sorted(f"S1:g0>1>1>>S1:g{k + 1}" for k in range(4))


def test_groups_are_bounded(graph: Graph, monkeypatch: pytest.MonkeyPatch, transactions: list[tuple[int, Any]]) -> None:
    monkeypatch.setattr(batch_commit, "GROUP_ELEMENTS", 20)
    results = _queued_behind_the_writer(graph, [lambda k=k: _erun(graph, _batch(k)) for k in range(5)])
    assert [r[0] for r in results] == ["ok"] * 5
    per_tx: dict[int, int] = {}
    for tx, _out in transactions:
        per_tx[tx] = per_tx.get(tx, 0) + 1
    # 10 elements a batch: a leader takes batches up to 20 elements, or up to its own batch
    # if more are queued before it; the first leader's is the oldest, so no commit holds all five
    assert sum(per_tx.values()) == 5 and len(per_tx) >= 2


def test_vertex_and_edge_batches_in_one_group(graph: Graph, transactions: list[tuple[int, Any]]) -> None:
    people = [_person({"name": f"n{i}"}) for i in range(5)]
    edges = [_edge("knows", "1:g0", "1:g1", {"weight": 0.5})]
    results = _queued_behind_the_writer(graph, [lambda: _vrun(graph, people), lambda: _erun(graph, edges)])
    assert results == [("ok", [f"1:n{i}" for i in range(5)]), ("ok", ["S1:g0>1>1>>S1:g1"])]
    assert len({tx for tx, _out in transactions}) == 1


def test_a_busy_store_is_the_requests_own_error(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph.store, "_write_wait_s", 0.05)
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(_erun(graph, _batch(0))))
    with graph.store.write():
        worker.start()
        worker.join(10)
    assert result[0][0] == "LimitExceeded" and "too busy" in result[0][1]
    assert not batch_commit._group_of(graph).queue
    assert _erun(graph, _batch(0))[0] == "ok"
