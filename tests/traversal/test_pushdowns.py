"""Walk counts and group counts pushed into storage: before/after pairs, and the same answers
(values, Java types, map order) as the general path on a real store (a SQLite file, or a
PostgreSQL database under `make test-postgres`).

The general path is the same traversal with the strategy switched off
(`withoutStrategies(...)`), run on the same graph; the in-memory `GraphAccess` of the other
traversal tests offers no pushdown, so those tests cover the fallback inside the fused steps.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine import GraphRegistry
from gremlin_engine.errors import TraversalError
from gremlin_engine.graph import Graph
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal import compile_traversal
from gremlin_engine.traversal.tokens import Cardinality, T
from storage import GroupCount, WalkCount
from tests.backends import stored_graph_config

from .gremlin import P, __, g
from .helpers import r
from .memory_access import modern

PAIRS = [
    (g.V(1).out().out().count(), "g.V(1).walkCount(out(), out())"),
    (g.V(1).repeat(__.out("knows")).times(3).count(), "g.V(1).walkCount(out('knows'), out('knows'), out('knows'))"),
    (g.V(1).repeat(__.out().in_()).times(2).count(), "g.V(1).walkCount(out(), in(), out(), in())"),
    (g.V(1).repeat(__.both()).times(0).count(), "g.V(1).walkCount(both())"),  # do-while: once
    (g.V(1).times(0).repeat(__.both()).count(), "g.V(1).repeat(__.both()).count()"),  # no hop: kept
    (g.V().where(__.out().out().count().is_(P.gt(1))), "g.V().where(__.walkCount(out(), out()).is(gt(1)))"),
    (g.V().hasLabel("person").out().out().count(), "g.walkCount(V().hasLabel('person'), out(), out())"),
    (g.V().has("age", 1).out().out().count(), "g.V().has('age', eq(1)).walkCount(out(), out())"),
    (g.V(1).out().count(), "g.V(1).out().count()"),  # one hop: AdjacentStream counts it already
    (g.V(1).out().as_("a").out().count(), "g.V(1).out().as('a').out().count()"),  # paths: kept
    (g.V(1).outE().inV().out().count(), "g.V(1).walkCount(out(), out())"),  # after IncidentToAdjacent
    (g.V(1).repeat(__.out()).emit().times(2).count(), "g.V(1).repeat(__.out()).count()"),  # emit: kept
    (g.V(1).repeat(__.out().has("age")).times(2).count(), "g.V(1).repeat(__.out().has('age')).count()"),
    (g.V().groupCount().by("city"), "g.groupCount(V(), by('city'))"),
    (g.V().hasLabel("person").groupCount().by(T.label), "g.groupCount(V().hasLabel('person'), by(T.label))"),
    (g.E().groupCount().by("weight"), "g.groupCount(E(), by('weight'))"),
    (g.V().has("age", 3).groupCount().by("city"), "g.V().has('age', eq(3)).groupCount()"),  # filter: kept
    (g.V().groupCount("m").by("city"), "g.V().groupCount('m')"),  # side-effect form: kept
    (g.V().groupCount().by(__.out().count()), "g.V().groupCount()"),
]


def test_before_after_pairs() -> None:
    for before, after in PAIRS:
        assert repr(compile_traversal(before.ir)) == after, before.ir


def test_fused_steps_fall_back_on_an_access_without_pushdowns() -> None:
    graph = modern()
    assert r(g.V(1).out().out().count(), graph) == [Long(2)]
    assert r(g.V(1).repeat(__.out()).times(2).count(), graph) == [Long(2)]
    assert r(g.V().groupCount().by("lang"), graph) == [{"java": Long(2)}]
    assert r(g.V().groupCount().by(T.label), graph) == [{"person": Long(4), "software": Long(2)}]
    with pytest.raises(TraversalError, match=r"^out\(\) can only be applied to a vertex"):
        r(g.inject(1).out().out().count(), graph)


# ---- the pushed-down answers equal the general ones on a real store --------------------------


@pytest.fixture
def store_graph(tmp_path: Path) -> Iterator[Graph]:
    """An auto-mode graph whose `city` values cover every stored form: plain and tagged
    numbers of equal value, booleans, UUIDs, a multi-property, a meta-property, a missing
    key; and edges with parallels, a self-loop and several labels."""
    cfg = stored_graph_config("push", tmp_path, "auto")  # a file, or a PostgreSQL database
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    graph = registry.open(cfg)
    cities: list[Any] = [
        [("city", "Rome")], [("city", Long(5))], [("city", 5)], [("city", 5.0)], [("city", True)],
        [("city", uuid.UUID(int=7))], [], [("city", "Paris", Cardinality.list, None), ("city", "Rome", Cardinality.list, None)],
        [("city", "Rome", Cardinality.single, {"since": 2010})], [("city", "Oslo")], [("city", Long(5))], [("city", "Oslo")],
    ]
    with graph.store.write() as tx:
        a = StoreAccess.for_graph(graph, tx)
        vs = [a.add_vertex("person" if i % 3 else "software", Long(i + 1), props) for i, props in enumerate(cities)]
        n = len(vs)
        for i, v in enumerate(vs):
            a.add_edge("knows", v, vs[(i + 1) % n], None, [("weight", 0.5)])
            a.add_edge("knows", v, vs[(i + 1) % n], None, [("weight", Long(1))])  # parallel
            a.add_edge("likes", v, vs[(i * 5) % n], None, [("weight", 0.5 if i % 2 else 1)])
        a.add_edge("likes", vs[3], vs[3])  # a self-loop, and an edge without weight
    try:
        yield graph
    finally:
        registry.close_all()


def _typed(values: list[Any]) -> list[Any]:
    """Results with every number's Java type made visible, maps as ordered item lists."""
    out: list[Any] = []
    for v in values:
        if isinstance(v, dict):
            out.append([(type(k).__name__, k, type(n).__name__, n) for k, n in v.items()])
        else:
            out.append((type(v).__name__, v))
    return out


