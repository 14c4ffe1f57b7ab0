"""`CoalescingHttpToolsProtocol` (rest_adapter/http_protocol.py) in a real uvicorn server:
a complete response leaves in one socket write, and every other response shape (HEAD,
streaming, 204, errors, pipelining, `Connection: close`) still goes out byte for byte."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from rest_adapter.cli import server_options
from rest_adapter.http_protocol import CoalescingHttpToolsProtocol
from tests.conftest import free_port
from tests.rest.asgi_lifespan import answer_lifespan

WRITES: list[bytes] = []


class _CountingTransport:
    """The real transport, recording each write (what the protocol under test produces)."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        WRITES.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _CountingProtocol(CoalescingHttpToolsProtocol):
    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = _CountingTransport(self.transport)  # type: ignore[assignment]


async def _app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await answer_lifespan(receive, send)
        return
    path = scope["path"]
    if path == "/small":
        body = b'{"id":"1:marko"}'
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    elif path == "/stream":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ab", "more_body": True})
        await send({"type": "http.response.body", "body": b"cd"})
    elif path == "/chunks":  # a content-length body sent in two parts
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"4")]})
        await send({"type": "http.response.body", "body": b"ab", "more_body": True})
        await send({"type": "http.response.body", "body": b"cd"})
    elif path == "/empty":
        await send({"type": "http.response.start", "status": 204, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})
    elif path == "/boom":
        raise RuntimeError("boom")
    elif path == "/late-boom":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"10")]})
        raise RuntimeError("late boom")


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    p = free_port()
    options = {**server_options("critical"), "http": _CountingProtocol}
    server = uvicorn.Server(uvicorn.Config(_app, host="127.0.0.1", port=p, **options))
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    yield p
    server.should_exit = True
    thread.join(10)


def _exchange(port: int, raw: bytes, expect_close: bool = False, responses: int = 1) -> bytes:
    """Sends `raw` and reads until the connection closes or `responses` responses came."""
    WRITES.clear()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(raw)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
            if not expect_close and _complete(data, responses):
                break
    return data


def _complete(data: bytes, responses: int) -> bool:
    done = 0
    rest = data
    while b"\r\n\r\n" in rest:
        head, rest = rest.split(b"\r\n\r\n", 1)
        length = 0
        chunked = b"transfer-encoding: chunked" in head.lower()
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if chunked:
            if b"0\r\n\r\n" not in rest:
                return False
            rest = rest.split(b"0\r\n\r\n", 1)[1]
        elif head.startswith(b"HTTP/1.1") and b"HEAD" not in head:
            if len(rest) < length:
                return False
            rest = rest[length:]
        done += 1
    return done >= responses


def test_small_response_is_one_write(port: int) -> None:
    data = _exchange(port, b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
    assert data.startswith(b"HTTP/1.1 200 OK\r\n")
    assert data.endswith(b'\r\n\r\n{"id":"1:marko"}')
    assert b"content-length: 16\r\n" in data and b"date: " in data
    assert b"server: uvicorn" not in data
    assert len(WRITES) == 1 and WRITES[0] == data


def test_keep_alive_requests_each_one_write(port: int) -> None:
    data = _exchange(port, b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n" * 3, responses=3)
    assert data.count(b'{"id":"1:marko"}') == 3
    assert len(WRITES) == 3


def test_head_request_still_sends_the_head(port: int) -> None:
    data = _exchange(port, b"HEAD /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", expect_close=True)
    assert data.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"content-length: 16\r\n" in data
    assert data.endswith(b"\r\n\r\n")  # no body


def test_streaming_response_is_unchanged(port: int) -> None:
    data = _exchange(port, b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b"transfer-encoding: chunked" in data
    assert data.endswith(b"2\r\nab\r\n2\r\ncd\r\n0\r\n\r\n")
    assert len(WRITES) == 3  # head, then each chunk as it comes


def test_content_length_body_in_parts(port: int) -> None:
    data = _exchange(port, b"GET /chunks HTTP/1.1\r\nHost: x\r\n\r\n")
    assert data.endswith(b"\r\n\r\nabcd")
    assert len(WRITES) == 2  # head with the first part, then the second part


def test_no_content_response(port: int) -> None:
    data = _exchange(port, b"GET /empty HTTP/1.1\r\nHost: x\r\n\r\n")
    assert data.startswith(b"HTTP/1.1 204 No Content\r\n")
    assert len(WRITES) == 1


def test_connection_close_closes_after_the_body(port: int) -> None:
    data = _exchange(port, b"GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", expect_close=True)
    assert b"connection: close\r\n" in data
    assert data.endswith(b'{"id":"1:marko"}')


def test_application_error_before_the_response(port: int) -> None:
    data = _exchange(port, b"GET /boom HTTP/1.1\r\nHost: x\r\n\r\n", expect_close=True)
    assert data.startswith(b"HTTP/1.1 500 Internal Server Error\r\n")
    assert data.endswith(b"Internal Server Error")


def test_application_error_after_the_head_still_sends_it(port: int) -> None:
    data = _exchange(port, b"GET /late-boom HTTP/1.1\r\nHost: x\r\n\r\n", expect_close=True)
    # as with uvicorn's own protocol: the head went out, then the connection closed
    assert data.startswith(b"HTTP/1.1 200 OK\r\n") and data.endswith(b"\r\n\r\n")
