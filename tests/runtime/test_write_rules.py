"""The write rules on unusual values: batches must equal the same elements written one at a time.

The specialised coercers the label rules use (`coercion.coercer`) are compared with
`coercion.coerce` value by value (result, type and error message); whole batches with unusual values, ids that need escaping, sort keys and
graph modes go through `add_vertices`/`add_edges` and the one-at-a-time path on two graphs
with the same schema, which must end up identical (see `test_batch_writes.py`).
"""

from __future__ import annotations

import decimal
import math
import uuid
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.bytecode import CardinalityValue
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.schema.coercion import coerce, coercer
from gremlin_engine.schema.model import Cardinality, DataType, PropertyKey
from gremlin_engine.structure.numbers import Byte, Float, Int, Long
from gremlin_engine.traversal.tokens import Cardinality as Card
from gremlin_engine.traversal.tokens import T
from tests.backends import AUTOMATIC_ID_GAPS, sqlite_only
from tests.runtime.conftest import modern_pair
from tests.runtime.test_batch_writes import both, both_fail, snapshot

SAMPLES: list[Any] = [
    "x", "", "NaN", "Infinity", "1", 0, 1, -1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, True, False,
    1.5, 2.0, math.nan, math.inf, Int(5), Long(5), Long(2**40), Byte(3), Float(1.5), decimal.Decimal("2"),
    ["a"], ("b",), {"k": 1}, uuid.UUID(int=7), b"\x01",
]


def _outcome(fn: Any, value: Any) -> tuple[str, Any]:
    try:
        out = fn(value)
    except Exception as exc:  # the same class and message either way
        return type(exc).__name__, str(exc)
    items = out if isinstance(out, list) else [out]
    return type(out).__name__, [(type(x).__name__, "nan" if isinstance(x, float) and math.isnan(x) else x) for x in items]


@pytest.mark.parametrize("data_type", list(DataType))
@pytest.mark.parametrize("cardinality", list(Cardinality))
def test_coercer_equals_coerce(data_type: DataType, cardinality: Cardinality) -> None:
    pk = PropertyKey(id=1, name="k", data_type=data_type, cardinality=cardinality)
    fast = coercer(pk)
    for value in SAMPLES:
        assert _outcome(fast, value) == _outcome(lambda v: coerce(pk, v), value), (data_type, cardinality, value)


SCHEMA = [
    ("propertykey", {"name": "score", "data_type": "LONG"}),
    ("propertykey", {"name": "ratio", "data_type": "FLOAT"}),
    ("propertykey", {"name": "flag", "data_type": "BOOLEAN"}),
    ("propertykey", {"name": "rank", "data_type": "INT"}),
    ("vertexlabel", {"name": "tag2", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"],
                     "nullable_keys": ["name"]}),
    ("vertexlabel", {"name": "num", "id_strategy": "CUSTOMIZE_NUMBER",
                     "properties": ["name", "score", "ratio", "flag"], "nullable_keys": ["name", "ratio", "flag"]}),
    ("vertexlabel", {"name": "uid", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"],
                     "nullable_keys": ["name"]}),
    ("vertexlabel", {"name": "pair", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name", "rank"],
                     "properties": ["name", "rank", "score"], "nullable_keys": ["score"]}),
    ("edgelabel", {"name": "links", "source_label": "tag", "target_label": "tag", "frequency": "MULTIPLE",
                   "sort_keys": ["name", "rank"], "properties": ["name", "rank", "weight"],
                   "nullable_keys": ["weight"]}),
    ("edgelabel", {"name": "rates", "source_label": "num", "target_label": "uid",
                   "properties": ["score", "flag"], "nullable_keys": ["flag"]}),
    ("indexlabel", {"name": "pairByScore", "base_type": "VERTEX_LABEL", "base_value": "pair",
                    "index_type": "RANGE", "fields": ["score"], "rebuild": False}),
]


def _fill(g: Graph) -> None:
    with api.write_access(g) as a:
        a.add_vertex("tag", "a>b", [("name", "gt")])
        a.add_vertex("tag", "c:d!e", [("name", "colon")])
        a.add_vertex("num", 77, [("score", 1)])
        a.add_vertex("uid", uuid.UUID(int=9), [])


@pytest.fixture
def pair(registry: GraphRegistry, tmp_path: Path) -> tuple[Graph, Graph]:
    return modern_pair(registry, tmp_path, SCHEMA, _fill)


VERTICES: list[Any] = [
    ("person", None, [("age", 3), ("name", "x:y!z`w")]),  # escapes in the primary-key id
    ("pair", None, [("rank", -5), ("name", "p!q"), ("score", 2**40)]),  # numeric primary key part
    ("pair", None, [("name", "p!q"), ("rank", Int(-5)), ("score", 7)]),  # the same id again
    ("num", 12, [("score", Int(3)), ("ratio", 2), ("flag", True), ("name", "n")]),
    ("num", Long(13), [("score", Long(2**62)), ("ratio", Float(0.5))]),
    ("num", 77, [("score", 4)]),  # exists: upserted
    ("uid", "00000000-0000-0000-0000-000000000001", [("name", "u")]),
    ("uid", uuid.UUID(int=2), []),
    ("tag", "q>r", [("name", "s")]),
    ("person", None, [("name", "tagged"), ("tags", ["b", "a", "b"]), ("nick", ("x", "y", "x")), ("tags", "c")]),
    ("person", None, [("name", "single"), ("age", 1), ("age", 2)]),  # a SINGLE key twice: the last
    ("person", None, [("name", "card"), ("tags", CardinalityValue(Card.list, "z"))]),
    ("person", None, [("name", "tid"), (T.label, "ignored")]),
    ("software", None, [("lang", "c"), ("name", "weight")]),
    ("item", None, [("name", "auto")]),
]


