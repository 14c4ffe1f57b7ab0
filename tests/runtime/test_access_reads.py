"""GraphAccess reads over a real store: ids, labels, conditions, indexes, adjacency, loading."""

from __future__ import annotations

from gremlin_engine.graph import Graph
from gremlin_engine.runtime import query as qp
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.traversal.predicates import make_predicate
from gremlin_engine.traversal.tokens import Direction, T


def P(name: str, *args: object):
    return make_predicate("P", name, args)


def names(vertices) -> list[str]:
    return [v.id for v in vertices]


def test_scan_all_and_by_label(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        assert names(a.vertices()) == ["1:marko", "1:vadas", "2:lop", "1:josh", "2:ripple", "1:peter"]
        assert names(a.vertices(labels=["software"])) == ["2:lop", "2:ripple"]
        assert names(a.vertices(labels=["nope"])) == []
        assert names(a.vertices(limit=2)) == ["1:marko", "1:vadas"]
        assert [v.label for v in a.vertices(limit=3)] == ["person", "person", "software"]


def test_ids_keep_order_and_duplicates(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        got = names(a.vertices(ids=["2:lop", "1:marko", "x", "2:lop", 5]))
        assert got == ["2:lop", "1:marko", "2:lop"]
        assert names(a.vertices(ids=["2:lop", "1:marko"], labels=["person"])) == ["1:marko"]
        # elements as ids
        assert names(a.vertices(ids=[Vertex("1:josh", "vertex")])) == ["1:josh"]
        assert names(a.vertices(conditions=[(T.id, P("within", ["1:peter", "1:josh"]))])) == ["1:peter", "1:josh"]


def test_conditions_with_and_without_index(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        # range index on person.age
        assert names(a.vertices(conditions=[("age", P("gt", 29))])) == ["1:josh", "1:peter"]
        assert names(a.vertices(conditions=[("age", P("between", 27, 32))])) == ["1:marko", "1:vadas"]
        # secondary index on city
        assert names(a.vertices(conditions=[("city", P("eq", "Beijing"))])) == ["1:marko", "1:josh"]
        assert names(a.vertices(conditions=[("city", P("within", ["Shanghai", "Hongkong"]))])) == ["1:vadas", "1:peter"]
        # no index on person.name: primary-key id lookup with a label, a scan without one
        assert names(a.vertices(labels=["person"], conditions=[("name", P("eq", "josh"))])) == ["1:josh"]
        assert names(a.vertices(conditions=[("name", P("eq", "josh"))])) == ["1:josh"]
        assert names(a.vertices(conditions=[("name", TextP("startingWith", "r"))])) == ["2:ripple"]
        # several conditions are all applied, whichever one the index answered
        got = a.vertices(conditions=[("city", P("eq", "Beijing")), ("age", P("lt", 30))])
        assert names(got) == ["1:marko"]
        # a value of the wrong type matches nothing rather than failing
        assert names(a.vertices(conditions=[("age", P("eq", "old"))])) == []
        assert names(a.vertices(labels=["person"], conditions=[("name", P("eq", 3))])) == []


def TextP(name: str, arg: str):
    return make_predicate("TextP", name, [arg])


def test_index_plans_are_chosen(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        q = qp.split("vertex", None, None, [("age", P("gt", 29))])
        plan = qp.index_plan(a.schema, q, qp.label_ids(a.schema, q))
        assert plan is not None and plan.ranges and plan.ranges[0][1:] == (29, None, False, False)
        q = qp.split("vertex", None, None, [("city", P("eq", "Beijing"))])
        plan = qp.index_plan(a.schema, q, None)
        assert plan is not None and len(plan.eq) == 1
        q = qp.split("vertex", None, None, [("name", P("eq", "josh"))])
        assert qp.index_plan(a.schema, q, None) is None
        q = qp.split("vertex", None, ["person"], [("name", P("eq", "josh"))])
        assert qp.primary_key_ids(a.schema, q, qp.label_ids(a.schema, q)) == ["1:josh"]
        # the index is what answered: a stale entry would be re-checked away
        il = modern.schema.index_label("personByCity")
        assert sorted(v for v, _ in tx.index.index_scan(il.id)) == ["Beijing", "Beijing", "Hongkong", "Shanghai"]


def test_edges_reads(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        all_edges = list(a.edges())
        assert len(all_edges) == 6
        knows = list(a.edges(labels=["knows"]))
        assert [e.id for e in knows] == ["S1:marko>1>1>>S1:vadas", "S1:marko>1>1>>S1:josh"]
        assert knows[0].out_v.id == "1:marko" and knows[0].in_v.label == "person"
        assert knows[0]._props == {"weight": 0.5, "date": "20160110"}
        heavy = list(a.edges(conditions=[("weight", P("gte", 1.0))]))
        assert sorted(e.label for e in heavy) == ["created", "knows"]
        # knows.weight is range-indexed; created.weight is not: still both found
        assert [e.id for e in a.edges(ids=["S1:marko>1>1>>S1:josh", "S1:marko>O>1>1>>S1:vadas"])] == [
            "S1:marko>1>1>>S1:josh", "S1:marko>1>1>>S1:vadas"]
        assert list(a.edges(ids=["garbage"])) == []


def test_counts(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        assert a.count("vertex") == 6
        assert a.count("vertex", ["person"]) == 4
        assert a.count("edge", ["created"]) == 4
        assert a.count("vertex", None, [("age", P("gt", 28))]) == 3
        assert a.count("vertex", ["ghost"]) == 0
        # one equality index answers a count by itself, and agrees with a scan
        assert a.count("vertex", None, [("city", P("eq", "Beijing"))]) == 2
        assert a.count("vertex", ["person"], [("city", P("within", ["Beijing", "Shanghai", "Rome"]))]) == 3
        assert a.count("vertex", None, [("city", P("eq", 5))]) == 0
        assert a.count("vertex", None, [("lang", P("eq", "java"))]) == 2


def test_adjacency(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        marko, josh, lop = a.vertices(ids=["1:marko", "1:josh", "2:lop"])
        out = a.adjacent_vertices([marko, josh, marko], Direction.OUT)
        # input order, then (label, sort values, other end's insertion order)
        assert [(i, v.id) for i, v in out] == [
            (0, "1:vadas"), (0, "1:josh"), (0, "2:lop"),
            (1, "2:lop"), (1, "2:ripple"),
            (2, "1:vadas"), (2, "1:josh"), (2, "2:lop"),
        ]
        knows_out = a.adjacent_vertices([marko], Direction.OUT, ["knows"])
        assert sorted(v.id for _, v in knows_out) == ["1:josh", "1:vadas"]
        assert sorted(v.id for _, v in a.adjacent_vertices([lop], Direction.IN)) == ["1:josh", "1:marko", "1:peter"]
        both = a.adjacent_edges([josh, marko], Direction.BOTH, ["knows"])
        # josh: in-edge from marko; marko: two out-edges
        assert [(i, e.id) for i, e in both] == [
            (0, "S1:marko>1>1>>S1:josh"),
            (1, "S1:marko>1>1>>S1:vadas"), (1, "S1:marko>1>1>>S1:josh"),
        ]
        for _, e in both:
            assert e.loaded and e.out_v.id == "1:marko"
        assert a.adjacent_vertices([marko], Direction.OUT, ["nope"]) == []
        # neighbours are the same objects as the vertices read before (one cache)
        assert any(v is josh for _, v in out)


def test_load_is_batched_and_cached(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        vs = list(a.vertices())
        assert not any(v.loaded for v in vs)
        a.load(vs)
        assert vs[0].value("age") == 29 and vs[0].value("city") == "Beijing"
        assert list(vs[0]._props) == ["name", "age", "city"]  # property-key id order
        again = list(a.vertices(ids=["1:marko"]))[0]
        assert again is vs[0] and again.loaded
        # a detached vertex (from a client) gets its key and properties
        detached = Vertex("1:peter", "vertex")
        a.load([detached])
        assert detached.key is not None and detached.label == "person" and detached.value("age") == 35
        ghost = Vertex("1:nobody", "person")
        a.load([ghost])
        assert ghost._props == {}
