"""Fused 1-hop id and indexed id plans (`HopIdsStep`, `IndexIdsStep`) over real stores:
every answer, with its Java types and order, equals the unfused traversal's
(PointLookupStrategy off), and the shapes that must not fuse do not."""

from __future__ import annotations

from gremlin_engine import traversal as engine
from gremlin_engine.graph import Graph
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.steps.point import HopIdsStep, IndexIdsStep
from gremlin_engine.traversal.tokens import T
from tests.runtime.conftest import same_unfused, vertex_id


def _fused(ir: TraversalIR) -> list[type]:
    return [type(s) for s in engine.compile_traversal(ir).steps]


def test_the_hop_and_index_shapes_compile_to_one_step() -> None:
    for hop in (("out", "knows"), ("in",), ("both", "knows", "created"), ("out",)):
        assert _fused(TraversalIR().then("V", 1).then(*hop).then("id")) == [HopIdsStep]
    for ir in (
        TraversalIR().then("V").then("has", "person", "name", "x").then("id"),
        TraversalIR().then("V").then("hasLabel", "person").then("has", "name", "x").then("id"),
        TraversalIR().then("V").then("has", "name", "x").then("id"),
    ):
        assert _fused(ir) == [IndexIdsStep], ir
    for ir in (
        TraversalIR().then("V", 1, 2).then("out").then("id"),
        TraversalIR().then("V", 1).then("outE").then("id"),
        TraversalIR().then("V", 1).then("out").then("values", "name"),
        TraversalIR().then("V", 1).then("out").then("as", "a").then("id"),
        TraversalIR().then("V", 1).then("out").then("id").then("count"),
        TraversalIR().then("V", 1).then("out").then("out").then("id"),
        TraversalIR().then("V").then("has", "person", "name", "x").then("limit", 1).then("id"),
        TraversalIR().then("V").then("hasLabel", "person").then("id"),
        TraversalIR().then("V").then("has", "name", "x").then("as", "a").then("id"),
        TraversalIR().then("V").then("has", T.id, 1).then("id"),
        TraversalIR().then("E").then("has", "weight", 0.5).then("id"),
    ):
        assert HopIdsStep not in _fused(ir) and IndexIdsStep not in _fused(ir), ir


def test_hop_ids_match_the_general_path(modern: Graph) -> None:
    ids = modern.execute("g.V().id()")
    assert len(ids) == 6
    for vid in ids:
        for hop in ("out()", "in()", "both()", "out('knows')", "in('created')", "both('knows', 'created')",
                    "out('nosuch')", "both('nosuch', 'knows')"):
            same_unfused(modern, f"V(v).{hop}.id()", {"v": vid})
    marko = vertex_id(modern, "marko")
    assert sorted(same_unfused(modern, "V(v).out().id()", {"v": marko})) == sorted(
        [vertex_id(modern, "vadas"), vertex_id(modern, "josh"), vertex_id(modern, "lop")])
    assert same_unfused(modern, "V(v).out().id()", {"v": "999:nobody"}) == []
    v = modern.execute("g.V(v)", bindings={"v": marko})[0]
    assert len(same_unfused(modern, "V(v).out('knows').id()", {"v": v})) == 2


def test_parallel_edges_sort_keys_and_self_loops(modern: Graph) -> None:
    marko, josh = vertex_id(modern, "marko"), vertex_id(modern, "josh")
    for date in ("20200101", "20100101", "20150101"):
        modern.execute("g.V(a).addE('met').to(V(b)).property('date', d).iterate()",
                       bindings={"a": marko, "b": josh, "d": date})
    modern.execute("g.V(a).addE('knows').to(V(a)).iterate()", bindings={"a": josh})
    met = same_unfused(modern, "V(v).out('met').id()", {"v": marko})
    assert met == [josh] * 3  # one id per parallel edge
    both = same_unfused(modern, "V(v).both().id()", {"v": josh})
    assert both.count(josh) == 2  # the self-loop as an out-edge and as an in-edge
    assert both.count(marko) == 4  # knows + 3 met
    same_unfused(modern, "V(v).both('met', 'knows').id()", {"v": josh})
    same_unfused(modern, "V(v).in('met').id()", {"v": josh})


