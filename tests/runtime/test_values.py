"""The props codec keeps Java types, multi-properties and meta-properties exactly."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import uuid

import orjson
import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import values
from gremlin_engine.structure.elements import Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short

SAMPLES = [
    "marko", "", True, False, 29, Int(29), -(2**31), Long(5), Long(2**40), 2**40, Byte(-3), Short(300),
    Float(1.5), 0.5, 1.0, BigInt(2**80), decimal.Decimal("1.25"),
    dt.datetime(2013, 2, 20, 0, 0, tzinfo=dt.UTC), uuid.UUID("835e1153-9281-4957-8691-cf79258e90eb"),
    b"\x00\x01blob", [1, "a", Long(2)], {1, 2}, {"a": 1, 2: [Long(3)]}, [],
]


@pytest.mark.parametrize("value", SAMPLES, ids=repr)
def test_value_round_trip_keeps_java_type(value: object) -> None:
    text = orjson.dumps(values.encode_value(value))
    back = values.decode_value(orjson.loads(text))
    assert back == value
    expected_type = {int: Int if -(2**31) <= value <= 2**31 - 1 else Long} if type(value) is int else {}
    got = type(back)
    if type(value) is int:
        assert (got is int or got is Int) if expected_type[int] is Int else got is Long
    elif type(value) is Int:
        assert got in (int, Int)
    else:
        assert got is type(value)


def test_plain_values_are_untagged() -> None:
    assert values.encode_value("x") == "x"
    assert values.encode_value(29) == 29
    assert values.encode_value(0.5) == 0.5
    assert values.encode_value(Long(2**40)) == 2**40
    assert values.encode_value(Long(5)) == {"@t": "L", "v": 5}


def test_special_floats() -> None:
    for x in (math.inf, -math.inf):
        assert values.decode_value(orjson.loads(orjson.dumps(values.encode_value(x)))) == x
    assert math.isnan(values.decode_value(values.encode_value(math.nan)))
    f = values.decode_value(values.encode_value(Float(math.inf)))
    assert type(f) is Float and f == math.inf


def test_naive_datetime_is_utc() -> None:
    back = values.decode_value(values.encode_value(dt.datetime(2020, 1, 1, 12, 0)))
    assert back == dt.datetime(2020, 1, 1, 12, 0, tzinfo=dt.UTC)


def test_unsupported_value() -> None:
    with pytest.raises(IllegalArgument, match="Unsupported property value type"):
        values.encode_value(object())


def test_vertex_props_round_trip_with_multi_and_meta() -> None:
    v = Vertex(Long(1), "person")
    props = {
        "name": [VertexProperty(values.default_vp_id(v.id, "name", 0), "name", "marko", v)],
        "location": [
            VertexProperty(None, "location", "san diego", v, {"startTime": 1997, "endTime": 2001}),
            VertexProperty(None, "location", "santa fe", v, {"startTime": Long(2005)}),
        ],
        "age": [VertexProperty(Long(77), "age", 29, v)],
    }
    text = values.encode_vertex_props(props, v.id)
    back = values.decode_vertex_props(text, v)
    assert list(back) == ["name", "location", "age"]
    assert [vp.value for vp in back["location"]] == ["san diego", "santa fe"]
    assert back["location"][0].meta == {"startTime": 1997, "endTime": 2001}
    assert type(back["location"][1].meta["startTime"]) is Long
    assert back["name"][0].id == "1>name" and back["location"][1].id == "1>location>1"
    assert back["age"][0].id == 77 and back["age"][0].vertex is v
    # the plain row is plain JSON
    assert orjson.loads(text)["name"] == "marko"


def test_edge_props_round_trip() -> None:
    props = {"weight": 0.4, "since": Long(2010), "when": dt.datetime(2020, 5, 1, tzinfo=dt.UTC)}
    back = values.decode_edge_props(values.encode_edge_props(props))
    assert back == props and type(back["since"]) is Long
    assert values.decode_edge_props(None) == {}
    assert values.decode_vertex_props("", Vertex(1, "x")) == {}
