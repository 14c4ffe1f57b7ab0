"""Edge batches of REST items: plain `dict` items and other maps must write alike.

`inject(items).hgAddEdges(check).id()` of REST items (end ids, end labels, property
dicts, a repeated edge, escaped ids) is run on two graphs, once with the items as `dict`s
and once as equal maps that are not (`MappingProxyType`); each test compares the two on
the ids, the returned elements, the store (values, Java types, index entries), the error
messages and the rollback.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.runtime.materialize import elements_in
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal import compile_traversal
from gremlin_engine.traversal.executor import objects
from gremlin_engine.traversal.steps.hugegraph.writes import FreshStream
from gremlin_engine.traversal.traverser import Traverser
from tests.runtime.test_batch_direct_path import _graph, _ir
from tests.runtime.test_batch_writes import snapshot


def _proxied(items: list[Any]) -> list[Any]:
    return [MappingProxyType(i) if isinstance(i, dict) else i for i in items]


def _pair(registry: GraphRegistry, tmp_path: Path) -> tuple[Graph, Graph]:
    g1, g2 = _graph(registry, tmp_path, "cols"), _graph(registry, tmp_path, "items")
    for g in (g1, g2):
        g.traverse(_ir(("inject", {"label": "thing", "id": "t1"}, {"label": "thing", "id": "t:2>x"},
                        {"label": "thing", "id": "t3"}), ("hgAddVertices",)))
    return g1, g2


def _edges(items: list[Any], *tail: tuple[Any, ...]) -> Any:
    return _ir(("inject", *items), ("hgAddEdges", True), *tail)


ITEMS: list[Any] = [
    {"label": "knows", "outV": "1:marko", "inV": "1:peter", "outVLabel": "person", "inVLabel": "person",
     "properties": {"weight": 1, "date": "d1"}},
    {"label": "knows", "outV": "1:marko", "inV": "1:vadas", "outVLabel": "person", "inVLabel": "person",
     "properties": {"date": "d2", "weight": 0.25}},  # exists: upserted, keys in another order
    {"label": "created", "outV": "1:peter", "inV": "2:ripple", "outVLabel": "person", "inVLabel": "software",
     "properties": {"weight": 0.5}},
    {"label": "rates", "outV": "t1", "inV": "t:2>x", "outVLabel": "thing", "inVLabel": "thing",
     "properties": {"score": 2, "big": 7, "name": "a>b"}},
    {"label": "knows", "outV": "1:marko", "inV": "1:peter", "outVLabel": "person", "inVLabel": "person",
     "properties": {"weight": 3.5}},  # repeats the first: the later one wins
    {"label": "rates", "outV": "t3", "inV": "t1", "outVLabel": "thing", "inVLabel": "thing", "properties": {}},
]


@pytest.mark.parametrize("tail", [(("id",),), ()])
def test_columns_equal_items(registry: GraphRegistry, tmp_path: Path, tail: tuple[Any, ...]) -> None:
    g1, g2 = _pair(registry, tmp_path)
    r1 = g1.traverse(_edges(ITEMS, *tail))
    r2 = g2.traverse(_edges(_proxied(ITEMS), *tail))
    if tail:
        assert r1 == r2 and len(r1) == 6 and r1[0] == r1[4] and all(type(x) is str for x in r1)
        assert r1[3] == "St1>4>4>>St:2`>x"
    else:
        assert [(e.id, e.label, e.out_v.id, e.in_v.id, e._props) for e in r1] == [
            (e.id, e.label, e.out_v.id, e.in_v.id, e._props) for e in r2
        ]
        assert all(type(e) is Edge for e in r1) and r1[0] is r1[4]
        assert r1[0]._props == {"weight": 3.5} and list(r1[1]._props) == ["weight", "date"]
    assert snapshot(g1) == snapshot(g2)
    with api.read_access(g1) as a:
        (e,) = [e for e in a.edges(labels=["rates"]) if e.out_v.id == "t1"]
        a.load([e])
        assert e._props == {"score": 2.0, "big": 7, "name": "a>b"} and type(e._props["big"]) is Long


def test_ends_outside_the_usual_fall_back_to_the_item_loop(registry: GraphRegistry, tmp_path: Path) -> None:
    """No end label, a numeric id, a Vertex, a UUID label: the item loop answers, alike."""
    g1, g2 = _pair(registry, tmp_path)
    with api.read_access(g1) as a:
        marko = next(iter(a.vertices(ids=["1:marko"])))
    for items in (
        [{"label": "knows", "outV": "1:marko", "inV": "1:josh", "properties": {"weight": 0.1}}],
        [{"label": "knows", "outV": "1:marko", "inV": "1:josh", "outVLabel": "person", "properties": {"weight": 0.2}}],
        [{"label": "knows", "outV": marko, "inV": "1:josh", "outVLabel": "person", "inVLabel": "person",
          "properties": {"weight": 0.3}}],
    ):
        assert g1.traverse(_edges(items, ("id",))) == g2.traverse(_edges(_proxied(items), ("id",)))
    assert snapshot(g1) == snapshot(g2)


@pytest.mark.parametrize("bad, message", [
    ({"outV": "t1", "inV": "t3", "outVLabel": "person", "inVLabel": "thing"}, "is unmatched"),
    ({"outV": "t1", "inV": "t3", "outVLabel": "thing", "inVLabel": ""}, "is unmatched"),
    ({"outV": "t1", "inV": "nope", "outVLabel": "thing", "inVLabel": "thing"}, "Invalid vertex id 'nope'"),
    ({"outV": "", "inV": "t3", "outVLabel": "thing", "inVLabel": "thing"}, "The id can't be empty"),
    ({"outV": "t1", "inV": 5, "outVLabel": "thing", "inVLabel": "thing"}, "Invalid vertex id '5'"),
    ({"outV": "t1", "inV": "t3", "outVLabel": "thing", "inVLabel": "uu"}, "Invalid"),
    ({"outV": "t1", "inV": "t3", "outVLabel": "thing", "inVLabel": "thing", "properties": [1]},
     "The properties of edge must be a JSON object"),
    ({"outV": "t1", "inV": "t3", "outVLabel": "thing", "inVLabel": "thing", "properties": {"score": "x"}},
     "Invalid property value"),
    ({"outV": "t1", "inV": "t3", "outVLabel": "thing", "inVLabel": "thing", "properties": {"ghost": 1}},
     "Undefined property key: 'ghost'"),
])
def test_bad_items_fail_alike_and_keep_nothing(registry: GraphRegistry, tmp_path: Path, bad: dict[str, Any],
                                               message: str) -> None:
    g1, g2 = _pair(registry, tmp_path)
    items = [ITEMS[3], {"label": "rates", "properties": {}} | bad]
    before = snapshot(g1)
    errors = []
    for g, batch in ((g1, items), (g2, _proxied(items))):
        with pytest.raises(IllegalArgument, match=message) as exc:
            g.traverse(_edges(batch, ("id",)))
        errors.append(str(exc.value))
    assert errors[0] == errors[1]
    assert snapshot(g1) == before == snapshot(g2)


def test_many_edges_with_cached_and_mixed_label_ends(registry: GraphRegistry, tmp_path: Path) -> None:
    """End lookups with several labels, and ends already cached in the transaction (made
    by an earlier step of the same call), build the same vertices as the row loop."""
    g1, g2 = _pair(registry, tmp_path)
    people = [{"label": "person", "properties": {"name": f"p{i}", "age": i}} for i in range(30)]
    for g in (g1, g2):
        g.traverse(_ir(("inject", *people), ("hgAddVertices",)))
    items = [{"label": "knows", "outV": f"1:p{i}", "inV": f"1:p{(i * 7) % 30}", "outVLabel": "person",
              "inVLabel": "person", "properties": {"weight": i}} for i in range(30)]
    items += [{"label": "created", "outV": f"1:p{i}", "inV": "2:lop", "outVLabel": "person", "inVLabel": "software",
               "properties": {"weight": 0.5}} for i in range(0, 30, 3)]
    assert g1.traverse(_edges(items, ("id",))) == g2.traverse(_edges(_proxied(items), ("id",)))
    assert snapshot(g1) == snapshot(g2)
    with api.write_access(g1) as a:
        ends = a.vertices_by_id(["1:p1", "2:lop"])  # one lookup, two labels: the row loop
        again = a.vertices_by_id(["1:p1", "1:p2"])  # 1:p1 is cached now: the row loop again
        fresh = a.vertices_by_id(["1:p3", "1:p4", "1:nobody"])  # all new, one label: column-wise
        assert again["1:p1"] is ends["1:p1"] and ends["2:lop"].label == "software"
        assert sorted(fresh) == ["1:p3", "1:p4"] and all(type(v) is Vertex and v.key for v in fresh.values())
        assert a.vertices_by_id(["1:p3"])["1:p3"] is fresh["1:p3"]
        assert a.vertices_by_id([Long(999)]) == {}


def test_fresh_stream_chunks_or_traversers() -> None:
    stream = FreshStream(iter([[1, 2], [3]]))
    assert [t.obj for t in stream] == [1, 2, 3] and stream.object_chunks() is None
    assert list(objects(FreshStream(iter([["a"], ["b", "c"]])))) == ["a", "b", "c"]
    assert list(objects([Traverser("x", 2), Traverser("y")])) == ["x", "x", "y"]


def test_elements_in_skips_plain_lists_only() -> None:
    v, e_v = Vertex("1:a", "person", 1), Vertex("1:b", "person", 2)
    e = Edge("x", "knows", v, e_v, 3)
    assert elements_in(["a", Long(1), Int(2), 1.5, True, None]) == []
    assert elements_in(["a", v, 3]) == [v]
    assert elements_in(("a", e)) == [e]
    assert elements_in([{"k": [e]}, "a"]) == [e]


def test_compile_takes_many_plain_arguments_as_they_are() -> None:
    items = tuple({"n": i} for i in range(10))
    step = compile_traversal(_ir(("inject", *items), ("id",))).steps[0]
    assert step.args == items and all(a is b for a, b in zip(step.args, items, strict=True))
    nested = compile_traversal(_ir(("inject", *items, _ir(("V",)))), strategies=False).steps[0]
    assert len(nested.args) == 11 and type(nested.args[-1]).__name__ == "CompiledTraversal"
