"""The response heads `_lean_head` remembers (rest_adapter/http_protocol.py: `_HEADS`) are the
heads `_build_head` builds, with the same cycle state, for as long as the server's default
headers are the same object; a new date (a new list) builds them again."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from rest_adapter import http_protocol as hp
from rest_adapter.http_protocol import LeanCycle


def _cycle(defaults: list[tuple[bytes, bytes]], keep_alive: bool = True) -> Any:
    return LeanCycle(scope={"method": "GET", "http_version": "1.1", "path": "/x", "query_string": b"",
                            "client": ("127.0.0.1", 1)},
                     transport=None, flow=None, logger=logging.getLogger("t"),  # type: ignore[arg-type]
                     access_logger=logging.getLogger("t.access"), access_log=False, default_headers=defaults,
                     message_event=asyncio.Event(), expect_100_continue=False, keep_alive=keep_alive,
                     on_response=lambda: None)


def _state(cycle: Any, head: bytes | None) -> tuple[Any, ...]:
    return head, cycle.expected_content_length, cycle.chunked_encoding


HEADERS: list[list[Any]] = [
    [(b"content-length", b"91"), (b"content-type", b"application/json")],
    [(b"content-length", b"92"), (b"content-type", b"application/json")],
    [(b"content-type", b"application/json"), (b"content-length", b"91")],
    [(b"Content-Length", b"0")],
    [(b"content-length", b"2"), (b"content-length", b"3")],
    [(b"content-type", b"text/plain")],  # no length: uvicorn frames it (None)
    [(b"content-length", b"2"), (b"connection", b"close")],  # stateful: None
    [(b"content-length", b"+2")],
    [("content-length", "2")],
]


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    hp._HEADS.clear()
    hp._HEADS_FOR[0] = None
    yield
    hp._HEADS.clear()
    hp._HEADS_FOR[0] = None


@pytest.mark.parametrize("keep_alive", [True, False])
@pytest.mark.parametrize("status", [200, 201, 404, 99])
def test_remembered_heads_are_the_built_ones(status: int, keep_alive: bool) -> None:
    defaults = [(b"date", b"Sun, 22 Nov 2026 07:00:00 GMT")]
    for rounds in range(3):
        for headers in HEADERS:
            want_cycle = _cycle(defaults, keep_alive)
            want = _state(want_cycle, hp._build_head(want_cycle, status, list(headers)))
            got_cycle = _cycle(defaults, keep_alive)
            got_cycle.expected_content_length, got_cycle.chunked_encoding = 7, None
            untouched = (got_cycle.expected_content_length, got_cycle.chunked_encoding)
            head = hp._lean_head(got_cycle, status, list(headers))
            assert _state(got_cycle, head) == (want if want[0] is not None else (None, *untouched)), (rounds, headers)
    assert hp._HEADS_FOR[0] is defaults
    if status != 99:
        assert (status, keep_alive, tuple(HEADERS[0])) in hp._HEADS


def test_an_unhashable_value_fails_as_before() -> None:
    headers = [(b"content-length", b"2"), (b"x", bytearray(b"y"))]
    defaults = [(b"date", b"d")]
    for fn in (hp._build_head, hp._lean_head, hp._lean_head):
        with pytest.raises(TypeError):
            fn(_cycle(defaults), 200, list(headers))
    assert hp._HEADS == {}


def test_a_new_date_builds_the_heads_again() -> None:
    first = [(b"date", b"Sun, 22 Nov 2026 07:00:00 GMT")]
    second = [(b"date", b"Sun, 22 Nov 2026 07:00:01 GMT")]
    headers = [(b"content-length", b"2"), (b"content-type", b"application/json")]
    a = hp._lean_head(_cycle(first), 200, list(headers))
    b = hp._lean_head(_cycle(second), 200, list(headers))
    assert a is not None and b"07:00:00" in a and b is not None and b"07:00:01" in b
    assert hp._HEADS_FOR[0] is second and len(hp._HEADS) == 1
    assert hp._lean_head(_cycle(second), 200, list(headers)) == b


def test_the_table_stops_growing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hp, "_HEADS_MAX", 3)
    defaults = [(b"date", b"d")]
    for n in range(10):
        head = hp._lean_head(_cycle(defaults), 200, [(b"content-length", str(n).encode())])
        assert head is not None and head.endswith(f"content-length: {n}\r\n\r\n".encode())
    assert len(hp._HEADS) == 3
