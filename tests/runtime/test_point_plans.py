"""Fused point plans (strategies/point_lookup.py, steps/point.py) over real stores: every
answer, with its Java types, equals the unfused traversal's (PointLookupStrategy off)."""

from __future__ import annotations

import pytest

from gremlin_engine import traversal as engine
from gremlin_engine.graph import Graph
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.steps.point import PointStep
from tests.runtime.conftest import same_unfused, vertex_id


def test_the_shapes_compile_to_one_step() -> None:
    for tail in (("values", "name"), ("values",), ("values", "name", "age"), ("id",), ("label",)):
        t = engine.compile_traversal(TraversalIR().then("V", 1).then(*tail))
        assert len(t.steps) == 1 and isinstance(t.steps[0], PointStep)
    for ir in (
        TraversalIR().then("V", 1, 2).then("values", "name"),
        TraversalIR().then("V").then("values", "name"),
        TraversalIR().then("V", 1).then("as", "a").then("values", "name"),
        TraversalIR().then("V", 1).then("values", "name").then("as", "b"),
        TraversalIR().then("V", 1).then("hasLabel", "person").then("values", "name"),
        TraversalIR().then("V", 1).then("values", "name").then("count"),
        TraversalIR().then("E", 1).then("id"),
    ):
        t = engine.compile_traversal(ir)
        assert not any(isinstance(s, PointStep) for s in t.steps), ir


def test_values_id_label_match_the_general_path(modern: Graph) -> None:
    marko, lop = vertex_id(modern, "marko"), vertex_id(modern, "lop")
    assert same_unfused(modern, "V(v).values('name')", {"v": marko}) == ["marko"]
    assert same_unfused(modern, "V(v).values('age', 'name')", {"v": marko}) == ["marko", 29]  # row order
    assert sorted(map(str, same_unfused(modern, "V(v).values()", {"v": marko}))) == ["29", "Beijing", "marko"]
    assert same_unfused(modern, "V(v).values('lang')", {"v": marko}) == []
    assert same_unfused(modern, "V(v).values('lang')", {"v": lop}) == ["java"]
    assert same_unfused(modern, "V(v).id()", {"v": marko}) == [marko]
    assert same_unfused(modern, "V(v).label()", {"v": lop}) == ["software"]
    assert same_unfused(modern, "V(v).values('name')", {"v": "999:nobody"}) == []
    assert same_unfused(modern, "V(v).id()", {"v": Long(123456)}) == []
    v = modern.execute("g.V(v)", bindings={"v": marko})[0]
    assert same_unfused(modern, "V(v).values('name')", {"v": v}) == ["marko"]


def test_multi_properties_and_numeric_ids(modern: Graph) -> None:
    modern.execute("g.addV('person').property('name', 'multi').property('tags', 'a').property(list, 'tags', 'b')")
    multi = vertex_id(modern, "multi")
    assert same_unfused(modern, "V(v).values('tags')", {"v": multi}) == ["a", "b"]
    assert same_unfused(modern, "V(v).values('tags', 'name')", {"v": multi})[0] == "multi"
    item = modern.execute("g.addV('item').property('name', 'thing').id()")[0]
    assert isinstance(item, Long)
    assert same_unfused(modern, "V(v).id()", {"v": item}) == [item]
    assert same_unfused(modern, "V(v).values('name')", {"v": int(item)}) == ["thing"]
    assert same_unfused(modern, "V(v).label()", {"v": item}) == ["item"]


def test_a_vertex_changed_earlier_in_the_call_is_read_through_the_element(modern: Graph) -> None:
    marko = vertex_id(modern, "marko")
    script = "g.V(v).property('age', 50).iterate(); g.V(v).values('age')"
    assert modern.execute(script, bindings={"v": marko}) == [50]
    assert same_unfused(modern, "V(v).values('age')", {"v": marko}) == [50]


def test_subgraph_views_take_the_general_path(modern: Graph) -> None:
    marko, josh = vertex_id(modern, "marko"), vertex_id(modern, "josh")
    script = "g.withStrategies(new SubgraphStrategy(vertices: __.has('age', gt(30)))).V(v).values('name')"
    assert modern.execute(script, bindings={"v": marko}) == []
    assert modern.execute(script, bindings={"v": josh}) == ["josh"]


def test_auto_mode_takes_the_general_path(auto_graph: Graph) -> None:
    vid = auto_graph.execute("g.addV('thing').property('name', 'x').id()")[0]
    assert same_unfused(auto_graph, "V(v).values('name')", {"v": vid}) == ["x"]
    same_unfused(auto_graph, "V(v).values('name')", {"v": str(vid)})  # whatever the general path says


@pytest.mark.parametrize("n", [3])
def test_one_template_serves_many_ids(modern: Graph, n: int) -> None:
    names = ["marko", "vadas", "josh", "peter"]
    ids = [vertex_id(modern, x) for x in names]
    for _ in range(n):
        assert [modern.execute("g.V(v).values('name')", bindings={"v": i})[0] for i in ids] == names
