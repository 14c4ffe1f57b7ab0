"""Map, barrier and side-effect steps on the modern graph."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.numbers import BigInt, Byte, Int, Long, Short
from gremlin_engine.traversal.tokens import Column, Direction, Operator, Order, Pop, Scope, T, WithOptions

from .gremlin import P, __, g
from .helpers import r


@pytest.fixture
def q(graph):
    return lambda b: r(b, graph)


def test_element_accessors(q):
    assert q(g.V(1).id_()) == [1] and q(g.V(1).label()) == ["person"]
    assert q(g.V(1).values("name", "age")) == ["marko", 29]
    assert q(g.V(1).valueMap()) == [{"name": ["marko"], "age": [29]}]
    assert q(g.V(1).valueMap("name").with_(WithOptions.tokens)) == [{T.id: 1, T.label: "person", "name": ["marko"]}]
    assert q(g.V(1).elementMap()) == [{T.id: 1, T.label: "person", "name": "marko", "age": 29}]
    em = q(g.E(7).elementMap())[0]
    assert em[Direction.OUT] == {T.id: 1, T.label: "person"} and em["weight"] == 0.5
    assert [(p.key, p.value) for p in q(g.V(1).properties("age"))] == [("age", 29)]
    assert q(g.V(1).properties().key()) == ["name", "age"] and q(g.E(7).properties().value()) == [0.5]
    assert q(g.V(1).propertyMap("age"))[0]["age"][0].value == 29
    assert q(g.V(1).constant("c")) == ["c"]
    assert q(g.V(1).map_(__.out("knows").count())) == [Long(2)]


def test_select_project_path(q):
    assert q(g.V(1).as_("a").out("knows").as_("b").select("a", "b").by("name")) == [
        {"a": "marko", "b": "vadas"}, {"a": "marko", "b": "josh"}]
    assert q(g.V(1).as_("a").out().as_("a").select(Pop.all, "a").by("name"))[0] == ["marko", "vadas"]
    assert q(g.V(1).as_("a").out().as_("a").select(Pop.first, "a").values("name"))[0] == "marko"
    assert q(g.V(4).project("n", "c").by("name").by(__.out().count())) == [{"n": "josh", "c": Long(2)}]
    assert q(g.V(1).out("knows").path().by("name")).__len__() == 2
    assert list(q(g.V(1).out("knows").path().by("name"))[0]) == ["marko", "vadas"]
    assert q(g.inject({"a": 1, "b": 2}).select(Column.keys)) == [{"a", "b"}]  # a keySet
    assert q(g.V(1).as_("x").select("nope")) == []


def test_math_and_loops(q):
    assert q(g.V(1).values("age").math("_ * 2 + 1")) == [59.0]
    assert q(g.V(1).as_("a").out("knows").as_("b").math("b - a").by("age")) == [-2.0, 3.0]
    assert q(g.inject(4).math("sqrt(_) ^ 2 - 10 % 3")) == [3.0]
    with pytest.raises(StepArgumentError):
        q(g.inject(1).math("_ +"))
    with pytest.raises(TraversalError, match="math"):
        q(g.inject("x").math("_ + 1"))
    assert q(g.V(1).repeat(__.out()).until(__.loops().is_(2)).values("name")) == ["ripple", "lop"]


def test_reducers_follow_java_types(q):
    assert q(g.V().count()) == [Long(6)] and type(q(g.V().count())[0]) is Long
    assert q(g.inject(Byte(127), Byte(1)).sum_()) == [128] and type(q(g.inject(Byte(127), Byte(1)).sum_())[0]) is Short
    assert type(q(g.inject(Int(2**31 - 1), Int(1)).sum_())[0]) is Long
    assert type(q(g.V().values("age").inject(BigInt(1000)).sum_())[0]) is BigInt
    assert q(g.V().values("age").mean()) == [30.75]
    assert q(g.V().values("age").max_()) == [35] and q(g.V().values("name").min_()) == ["josh"]
    assert q(g.V().values("foo").sum_()) == [] and q(g.V().values("foo").count()) == [0]
    assert q(g.inject(None, 10, 5, None).sum_()) == [15]
    assert q(g.V().values("age").fold().sum_(Scope.local)) == [123]
    assert q(g.V().fold().count(Scope.local)) == [Long(6)]
    mixed = q(g.V(1).local(__.union(__.values("age"), __.outE().values("weight")).fold()).max_(Scope.local))
    assert mixed == [29.0] and type(mixed[0]) is float
    assert q(g.inject(1, 2, 3).fold(0, Operator.sum)) == [6]


def test_local_reducers_read_a_path_as_its_objects(q):
    """A path is an Iterable in TinkerPop: `count(local)` is its length (CountLocalStep's
    `Path.size()`), and sum/max(local) read its objects."""
    assert q(g.V(1).out("knows").path().count(Scope.local)) == [Long(2), Long(2)]
    assert q(g.V(1).repeat(__.out()).times(2).path().count(Scope.local)) == [Long(3), Long(3)]
    assert q(g.V(1).out("knows").path().by("age").sum_(Scope.local)) == [56, 61]
    assert q(g.V(1).out("knows").path().by("age").max_(Scope.local)) == [29, 32]


def test_order(q):
    assert q(g.V().values("name").order()) == ["josh", "lop", "marko", "peter", "ripple", "vadas"]
    assert q(g.V().hasLabel("person").order().by("age", Order.desc).values("name")) == ["peter", "josh", "marko", "vadas"]
    assert q(g.V().order().by("age").values("name")) == ["vadas", "marko", "josh", "peter"]  # no age: filtered
    assert q(g.inject(3, None, "a", 1.5, True).order()) == [None, True, 1.5, 3, "a"]
    assert q(g.V().values("age").fold().order(Scope.local).by(Order.desc)) == [[35, 32, 29, 27]]
    assert q(g.V(1).out().order().by(__.outE().count(), Order.desc).by("name").values("name")) == ["josh", "lop", "vadas"]


def test_group_and_group_count(q):
    assert q(g.V().groupCount().by(T.label)) == [{"person": Long(4), "software": Long(2)}]
    assert q(g.V().group().by(T.label).by("name")) == [
        {"person": ["marko", "vadas", "josh", "peter"], "software": ["lop", "ripple"]}]
    grouped = q(g.V().hasLabel("software").group().by("name").by(__.bothE().values("weight").sum_()))
    assert grouped == [{"lop": 1.0, "ripple": 1.0}]
    assert q(g.V().out().groupCount("a").by("name").cap("a"))[0]["lop"] == Long(3)
    assert q(g.V().values("age").aggregate("x").cap("x")) == [[29, 27, 32, 35]]
    assert q(g.V().store("s").by("name").limit(1).cap("s")) == [["marko"]]
    tree = q(g.V(1).out("knows").tree().by("name"))[0]
    assert tree == {"marko": {"vadas": {}, "josh": {}}}


def test_sack_side_effect_and_fail(q):
    assert q(g.withSack(1.0).V(1).outE("knows").sack(Operator.mult).by("weight").inV().sack()) == [0.5, 1.0]
    assert q(g.V(1).sideEffect(__.out()).id_()) == [1]
    with pytest.raises(TraversalError, match="boom"):
        q(g.V(1).fail("boom"))


def test_strings(q):
    assert q(g.V(1).values("name").toUpper()) == ["MARKO"]
    assert q(g.V(1).values("name").length()) == [5]
    assert q(g.V(1).values("name").substring(1, 3)) == ["ar"]
    assert q(g.V(1).values("name").concat("!", __.constant("?"))) == ["marko!?"]
    assert q(g.inject(["a b", "c"]).toUpper(Scope.local)) == [["A B", "C"]]
    assert q(g.inject("a,b").split(",")) == [["a", "b"]]
    assert q(g.inject(" x ").trim()) == ["x"] and q(g.inject("abc").reverse()) == ["cba"]


def test_index_and_where_values(q):
    assert q(g.inject(["a", "b"]).index()) == [[["a", 0], ["b", 1]]]
    assert q(g.V().values("age").is_(P.within(27, 29)).count()) == [Long(2)]
