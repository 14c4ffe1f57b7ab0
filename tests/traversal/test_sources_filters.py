"""Sources, filters and flat-maps on the modern graph, with and without strategies."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import StepArgumentError, UnsupportedStep
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.tokens import Scope, T

from .gremlin import P, TextP, __, g
from .helpers import r


@pytest.fixture(params=[True, False], ids=["strategies", "plain"])
def q(request, graph):
    return lambda b: r(b, graph, strategies=request.param)


def test_sources(q, graph):
    assert [v.id for v in q(g.V())] == [1, 2, 4, 6, 3, 5]
    assert [v.id for v in q(g.V(4, 1))] == [4, 1]
    assert [e.id for e in q(g.E(7, 9))] == [7, 9]
    assert q(g.inject(1, "a", None)) == [1, "a", None]
    assert q(g.V(99)) == []
    v = q(g.addV("person").property("name", "dan").property("age", 40))[0]
    assert graph.v[v.id][0] == "person" and q(g.V(v.id).values("name")) == ["dan"]
    e = q(g.V(1).addE("likes").to(__.V(2)).property("w", 3))[0]
    assert (e.out_v.id, e.in_v.id, e.label) == (1, 2, "likes")
    assert q(g.V(1).as_("a").V(2).addE("x").from_("a").outV().values("name")) == ["marko"]


def test_has_family(q):
    assert sorted(q(g.V().has("age", P.gt(30)).values("name"))) == ["josh", "peter"]
    assert sorted(q(g.V().has("person", "name", "marko").values("age"))) == [29]
    assert sorted(q(g.V().hasLabel("software").values("name"))) == ["lop", "ripple"]
    assert q(g.V().hasId(1, 2).values("name")) == ["marko", "vadas"]
    assert sorted(q(g.V().has("lang").values("name"))) == ["lop", "ripple"]
    assert sorted(q(g.V().hasNot("age").values("name"))) == ["lop", "ripple"]
    assert q(g.V().has("name", TextP.startingWith("ma")).values("name")) == ["marko"]
    assert q(g.V().has(T.label, "software").has("name", P.within("lop", "x")).id_()) == [3]
    assert q(g.V().has("name", __.is_("josh")).id_()) == [4]
    assert q(g.V().has(None)) == []
    assert sorted(q(g.V().properties().hasKey("age").value())) == [27, 29, 32, 35]
    assert q(g.V().properties().hasValue("josh").key()) == ["name"]
    assert q(g.V(1).outE().has("weight", P.inside(0.0, 0.6)).inV().values("name")) == ["vadas", "lop"]


def test_is_where_not_and_or(q):
    assert sorted(q(g.V().values("age").is_(P.lte(29)))) == [27, 29]
    assert q(g.V(1).as_("a").out("created").in_("created").where(P.neq("a")).values("name")) == ["josh", "peter"]
    assert q(g.V(1).as_("a").out().has("age").where(P.gt("a")).by("age").values("name")) == ["josh"]
    assert sorted(q(g.V().where(__.out("created")).values("name"))) == ["josh", "marko", "peter"]
    assert sorted(q(g.V().not_(__.out("created")).values("name"))) == ["lop", "ripple", "vadas"]
    assert q(g.V().and_(__.out("knows"), __.has("age", 29)).values("name")) == ["marko"]
    assert sorted(q(g.V().or_(__.has("age", 27), __.has("lang")).values("name"))) == ["lop", "ripple", "vadas"]
    got = q(g.V().has("age").as_("a").out().in_().has("age").as_("b").select("a", "b")
            .where(__.as_("a").out("knows").as_("b")))
    assert [(m["a"].id, m["b"].id) for m in got] == [(1, 4)]
    assert q(g.withSideEffect("a", ["josh", "peter"]).V(1).out("created").in_("created")
             .values("name").where(P.within("a"))) == ["josh", "peter"]


def test_dedup_range_tail(q):
    assert sorted(q(g.V().both().dedup().values("name"))) == ["josh", "lop", "marko", "peter", "ripple", "vadas"]
    assert len(q(g.V().both().both().dedup().by(T.label))) == 2
    assert q(g.V().values("name").order().range_(1, 3)) == ["lop", "marko"]
    assert q(g.V().values("name").order().limit(2)) == ["josh", "lop"]
    assert q(g.V().values("name").order().skip(4)) == ["ripple", "vadas"]
    assert q(g.V().values("name").order().tail(2)) == ["ripple", "vadas"]
    assert q(g.inject([1, 2, 3]).limit(Scope.local, 1)) == [[1]]
    assert q(g.inject([1, 2, 3], [4, 5, 6]).range_(Scope.local, 1, 2)) == [[2], [5]]
    assert q(g.inject([1, 2, 3]).tail(Scope.local, 1)) == [[3]]
    assert q(g.V().fold().range_(Scope.local, 6, 7)) == [[]]
    assert q(g.V(1).values("age").range_(Scope.local, 20, 30)) == [29]
    assert q(g.inject([1, 1, 2]).dedup(Scope.local)) == [{1, 2}]  # 3.8: a set


def test_paths_and_misc_filters(q):
    assert len(q(g.V(1).both().both().simplePath())) == 4
    assert [v.id for v in q(g.V(1).both().both().cyclicPath())] == [1, 1, 1]
    assert q(g.V().coin(0.0)) == [] and len(q(g.V().coin(1.0))) == 6
    assert len(q(g.V().sample(2))) == 2
    assert q(g.V().discard()) == [] and q(g.V().none_()) == []
    assert q(g.inject([5, 8, 10], [10, 7]).all_(P.gte(7))) == [[10, 7]]
    assert q(g.inject([5, 8, 10], [10, 7]).any_(P.eq(7))) == [[10, 7]]
    assert q(g.inject([5, 8, 10], [10, 7]).none_(P.lt(7))) == [[10, 7]]
    assert q(g.V().filter_(__.values("age").is_(P.gt(30))).id_()) == [4, 6]


def test_flatmaps(q):
    assert sorted(q(g.V(1).out().values("name"))) == ["josh", "lop", "vadas"]
    assert q(g.V(3).in_("created").id_()) == [1, 4, 6]
    assert sorted(q(g.V(4).both().id_())) == [1, 3, 5]
    assert q(g.V(1).outE("knows").id_()) == [7, 8]
    assert q(g.V(1).outE("knows").inV().values("name")) == ["vadas", "josh"]
    assert q(g.V(2).inE().outV().id_()) == [1]
    assert q(g.E(7).bothV().id_()) == [1, 2]
    assert q(g.V(1).outE("created").otherV().id_()) == [3]
    assert q(g.V(3).bothE().otherV().id_()) == [1, 4, 6]
    assert q(g.inject([1, [2]], {"a": 1}).unfold()) == [1, [2], {"a": 1}]
    assert q(g.V(1).flatMap(__.out("knows")).id_()) == [2, 4]


def test_vertex_steps_batch_graph_calls(graph):
    r(g.V().out().out(), graph)
    assert graph.calls["adjacent_vertices"] == 2  # one call per step for the whole batch
    graph.calls.clear()
    r(g.V().out().values("name"), graph)
    assert graph.calls["load"] == 1


def test_errors_name_the_step(graph):
    with pytest.raises(UnsupportedStep, match="nosuch"):
        r(g.V().nosuch(), graph)
    with pytest.raises(StepArgumentError, match="out"):
        r(g.V().out(1), graph)
    with pytest.raises(StepArgumentError, match="source step"):
        r(g.out(), graph)
    assert r(g.V().count(), graph) == [Long(6)]
