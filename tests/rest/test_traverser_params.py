"""GET traverser parameters: the query string parsed once into the request map the engine
step reads (`rest_adapter/resources/_traverser_params.py`), with Starlette's decoding and
the same 400s as the single-parameter helpers of `rest_adapter/context.py`."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.requests import Request

from gremlin_engine.structure.numbers import Long
from rest_adapter.errors import HttpError
from rest_adapter.resources._traverser_params import SPECS, query_request
from tests.algorithms.example_graph import load_example

G = "/graphs/hugegraph"
T = f"{G}/traversers"


def _request(query: bytes) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "query_string": query, "headers": []})


def _parsed(endpoint: str, query: bytes) -> dict[str, Any]:
    return query_request(_request(query), endpoint)


def test_keys_follow_the_spec_order_whatever_the_query_order() -> None:
    got = _parsed("kout", b"limit=5&count_only=TRUE&max_depth=2&label=knows&source=%221%3Amarko%22&direction=OUT")
    assert got == {"direction": "OUT", "label": "knows", "limit": 5, "source": "1:marko", "max_depth": 2,
                   "count_only": True}
    assert list(got) == [k for k in SPECS["kout"] if k in got]
    assert type(got["limit"]) is int and got["count_only"] is True


def test_values_by_kind() -> None:
    assert _parsed("kout", b"source=12&with_vertex=no&max_degree=-1") == {"max_degree": -1, "source": Long(12),
                                                                         "with_vertex": False}
    assert type(_parsed("kout", b"source=12")["source"]) is Long
    assert _parsed("vertices", b"ids=%221%3Aa%22&ids=7") == {"ids": ["1:a", Long(7)]}
    assert _parsed("edges", b"ids=%22S1%3Ajosh%3E2%3E%3E%22&ids=+x+") == {"ids": ["S1:josh>2>>", "x"]}
    assert _parsed("scan", b"page=&start=0") == {"start": "0", "page": ""}
    assert _parsed("kout", b"label=a+b%2Cc&unknown=1") == {"label": "a b,c"}


def test_empty_ids_ints_and_bools_are_left_out_but_empty_text_is_kept() -> None:
    assert _parsed("kout", b"source=&max_depth=&nearest=&label=") == {"label": ""}
    assert _parsed("kout", b"") == {}


@pytest.mark.parametrize(("query", "message"), [
    (b"max_depth=1&max_depth=2", "Invalid query param 'max_depth', can only accept one value, but got ['1', '2']"),
    (b"source=1&source=", "Invalid query param 'source', can only accept one value, but got ['1', '']"),
    (b"label=a&label=b", "Invalid query param 'label', can only accept one value, but got ['a', 'b']"),
    (b"max_depth=two", "The query param 'max_depth' must be an integer, but got 'two'"),
    (b"nearest=maybe", "The query param 'nearest' must be a boolean, but got 'maybe'"),
    (b"source=%221%3Amarko", "The 'source' parameter is not a vertex id"),
    (b"max_depth=x&limit=y", "'limit' must be an integer"),  # reported in spec order (COMMON first)
])
def test_malformed_parameters_are_400s(query: bytes, message: str) -> None:
    with pytest.raises(HttpError) as info:
        _parsed("kout", query)
    assert info.value.status == 400
    assert message in str(info.value)


@pytest.fixture
def client(app_client: Any) -> Any:
    load_example(app_client.post, G)
    return app_client


def test_over_http_order_and_errors(client: Any) -> None:
    a = client.get(f'{T}/kout?source="1:marko"&max_depth=2&direction=OUT')
    b = client.get(f'{T}/kout?direction=OUT&max_depth=2&source="1:marko"')
    assert a.status_code == b.status_code == 200
    assert a.json()["vertices"] == b.json()["vertices"]
    assert a.json()["vertices"] == ["2:ripple"]
    r = client.get(f'{T}/kneighbor?source="1:marko"&max_depth=1&max_depth=1')
    assert r.status_code == 400
    assert "can only accept one value" in r.json()["message"]


@pytest.mark.parametrize("query", [
    "a=1&b=2", "a=&b", "&&a=1&&", "a=1=2", "=x", "a+b=c+d", "a%20b=%2B%3D%26", "x=%ZZ&y=%e4%b8%ad", "s=%221%3Amarko%22",
    "k=%C3%A9+%2b", "q=caf\u00e9", "only", "a=1;b=2", "",
])
def test_query_pairs_match_parse_qsl(query: str) -> None:
    from urllib.parse import parse_qsl

    from rest_adapter.resources._traverser_params import _pairs

    assert _pairs(query) == parse_qsl(query, keep_blank_values=True)


def test_remembered_scalars_parse_and_fail_as_the_first_time() -> None:
    """Int and bool texts are remembered once parsed (`_SCALARS`); a second parse gives the
    same typed values, and a bad text is a 400 every time (never remembered)."""
    for _ in range(2):
        got = _parsed("kout", b"max_depth=3&count_only=Yes&nearest=0&capacity=-1&source=7")
        assert got == {"capacity": -1, "source": Long(7), "max_depth": 3, "nearest": False, "count_only": True}
        assert type(got["max_depth"]) is int and got["count_only"] is True and got["nearest"] is False
        for query, message in ((b"max_depth=x", "The query param 'max_depth' must be an integer, but got 'x'"),
                               (b"limit=x", "The query param 'limit' must be an integer, but got 'x'"),
                               (b"nearest=maybe", "The query param 'nearest' must be a boolean, but got 'maybe'")):
            with pytest.raises(HttpError) as info:
                _parsed("kout", query)
            assert info.value.status == 400 and message in str(info.value)
    from rest_adapter.resources import _traverser_params as tp

    assert ("bool", "maybe") not in tp._SCALARS and tp._SCALARS[("int", "3")] == 3


@pytest.mark.parametrize("result", [
    {"vertices_size": 10, "measure": {"edge_iterations": 10, "vertice_iterations": 1, "cost(ns)": 12345}},
    {"vertices": [Long(3), Long(2**63 - 1), Long(-(2**63)), "1:marko", 7], "measure": {"cost(ns)": 1}},
    {"vertices": [], "measure": {}},
    {"vertices_size": 2**64},  # exact text
    {"vertices_size": 2**63 + 5},
    {"vertices": [2**70]},
    {"size": 0.5, "ok": True},
    {"vertices": [True, None, 1.5]},
    {"measure": {"a": True, "b": 2.5}},
    {Long(1): 2},
    [1, 2],
    {"vertices": [Long(2**64)], "measure": {"a": 1}},
    {"vertices": [Long(-(2**63) - 1)]},
    {"vertices": ["a", "b"], "measure": {"a": 2**64}},
    {"vertices": [Long(1), "x", 2**64]},
    {"vertices": [Long(1), "x", Long(2)], "measure": {}},
    {"vertices": [1, True]},
    {"measure": {Long(1): 2}},
    {"measure": {"a": -(2**63), "b": 2**64 - 1}},
    {"vertices": [Long(2**64 - 1), Long(-(2**63))], "measure": {"b": 2**64}},  # the edges of 64 bits, one past
    {"vertices_size": -(2**63) - 1},
    {"vertices": ["a", Long(5)], "measure": {"a": Long(-(2**63) - 1)}},
])
def test_light_answers_serialise_as_to_json_does(result: Any) -> None:
    import orjson

    from rest_adapter.context import json_bytes
    from rest_adapter.resources.traversers import _body
    from rest_adapter.serializers.hugegraph_json import to_json

    class _Graph:
        schema = None

    expected = json_bytes(to_json(result, None))
    assert _body(result, _Graph()) == expected
    assert expected == orjson.dumps(to_json(result, None), option=orjson.OPT_NON_STR_KEYS)