def test_numeric_ids_and_many_neighbours(modern: Graph) -> None:
    modern.schema.create("edgelabel", {"name": "owns", "source_label": "item", "target_label": "person"})
    hub = modern.execute("g.addV('item').property('name', 'hub').id()")[0]
    assert isinstance(hub, Long)
    modern.execute("g.V(h).as('h').V().hasLabel('person').addE('owns').from('h').iterate()", bindings={"h": hub})
    out = same_unfused(modern, "V(v).out().id()", {"v": hub})
    assert len(out) == 4
    assert same_unfused(modern, "V(v).out().id()", {"v": int(hub)}) == out
    assert same_unfused(modern, "V(v).in('owns').id()", {"v": out[0]}) == [hub]


def test_writes_earlier_in_the_call_are_seen(modern: Graph) -> None:
    marko, peter = vertex_id(modern, "marko"), vertex_id(modern, "peter")
    script = "g.V(a).addE('knows').to(V(b)).iterate(); g.V(a).out('knows').id()"
    got = modern.execute(script, bindings={"a": marko, "b": peter})
    assert peter in got and len(got) == 3
    script = "g.V(a).property('city', 'Paris').iterate(); g.V().has('person', 'city', 'Paris').id()"
    assert modern.execute(script, bindings={"a": peter}) == [peter]
    assert same_unfused(modern, "V().has('person', 'city', 'Paris').id()") == [peter]
    assert same_unfused(modern, "V().has('person', 'city', 'Shanghai').id()") == []


def test_index_ids_match_the_general_path(modern: Graph) -> None:
    marko, josh = vertex_id(modern, "marko"), vertex_id(modern, "josh")
    assert same_unfused(modern, "V().has('person', 'city', 'Beijing').id()") == [marko, josh]  # key order
    assert same_unfused(modern, "V().hasLabel('person').has('city', 'Beijing').id()") == [marko, josh]
    assert same_unfused(modern, "V().has('city', 'Beijing').id()") == [marko, josh]
    assert same_unfused(modern, "V().has('person', 'city', c).id()", {"c": "Hongkong"}) == [vertex_id(modern, "vadas")]
    assert same_unfused(modern, "V().has('person', 'city', within('Beijing', 'Shanghai')).id()") == [
        marko, josh, vertex_id(modern, "peter")]
    assert same_unfused(modern, "V().has('person', 'city', 'Beijing').has('age', gt(30)).id()") == [josh]
    assert same_unfused(modern, "V().has('software', 'lang', 'java').id()") == [vertex_id(modern, "lop"), vertex_id(modern, "ripple")]
    assert same_unfused(modern, "V().has('person', 'city', 'Nowhere').id()") == []
    assert same_unfused(modern, "V().has('person', 'city', 5).id()") == []  # a value of another type
    assert same_unfused(modern, "V().has('nolabel', 'city', 'Beijing').id()") == []
    # no equality index, a range index, a primary key, a label test: the general path
    assert same_unfused(modern, "V().has('person', 'age', 29).id()") == [marko]
    assert same_unfused(modern, "V().has('person', 'age', gt(30)).id()") == [josh, vertex_id(modern, "peter")]
    assert same_unfused(modern, "V().has('person', 'name', 'marko').id()") == [marko]
    assert same_unfused(modern, "V().has('tag', 'name', 'x').id()") == []
    assert same_unfused(modern, "V().hasLabel(neq('software')).has('city', 'Beijing').id()") == [marko, josh]


def test_index_ids_with_multi_properties(modern: Graph) -> None:
    modern.schema.create("indexlabel", {"name": "personByNick", "base_type": "VERTEX_LABEL", "base_value": "person",
                                        "index_type": "SECONDARY", "fields": ["nick"], "rebuild": False})
    modern.execute("g.addV('person').property('name', 'multi').property(set, 'nick', 'a').property(set, 'nick', 'b')")
    multi = vertex_id(modern, "multi")
    assert same_unfused(modern, "V().has('person', 'nick', 'b').id()") == [multi]
    assert same_unfused(modern, "V().has('person', 'nick', within('a', 'b')).id()") == [multi]  # once