@sqlite_only(AUTOMATIC_ID_GAPS)
def test_vertices_with_unusual_values_equal_one_at_a_time(pair: tuple[Graph, Graph]) -> None:
    made = both(pair, lambda a: [a.add_vertex(lb, i, p) for lb, i, p in VERTICES], lambda a: a.add_vertices(VERTICES))
    assert made[0].id == "1:x`:y`!z`w"
    assert made[1] is made[2]
    assert made[4].id == 13 and type(made[4].id) is Long


@pytest.mark.parametrize("specs", [
    [("num", 14, [("score", True)])],
    [("num", 14, [("score", 2**63)])],
    [("num", 14, [("score", 1), ("ratio", "fast")])],
    [("num", None, [("score", 1)])],
    [("num", "14", [("score", 1)])],
    [("uid", "not-a-uuid", [])],
    [("pair", None, [("name", "p")])],
    [("pair", None, [("name", "p"), ("rank", 1), ("score", None)])],
    [("pair", "given", [("name", "p"), ("rank", 1)])],
    [("person", None, [("name", "")])],
    [("person", None, [("name", "\u0001x")])],
    [("person", None, [("name", "m"), ("ghost", 1)])],
    [("person", None, [("name", "m"), ("lang", "java")])],
    [("person", None, [("name", "m"), ("age", 2**31)])],
    [("person", None, [("name", "m"), (T.id, "x")])],
    [(5, None, [("name", "m")])],
    [("person", None, [("name", "ok")]), ("item", 5, [])],
])
def test_vertex_errors_equal_one_at_a_time(pair: tuple[Graph, Graph], specs: list[Any]) -> None:
    both_fail(pair, lambda a: [a.add_vertex(lb, i, p) for lb, i, p in specs], lambda a: a.add_vertices(specs))


def _v(a: Any, *ids: Any) -> list[Any]:
    found = {v.id: v for v in a.vertices(ids=list(ids))}
    return [found[i] for i in ids]


def _edges(a: Any) -> list[Any]:
    gt, colon, num, uid = _v(a, "a>b", "c:d!e", Long(77), uuid.UUID(int=9))
    josh, peter = _v(a, "1:josh", "1:peter")
    return [
        ("links", gt, colon, [("name", "x>y!z"), ("rank", 2)]),  # escapes inside the edge id
        ("links", colon, gt, [("rank", -1), ("name", "k"), ("weight", 1)]),
        ("links", gt, colon, [("name", "x>y!z"), ("rank", Int(2)), ("weight", 0.5)]),  # the first again
        ("rates", num, uid, [("score", 3), ("flag", False)]),
        ("knows", josh, peter, [("date", "d"), ("weight", 2)]),  # int for a DOUBLE key
        ("knows", peter, josh, [("weight", 0.25), (T.id, None)]),
    ]


def test_edges_with_unusual_values_equal_one_at_a_time(pair: tuple[Graph, Graph]) -> None:
    made = both(pair, lambda a: [a.add_edge(lb, o, i, None, p) for lb, o, i, p in _edges(a)],
                lambda a: a.add_edges(_edges(a)))
    assert made[0].id == "Sa`>b>4>4>x`>y`!z!12>Sc:d!e"
    assert made[0] is made[2] and made[0]._props == {"name": "x>y!z", "rank": 2, "weight": 0.5}
    assert made[3].id == "L77>5>5>>U00000000-0000-0000-0000-000000000009"
    assert made[4]._props == {"weight": 2.0, "date": "d"} and type(made[4]._props["weight"]) is float


@pytest.mark.parametrize("extra", [
    lambda a: ("links", *_v(a, "a>b", "c:d!e"), [("name", "n")]),  # a sort key missing
    lambda a: ("links", *_v(a, "a>b", "1:josh"), [("name", "n"), ("rank", 1)]),  # no such link
    lambda a: ("rates", *_v(a, Long(77), uuid.UUID(int=9)), [("flag", True)]),  # non-null key missing
    lambda a: ("rates", *_v(a, Long(77), uuid.UUID(int=9)), [("score", 1), (T.id, "e1")]),
    lambda a: ("knows", *_v(a, "1:josh", "1:peter"), [("weight", None)]),
    lambda a: ("knows", *_v(a, "1:josh", "1:peter"), [("rank", 1)]),
])
def test_edge_errors_equal_one_at_a_time(pair: tuple[Graph, Graph], extra: Any) -> None:
    def specs(a: Any) -> list[Any]:
        return [_edges(a)[0], extra(a)]

    both_fail(pair, lambda a: [a.add_edge(lb, o, i, None, p) for lb, o, i, p in specs(a)],
              lambda a: a.add_edges(specs(a)))


def test_loading_mode_skips_the_non_null_check_alike(pair: tuple[Graph, Graph]) -> None:
    for g in pair:
        g.set_mode("LOADING")
    specs = [("software", None, [("name", "nolang")]), ("num", 15, [])]
    made = both(pair, lambda a: [a.add_vertex(lb, i, p) for lb, i, p in specs], lambda a: a.add_vertices(specs))
    assert [v.id for v in made] == ["2:nolang", 15]
    with api.read_access(pair[1]) as a:
        assert snapshot(pair[1])["vertices"] == snapshot(pair[0])["vertices"]
        assert [v.id for v in a.vertices(ids=[Long(15)])] == [15]


