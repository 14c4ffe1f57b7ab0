"""`CoalescingHttpToolsProtocol`'s lean path (rest_adapter/http_protocol.py) against stock
uvicorn, byte for byte: two real servers (uvloop, our serve settings, the same app), one
with uvicorn's own httptools protocol, fed the same raw requests; every answer must be the
same bytes (the `date` value aside) and the connection must close at the same point.
Also: requests that really suspend (thread pool, sleeps, a client that goes away), context
variables kept per request, and the keep-alive timeout without a timer per request."""

from __future__ import annotations

import asyncio
import contextvars
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from starlette.concurrency import run_in_threadpool

from rest_adapter.cli import server_options
from rest_adapter.http_protocol import _Continuation
from tests.conftest import free_port
from tests.rest.asgi_lifespan import answer_lifespan

SEEN: dict[str, Any] = {}
REQUEST_VAR: contextvars.ContextVar[str] = contextvars.ContextVar("request_var", default="unset")


async def _respond(send: Any, body: bytes, status: int = 200, extra: tuple[Any, ...] = ()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *extra]})
    await send({"type": "http.response.body", "body": body})


async def _app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await answer_lifespan(receive, send)
        return
    path, method = scope["path"], scope["method"]
    if path == "/small":
        await _respond(send, b'{"id":"1:marko"}')
    elif path.startswith("/echo"):  # the request as the app saw it
        message = await receive()
        body = b"|".join([method.encode(), scope["raw_path"], scope["query_string"], scope["http_version"].encode(),
                          message["body"], str(message["more_body"]).encode(), scope["asgi"]["spec_version"].encode()])
        await _respond(send, body)
    elif path == "/missing":
        await _respond(send, b'{"message":"not found"}', 404)
    elif path == "/method":
        await _respond(send, b'{"message":"Method Not Allowed"}', 405, ((b"allow", b"GET"),))
    elif path == "/boom":
        raise RuntimeError("boom")
    elif path == "/late-boom":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"10")]})
        raise RuntimeError("late boom")
    elif path == "/nothing":
        return
    elif path == "/stream":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ab", "more_body": True})
        await asyncio.sleep(0.001)
        await send({"type": "http.response.body", "body": b"cd"})
    elif path == "/empty":
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})
    elif path == "/yield":  # a bare yield (asyncio.sleep(0)) before answering
        await asyncio.sleep(0)
        await _respond(send, b"yielded")
    elif path == "/sleep":  # waits on a timer future
        await asyncio.sleep(0.01)
        await _respond(send, b"slept")
    elif path == "/thread":  # the thread pool, as the REST handlers' `run`
        value = await run_in_threadpool(lambda: b"from a thread")
        await _respond(send, value)
    elif path == "/task":  # the task the request runs in once it has suspended
        before = asyncio.current_task()
        await asyncio.sleep(0)
        after = asyncio.current_task()
        await _respond(send, f"{before is None or before is after}:{after is not None}".encode())
    elif path == "/inline":  # is the request running without a Task?
        await _respond(send, str(asyncio.current_task() is None).encode())
    elif path == "/context":  # a context variable set by one request is not seen by the next
        previous = REQUEST_VAR.get()
        REQUEST_VAR.set(scope["query_string"].decode())
        await _respond(send, previous.encode())
    elif path == "/fail-after-wait":
        await asyncio.sleep(0.001)
        raise ValueError("after a wait")
    elif path == "/wait-for-disconnect":  # answers only after the client went away
        SEEN["started"] = True
        first = await receive()
        second = await receive()
        SEEN["messages"] = [first["type"], second["type"]]
        await _respond(send, b"too late")
    else:
        await _respond(send, b"?", 404)