def _same(graph: Graph, b: Any, strategy: str) -> list[Any]:
    fast = graph.traverse(b.ir)
    slow = graph.traverse(b.ir.with_source("withoutStrategies", strategy))
    assert _typed(fast) == _typed(slow), b.ir
    return fast


WALKS = [
    g.V(1).out().out().count(),
    g.V(1, 1, 2).out().out().count(),  # bulk: a start given twice counts twice
    g.V().out().out().out().count(),
    g.V().both().both().count(),  # the self-loop counts twice per 'both'
    g.V(4).repeat(__.both("likes")).times(3).count(),
    g.V(1).repeat(__.out("knows").in_("likes")).times(2).count(),
    g.V(1).repeat(__.out("nosuch")).times(2).count(),
    g.V(1).repeat(__.out()).times(4).count(),
    g.V().hasLabel("software").out().out().count(),
    g.V().where(__.out().in_().count().is_(P.gt(4))).id_(),
    g.V(1).out().barrier().out().count(),
    g.V(999).out().out().count(),
    g.V().hasLabel("nosuch").out().out().count(),
    g.V().hasLabel("person").repeat(__.in_()).times(3).count(),
    g.V().out().out().count().as_("n").select("n"),  # a label after the count: not fused
]


def test_walk_counts_equal_the_general_path(store_graph: Graph) -> None:
    for b in WALKS:
        assert ("walkCount" in repr(compile_traversal(b.ir))) is ("select" not in repr(b.ir)), b.ir
        _same(store_graph, b, "WalkCountStrategy")
    # and both equal walks counted by hand over the edge list (vertex ids are the row keys here)
    with store_graph.store.read() as tx:
        ends = [(e.out_key, e.in_key) for e in tx.elements.edges_scan()]

    def walks(starts: list[int], k: int) -> int:
        frontier = list(starts)
        for _ in range(k):
            frontier = [i for v in frontier for o, i in ends if o == v]
        return len(frontier)

    assert store_graph.traverse(g.V(1).repeat(__.out()).times(4).count().ir) == [Long(walks([1], 4))]
    assert store_graph.traverse(g.V(1, 1, 2).out().out().count().ir) == [Long(walks([1, 1, 2], 2))]


def test_walk_count_options_that_keep_the_general_path(store_graph: Graph) -> None:
    # withBulk(false) merges walks away, sacks ride along: the original steps run
    for source in (g.withBulk(False), g.withSack(1)):
        b = source.V(1).repeat(__.out()).times(3).count()
        assert store_graph.traverse(b.ir) == store_graph.traverse(
            source.withoutStrategies("WalkCountStrategy").V(1).repeat(__.out()).times(3).count().ir)
    unbulked = store_graph.traverse(g.withBulk(False).V(1).repeat(__.out()).times(3).count().ir)
    assert unbulked[0] < store_graph.traverse(g.V(1).repeat(__.out()).times(3).count().ir)[0]
    with pytest.raises(TraversalError, match=r"^both\(\) can only be applied to a vertex"):
        store_graph.traverse(g.inject(1).both().out().count().ir)


GROUPS = [
    g.V().groupCount().by("city"),
    g.V().hasLabel("person").groupCount().by("city"),
    g.V().hasLabel("software", "person").groupCount().by(T.label),
    g.V().hasLabel("nosuch").groupCount().by("city"),
    g.V().groupCount().by("nosuch"),
    g.E().groupCount().by("weight"),
    g.E().hasLabel("likes").groupCount().by(T.label),
    g.withStrategies("ProductiveByStrategy").V().groupCount().by("city"),
    g.V().groupCount().by("city").unfold(),
]


def test_group_counts_equal_the_general_path(store_graph: Graph) -> None:
    for b in GROUPS:
        assert "groupCount(V" in repr(compile_traversal(b.ir)) or "groupCount(E" in repr(compile_traversal(b.ir))
        _same(store_graph, b, "GroupCountStrategy")
    got = store_graph.traverse(g.V().groupCount().by("city").ir)[0]
    assert got["Rome"] == Long(2) and got["Oslo"] == Long(2) and got[True] == Long(1)
    assert "Paris" in got  # a multi-property groups under its first value
    assert len(got) == len(set(map(repr, got)))
    productive = store_graph.traverse(g.withStrategies("ProductiveByStrategy").V().groupCount().by("city").ir)[0]
    assert productive[None] == Long(1)


def test_storage_statements_stop_when_asked(store_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    import storage.tx_aggregates

    monkeypatch.setattr(storage.tx_aggregates, "POLL_EVERY", 1)
    with store_graph.store.read() as tx:
        start = [(k, 1) for k in range(1, 13)]
        assert tx.aggregates.count(WalkCount([("both", None)] * 3), start) == sum(
            tx.aggregates.count(WalkCount([("both", None)] * 3), [(k, 1)]) for k in range(1, 13))
        assert tx.aggregates.count(WalkCount([("both", None)] * 12), start, stop=lambda: True) is None
        assert tx.aggregates.groups(GroupCount("vertex", None, "city"), stop=lambda: True) is None
        assert tx.aggregates.count(WalkCount([("out", [])]), start) == 0 and tx.aggregates.count(WalkCount([("out", None)]), []) == 0
