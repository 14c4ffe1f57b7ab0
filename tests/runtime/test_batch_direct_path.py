"""Batch writes of injected items must equal the same elements written one at a time.

`g.inject(items...)` hands its objects to `hgAddVertices`/`hgAddEdges` without traversers
(`InjectedStream`), and items' property dicts reach `add_vertices`/`add_edges` as they are.
Each test compares that with one-at-a-time writes or with a traversal whose write step is
fed traversers (a mid-traversal stream), on the values, Java types, stored text, errors and
rollback.
"""

from __future__ import annotations

import math
import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.structure.numbers import Float, Int, Long
from gremlin_engine.structure.values import encode_edge_props, encode_value
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.steps.source import InjectedStream
from tests.runtime.conftest import modern_pair, modern_with
from tests.runtime.test_batch_writes import both, both_fail, snapshot


def _ir(*steps: tuple[Any, ...]) -> TraversalIR:
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps))  # type: ignore[arg-type]


SCHEMA = [
    ("propertykey", {"name": "score", "data_type": "DOUBLE"}),
    ("propertykey", {"name": "big", "data_type": "LONG"}),
    ("propertykey", {"name": "ok", "data_type": "BOOLEAN"}),
    ("propertykey", {"name": "ratio", "data_type": "FLOAT"}),
    ("vertexlabel", {"name": "thing", "id_strategy": "CUSTOMIZE_STRING",
                     "properties": ["name", "score", "big", "ok", "ratio", "age"],
                     "nullable_keys": ["name", "score", "big", "ok", "ratio", "age"]}),
    ("vertexlabel", {"name": "uu", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"],
                     "nullable_keys": ["name"]}),
    ("edgelabel", {"name": "rates", "source_label": "thing", "target_label": "thing",
                   "properties": ["score", "big", "name"], "nullable_keys": ["score", "big", "name"]}),
    ("edgelabel", {"name": "links", "source_label": "uu", "target_label": "uu", "properties": ["name"],
                   "nullable_keys": ["name"]}),
]


def _graph(registry: GraphRegistry, tmp_path: Path, name: str) -> Graph:
    """The modern graph with `SCHEMA` (the column-lane tests build theirs with it too)."""
    return modern_with(registry, tmp_path, name, SCHEMA)


@pytest.fixture
def pair(registry: GraphRegistry, tmp_path: Path) -> tuple[Graph, Graph]:
    return modern_pair(registry, tmp_path, SCHEMA)


# ---- inject hands its objects over --------------------------------------------------------


def test_inject_start_is_an_injected_stream_that_iterates_as_before(modern: Graph) -> None:
    assert modern.traverse(_ir(("inject", 1, 2, 3), ("is", 2))) == [2]
    assert modern.traverse(_ir(("inject", "a", "b"), ("count",))) == [Long(2)]
    assert modern.traverse(_ir(("inject", 1, 2), ("as", "x"), ("select", "x"))) == [1, 2]
    assert modern.traverse(_ir(("inject", 7), ("path",)))[0].objects == (7,)
    stream = InjectedStream(("a", "b"))
    assert stream.injected == ("a", "b")
    assert next(stream).obj == "a" and [t.obj for t in stream] == ["b"]


def test_injected_items_and_traverser_items_write_alike(registry: GraphRegistry, tmp_path: Path) -> None:
    """The direct path (inject at the start) and the general one (`identity()` between, a
    mid-traversal inject) give the same ids and the same store."""
    g1, g2 = _graph(registry, tmp_path, "a"), _graph(registry, tmp_path, "b")
    items = [{"label": "person", "properties": {"name": f"n{i}", "age": i, "city": "c"}} for i in range(7)]
    items.append({"label": "thing", "id": "t!1", "properties": {"score": 2, "ok": True, "big": 5}})
    direct = g1.traverse(_ir(("inject", *items), ("hgAddVertices",), ("id",)))
    general = g2.traverse(_ir(("inject", *items), ("identity",), ("hgAddVertices",), ("id",)))
    assert direct == general == [*(f"1:n{i}" for i in range(7)), "t!1"]
    edges = [{"label": "knows", "outV": f"1:n{i}", "inV": "1:marko", "outVLabel": "person", "inVLabel": "person",
              "properties": {"weight": i / 2}} for i in range(7)]
    e1 = g1.traverse(_ir(("inject", *edges), ("hgAddEdges", True), ("id",)))
    e2 = g2.traverse(_ir(("inject", *edges), ("identity",), ("hgAddEdges", True), ("id",)))
    assert e1 == e2 and len(e1) == 7
    assert snapshot(g1) == snapshot(g2)
    made = g1.traverse(_ir(("inject", *items[:2]), ("hgAddVertices",)))
    assert [v.id for v in made] == ["1:n0", "1:n1"] and made[0].label == "person"


