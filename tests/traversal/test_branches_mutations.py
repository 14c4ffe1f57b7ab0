"""Branch and mutation steps."""

from __future__ import annotations

import pytest

from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.tokens import Cardinality, Direction, Merge, Pick, T

from .gremlin import P, __, g
from .helpers import r


@pytest.fixture
def q(graph):
    return lambda b: r(b, graph)


def test_repeat_forms(q):
    assert q(g.V(1).repeat(__.out()).times(2).values("name")) == ["ripple", "lop"]
    assert sorted(q(g.V(1).repeat(__.out()).emit().values("name"))) == ["josh", "lop", "lop", "ripple", "vadas"]
    assert sorted(q(g.V(1).emit().repeat(__.out()).times(1).values("name"))) == ["josh", "lop", "marko", "vadas"]
    assert q(g.V(1).repeat(__.out()).until(__.has("name", "ripple")).values("name")) == ["ripple"]
    assert q(g.V(1).until(__.hasLabel("person")).repeat(__.out()).values("name")) == ["marko"]
    paths = q(g.V(1).repeat(__.out()).times(2).path().by("name"))
    assert sorted(list(p) for p in paths) == [["marko", "josh", "lop"], ["marko", "josh", "ripple"]]
    assert q(g.V(6).repeat("a", __.out().repeat(__.in_()).times(1)).times(1).values("name")) == ["marko", "josh", "peter"]


def test_union_choose_coalesce_optional_local(q):
    assert q(g.V(1).union(__.out("knows").values("name"), __.values("age"))) == ["vadas", "josh", 29]
    assert q(g.V().hasLabel("person").choose(__.values("age").is_(P.gt(30)), __.constant("old"), __.constant("young"))) == [
        "young", "young", "old", "old"]
    assert q(g.V().hasLabel("person").choose(__.values("age"))
             .option(29, __.constant("m")).option(Pick.none, __.constant("x"))) == ["m", "x", "x", "x"]
    assert q(g.V(2).choose(__.out(), __.constant("has out"))) == [next(iter(q(g.V(2))))]
    assert q(g.V().coalesce(__.values("lang"), __.constant("none")).dedup()) == ["none", "java"]
    assert q(g.V(2).optional(__.out()).id_()) == [2]
    assert q(g.V(1).optional(__.out("knows")).id_()) == [2, 4]
    assert q(g.V().local(__.outE().limit(1)).inV().id_()) == [2, 5, 3]
    assert q(g.V(1).branch(__.label()).option("person", __.constant(1)).option(Pick.any, __.constant(2))) == [1, 2]


def test_property_and_drop(q, graph):
    q(g.V(1).property("age", 30))
    assert q(g.V(1).values("age")) == [30]
    q(g.V(1).property(Cardinality.list, "nick", "m1").property(Cardinality.list, "nick", "m2"))
    assert q(g.V(1).values("nick")) == ["m1", "m2"]
    q(g.V(1).property("since", 2010, "acl", "private"))
    assert q(g.V(1).properties("since").values("acl")) == ["private"]
    q(g.V(1).property(Cardinality.single, "age", None))
    assert q(g.V(1).values("age")) == []
    q(g.V(2).property({"x": 1, "y": 2}))
    assert q(g.V(2).values("x", "y")) == [1, 2]
    q(g.V(1).outE("knows").drop())
    assert q(g.V(1).out("knows")) == []
    q(g.V(6).drop())
    assert q(g.V().count()) == [Long(5)] and 12 not in graph.e
    q(g.V(4).properties("age").drop())
    assert q(g.V(4).values("age")) == []


def test_merge_v_and_merge_e(q, graph):
    found = q(g.mergeV({T.label: "person", "name": "marko"}).option(Merge.onMatch, {"age": 50}))
    assert [v.id for v in found] == [1] and q(g.V(1).values("age")) == [50]
    made = q(g.mergeV({T.label: "person", "name": "zed"}).option(Merge.onCreate, {"age": 1}))[0]
    assert q(g.V(made.id).valueMap()) == [{"name": ["zed"], "age": [1]}]
    e = q(g.mergeE({T.label: "knows", Direction.OUT: 1, Direction.IN: 2}))[0]
    assert e.id == 7
    new = q(g.mergeE({T.label: "knows", Direction.OUT: 2, Direction.IN: 1}))[0]
    assert (new.out_v.id, new.in_v.id) == (2, 1) and new.id in graph.e


def test_match_binds_labels_and_joins(graph):
    from .gremlin import P as Pred

    out = r(g.V().match(__.as_("a").out("knows").as_("b"), __.as_("b").out("created").as_("c")), graph)
    assert [{k: v.id for k, v in m.items()} for m in out] == [{"a": 1, "b": 4, "c": 5}, {"a": 1, "b": 4, "c": 3}]
    pairs = r(
        g.V().match(__.as_("a").out("created").as_("b"), __.as_("b").in_("created").as_("c"))
        .where("a", Pred.neq("c")).select("a", "c").by("name"),
        graph,
    )
    assert sorted((p["a"], p["c"]) for p in pairs) == [
        ("josh", "marko"), ("josh", "peter"), ("marko", "josh"), ("marko", "peter"), ("peter", "josh"), ("peter", "marko")
    ]
    negated = r(g.V().match(__.as_("a").out().as_("b"), __.not_(__.as_("a").out("created").as_("b"))), graph)
    assert sorted(m["b"].id for m in negated) == [2, 4]


def test_match_count_pattern_joins_on_a_bound_label(graph):
    out = r(g.V().as_("a").out().as_("b").match(__.as_("a").out().count().as_("c"), __.as_("b").in_().count().as_("c")), graph)
    assert [(m["a"].id, m["b"].id, m["c"]) for m in out] == [(1, 3, 3)]


def test_connective_markers(graph):
    from .gremlin import P as Pred

    out = r(g.V().has("name", "marko").or_().where(__.in_("knows").has("name", "marko")), graph)
    assert sorted(v.id for v in out) == [1, 2, 4]
    both = r(g.V().has("age", Pred.gt(28)).and_().has("age", Pred.lt(33)), graph)
    assert sorted(v.id for v in both) == [1, 4]  # everything after and() is its right side
    assert r(g.withoutStrategies("ConnectiveStrategy").V().has("name", "marko").or_().has("age", 27), graph) == []
