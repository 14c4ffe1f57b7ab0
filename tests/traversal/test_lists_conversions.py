"""List steps, conversions, dates, format, element() and Java-style strings."""

from __future__ import annotations

import datetime

import pytest

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.numbers import Byte, Int, Long
from gremlin_engine.traversal.tokens import DT, GType, Scope

from .gremlin import __, g
from .helpers import r


def test_combine_merge_product_and_set_operations(graph):
    assert r(g.inject(["a", None, "b"]).combine(["a", "c"]), graph) == [["a", None, "b", "a", "c"]]
    assert r(g.inject(["a", None, "b"]).merge(["a", "c"]), graph) == [{"a", None, "b", "c"}]
    assert r(g.inject([1, 2]).product(["x"]), graph) == [[[1, "x"], [2, "x"]]]
    assert r(g.inject(["a", None, "b"]).difference(["a", "c"]), graph) == [{None, "b"}]
    assert r(g.inject(["a", "b"]).intersect(["b", "c"]), graph) == [{"b"}]
    assert r(g.inject(["a", "b"]).disjunct(["b", "c"]), graph) == [{"a", "c"}]
    assert r(g.inject([None, "a", 3]).conjoin("+"), graph) == ["a+3"]


def test_list_step_argument_traversal_and_map_merge(graph):
    ages = r(g.V().values("age").fold().difference(__.constant(27).fold()), graph)
    assert ages == [{29, 32, 35}]
    merged = r(g.V(1).project("name").by("name").merge({"other": "x"}), graph)
    assert merged == [{"name": "marko", "other": "x"}]


def test_list_step_errors_use_tinkerpop_messages(graph):
    with pytest.raises(TraversalError, match="Incoming traverser for combine step can't be null"):
        r(g.inject(None).combine(__.inject(1)), graph)
    with pytest.raises(TraversalError, match="must yield an iterable type, encountered"):
        r(g.V().fold().intersect(__.V()), graph)
    with pytest.raises(StepArgumentError, match="Argument provided for product step can't be null"):
        r(g.V().fold().product(None), graph)
    with pytest.raises(TraversalError, match="expected argument to be Iterable but got Map"):
        r(g.V().fold().merge({"k": "v"}), graph)


def test_inject_inside_a_child_traversal_comes_after_the_parent_traverser(graph):
    assert r(g.inject("a", "b").concat(__.inject("c")), graph) == ["aa", "bb"]


def test_as_string_uses_java_forms(graph):
    assert r(g.V(1).asString(), graph) == ["v[1]"]
    assert r(g.E(7).asString(), graph) == ["e[7][1-knows->2]"]
    assert r(g.V(1).valueMap("name").asString(), graph) == ["{name=[marko]}"]
    assert r(g.inject([1, 2.5]).asString(Scope.local), graph) == [["1", "2.5"]]
    with pytest.raises(TraversalError, match="Can't parse"):
        r(g.inject(None).asString(), graph)


def test_string_steps_refuse_lists_without_local_scope(graph):
    with pytest.raises(TraversalError, match="The length\\(\\) step can only take string as argument"):
        r(g.inject(["a", "b"]).length(), graph)
    with pytest.raises(TraversalError, match="trim\\(local\\) step can only take string or list of strings"):
        r(g.inject([1, 2]).trim(Scope.local), graph)
    assert r(g.inject("hello  world").split(None), graph) == [["hello", "world"]]


def test_as_number_types_and_overflow(graph):
    out = r(g.inject("5", "0x5", "2.5", 7).asNumber(), graph)
    assert out == [5, 5, 2.5, 7] and type(out[0]) is Int and type(out[2]) is float
    assert type(r(g.inject(12).asNumber(GType.BYTE), graph)[0]) is Byte
    assert r(g.inject(5.67).asNumber(GType.INT), graph) == [5]
    with pytest.raises(TraversalError, match="Can't convert number of type Integer to Byte due to overflow"):
        r(g.inject(300).asNumber(GType.BYTE), graph)
    with pytest.raises(TraversalError, match="Can't parse string '1,000' as number"):
        r(g.inject("1,000").asNumber(), graph)
    with pytest.raises(StepArgumentError, match="requires a numeric type token, got VERTEX"):
        r(g.inject(1).asNumber(GType.VERTEX), graph)


def test_as_bool(graph):
    assert r(g.inject(1, 0, -0.0, float("nan"), "tRUe", False).asBool(), graph) == [True, False, False, False, True, False]
    with pytest.raises(TraversalError, match="Can't parse hello as Boolean"):
        r(g.inject("hello").asBool(), graph)


def test_dates_round_trip_and_arithmetic(graph):
    d = r(g.inject(1694017707000).asDate(), graph)[0]
    assert d == datetime.datetime(2023, 9, 6, 16, 28, 27, tzinfo=datetime.UTC)
    ms = r(g.inject("2020-08-02").asDate().asNumber(), graph)
    assert ms == [1596326400000] and type(ms[0]) is Long
    start = datetime.datetime(2023, 8, 2, tzinfo=datetime.UTC)
    assert r(g.inject(start).dateAdd(DT.hour, -1), graph) == [start - datetime.timedelta(hours=1)]
    later = start + datetime.timedelta(days=7)
    assert r(g.inject(start).dateDiff(later), graph) == [-604800000]
    assert r(g.inject(start).dateDiff(__.constant(None)), graph) == [1690934400000]
    with pytest.raises(TraversalError, match="Can't parse"):
        r(g.inject(1.5).asDate(), graph)


def test_format_reads_properties_labels_and_positional_bys(graph):
    assert sorted(r(g.V().format("%{name} is %{age}"), graph)) == ["josh is 32", "marko is 29", "peter is 35", "vadas is 27"]
    out = r(g.inject(1).as_("age").V(3).format("%{name} is %{age}"), graph)
    assert out == ["lop is 1"]
    out = r(g.V(1).format("%{_} %{_} %{_}").by(__.constant("hi")).by(__.values("name")), graph)
    assert out == ["hi marko hi"]


def test_element_of_properties(graph):
    assert r(g.V(1).properties("age").element(), graph) == r(g.V(1), graph)
    assert r(g.E(7).properties().element(), graph) == r(g.E(7), graph)


def test_path_segments_reverse_and_flat_map_paths(graph):
    out = r(g.V().as_("a").out().as_("b").out().as_("c").path().from_("b").to("c").by("name"), graph)
    assert sorted(tuple(p.objects) for p in out) == [("josh", "lop"), ("josh", "ripple")]
    assert sorted(r(g.V(1).out("knows").path().by("name").reverse(), graph)) == [["josh", "marko"], ["vadas", "marko"]]
    flat = r(g.V(1).flatMap(__.out("knows").out()).path(), graph)
    assert sorted(tuple(v.id for v in p.objects) for p in flat) == [(1, 3), (1, 5)]


def test_math_function_without_parentheses(graph):
    assert r(g.inject(2.2).math("ceil _"), graph) == [3.0]