def test_views_and_auto_mode_take_the_general_path(modern: Graph, auto_graph: Graph) -> None:
    marko, josh = vertex_id(modern, "marko"), vertex_id(modern, "josh")
    view = "g.withStrategies(new SubgraphStrategy(vertices: __.has('age', gt(30))))."
    assert modern.execute(view + "V(v).out('knows').id()", bindings={"v": marko}) == []
    assert modern.execute(view + "V().has('person', 'city', 'Beijing').id()") == [josh]
    a = auto_graph.execute("g.addV('thing').property('name', 'x').as('a').addV('thing').property('name', 'y')"
                           ".addE('rel').from('a').select('a').id()")[0]
    assert len(same_unfused(auto_graph, "V(v).out('rel').id()", {"v": a})) == 1
    assert same_unfused(auto_graph, "V().has('thing', 'name', 'x').id()") == [a]


def test_the_access_answers_or_declines(modern: Graph) -> None:
    """The fused steps above ran the fast path where the access answers, and the general
    path where it declines (None)."""
    from gremlin_engine.runtime.api import read_access
    from gremlin_engine.traversal.predicates import P
    from gremlin_engine.traversal.tokens import Direction

    marko, josh, lop = vertex_id(modern, "marko"), vertex_id(modern, "josh"), vertex_id(modern, "lop")
    with read_access(modern) as access:
        assert access.point_neighbour_ids(marko, Direction.OUT, ("knows",)) == [vertex_id(modern, "vadas"), josh]
        assert access.point_neighbour_ids(lop, Direction.IN, ()) == [marko, josh, vertex_id(modern, "peter")]
        assert access.point_neighbour_ids("999:nobody", Direction.BOTH, ()) == []
        assert access.point_neighbour_ids(marko, Direction.OUT, ("nosuch",)) == []
        assert access.point_index_ids(["person"], (("city", P("eq", "Beijing")),)) == [marko, josh]
        assert access.point_index_ids(None, (("lang", P("eq", "java")),)) == [lop, vertex_id(modern, "ripple")]
        assert access.point_index_ids(["person"], (("age", P("gt", 30)),)) is None  # a range
        assert access.point_index_ids(["person"], (("name", P("eq", "marko")),)) is None  # primary key
        assert access.point_index_ids(["person"], (("date", P("eq", "x")),)) == []  # no person has it
        list(access.vertices([marko]))  # now held by this transaction: declined
        assert access.point_neighbour_ids(marko, Direction.OUT, ()) is None
        assert access.point_index_ids(["person"], (("city", P("eq", "Beijing")),)) is None


def test_a_hop_over_a_label_made_later_finds_its_edges(modern: Graph) -> None:
    """The hop's query and the walk count's query are derived once per schema snapshot and
    shape: a label unknown at first (no edge) is seen once the schema has it."""
    marko, lop = vertex_id(modern, "marko"), vertex_id(modern, "lop")
    hop, walk = "g.V(v).out('likes').id()", "g.V(v).out('likes').in('created').count()"
    for _ in range(2):
        assert modern.execute(hop, bindings={"v": marko}) == []
        assert modern.execute(walk, bindings={"v": marko}) == [0]
    modern.schema.create("edgelabel", {"name": "likes", "source_label": "person", "target_label": "software"})
    assert modern.execute(hop, bindings={"v": marko}) == []
    modern.execute("g.V(a).addE('likes').to(V(b)).iterate()", bindings={"a": marko, "b": lop})
    got = modern.execute(hop, bindings={"v": marko})
    assert got == [lop] and type(got[0]) is type(lop)
    assert modern.execute(walk, bindings={"v": marko}) == [3]  # lop's creators: marko, josh, peter
    assert same_unfused(modern, "V(v).out('likes').id()", {"v": marko}) == [lop]