def test_injected_bad_item_fails_the_whole_batch(modern: Graph) -> None:
    before = snapshot(modern)
    items: list[Any] = [{"label": "person", "properties": {"name": "ok1"}}, 5]
    with pytest.raises(IllegalArgument, match=r"hgAddVertices\(\) expects element maps, not 5"):
        modern.traverse(_ir(("inject", *items), ("hgAddVertices",), ("id",)))
    bad_props = [{"label": "person", "properties": {"name": "ok2"}}, {"label": "person", "properties": [1]}]
    with pytest.raises(IllegalArgument, match="The properties of vertex must be a JSON object"):
        modern.traverse(_ir(("inject", *bad_props), ("hgAddVertices",), ("id",)))
    assert snapshot(modern) == before


# ---- dict properties, flat values, one-dump rows -----------------------------------------


def _one_v(specs: list[Any]) -> Any:
    return lambda a: [a.add_vertex(label, vid, list(props.items()) if isinstance(props, dict) else props)
                      for label, vid, props in specs]


def test_dict_properties_equal_pairs(pair: tuple[Graph, Graph]) -> None:
    specs = [
        ("person", None, {"name": "ann", "age": 41, "city": "Beijing"}),
        ("person", None, {"city": "X", "name": "bob"}),  # key order differs from key-id order
        ("person", None, {"name": "cy", "tags": ["a", "b", "a"], "nick": ["x", "x"]}),  # LIST/SET: lists kept
        ("thing", "t1", {"score": 3, "big": 2**40, "ok": False, "ratio": 1.5, "age": 7}),
        ("thing", "t2", {"score": math.nan, "name": "nan"}),  # NaN is stored tagged: reference path
        ("thing", "t3", {"score": math.inf, "big": 3}),
        ("person", None, {"name": "ann", "age": 42}),  # repeats ann: the grouping path
        ("person", None, {"name": "marko", "age": 30}),  # exists: upserted
    ]
    both(pair, _one_v(specs), lambda a: a.add_vertices(specs))
    odd = [("thing", "t4", {"name": "x"}), ("thing", "t5", {1: "x"})]  # a non-string key: as a string key
    assert both_fail(pair, _one_v(odd), lambda a: a.add_vertices(odd)) == "Undefined property key: '1'"
    with api.read_access(pair[1]) as a:
        t1 = next(iter(a.vertices(ids=["t1"])))
        a.load([t1])
        values = {k: vps[0].value for k, vps in t1._props.items()}
        assert values == {"score": 3.0, "big": 2**40, "ok": False, "ratio": 1.5, "age": 7}
        assert [type(values[k]) for k in ("score", "big", "ratio", "age")] == [float, Long, Float, int]  # stored INT values read back as int
        t2 = next(iter(a.vertices(ids=["t2"])))
        a.load([t2])
        assert math.isnan(t2._props["score"][0].value)


def test_distinct_and_repeated_ids_store_alike(pair: tuple[Graph, Graph]) -> None:
    distinct = [("person", None, {"name": f"d{i}", "age": i, "city": "Beijing"}) for i in range(20)]
    made = both(pair, _one_v(distinct), lambda a: a.add_vertices(distinct))
    assert [v.id for v in made] == [f"1:d{i}" for i in range(20)]
    again = [*distinct[:3], ("person", None, {"name": "d1", "age": 99})]
    made = both(pair, _one_v(again), lambda a: a.add_vertices(again))
    assert made[1] is made[3]
    with api.read_access(pair[1]) as a:
        by_age = list(a.vertices(labels=["person"], conditions=[("age", _p("eq", 99))]))
        assert [v.id for v in by_age] == ["1:d1"]  # the index holds the later values


