"""`query_scope`'s written-out case of a templated query string (the source first, a
decimal integer that fits a Long, the rest seen before) gives exactly what the general
parse gives: the same map, key order and Java types, or the same 400, for sources around
every edge of that case (leading zeros, 18 and 19 digits, signs, escapes, empty, not
digits), on k-out and k-neighbor."""

from __future__ import annotations

from typing import Any

import pytest

from rest_adapter.errors import HttpError
from rest_adapter.resources import _traverser_params as tp

REST = b"max_depth=2&direction=OUT&label=knows&count_only=true&max_degree=-1"
SOURCES = [b"1", b"7", b"0", b"00", b"007", b"10", b"123456789012345678", b"1234567890123456789",
           b"99999999999999999999", b"-5", b"+5", b"%2B5", b"5%20", b"", b"abc", b"1.5", b"%22x%22", b"1e3",
           b"%31%32", b"\xd9\xa3", b"9223372036854775807"]


def _outcome(query: bytes, endpoint: str) -> Any:
    try:
        got = tp.query_scope({"query_string": query}, endpoint)
    except HttpError as e:
        return "error", e.status, str(e)
    return got, list(got), [type(v) for v in got.values()]


@pytest.mark.parametrize("endpoint", ["kout", "kneighbor"])
@pytest.mark.parametrize("source", SOURCES)
def test_written_out_case_is_the_general_parse(endpoint: str, source: bytes) -> None:
    tp._TEMPLATES.clear()
    query = b"source=" + source + b"&" + REST
    general = _outcome(query, endpoint)  # nothing filed yet: the general parse (and it files the rest)
    tp._TEMPLATES.clear()
    tp.query_scope({"query_string": b"source=42&" + REST}, endpoint)  # the rest filed by another source
    assert (endpoint, REST) in tp._TEMPLATES
    assert _outcome(query, endpoint) == general
    tp._TEMPLATES.clear()
