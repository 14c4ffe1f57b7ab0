"""`LeanCycle` (rest_adapter/http_protocol.py) against uvicorn's own cycle, message by
message: the same bytes in the same order and the same cycle state after each send; only
the number of writes differs (one for a complete small response)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from rest_adapter.http_protocol import LeanCycle, _lean_head

DATE = [(b"date", b"Sun, 22 Nov 2026 07:00:00 GMT")]


class _Transport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


class _Flow:
    write_paused = False


def _cycle(cls: type, method: str = "GET", keep_alive: bool = True) -> Any:
    completed: list[int] = []
    cycle = cls(scope={"method": method, "http_version": "1.1", "path": "/x", "query_string": b"",
                       "client": ("127.0.0.1", 1)},
                transport=_Transport(), flow=_Flow(), logger=logging.getLogger("t"),
                access_logger=logging.getLogger("t.access"), access_log=False, default_headers=list(DATE),
                message_event=asyncio.Event(), expect_100_continue=False, keep_alive=keep_alive,
                on_response=lambda: completed.append(1))
    cycle.completed = completed
    return cycle


def _state(cycle: Any) -> tuple[Any, ...]:
    return (b"".join(cycle.transport.writes), cycle.transport.closed, cycle.response_started,
            cycle.response_complete, cycle.expected_content_length, cycle.chunked_encoding, cycle.keep_alive,
            len(cycle.completed))


def _run(cls: type, messages: list[dict[str, Any]], method: str = "GET", keep_alive: bool = True) -> Any:
    cycle = _cycle(cls, method, keep_alive)
    states: list[Any] = []

    async def go() -> None:
        for m in messages:
            try:
                await cycle.send(m)
            except RuntimeError as e:
                states.append(("error", str(e)))
                return
            states.append(_state(cycle))

    asyncio.run(go())
    if isinstance(cycle, LeanCycle):
        cycle._write_held()  # what `LeanCycle.run_asgi` does once the app has returned
    return states, cycle.transport.writes


def _start(status: int = 200, headers: Any = ((b"content-type", b"application/json"), (b"content-length", b"2"))) -> Any:
    return {"type": "http.response.start", "status": status, "headers": list(headers)}


def _body(body: bytes = b"{}", more: bool = False) -> dict[str, Any]:
    return {"type": "http.response.body", "body": body, "more_body": more}


CASES = [
    [_start(), _body()],
    [_start(headers=[(b"Content-Type", b"text/plain"), (b"Content-Length", b"2")]), _body(b"ok")],
    [_start(headers=[(b"content-length", b"4")]), _body(b"ab", True), _body(b"cd")],
    [_start(headers=[(b"content-length", b"4")]), _body(b"abcdef")],
    [_start(headers=[(b"content-length", b"4")]), _body(b"ab")],
    [_start(204, [(b"content-length", b"0")]), _body(b"")],
    [_start(headers=[(b"content-type", b"text/plain")]), _body(b"ab", True), _body(b"cd")],
    [_start(headers=[(b"content-length", b"2"), (b"connection", b"close")]), _body()],
    [_start(headers=[(b"transfer-encoding", b"chunked")]), _body(b"ab", True), _body(b"")],
    [_start(headers=[(b"content-length", b"2"), (b"content-length", b"5")]), _body()],
    [_start(headers=[(b"content-length", b" 2")]), _body()],
    [_start(headers=[(b"content-length", b"2"), (b"x-bad", b"a\nb")]), _body()],
    [_start(headers=[(b"content-length", b"2"), (b"bad name", b"v")]), _body()],
    [_start(404, [(b"content-length", b"2"), (b"content-type", b"application/json")]), _body()],
    [_start(), _body(), _body()],
    [_start()],
]


@pytest.mark.parametrize("keep_alive", [True, False])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_same_bytes_and_state_as_uvicorn(case: int, method: str, keep_alive: bool) -> None:
    messages = CASES[case]
    stock_states, stock_writes = _run(RequestResponseCycle, messages, method, keep_alive)
    lean_states, lean_writes = _run(LeanCycle, messages, method, keep_alive)
    # after the start the lean cycle holds the head: compare from the first later message on
    assert lean_states[1:] == stock_states[1:]
    assert b"".join(lean_writes) == b"".join(stock_writes)


def test_a_complete_small_response_is_one_write() -> None:
    _states, writes = _run(LeanCycle, [_start(), _body()])
    assert writes == [b"HTTP/1.1 200 OK\r\ndate: Sun, 22 Nov 2026 07:00:00 GMT\r\ncontent-type: application/json"
                      b"\r\ncontent-length: 2\r\n\r\n{}"]
    _states, writes = _run(RequestResponseCycle, [_start(), _body()])
    assert len(writes) == 2


def test_lean_head_declines_what_uvicorn_must_frame() -> None:
    cycle = _cycle(RequestResponseCycle)
    assert _lean_head(cycle, 200, [(b"content-type", b"text/plain")]) is None  # chunked
    assert _lean_head(cycle, 200, [(b"content-length", b"2"), (b"Connection", b"keep-alive")]) is None
    assert _lean_head(cycle, 200, [(b"content-length", b"+2")]) is None
    assert _lean_head(cycle, 99, [(b"content-length", b"2")]) is None
    assert (cycle.expected_content_length, cycle.chunked_encoding) == (0, None)  # untouched
    assert _lean_head(cycle, 200, [(b"content-length", b"2")]) is not None
    assert (cycle.expected_content_length, cycle.chunked_encoding) == (2, False)