def _p(op: str, value: Any) -> Any:
    from gremlin_engine.traversal.predicates import make_predicate

    return make_predicate("P", op, (value,))


def test_bad_values_fail_as_the_reference_does(pair: tuple[Graph, Graph]) -> None:
    for props in ({"name": 5}, {"name": "x", "age": "old"}, {"name": ""}, {"name": "\u0001x"}, {"age": 3}):
        specs = [("person", None, {"name": "first"}), ("person", None, props)]
        msg = both_fail(pair, _one_v(specs), lambda a, s=specs: a.add_vertices(s))
        assert msg


@pytest.mark.parametrize("value", [
    "x", "", 0, -1, 2**31, 2**63 - 1, 2**70, True, 1.5, math.inf, -math.inf, Int(5), Long(5), Long(2**40),
    Float(2.5), uuid.UUID(int=3), [1, "a"], {"k": 1},
])
def test_edge_props_encode_as_before(value: Any) -> None:
    for props in ({"a": "s", "b": value}, {"b": value}):
        assert encode_edge_props(props) == orjson.dumps({k: encode_value(v) for k, v in props.items()}).decode()


def test_nan_edge_prop_encodes_tagged() -> None:
    assert encode_edge_props({"w": math.nan}) == '{"w":{"@t":"D","v":"NaN"}}'


# ---- edge ends --------------------------------------------------------------------------------


def test_edge_ends_by_label_kind(registry: GraphRegistry, tmp_path: Path) -> None:
    g = _graph(registry, tmp_path, "ends")
    u1, u2 = uuid.UUID(int=1), uuid.UUID(int=2)
    g.traverse(_ir(("inject", {"label": "uu", "id": str(u1)}, {"label": "uu", "id": str(u2)},
                    {"label": "thing", "id": "t1"}, {"label": "thing", "id": "t2"}), ("hgAddVertices",)))
    edges = [
        {"label": "links", "outV": str(u1), "inV": str(u2), "outVLabel": "uu", "inVLabel": "uu", "properties": {}},
        {"label": "rates", "outV": "t1", "inV": "t2", "outVLabel": "thing", "inVLabel": "thing",
         "properties": {"score": 1, "big": 2**40}},
        {"label": "rates", "outV": "t2", "inV": "t1", "outVLabel": "thing", "inVLabel": "thing",
         "properties": {"name": "m"}},
    ]
    ids = g.traverse(_ir(("inject", *edges), ("hgAddEdges", True), ("id",)))
    assert ids[0] == f"U{u1}>5>5>>U{u2}" and ids[1] == "St1>4>4>>St2"
    with api.read_access(g) as a:
        es = list(a.edges(ids=ids))
        a.load(es)
        assert [e.out_v.id for e in es] == [u1, "t1", "t2"]
        assert es[1]._props == {"score": 1.0, "big": 2**40} and type(es[1]._props["big"]) is Long
    for bad, msg in (
        ({"outV": "t1", "inV": "t2", "outVLabel": "uu", "inVLabel": "thing"}, "Invalid"),
        ({"outV": "t1", "inV": "t2", "outVLabel": "person", "inVLabel": "thing"}, "is unmatched"),
        ({"outV": "", "inV": "t2", "outVLabel": "thing", "inVLabel": "thing"}, "The id can't be empty"),
        ({"outV": "t1", "inV": "nope", "outVLabel": "thing", "inVLabel": "thing"}, "Invalid vertex id 'nope'"),
    ):
        item = {"label": "rates", "properties": {}} | bad
        before = snapshot(g)
        with pytest.raises(IllegalArgument, match=msg):
            g.traverse(_ir(("inject", edges[1], item), ("hgAddEdges", True), ("id",)))
        assert snapshot(g) == before
