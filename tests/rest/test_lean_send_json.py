"""`LeanCycle.send_json` (the front door lanes' one call for a whole answer) against the two
messages it stands for, sent to uvicorn's own cycle and to `LeanCycle.send`: the same bytes,
the same cycle state and one completion, on keep-alive and closing connections, HEAD,
a length that does not match the body, paused writing and a disconnected client."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from rest_adapter.http_protocol import LeanCycle
from tests.rest.test_lean_cycle import _cycle, _state

BODY = b'{"vertices_size":3}'


def _headers(length: int) -> list[tuple[bytes, bytes]]:
    return [(b"content-length", str(length).encode()), (b"content-type", b"application/json")]


def _by_messages(cls: type, method: str, keep_alive: bool, length: int, setup: Any) -> Any:
    cycle = _cycle(cls, method, keep_alive)
    setup(cycle)

    async def go() -> Any:
        try:
            await cycle.send({"type": "http.response.start", "status": 200, "headers": _headers(length)})
            await cycle.send({"type": "http.response.body", "body": BODY})
        except RuntimeError as e:
            return "error", str(e)
        return None

    error = asyncio.run(go())
    if isinstance(cycle, LeanCycle):
        cycle._write_held()
    return error, _state(cycle)


def _by_send_json(method: str, keep_alive: bool, length: int, setup: Any) -> Any:
    cycle = _cycle(LeanCycle, method, keep_alive)
    setup(cycle)
    writes_before = len(cycle.transport.writes)

    async def go() -> Any:
        try:
            await cycle.send_json(200, _headers(length), BODY)
        except RuntimeError as e:
            return "error", str(e)
        return None

    error = asyncio.run(go())
    cycle._write_held()
    return error, _state(cycle), len(cycle.transport.writes) - writes_before


class _PausedFlow:
    """Writing paused until the first drain (what uvicorn's `send` awaits then)."""

    def __init__(self) -> None:
        self.write_paused = True

    async def drain(self) -> None:
        self.write_paused = False


def _paused(cycle: Any) -> None:
    cycle.flow = _PausedFlow()


def _gone(cycle: Any) -> None:
    cycle.disconnected = True


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("keep_alive", [True, False])
@pytest.mark.parametrize("length", [len(BODY), len(BODY) + 5, len(BODY) - 3])
@pytest.mark.parametrize("setup", [lambda c: None, _paused, _gone], ids=["plain", "paused", "disconnected"])
def test_send_json_is_the_two_messages(method: str, keep_alive: bool, length: int, setup: Any) -> None:
    uvicorn = _by_messages(RequestResponseCycle, method, keep_alive, length, setup)
    lean = _by_messages(LeanCycle, method, keep_alive, length, setup)
    error, state, writes = _by_send_json(method, keep_alive, length, setup)
    assert (error, state) == lean
    if error is None:  # uvicorn raises its own error texts on a bad length; the bytes agree otherwise
        assert (error, state) == uvicorn
    if setup is not _paused and method == "GET" and length == len(BODY) and setup is not _gone:
        assert writes == 1 and state[0].endswith(b"\r\n\r\n" + BODY) and state[7] == 1
