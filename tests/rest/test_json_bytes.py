"""`context.json_bytes`: every JSON answer's encoder, byte for byte what
`orjson.dumps(value, option=OPT_NON_STR_KEYS)` gives (the encoding before it), faster."""

from __future__ import annotations

import datetime as dt
import uuid

import orjson
import pytest

from gremlin_engine.structure.numbers import Long
from rest_adapter.context import json_bytes, json_response


def _reference(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


@pytest.mark.parametrize("value", [
    {"versions": {"version": "v1", "core": "1.7.0"}},
    {"vertices": [{"id": "1:p5", "label": "person", "type": "vertex", "properties": {"name": "p5", "age": 5}}]},
    {"kout": [Long(3), 4, "1:x"], "size": 3, "measure": {"edge_iterations": 2}},
    [1, 2.5, None, True, "é"],
    {"big": orjson.Fragment("18446744073709551616"), "u": uuid.UUID(int=7)},
    {1: "one", "two": 2},  # a non-str key: only the option encodes it
    {Long(7): [1], 2.5: {3: None}},
    {True: 1, None: 2, dt.date(2020, 1, 2): 3},
    {},
    "plain",
])
def test_same_bytes_as_the_non_str_keys_encoding(value: object) -> None:
    assert json_bytes(value) == _reference(value)


def test_same_bytes_in_a_json_response() -> None:
    data = {3: "x", "y": [1, 2]}
    response = json_response(data)
    assert response.body == _reference(data) == b'{"3":"x","y":[1,2]}'
    assert response.raw_headers == [(b"content-length", b"19"), (b"content-type", b"application/json")]


def test_a_value_orjson_cannot_encode_fails_the_same_way() -> None:
    with pytest.raises(orjson.JSONEncodeError) as ours:
        json_bytes({"a": object()})
    with pytest.raises(orjson.JSONEncodeError) as theirs:
        _reference({"a": object()})
    assert str(ours.value) == str(theirs.value) == "Type is not JSON serializable: object"
    assert ours.value.__context__ is None  # not chained to the first, option-less attempt
