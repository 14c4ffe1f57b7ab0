"""`add_vertices`/`add_edges` against the one-at-a-time path they must equal.

Each test gives the same specs to two fresh graphs with the same schema and data: one
through `add_vertex`/`add_edge` in a loop, the other through the batch call, and compares
the returned ids, everything stored afterwards (elements, property values, vertex-property
ids, index answers) and, for bad batches, the error.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.predicates import make_predicate
from tests.backends import AUTOMATIC_ID_GAPS, sqlite_only
from tests.runtime.conftest import modern_pair

SCHEMA = [("vertexlabel", {"name": "tag2", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"],
                           "nullable_keys": ["name"]})]


@pytest.fixture
def pair(registry: GraphRegistry, tmp_path: Path) -> tuple[Graph, Graph]:
    return modern_pair(registry, tmp_path, SCHEMA)


def snapshot(graph: Graph) -> dict[str, Any]:
    """Everything a reader can see, as plain values."""
    with api.read_access(graph) as a:
        vs = list(a.vertices())
        a.load(vs)
        es = list(a.edges())
        gt = make_predicate("P", "gte", (0,))
        return {
            "vertices": sorted(
                (repr(v.id), v.label, [(k, [(vp.id, vp.value) for vp in vps]) for k, vps in v._props.items()])
                for v in vs
            ),
            "edges": sorted((e.id, e.label, e.out_v.id, e.in_v.id, sorted(e._props.items())) for e in es),
            "by_city": sorted(str(v.id) for v in a.vertices(labels=["person"], conditions=[("city", make_predicate("P", "eq", ("Beijing",)))])),
            "by_age": sorted(str(v.id) for v in a.vertices(labels=["person"], conditions=[("age", gt)])),
            "by_lang": sorted(str(v.id) for v in a.vertices(labels=["software"], conditions=[("lang", make_predicate("P", "eq", ("java",)))])),
            "by_weight": sorted(e.id for e in a.edges(labels=["knows"], conditions=[("weight", gt)])),
        }


def both(pair: tuple[Graph, Graph], one: Callable[[Any], list[Any]], batch: Callable[[Any], list[Any]]) -> list[Any]:
    """Runs `one` on the first graph and `batch` on the second; same ids, same stores."""
    g1, g2 = pair
    with api.write_access(g1) as a:
        r1 = [(el.id, el.label) for el in one(a)]
    with api.write_access(g2) as a:
        made = batch(a)
        r2 = [(el.id, el.label) for el in made]
    assert r1 == r2
    assert snapshot(g1) == snapshot(g2)
    return made


def both_fail(pair: tuple[Graph, Graph], one: Callable[[Any], Any], batch: Callable[[Any], Any]) -> str:
    g1, g2 = pair
    before = snapshot(g2)
    with pytest.raises(IllegalArgument) as e1, api.write_access(g1) as a:
        one(a)
    with pytest.raises(IllegalArgument) as e2, api.write_access(g2) as a:
        batch(a)
    assert str(e1.value) == str(e2.value)
    assert snapshot(g2) == before  # all or nothing
    return str(e2.value)


VERTICES = [
    ("person", None, [("name", "ann"), ("age", 41), ("city", "Beijing"), ("tags", ["a", "b", "a"]), ("nick", ["x", "y", "x"])]),
    ("person", None, [("name", "bob"), ("age", 23)]),
    ("software", None, [("name", "gremlin"), ("lang", "groovy")]),
    ("person", None, [("name", "ann"), ("age", 42), ("city", "Shanghai")]),  # repeats ann: replaces her
    ("person", None, [("name", "marko"), ("age", 30)]),  # exists: upserted (city goes)
    ("tag", "t1", [("name", "first")]),
    ("tag", "t1", [("name", "again")]),
    ("item", None, [("name", "i1")]),
    ("item", None, []),
    ("software", None, [("lang", "java"), ("name", "lop")]),  # exists, keys in another order
]


def _one_v(specs: list[Any]) -> Callable[[Any], list[Any]]:
    return lambda a: [a.add_vertex(label, vid, props) for label, vid, props in specs]


def _batch_v(specs: list[Any]) -> Callable[[Any], list[Any]]:
    return lambda a: a.add_vertices(specs)


@sqlite_only(AUTOMATIC_ID_GAPS)
def test_vertices_equal_one_at_a_time(pair: tuple[Graph, Graph]) -> None:
    made = both(pair, _one_v(VERTICES), _batch_v(VERTICES))
    assert made[0] is made[3]  # one vertex for a repeated id
    assert [v.id for v in made[:3]] == ["1:ann", "1:bob", "2:gremlin"]
    assert type(made[7].id) is Long and made[8].id > made[7].id
    assert not made[1].loaded  # the stored text is decoded only on demand
    with api.read_access(pair[1]) as a:
        ann = next(a.vertices(ids=["1:ann"]))
        a.load([ann])
        assert [(k, [vp.value for vp in vps]) for k, vps in ann._props.items()] == [
            ("name", ["ann"]), ("age", [42]), ("city", ["Shanghai"])]


def test_vertices_seen_in_the_same_transaction(strict_graph: Graph) -> None:
    with api.write_access(strict_graph) as a:
        made = a.add_vertices([("person", None, [("name", "zed"), ("age", 5), ("tags", ["p", "q"])])])
        again = next(a.vertices(ids=["1:zed"]))
        assert again is made[0]
        a.load([again])
        assert [vp.id for vp in again._props["tags"]] == ["1:zed>tags", "1:zed>tags>1"]
        assert [v.id for v in a.vertices(labels=["person"], conditions=[("age", make_predicate("P", "lt", (6,)))])] == ["1:zed"]


@pytest.mark.parametrize("specs", [
    [("person", None, [("name", "ok")]), ("ghost", None, [("name", "x")])],
    [("person", None, [("name", "ok")]), ("person", None, [("age", 3)])],
    [("person", None, [("name", "ok")]), ("person", None, [("name", "n"), ("age", "old")])],
    [("person", None, [("name", "ok")]), ("person", "given", [("name", "n")])],
    [("tag", "same", [("name", "a")]), ("tag2", "same", [("name", "b")])],
    [("tag", "same", [("name", "a")]), ("tag2", "same", [("name", "b")]), ("ghost", None, [])],
    [("tag2", "z", []), ("person", None, [("name", "n"), ("weight", 1.0)])],
])
def test_vertex_errors_equal_one_at_a_time(pair: tuple[Graph, Graph], specs: list[Any]) -> None:
    both_fail(pair, _one_v(specs), _batch_v(specs))


def test_existing_vertex_of_another_label(pair: tuple[Graph, Graph]) -> None:
    with api.write_access(pair[0]) as a:
        a.add_vertex("tag", "shared", [("name", "t")])
    with api.write_access(pair[1]) as a:
        a.add_vertex("tag", "shared", [("name", "t")])
    specs = [("person", None, [("name", "new")]), ("tag2", "shared", [("name", "u")]), ("ghost", None, [])]
    msg = both_fail(pair, _one_v(specs), _batch_v(specs))
    assert msg == "The vertex label of vertex 'shared' is 'tag', it can't be changed to 'tag2'"


def _ends(a: Any, *ids: str) -> list[Vertex]:
    found = {v.id: v for v in a.vertices(ids=list(ids))}
    return [found[i] for i in ids]


def _edge_specs(a: Any) -> list[Any]:
    marko, vadas, josh, peter, lop = _ends(a, "1:marko", "1:vadas", "1:josh", "1:peter", "2:lop")
    return [
        ("knows", josh, peter, [("weight", 0.7)]),
        ("knows", marko, vadas, [("weight", 0.9)]),  # exists: upserted
        ("met", josh, marko, [("date", "2020"), ("weight", 0.1)]),
        ("met", josh, marko, [("date", "2021")]),  # another sort value: another edge
        ("met", josh, marko, [("weight", 0.3), ("date", "2020")]),  # the first met again
        ("knows", josh, peter, [("date", "x")]),  # repeats the first: replaces its properties
        ("created", peter, lop, [("weight", 0.25)]),  # exists
        ("knows", peter, marko, []),
    ]


def test_edges_equal_one_at_a_time(pair: tuple[Graph, Graph]) -> None:
    made = both(pair, lambda a: [a.add_edge(lb, o, i, None, p) for lb, o, i, p in _edge_specs(a)],
                lambda a: a.add_edges(_edge_specs(a)))
    assert made[0] is made[5] and made[2] is made[4] and made[2] is not made[3]
    assert made[0]._props == {"date": "x"}
    assert made[1].id == "S1:marko>1>1>>S1:vadas"


@pytest.mark.parametrize("bad", [
    lambda a: ("knows", Vertex("1:nobody", "person"), _ends(a, "1:josh")[0], []),
    lambda a: ("created", *_ends(a, "1:josh", "1:peter"), []),
    lambda a: ("ghost", *_ends(a, "1:josh", "1:peter"), []),
    lambda a: ("knows", *_ends(a, "1:josh", "1:peter"), [("weight", "heavy")]),
    lambda a: ("met", *_ends(a, "1:josh", "1:peter"), [("weight", 1.0)]),
])
def test_edge_errors_equal_one_at_a_time(pair: tuple[Graph, Graph], bad: Callable[[Any], Any]) -> None:
    def specs(a: Any) -> list[Any]:
        return [_edge_specs(a)[0], bad(a), _edge_specs(a)[2]]

    both_fail(pair, lambda a: [a.add_edge(lb, o, i, None, p) for lb, o, i, p in specs(a)],
              lambda a: a.add_edges(specs(a)))


def test_auto_mode_keeps_the_one_at_a_time_path(auto_graph: Graph) -> None:
    with api.write_access(auto_graph) as a:
        v1, v2 = a.add_vertices([("dog", 7, [("name", "rex")]), ("dog", None, [("name", "fido"), ("name", "f")])])
        assert v1.id == 7 and [vp.value for vp in v2._props["name"]] == ["fido", "f"]
        (e,) = a.add_edges([("chases", v2, v1, [("when", "now")])])
        assert e.out_v.id == v2.id and e._props == {"when": "now"}
    with pytest.raises(IllegalArgument, match="Vertex with id already exists: 7"), api.write_access(auto_graph) as a:
        a.add_vertices([("dog", 7, [])])


def test_vertices_by_id_equals_vertices_ids(modern: Graph) -> None:
    with api.write_access(modern) as a:
        item = a.add_vertex("item", properties=[("name", "i")])
        ids = ["1:marko", "2:lop", "1:nobody", item.id, Long(987654), int(item.id), True, 1.5]
        found = a.vertices_by_id(ids)
        assert set(found) == {"1:marko", "2:lop", item.id}
        assert found["1:marko"] is next(a.vertices(ids=["1:marko"]))  # the cached element
        assert found[item.id] is item and found["2:lop"].label == "software"
