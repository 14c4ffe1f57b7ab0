"""GraphAccess writes: id strategies, strict validation messages, upserts, indexes, drops."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

from gremlin_engine.errors import IllegalArgument, NotSupported
from gremlin_engine.graph import Graph
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.elements import Property
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.predicates import make_predicate
from gremlin_engine.traversal.tokens import Cardinality, Direction


def P(name: str, *args: object):
    return make_predicate("P", name, args)


@contextmanager
def _access(graph: Graph, transaction: Any) -> Iterator[StoreAccess]:
    """A `StoreAccess` over the store transaction `transaction` (commit or rollback is its)."""
    with transaction as tx:
        yield StoreAccess.for_graph(graph, tx)


def write(graph: Graph) -> AbstractContextManager[StoreAccess]:
    return _access(graph, graph.store.write())


def read(graph: Graph) -> AbstractContextManager[StoreAccess]:
    return _access(graph, graph.store.read())


def test_id_strategies(strict_graph: Graph) -> None:
    with write(strict_graph) as a:
        p = a.add_vertex("person", properties=[("name", "a:b!c")])
        assert p.id == "1:a`:b`!c"
        t = a.add_vertex("tag", id="t-1", properties=[("name", "x")])
        assert t.id == "t-1"
        i1 = a.add_vertex("item")
        i2 = a.add_vertex("item", properties=[("name", "second")])
        assert type(i1.id) is Long and i2.id > i1.id
    with read(strict_graph) as a:
        assert [v.id for v in a.vertices(labels=["item"])] == [i1.id, i2.id]
        assert type(next(a.vertices(labels=["item"])).id) is Long


@pytest.mark.parametrize(
    ("label", "id", "props", "message"),
    [
        ("ghost", None, [], "Undefined vertex label: 'ghost'"),
        (None, None, [], "Undefined vertex label: 'vertex'"),
        ("person", None, [("name", "x"), ("height", 3)], "Undefined property key: 'height'"),
        ("person", None, [("name", "x"), ("lang", "c")], "Invalid property 'lang' for vertex label 'person'"),
        ("person", None, [("name", "x"), ("age", "29")],
         "Invalid property value '29' for key 'age', expect a value of type Integer, actual type String"),
        ("person", "1:x", [("name", "x")],
         "Can't customize vertex id when id strategy is 'PRIMARY_KEY' for vertex label 'person'"),
        ("person", None, [("age", 3)],
         "The primary keys: [name] of vertex label 'person' must be set when using 'PRIMARY_KEY' id strategy"),
        ("software", None, [("name", "x")],
         "All non-null property keys [name, lang] of vertex label 'software' must be set, missed keys [lang]"),
        ("tag", None, [("name", "x")], "Must customize vertex string id when id strategy is 'CUSTOMIZE_STRING'"),
        ("tag", 5, [], "Must customize vertex string id"),
        ("item", 5, [], "Can't customize vertex id when id strategy is 'AUTOMATIC' for vertex label 'item'"),
    ],
)
def test_strict_vertex_errors(strict_graph: Graph, label, id, props, message) -> None:
    with pytest.raises(IllegalArgument) as err, write(strict_graph) as a:
        a.add_vertex(label, id=id, properties=props)
    assert message in str(err.value)


def test_strict_edge_errors(strict_graph: Graph) -> None:
    with write(strict_graph) as a:
        m = a.add_vertex("person", properties=[("name", "m")])
        s = a.add_vertex("software", properties=[("name", "s"), ("lang", "go")])
        cases = [
            (("ghost", m, s, []), "Undefined edge label: 'ghost'"),
            (("created", s, m, []), "Undefined link of edge label 'created': 'software' -> 'person'"),
            (("created", m, s, [("date", "x")]), "Invalid property 'date' for edge label 'created'"),
            (("created", m, s, []),
             "All non-null property keys: [weight] of edge label 'created' must be set, but missed keys: [weight]"),
            (("met", m, m, [("weight", 1.0)]), "The sort key(s) must be set for the edge with label: 'met'"),
        ]
        for args, message in cases:
            with pytest.raises(IllegalArgument) as err:
                a.add_edge(*args[:3], properties=args[3])
            assert message in str(err.value)


def test_loading_mode_skips_required_keys(strict_graph: Graph) -> None:
    strict_graph.set_mode("LOADING")
    with write(strict_graph) as a:
        s = a.add_vertex("software", properties=[("name", "half")])
        assert s.id == "2:half"
    strict_graph.set_mode("NONE")


def test_upsert_overwrites_vertex_and_edge(modern: Graph) -> None:
    with write(modern) as a:
        v = a.add_vertex("person", properties=[("name", "marko"), ("age", 30)])
        assert v.id == "1:marko"
        assert v.value("age") == 30 and "city" not in v._props
        m = next(a.vertices(ids=["1:marko"]))
        j = next(a.vertices(ids=["1:josh"]))
        e = a.add_edge("knows", m, j, properties=[("weight", 0.9)])
        assert e.id == "S1:marko>1>1>>S1:josh" and e._props == {"weight": 0.9}
    with read(modern) as a:
        assert a.count("vertex") == 6 and a.count("edge") == 6
        marko = next(a.vertices(ids=["1:marko"]))
        a.load([marko])
        assert marko.value("age") == 30 and "city" not in marko._props
        # the old city index entry is gone, the age index follows the new value
        assert [v.id for v in a.vertices(conditions=[("city", P("eq", "Beijing"))])] == ["1:josh"]
        assert [v.id for v in a.vertices(conditions=[("age", P("eq", 30))])] == ["1:marko"]
        (edge,) = a.edges(ids=["S1:marko>1>1>>S1:josh"])
        assert edge._props == {"weight": 0.9}
        assert [x.id for x in a.edges(conditions=[("weight", P("gt", 0.8))], labels=["knows"])] == [edge.id]


def test_multiple_edges_by_sort_key(modern: Graph) -> None:
    with write(modern) as a:
        m, j = a.vertices(ids=["1:marko", "1:josh"])
        e1 = a.add_edge("met", m, j, properties=[("date", "2020"), ("weight", 1.0)])
        e2 = a.add_edge("met", m, j, properties=[("date", "2021")])
        e3 = a.add_edge("met", m, j, properties=[("date", "2020"), ("weight", 2.0)])
        assert e1.id == "S1:marko>3>3>2020>S1:josh" and e3.id == e1.id and e2.id != e1.id
    with read(modern) as a:
        assert a.count("edge", ["met"]) == 2


def test_property_cardinalities_and_removal(modern: Graph) -> None:
    with write(modern) as a:
        v = next(a.vertices(ids=["1:vadas"]))
        a.set_property(v, "tags", "a")
        a.set_property(v, "tags", ["b", "a"])
        a.set_property(v, "nick", ["x", "y", "x"])
        a.set_property(v, "nick", "y")
        a.set_property(v, "age", 28)
        assert [vp.value for vp in v.properties("tags")] == ["a", "b", "a"]
        assert [vp.value for vp in v.properties("nick")] == ["x", "y"]
        with pytest.raises(IllegalArgument, match="Can't update primary key: 'name'"):
            a.set_property(v, "name", "other")
        with pytest.raises(IllegalArgument, match="Invalid property 'lang' for vertex label 'person'"):
            a.set_property(v, "lang", "x")
        with pytest.raises(NotSupported):
            a.set_property(v, "city", "x", meta={"since": 1})
        a.set_property(v, "city", "Paris")
        vp = next(v.properties("city"))
        a.remove_property(vp)
        with pytest.raises(IllegalArgument, match="Can't remove primary key 'name'"):
            a.remove_property(next(v.properties("name")))
        e = next(a.edges(labels=["created"]))
        with pytest.raises(IllegalArgument, match=r"Can't remove non-null edge property 'p\[weight->0.4\]'"):
            a.remove_property(Property("weight", 0.4, e))
        a.set_property(e, "weight", 3)
        assert e.value("weight") == 3.0 and type(e.value("weight")) is float
    with read(modern) as a:
        v = next(a.vertices(ids=["1:vadas"]))
        a.load([v])
        assert list(v._props) == ["name", "age", "tags", "nick"]
        assert v.value("age") == 28 and [vp.value for vp in v.properties("nick")] == ["x", "y"]
        assert [x.id for x in a.vertices(conditions=[("city", P("eq", "Hongkong"))])] == []
        assert [x.id for x in a.vertices(conditions=[("age", P("eq", 28))])] == ["1:vadas"]


def test_drop_cascades(modern: Graph) -> None:
    with write(modern) as a:
        marko = next(a.vertices(ids=["1:marko"]))
        before = a.adjacent_edges([marko], Direction.BOTH)
        assert len(before) == 3
        a.drop([marko])
        assert list(a.vertices(ids=["1:marko"])) == []
        josh = next(a.vertices(ids=["1:josh"]))
        assert [v.id for _, v in a.adjacent_vertices([josh], Direction.IN)] == []
        e = next(a.edges(labels=["created"]))
        a.drop([e])
    with read(modern) as a:
        assert a.count("vertex") == 5 and a.count("edge") == 2
        assert [v.id for v in a.vertices(conditions=[("city", P("eq", "Beijing"))])] == ["1:josh"]


def test_rollback_leaves_nothing(strict_graph: Graph) -> None:
    with pytest.raises(IllegalArgument), write(strict_graph) as a:
        a.add_vertex("person", properties=[("name", "ok")])
        a.add_vertex("person", properties=[("name", "bad"), ("age", "x")])
    with read(strict_graph) as a:
        assert a.count("vertex") == 0


# ---- auto mode ----------------------------------------------------------------------------


def test_auto_mode_ids_and_types(auto_graph: Graph) -> None:
    u = uuid.UUID("835e1153-9281-4957-8691-cf79258e90eb")
    with write(auto_graph) as a:
        v1 = a.add_vertex("person", id=1, properties=[("name", "marko"), ("age", 29)])
        v2 = a.add_vertex("person", id="two", properties=[("age", Long(5))])
        v3 = a.add_vertex(None, id=u)
        gen = a.add_vertex("software")
        assert type(v1.id) is Long and v1.id == 1 and v2.id == "two" and v3.id == u and v3.label == "vertex"
        assert type(gen.id) is Long and gen.id not in (1,)
        e = a.add_edge("knows", v1, v2, id=7, properties=[("weight", 0.5)])
        e2 = a.add_edge("knows", v2, v1)
        assert e.id == 7 and type(e2.id) is Long and e2.id != 7
        with pytest.raises(IllegalArgument, match="Vertex with id already exists: 1"):
            a.add_vertex("person", id=1)
        with pytest.raises(IllegalArgument, match="Edge with id already exists: 7"):
            a.add_edge("knows", v1, v2, id=7)
    with read(auto_graph) as a:
        got = {v.id: v for v in a.vertices()}
        assert set(got) == {1, "two", u, gen.id}
        a.load(got.values())
        assert type(got[1].value("age")) in (int, Int) and type(got["two"].value("age")) is Long
        assert [x.id for x in a.vertices(ids=[1])] == [1]
        assert [x.id for x in a.vertices(conditions=[("name", P("eq", "marko"))])] == [1]
        assert [x.id for x in a.edges(ids=[7])] == [7]
    assert auto_graph.schema.vertex_label("person") is not None
    assert set(auto_graph.schema.vertex_label("person").properties) == {"name", "age"}


def test_auto_mode_generated_ids_skip_user_ids(auto_graph: Graph) -> None:
    with write(auto_graph) as a:
        vs = [a.add_vertex("n", id=i) for i in range(1, 4)]
        a.add_edge("e", vs[0], vs[1], id=1)
        a.add_edge("e", vs[0], vs[1], id=2)
        fresh = a.add_vertex("n")
        fresh_e = a.add_edge("e", vs[1], vs[2])
        assert fresh.id not in (1, 2, 3) and fresh_e.id not in (1, 2)


def test_auto_mode_multi_and_meta_properties(auto_graph: Graph) -> None:
    with write(auto_graph) as a:
        v = a.add_vertex("person", id=1, properties=[
            ("name", "marko"),
            ("location", "san diego", Cardinality.list, {"startTime": 1997, "endTime": 2001}),
            ("location", "santa cruz", Cardinality.list, {"startTime": 2001}),
        ])
        vp = a.set_property(v, "location", "brussels", Cardinality.list, {"startTime": 2004})
        a.set_meta_property(vp, "endTime", 2005)
        a.set_property(v, "name", "marko", Cardinality.set)
        assert [p.value for p in v.properties("name")] == ["marko"]
    with read(auto_graph) as a:
        v = next(a.vertices(ids=[1]))
        a.load([v])
        locs = list(v.properties("location"))
        assert [p.value for p in locs] == ["san diego", "santa cruz", "brussels"]
        assert locs[0].meta == {"startTime": 1997, "endTime": 2001}
        assert locs[2].meta == {"startTime": 2004, "endTime": 2005}
        assert len({p.id for p in locs}) == 3
    with write(auto_graph) as a:
        v = next(a.vertices(ids=[1]))
        a.load([v])
        a.remove_property(list(v.properties("location"))[1])
        a.set_property(v, "name", None)
    with read(auto_graph) as a:
        v = next(a.vertices(ids=[1]))
        a.load([v])
        assert [p.value for p in v.properties("location")] == ["san diego", "brussels"]
        assert "name" not in v._props


def test_auto_mode_tinkergraph_conventions(auto_graph: Graph) -> None:
    from gremlin_engine.bytecode import CardinalityValue

    with write(auto_graph) as a:
        v = a.add_vertex("animal", id=1, properties=[("name", "mateo"), ("name", "gateo"), ("age", 5)])
        assert [p.value for p in v.properties("name")] == ["mateo", "gateo"]  # addVertex keeps both
        a.set_property(v, "age", 6)  # property() on an existing vertex: single by default
        a.set_property(v, "name", CardinalityValue(Cardinality.set, "mateo"))
        a.set_property(v, "tag", CardinalityValue(Cardinality.list, "x"))
        a.set_property(v, "tag", CardinalityValue(Cardinality.list, "x"))
        assert [p.value for p in v.properties("age")] == [6]
        assert [p.value for p in v.properties("name")] == ["mateo", "gateo"]
        assert [p.value for p in v.properties("tag")] == ["x", "x"]
    with read(auto_graph) as a:
        # ids given as numeric strings find Long ids (TinkerGraph's id managers convert them)
        assert [x.id for x in a.vertices(ids=["1", 1, "2"])] == [1, 1]
