"""HugeGraph JSON shapes of engine values (unit tests of the serializer)."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid

import orjson

from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long
from gremlin_engine.traversal.tokens import T
from rest_adapter.serializers.hugegraph_json import dumps, edge_json, to_json, vertex_json


def _marko() -> Vertex:
    v = Vertex("1:marko", "person", key=1, props={})
    v._props["name"] = [VertexProperty("1:marko>name", "name", "marko", v)]
    v._props["age"] = [VertexProperty("1:marko>age", "age", Int(29), v)]
    v._props["tags"] = [VertexProperty("a", "tags", "x", v), VertexProperty("b", "tags", "y", v)]
    return v


def _lop() -> Vertex:
    v = Vertex("2:lop", "software", key=2, props={})
    v._props["lang"] = [VertexProperty("2:lop>lang", "lang", "java", v)]
    return v


def test_vertex_shape_and_field_order() -> None:
    j = vertex_json(_marko())
    assert list(j) == ["id", "label", "type", "properties"]
    assert j == {
        "id": "1:marko",
        "label": "person",
        "type": "vertex",
        "properties": {"name": "marko", "age": 29, "tags": ["x", "y"]},
    }


def test_vertex_single_valued_list_property_uses_cardinality() -> None:
    v = Vertex(7, "thing", props={"nums": [VertexProperty(1, "nums", 5)]})
    assert vertex_json(v)["properties"] == {"nums": 5}
    assert vertex_json(v, lambda k: "LIST")["properties"] == {"nums": [5]}
    assert vertex_json(v)["id"] == 7


def test_vertex_property_cardinalities_and_values() -> None:
    import enum

    class Card(enum.Enum):
        SINGLE = "single"
        SET = "set"

    v = Vertex(8, "thing", props={"s": [VertexProperty(1, "s", "a")], "f": [VertexProperty(2, "f", float("nan"))],
                                  "n": [VertexProperty(3, "n", Long(2**40))], "e": [VertexProperty(4, "e", "x")]})
    cards = {"s": Card.SINGLE, "f": None, "n": "single", "e": Card.SET}
    assert vertex_json(v, cards.get)["properties"] == {"s": "a", "f": None, "n": 2**40, "e": ["x"]}
    assert vertex_json(v, lambda k: "set")["properties"] == {"s": ["a"], "f": [None], "n": [2**40], "e": ["x"]}


def test_json_response_is_starlettes_response() -> None:
    from starlette.responses import Response

    from rest_adapter.context import json_response

    for data, status in (({"a": [1, 2.5, None]}, 200), ([], 201), ({"x": "é"}, 404)):
        ours = json_response(data, status)
        theirs = Response(orjson.dumps(data), status_code=status, media_type="application/json")
        assert (ours.status_code, ours.raw_headers, ours.body) == (theirs.status_code, theirs.raw_headers, theirs.body)
    with_headers = json_response({}, 401, headers={"WWW-Authenticate": "Basic"})
    assert (b"www-authenticate", b"Basic") in with_headers.raw_headers


def test_edge_shape_and_field_order() -> None:
    e = Edge("S1:marko>2>2>>S2:lop", "created", _marko(), _lop(), props={"weight": 0.4, "date": "2017"})
    j = edge_json(e)
    assert list(j) == ["id", "label", "type", "outV", "outVLabel", "inV", "inVLabel", "properties"]
    assert j == {
        "id": "S1:marko>2>2>>S2:lop",
        "label": "created",
        "type": "edge",
        "outV": "1:marko",
        "outVLabel": "person",
        "inV": "2:lop",
        "inVLabel": "software",
        "properties": {"weight": 0.4, "date": "2017"},
    }


def test_path_tree_property_shapes() -> None:
    m, lop = _marko(), _lop()
    p = Path((frozenset({"a"}), frozenset()), (m, "lop"))
    assert to_json(p) == {"labels": [["a"], []], "objects": [vertex_json(m), "lop"]}
    vp = m._props["name"][0]
    assert to_json(vp) == {"id": "1:marko>name", "value": "marko", "label": "name"}
    assert to_json(Property("weight", 0.4)) == {"key": "weight", "value": 0.4}

    class Tree(dict):
        pass

    tree = Tree({m: Tree({lop: Tree()})})
    assert to_json(tree) == [{"key": vertex_json(m), "value": [{"key": vertex_json(lop), "value": []}]}]


def test_maps_with_element_and_token_keys() -> None:
    m = _marko()
    assert to_json({m: Long(3), T.id: "1:marko", T.label: "person", 5: "five", None: 0}) == {
        "1:marko": 3,
        "id": "1:marko",
        "label": "person",
        "5": "five",
        "null": 0,
    }
    assert to_json({"name": ["marko"], "age": [Int(29)]}) == {"name": ["marko"], "age": [29]}


def test_scalars() -> None:
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    when = dt.datetime(2024, 11, 26, 11, 43, 37, 123456, tzinfo=dt.UTC)
    local = when.astimezone()
    assert to_json(u) == "12345678-1234-5678-1234-567812345678"
    assert to_json(when) == local.strftime("%Y-%m-%d %H:%M:%S.123")
    assert to_json(b"\x00\x01") == "AAE="
    assert to_json(Byte(1)) == 1 and to_json(Float(1.5)) == 1.5
    assert to_json(float("nan")) is None
    assert to_json({1, 2}) in ([1, 2], [2, 1])
    assert to_json((1, "a")) == [1, "a"]


def test_big_numbers_stay_exact() -> None:
    big = BigInt(2**70)
    assert dumps([big, decimal.Decimal("1.10"), Long(2**63 - 1)]) == (
        b"[1180591620717411303424,1.10,9223372036854775807]"
    )
    assert orjson.loads(dumps({"n": decimal.Decimal("3.5")})) == {"n": 3.5}


def test_schema_objects_use_to_json() -> None:
    class Fake:
        def to_json(self) -> dict:
            return {"id": 1, "name": "age", "data_type": "INT"}

    assert to_json([Fake()]) == [{"id": 1, "name": "age", "data_type": "INT"}]
