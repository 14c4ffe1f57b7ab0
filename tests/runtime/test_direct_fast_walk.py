"""The prepared callable of a learnt walk count (`g.V(id).out().out().count()`, up to three
hops; runtime/direct_fast.py `_walk`): it answers exactly what `direct.run` and the
pipeline answer (a `Long`, 0 for a missing start or an unknown label), it polls a time
limit as `direct.run` does (a cancel token takes `direct.run`), and it hands the call back
(`SLOW`) inside a transaction or when the statement fails in the driver."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.errors import TraversalTimeout
from gremlin_engine.graph import Graph
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import direct, direct_fast
from gremlin_engine.structure.numbers import Int, Long
from storage import read_once
from tests.runtime.conftest import typed
from tests.runtime.direct_fast_graph import learnt_plan, loaded_graph

WALKS = [
    "g.V(vid).out().out().count()",
    "g.V(vid).out('knows').out('knows').count()",
    "g.V(vid).out('knows').out('likes').count()",
    "g.V(vid).both().both().count()",
    "g.V(vid).in('likes').out().count()",
    "g.V(vid).both('knows').both('knows').both('knows').count()",
    "g.V(vid).repeat(out()).times(2).count()",
    "g.V(vid).out('nosuch').out().count()",
]
PROBES: list[Any] = [1, 2, 6, 99, Long(3), Int(4), 3_000_000_000, "t0", "t1", "nope", ""]


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[Graph]:
    with loaded_graph(tmp_path, evaluation_timeout_ms=0) as g:
        yield g


_plan = learnt_plan


@pytest.mark.parametrize("script", WALKS)
def test_walk_answers_equal_direct_run_and_the_pipeline(graph: Graph, script: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    for value in PROBES:
        b = {"vid": value}
        plan = _plan(graph, script, b)
        assert plan.fast is not None and not plan.timeless
        got = plan.fast(value)
        assert got is not direct_fast.SLOW
        assert typed(got) == typed(direct.run(graph, plan.direct, [value]))
        assert typed(graph.execute(script, bindings=b)) == typed(got)
        monkeypatch.setattr(direct, "ENABLED", False)
        try:
            assert typed(graph.execute(script, bindings=b)) == typed(got), (script, value)
        finally:
            monkeypatch.setattr(direct, "ENABLED", True)


def test_some_walks_are_the_expected_counts(graph: Graph) -> None:
    # person i knows i+1 and i+2 (mod 6), person 1 also itself; everyone likes one thing
    assert graph.execute(WALKS[1], bindings={"vid": 2}) == [Long(4)]
    assert graph.execute(WALKS[1], bindings={"vid": 1}) == [Long(7)]  # 1->{1,2,3}; 1->3, 2->2, 3->2
    assert graph.execute(WALKS[2], bindings={"vid": 2}) == [Long(2)]
    assert graph.execute(WALKS[0], bindings={"vid": 99}) == [Long(0)]
    assert graph.execute(WALKS[7], bindings={"vid": 1}) == [Long(0)]


def test_a_cancel_token_takes_direct_run_and_a_time_limit_is_polled(graph: Graph,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    script = WALKS[0]
    plan = _plan(graph, script, {"vid": 2})
    want = graph.execute(script, bindings={"vid": 2})
    assert plan.fast(2, 30_000) == want == plan.fast(2, 0) == plan.fast(2, None)
    calls: list[Any] = []
    real = plan.fast

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(plan, "fast", spy)
    assert graph.execute(script, bindings={"vid": 2}, timeout_ms=30_000) == want
    assert calls == [(2, 30_000)]
    assert graph.registry.execute(script, {"vid": 2}, graph=graph.name, cancel=CancelToken()) == want
    assert plan.run({"vid": 2}, None, CancelToken()) == want
    assert len(calls) == 1  # a cancel token: `direct.run`


def test_an_expired_limit_raises_what_direct_run_raises(graph: Graph) -> None:
    plan = _plan(graph, WALKS[0], {"vid": 2})
    with pytest.raises(TraversalTimeout) as fast:
        plan.fast(2, 1e-9)
    with pytest.raises(TraversalTimeout) as slow:
        direct.run(graph, plan.direct, [2], 1e-9)
    assert str(fast.value) == str(slow.value)


def test_the_reader_polls_stop_and_an_interrupt_declines(graph: Graph) -> None:
    store = graph.store
    with store.read():
        pass
    before = len(store._idle)
    heavy = ("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 10000000) "
             "SELECT count(*) FROM n WHERE ? IS NOT NULL")
    polls: list[int] = []

    def stop() -> bool:
        polls.append(1)
        return len(polls) >= 3

    read = read_once.reader(store, heavy, one=True, decline=(sqlite3.OperationalError,), poll_every=1000)
    assert read((1,), stop) is read_once.DECLINED
    assert len(polls) == 3 and len(store._idle) == before
    light = read_once.reader(store, "SELECT count(*) FROM vertices WHERE ? IS NOT NULL", one=True, poll_every=1000)
    assert light((1,), lambda: False) == (9,)
    pair = store._idle[-1]  # the handler is gone: a long statement on that connection runs to its end
    assert pair[1].execute("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
                           "SELECT count(*) FROM n").fetchone() == (100001,)


def test_inside_a_transaction_and_on_driver_errors_it_hands_back(graph: Graph) -> None:
    plan = _plan(graph, WALKS[0], {"vid": 2})
    with graph.store.read():
        assert plan.fast(2) is direct_fast.SLOW
    assert typed(plan.fast(2)) == typed(direct.run(graph, plan.direct, [2])) == [(Long, 6)]
    store = graph.store
    with store.read():
        pass
    before = len(store._idle)
    bad = read_once.reader(store, "SELECT nosuch FROM vertices WHERE id = ?", one=True,
                           decline=(sqlite3.OperationalError,))
    assert bad((1,)) is read_once.DECLINED
    assert len(store._idle) == before


def test_schema_changes_are_followed(graph: Graph) -> None:
    script = "g.V(vid).out('hates').out().count()"
    plan = _plan(graph, script, {"vid": 1})
    assert plan.fast(1) == [Long(0)]  # no such label yet
    graph.schema.create("edgelabel", {"name": "hates", "source_label": "person", "target_label": "person"})
    graph.execute("g.V(a).as('a').V(b).addE('hates').from('a').iterate()", bindings={"a": 1, "b": 2})
    # 1 hates 2, who knows 3 and 4 and likes t0
    assert plan.fast(1) == [Long(3)] == graph.execute(script, bindings={"vid": 1})
