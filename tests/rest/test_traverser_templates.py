"""GET traverser query strings answered from a template (`_traverser_params._TEMPLATES`):
a query that differs from one parsed before only in its `source` must give exactly the map
(values, Java types, key order) or the 400 that the general parse gives."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from starlette.requests import Request

from gremlin_engine.structure.numbers import Long
from rest_adapter.errors import HttpError
from rest_adapter.resources import _traverser_params as tp


def _request(query: bytes) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "query_string": query, "headers": []})


def _outcome(fn: Any, endpoint: str, query: bytes) -> tuple[str, Any]:
    try:
        got = fn(_request(query), endpoint)
    except HttpError as e:
        return "error", (e.status, str(e))
    return "map", (got, list(got), [type(v) for v in got.values()])


@pytest.fixture(autouse=True)
def _fresh_templates() -> Any:
    tp._TEMPLATES.clear()
    yield
    tp._TEMPLATES.clear()


def test_a_template_is_filed_and_used() -> None:
    first = tp.query_request(_request(b"source=1&max_depth=1&direction=OUT&count_only=true"), "kout")
    assert first == {"direction": "OUT", "source": Long(1), "max_depth": 1, "count_only": True}
    assert tp._TEMPLATES == {("kout", b"max_depth=1&direction=OUT&count_only=true"): first}
    again = tp.query_request(_request(b"source=22&max_depth=1&direction=OUT&count_only=true"), "kout")
    assert again == {"direction": "OUT", "source": Long(22), "max_depth": 1, "count_only": True}
    assert list(again) == list(first) and type(again["source"]) is Long
    assert again is not first and tp._TEMPLATES[("kout", b"max_depth=1&direction=OUT&count_only=true")] == first
    # the source anywhere in the query: the same rest
    moved = tp.query_request(_request(b"max_depth=1&direction=OUT&count_only=true&source=%223%3Ax%22"), "kout")
    assert moved == {"direction": "OUT", "source": "3:x", "max_depth": 1, "count_only": True}
    assert len(tp._TEMPLATES) == 1


def test_what_is_not_filed() -> None:
    tp.query_request(_request(b"max_depth=1"), "kout")  # no source
    tp.query_request(_request(b"source=&max_depth=1"), "kout")  # an empty source is left out
    with pytest.raises(HttpError):
        tp.query_request(_request(b"source=1&max_depth=x"), "kout")  # a failed parse
    with pytest.raises(HttpError):
        tp.query_request(_request(b"source=1&sourc%65=2"), "kout")  # two sources, one spelt otherwise
    tp.query_request(_request(b"ids=1&ids=2"), "vertices")  # no source parameter at all
    assert tp._TEMPLATES == {}


SOURCES = [b"1", b"0", b"007", b"-5", b"12345678901234567890", b"99999999999999999", b"%221%3Amarko%22",
           b'"x"', b"1.5", b"true", b"%20", b"+7", b"", b"U%22a8098c1a-f86e-11da-bd1a-00112444be1e%22",
           b"%22%22", b"%E2%91%A0", b"\xd9\xa1"]
RESTS = [b"max_depth=1&direction=OUT&label=knows&count_only=true&max_degree=-1&capacity=-1&limit=-1",
         b"max_depth=2&nearest=false", b"label=a+b%2Cc&unknown=1", b"", b"max_depth=x", b"source=2",
         b"sourc%65=2", b"limit=-1&limit=-1", b"with_vertex=yes&count_only=no"]


@pytest.mark.parametrize("endpoint", ["kout", "kneighbor", "shortestpath", "rays"])
def test_templated_answers_equal_the_general_parse(endpoint: str) -> None:
    """Every source against every rest, the source first or last, each query asked twice
    (the second time from a template filed by an earlier one where there is one)."""
    for rest, src in itertools.product(RESTS, SOURCES):
        for query in (b"source=" + src + (b"&" + rest if rest else b""), (rest + b"&" if rest else b"") + b"source=" + src):
            want = _outcome(tp._parse, endpoint, query)
            assert _outcome(tp.query_request, endpoint, query) == want, query
            assert _outcome(tp.query_request, endpoint, query) == want, query


def test_digit_sources_parse_as_the_id_codec_does() -> None:
    from gremlin_engine.structure import ids as idc

    for text in ["0", "1", "42", "123456789012345678", "999999999999999999"]:
        got = tp._id("source", text)
        assert got == idc.parse_id_literal(text) and type(got) is Long
    for text in ["00", "0123", "1234567890123456789012"]:
        with pytest.raises(HttpError):
            tp._id("source", text)