def _start(options: dict[str, Any]) -> tuple[uvicorn.Server, threading.Thread, int]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(_app, host="127.0.0.1", port=port, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    return server, thread, port


@pytest.fixture(scope="module")
def ports() -> Iterator[dict[str, int]]:
    ours = server_options("critical")
    assert ours["http"].__name__ == "CoalescingHttpToolsProtocol" and ours["loop"] == "uvloop"
    ours = {**ours, "timeout_keep_alive": 1}
    started = {"stock": _start({**ours, "http": "httptools"}), "lean": _start(ours)}
    yield {name: port for name, (_s, _t, port) in started.items()}
    for server, thread, _port in started.values():
        server.should_exit = True
        thread.join(10)


def _exchange(port: int, raw: bytes, pause: float = 0.0) -> bytes:
    """Sends `raw` (in pieces at each `|PAUSE|` marker, `pause` apart) and reads until the
    server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        for i, part in enumerate(raw.split(b"|PAUSE|")):
            if i:
                time.sleep(pause)
            s.sendall(part)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk


def _same(ports: dict[str, int], raw: bytes, pause: float = 0.0) -> bytes:
    got = {name: re.sub(rb"date: [^\r]*\r\n", b"date: -\r\n", _exchange(port, raw, pause))
           for name, port in ports.items()}
    assert got["lean"] == got["stock"]
    return got["lean"]


CLOSE = b"GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def _get(path: str, extra: bytes = b"", method: bytes = b"GET", version: bytes = b"1.1") -> bytes:
    return method + b" " + path.encode() + b" HTTP/" + version + b"\r\nHost: x\r\n" + extra + b"\r\n"


MATRIX = {
    "small": _get("/small") + CLOSE,
    "head": _get("/small", method=b"HEAD") + CLOSE,
    "delete": _get("/echo", method=b"DELETE") + CLOSE,
    "query and escapes": _get("/echo/%22a%20b%22?x=1&y=%22") + CLOSE,
    "echo without body": _get("/echo") + CLOSE,
    "404": _get("/missing") + CLOSE,
    "405": _get("/method") + CLOSE,
    "500": _get("/boom"),
    "500 after the head": _get("/late-boom"),
    "returned without a response": _get("/nothing"),
    "streaming": _get("/stream") + CLOSE,
    "204": _get("/empty") + CLOSE,
    "bare yield": _get("/yield") + CLOSE,
    "timer": _get("/sleep") + CLOSE,
    "thread pool": _get("/thread") + CLOSE,
    "task after suspending": _get("/task") + CLOSE,
    "error after suspending": _get("/fail-after-wait"),
    "context per request": _get("/context?first") + b"|PAUSE|" + _get("/context?second") + b"|PAUSE|" + CLOSE,
    "context pipelined": _get("/context?first") + _get("/context?second") + _get("/context?third") + CLOSE,
    "keep-alive series": _get("/small") * 5 + _get("/sleep") + _get("/small") + CLOSE,
    "pipelined behind a suspension": _get("/sleep") + _get("/small") + _get("/thread") + _get("/small") + CLOSE,
    "body": b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + CLOSE,
    "empty body": b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n" + CLOSE,
    "chunked body": b"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n" + CLOSE,
    "body arrives later": b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhe|PAUSE|llo" + CLOSE,
    "headers arrive in pieces": b"GET /sm|PAUSE|all HTTP/1.1\r\nHo|PAUSE|st: x\r\n|PAUSE|\r\n" + CLOSE,
    "pipelined with a body between": _get("/small") + b"PUT /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
    + _get("/small") + CLOSE,
    "expect 100-continue": b"POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
    b"|PAUSE|ok" + CLOSE,
    "connection close": _get("/small", b"Connection: close\r\n"),
    "http/1.0": _get("/small", version=b"1.0"),
    "http/1.0 keep-alive": _get("/small", b"Connection: keep-alive\r\n", version=b"1.0") + CLOSE,
    "head http/1.0": _get("/small", method=b"HEAD", version=b"1.0"),
    "garbage after a request": _get("/small") + b"NOT HTTP AT ALL\r\n\r\n",
    "garbage": b"\x00\x01 nonsense\r\n\r\n",
    # the parser stops at an upgrade it cannot serve: the answer, then the keep-alive timeout
    "unsupported upgrade": _get("/small", b"Connection: Upgrade\r\nUpgrade: h2c\r\n") + CLOSE,
}


@pytest.mark.parametrize("case", sorted(MATRIX))
def test_same_bytes_as_stock_uvicorn(ports: dict[str, int], case: str) -> None:
    answer = _same(ports, MATRIX[case], pause=0.05)
    assert answer.startswith(b"HTTP/1.1 ")


def test_matrix_answers_are_the_expected_ones(ports: dict[str, int]) -> None:
    """A few answers spelled out, so the comparison above cannot pass on two broken servers."""
    small = _same(ports, _get("/small") + CLOSE)
    assert small.count(b'\r\n\r\n{"id":"1:marko"}') == 2 and small.count(b"HTTP/1.1 200 OK\r\n") == 2
    assert _same(ports, _get("/task") + CLOSE).startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"\r\n\r\nTrue:True" in _same(ports, _get("/task") + CLOSE)
    # each request starts from a fresh context (a pipelined one is started from inside the
    # previous one's send, in its context, by uvicorn as by us: the matrix covers that)
    context = _same(ports, _get("/context?a") + b"|PAUSE|" + _get("/context?b") + b"|PAUSE|" + CLOSE, pause=0.1)
    assert context.count(b"\r\n\r\nunset") == 2
    assert b"\r\n\r\nfrom a thread" in _same(ports, _get("/thread") + CLOSE)
    assert _same(ports, _get("/boom")).startswith(b"HTTP/1.1 500 Internal Server Error\r\n")
    echo = _same(ports, _get("/echo/%22a%20b%22?x=1") + CLOSE)
    assert b'\r\n\r\nGET|/echo/%22a%20b%22|x=1|1.1||False|2.3' in echo
    pipelined = _same(ports, _get("/sleep") + _get("/small") + _get("/yield") + CLOSE)
    assert re.findall(rb"\r\n\r\n(slept|yielded|\{\"id\":\"1:marko\"\})", pipelined) == [
        b"slept", b'{"id":"1:marko"}', b"yielded", b'{"id":"1:marko"}']


def test_client_gone_while_a_request_waits(ports: dict[str, int]) -> None:
    for name in ("stock", "lean"):
        SEEN.clear()
        with socket.create_connection(("127.0.0.1", ports[name]), timeout=5) as s:
            s.sendall(_get("/wait-for-disconnect"))
            deadline = time.monotonic() + 5
            while not SEEN.get("started"):
                assert time.monotonic() < deadline
                time.sleep(0.01)
        deadline = time.monotonic() + 5
        while "messages" not in SEEN:
            assert time.monotonic() < deadline, name
            time.sleep(0.01)
        assert SEEN["messages"] == ["http.request", "http.disconnect"], name
        # the server goes on answering
        assert _exchange(ports[name], CLOSE).endswith(b'{"id":"1:marko"}')


def _closed_after(port: int, requests: int, gap: float) -> float:
    """Sends `requests` GETs `gap` apart on one connection, then waits: seconds from the
    last answer to the server closing the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        for i in range(requests):
            if i:
                time.sleep(gap)
            s.sendall(_get("/small"))
            data = b""
            while not data.endswith(b'{"id":"1:marko"}'):
                chunk = s.recv(65536)
                assert chunk, "closed while requests were still coming"
                data += chunk
        answered = time.monotonic()
        assert s.recv(65536) == b""
        return time.monotonic() - answered


def test_keep_alive_timeout_closes_an_idle_connection(ports: dict[str, int]) -> None:
    # both servers run with timeout_keep_alive=1
    assert 0.9 <= _closed_after(ports["lean"], 1, 0) < 2.0


def test_keep_alive_timeout_counts_from_the_last_response(ports: dict[str, int]) -> None:
    # requests 0.4 s apart for 2 s: each one restarts the idle clock, so the connection lives
    # on past the first timer's expiry and closes about a second after the last answer
    assert 0.5 <= _closed_after(ports["lean"], 6, 0.4) < 2.0


def test_a_connection_waiting_for_a_request_body_is_not_timed_out(ports: dict[str, int]) -> None:
    """As with uvicorn: the idle clock stops when data arrives, even half a request."""
    with socket.create_connection(("127.0.0.1", ports["lean"]), timeout=5) as s:
        s.sendall(_get("/small"))
        time.sleep(0.3)
        s.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n")
        time.sleep(1.6)  # past the 1 s keep-alive timeout
        s.sendall(b"ok")
        data = b""
        while b"|ok|False|" not in data:
            chunk = s.recv(65536)
            assert chunk, "closed while waiting for the body"
            data += chunk


def test_a_request_that_never_suspends_runs_without_a_task(ports: dict[str, int]) -> None:
    """The point of the lean path (the one deliberate difference from uvicorn)."""
    assert _exchange(ports["lean"], _get("/inline") + CLOSE).count(b"\r\n\r\nTrue") == 1
    assert _exchange(ports["stock"], _get("/inline") + CLOSE).count(b"\r\n\r\nFalse") == 1
    # not on the paths left to uvicorn: a body, or a connection that closes after it
    assert b"\r\n\r\nFalse" in _exchange(ports["lean"], _get("/inline", b"Connection: close\r\n"))


def _suspended(log: list[Any]) -> tuple[Any, Any, asyncio.Future[Any]]:
    """A coroutine stepped by hand up to its first suspension, as `_run_now` does."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    async def body() -> str:
        try:
            log.append(("got", await future))
            log.append(("task", asyncio.current_task() is not None))
            await asyncio.sleep(0)
            return "done"
        except BaseException as e:
            log.append(("raised", type(e).__name__))
            raise

    coro = body()
    first = coro.send(None)
    assert first is future
    return coro, first, future


def test_continuation_delivers_results_exceptions_and_cancellation() -> None:
    async def scenario() -> list[Any]:
        loop = asyncio.get_running_loop()
        outcomes: list[Any] = []
        log: list[Any] = []
        coro, first, future = _suspended(log)
        task = loop.create_task(_Continuation(coro, first))
        await asyncio.sleep(0)
        future.set_result(5)
        outcomes.append(await task)
        coro, first, future = _suspended(log)
        task = loop.create_task(_Continuation(coro, first))
        loop.call_later(0.001, future.set_exception, ValueError("x"))
        with pytest.raises(ValueError):
            await task
        for delay in (None, 0.0):  # cancelled before the task's first step, and while waiting
            coro, first, future = _suspended(log)
            task = loop.create_task(_Continuation(coro, first))
            if delay is not None:
                await asyncio.sleep(delay)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert future.cancelled() == (delay is not None)
        return outcomes + log

    assert asyncio.run(scenario()) == ["done", ("got", 5), ("task", True), ("raised", "ValueError"),
                                       ("raised", "CancelledError"), ("raised", "CancelledError")]
