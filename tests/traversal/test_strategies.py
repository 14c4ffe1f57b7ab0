"""Strategies as before/after pairs, plus their effect on GraphAccess calls."""

from __future__ import annotations

from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal import compile_traversal, explain

from .gremlin import P, __, g
from .helpers import r

PAIRS = [
    (g.V().identity().out(), "g.V().out()"),
    (g.V().outE("knows").inV(), "g.V().out('knows')"),
    (g.V().inE().outV(), "g.V().in()"),
    (g.V().hasLabel("person").has("age", P.gt(30)), "g.V().hasLabel('person').has('age', gt(30))"),
    (g.V().hasLabel("person").count(), "g.count(V().hasLabel('person'))"),
    (g.V().has("age", 29).limit(1), "g.V().has('age', eq(29)).limit(1).range(0, 1)"),
    (g.V().outE().as_("e").inV(), "g.V().outE().as('e').inV()"),  # labelled edge step: kept
    (g.V().outE().inV().path(), "g.V().outE().inV().path()"),  # paths would see the edges
    (g.V().has("age").count(), "g.V().has('age').count()"),  # existence is not foldable
]


def test_before_after_pairs():
    for before, after in PAIRS:
        assert repr(compile_traversal(before.ir)) == after, before.ir


def test_strategies_push_work_into_access(graph):
    assert r(g.V().hasLabel("person").count(), graph) == [Long(4)]
    assert graph.calls["count"] == 1 and graph.calls["vertices"] == 0
    graph.calls.clear()
    assert len(r(g.V().limit(2), graph)) == 2


def test_children_are_optimised_too():
    t = compile_traversal(g.V().where(__.outE("created").inV()).ir)
    assert "out('created')" in repr(t.steps[1].args[0])


def test_explain_lists_each_strategy():
    text = explain(g.V().hasLabel("person").count().ir)
    assert text.splitlines()[0].startswith("Original") and "CountStrategy" in text
    assert text.splitlines()[-1].endswith("g.count(V().hasLabel('person'))")


def test_compiled_traversals_are_cached_by_typed_constants() -> None:
    """Equal-looking constants of different types never share a compiled traversal, and a
    cached traversal gives the same answer on every run."""
    from gremlin_engine import traversal as engine
    from gremlin_engine.structure.numbers import Long
    from gremlin_engine.traversal.ir import TraversalIR

    from .memory_access import MemoryGraph

    access = MemoryGraph()
    cache = engine.PreparedCache()
    for value in (1, 1.0, True, Long(1), -0.0, 0.0, 1, True):
        ir = TraversalIR().then("inject", value)
        first = list(engine.run(ir, access, cache=cache))
        again = list(engine.run(ir, access, cache=cache))
        assert first == again == [value]
        assert type(first[0]) is type(value)
        assert str(first[0]) == str(value)
    shared = TraversalIR().then("inject", 1, 2, 3).then("sum")
    assert cache.compiled(shared, True) is cache.compiled(shared, True)
    assert list(engine.run(shared, access, cache=cache)) == list(engine.run(shared, access, cache=cache)) == [6]


def test_predicates_key_the_cache_by_operator_and_typed_value() -> None:
    from gremlin_engine import traversal as engine
    from gremlin_engine.traversal.ir import TraversalIR
    from gremlin_engine.traversal.predicates import P

    from .memory_access import MemoryGraph

    access = MemoryGraph()
    cache = engine.PreparedCache()

    def run(p: P) -> list:
        return list(engine.run(TraversalIR().then("inject", 1, 2, 3).then("is", p), access, cache=cache))

    for _ in range(2):
        assert run(P("gt", 1)) == [2, 3]
        assert run(P("gt", 2)) == [3]
        assert run(P("lt", 2)) == [1]
        assert run(P("within", [1, 3])) == [1, 3]
        assert run(P("within", [2])) == [2]
        assert run(P("gt", 1.5)) == [2, 3]


def test_a_cached_traversal_runs_concurrently_on_many_threads() -> None:
    """Steps keep per-run state in the Context, so one cached compiled traversal gives every
    thread the single-threaded answer, even with very frequent thread switches."""
    import sys
    import threading

    from gremlin_engine import traversal as engine
    from gremlin_engine.traversal.tokens import Order, T

    from .gremlin import __, g
    from .memory_access import modern

    graph = modern()
    cache = engine.PreparedCache()
    traversals = [
        g.V().group().by("name").by(__.out().count()),
        g.V().repeat(__.out()).times(2).path().by("name"),
        g.V().order().by("name", Order.desc).values("name"),
        g.V().as_("a").out().as_("b").select("a", "b").by("name"),
        g.V().local(__.out().limit(1)).values("name"),
        g.V().groupCount().by(T.label),
        g.V().store("s").by("name").cap("s"),
        g.V().sideEffect(__.outE().count().aggregate("c")).cap("c"),
    ]
    expected = [repr(list(engine.run(t.ir, graph, cache=cache))) for t in traversals]
    wrong: list[str] = []

    def worker() -> None:
        for _ in range(40):
            for t, want in zip(traversals, expected, strict=True):
                got = repr(list(engine.run(t.ir, graph, cache=cache)))
                if got != want:
                    wrong.append(f"{t.ir!r}: {got} != {want}")
                    return

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert wrong == []
