"""The short read paths: `V(id)`/`E(id)` alone, and has() re-tested on raw property JSON
(only the tested keys decoded; the candidates stay unloaded)."""

from __future__ import annotations

from gremlin_engine.graph import Graph
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.tokens import T


def test_one_id_lookups(modern: Graph) -> None:
    marko_id = modern.execute("g.V().has('name','marko').id()")[0]
    edge_id = modern.execute("g.V().has('name','marko').outE('knows').id()")[0]
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        [v] = list(a.vertices([marko_id]))
        a.load([v])
        assert (v.id, v.label) == (marko_id, "person") and v.value("age") == 29
        assert list(a.vertices([marko_id], limit=0)) == []
        assert list(a.vertices(["9:nobody"])) == []
        assert list(a.vertices([1.5])) == []  # a float can never be an id
        assert list(a.vertices([v])) == [v]  # an element stands for its id
        [e] = list(a.edges([edge_id]))
        assert e.id == edge_id and e.label == "knows" and e.out_v == v
        assert list(a.edges(["S1:nobody>1>>S1:marko"])) == []
    assert modern.execute("g.V(vid).values('name')", bindings={"vid": marko_id}) == ["marko"]


def test_has_tests_raw_json_and_leaves_candidates_unloaded(modern: Graph) -> None:
    modern.execute("g.V().has('name','josh').property(list,'tags','x').property(list,'tags','y')")
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        found = list(a.vertices(None, ["person"], [("tags", P("eq", "y"))]))
        assert [v.label for v in found] == ["person"] and not found[0].loaded
        a.load(found)
        assert found[0].value("name") == "josh"
        older = list(a.vertices(None, None, [("age", P("gt", 30))]))
        a.load(older)
        assert sorted(v.value("name") for v in older) == ["josh", "peter"]
        assert list(a.vertices(None, None, [("nope", P("eq", 1))])) == []
        by_label = list(a.vertices(None, None, [(T.label, P("eq", "software")), ("lang", P("eq", "java"))]))
        assert len(by_label) == 2
    assert modern.execute("g.V().has('person','tags','x').values('name')") == ["josh"]
    assert modern.execute("g.V().has('age', 29).values('name')") == ["marko"]
