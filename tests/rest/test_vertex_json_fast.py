"""Vertex JSON with per-answer cardinality lookups and the plain-value shortcut: the same
JSON as before for every kind of property value and cardinality."""

from __future__ import annotations

import datetime as dt
import uuid

import orjson

from gremlin_engine.schema.model import Cardinality
from gremlin_engine.structure.elements import Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt, Long
from rest_adapter.serializers.hugegraph_json import vertex_json, vertex_properties_json

CARDS = {"tags": Cardinality.LIST, "set": Cardinality.SET, "name": Cardinality.SINGLE}


def _vertex(vid: str, props: dict[str, list[object]]) -> Vertex:
    v = Vertex(vid, "person")
    v._props = {k: [VertexProperty(f"{vid}>{k}>{n}", k, value, v) for n, value in enumerate(vals)]
                for k, vals in props.items()}
    return v


def _card_calls() -> tuple[list[str], object]:
    calls: list[str] = []

    def card(key: str) -> object:
        calls.append(key)
        return CARDS.get(key)

    return calls, card


VALUES: dict[str, list[object]] = {
    "name": ["marko"],
    "age": [29],
    "long": [Long(7)],
    "huge": [2**64],
    "negative_huge": [-(2**63) - 1],
    "top": [2**64 - 1],
    "big": [BigInt(5)],
    "flag": [True],
    "weight": [0.5],
    "nan": [float("nan")],
    "when": [dt.datetime(2020, 1, 2, 3, 4, 5, 6000)],
    "uid": [uuid.UUID(int=3)],
    "tags": ["a"],
    "set": [1],
    "two": ["x", "y"],
}

EXPECTED = (b'{"name":"marko","age":29,"long":7,"huge":18446744073709551616,"negative_huge":-9223372036854775809,'
            b'"top":18446744073709551615,"big":5,"flag":true,"weight":0.5,"nan":null,'
            b'"when":"2020-01-02 03:04:05.006","uid":"00000000-0000-0000-0000-000000000003",'
            b'"tags":["a"],"set":[1],"two":["x","y"]}')


def test_every_value_kind_as_before() -> None:
    v = _vertex("1:marko", VALUES)
    _calls, card = _card_calls()
    assert orjson.dumps(vertex_properties_json(v, card)) == EXPECTED
    assert orjson.dumps(vertex_properties_json(v, card, {})) == EXPECTED
    assert type(vertex_properties_json(v, card)["age"]) is int
    assert type(vertex_properties_json(v, card)["long"]) is int  # Long written as the plain int


def test_without_cardinalities_single_values_stay_single() -> None:
    v = _vertex("1:x", {"tags": ["a"], "two": ["x", "y"]})
    assert vertex_properties_json(v) == {"tags": "a", "two": ["x", "y"]}


def test_one_lookup_per_key_per_answer() -> None:
    vs = [_vertex(f"1:p{i}", {"name": [f"p{i}"], "tags": ["t"], "age": [i]}) for i in range(5)]
    calls, card = _card_calls()
    multi: dict[str, bool] = {}
    out = [vertex_json(v, card, multi) for v in vs]
    assert sorted(calls) == ["age", "name", "tags"]
    assert out[3] == {"id": "1:p3", "label": "person", "type": "vertex",
                      "properties": {"name": "p3", "tags": ["t"], "age": 3}}
    calls.clear()
    assert [vertex_json(v, card) for v in vs] == out  # without the memo: the same answer
    assert len(calls) == 15
