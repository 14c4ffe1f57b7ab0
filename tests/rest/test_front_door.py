"""`FrontDoor` (rest_adapter/front_door.py), the one ASGI frame in front of the router:
errors answered from the real error table, bugs as a 500 that is also re-raised, telemetry
under the route template with the status sent, gzip only where it can apply, and the
trailing-slash rule — the behaviour Starlette's middleware chain had."""

from __future__ import annotations

import asyncio
import gzip
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gremlin_engine.errors import NotFound
from rest_adapter.context import json_response
from rest_adapter.errors import exception_handlers
from rest_adapter.front_door import FrontDoor
from rest_adapter.routing import IndexedRouter
from rest_adapter.telemetry import Telemetry

BIG = {"data": ["x" * 50] * 100}


async def _small(request: Request) -> Response:
    return json_response({"id": request.path_params["id"]})


async def _big(request: Request) -> Response:
    return json_response(BIG)


async def _missing(request: Request) -> Response:
    raise NotFound("Vertex '1:x' does not exist")


async def _bug(request: Request) -> Response:
    raise ZeroDivisionError("division by zero")


async def _late_bug(request: Request) -> Response:
    async def chunks() -> Any:
        yield b"[1,"
        raise ZeroDivisionError("mid-stream")

    return StreamingResponse(chunks(), media_type="application/json")


async def _stream(request: Request) -> Response:
    async def chunks() -> Any:
        for _ in range(3):
            yield b"y" * 800

    return StreamingResponse(chunks(), media_type="text/plain")


ROUTES = [
    Route("/g/{graph}/items/{id:path}", _small, methods=["GET"]),
    Route("/big", _big, methods=["GET"]),
    Route("/missing", _missing, methods=["GET"]),
    Route("/bug", _bug, methods=["GET"]),
    Route("/late-bug", _late_bug, methods=["GET"]),
    Route("/stream", _stream, methods=["GET"]),
]


class _Fallback:
    def __init__(self) -> None:
        self.scopes: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope["type"])


@pytest.fixture
def door() -> FrontDoor:
    return FrontDoor(IndexedRouter(ROUTES), _Fallback(), Telemetry(), exception_handlers(), minimum_size=1024)


def _call(app: Any, path: str, method: str = "GET", headers: tuple[tuple[bytes, bytes], ...] = ()) -> dict[str, Any]:
    """Runs one HTTP request through `app`; returns status, headers, body and the exception
    it raised (if any)."""
    out: dict[str, Any] = {"body": b"", "messages": 0, "raised": None}
    received = []

    async def receive() -> dict[str, Any]:
        if received:  # as a server: nothing more until the client goes away
            await asyncio.Event().wait()
        received.append(1)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        out["messages"] += 1
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        else:
            out["body"] += message.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": list(headers), "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
             "app": app}  # as Starlette.__call__ sets it: the router then raises 404/405

    async def run() -> None:
        try:
            await app(scope, receive, send)
        except Exception as e:  # what the server would log
            out["raised"] = e

    asyncio.run(run())
    return out


def _count(door: FrontDoor, name: str) -> int:
    return door.telemetry.counters().get(name, {}).get("count", 0)


def test_a_routed_request_is_answered_and_counted(door: FrontDoor) -> None:
    r = _call(door, '/g/bench/items/"1:a/b"')
    assert r["status"] == 200 and r["body"] == b'{"id":"\\"1:a/b\\""}'
    assert r["raised"] is None
    assert _count(door, "GET /g/{graph}/items/{id:path}.status.200") == 1
    assert _count(door, "hugelite.requests.total") == 1


def test_trailing_slash_is_routed_as_without_it(door: FrontDoor) -> None:
    r = _call(door, "/big/")
    assert r["status"] == 200 and len(r["body"]) > 1024
    assert _count(door, "GET /big.success") == 1


def test_engine_error_uses_the_error_table(door: FrontDoor) -> None:
    r = _call(door, "/missing", headers=((b"accept-encoding", b"gzip"),))
    assert r["status"] == 404 and r["raised"] is None
    assert r["headers"]["content-type"] == "application/json"
    assert "content-encoding" not in r["headers"]
    assert r["body"] == (b'{"exception":"class org.apache.hugegraph.exception.NotFoundException",'
                         b'"message":"Vertex \'1:x\' does not exist","cause":""}')
    assert _count(door, "GET /missing.status.404") == 1
    assert _count(door, "GET /missing.failed") == 1


def test_unknown_route_and_wrong_method(door: FrontDoor) -> None:
    r = _call(door, "/nothing")
    assert r["status"] == 404
    assert r["body"] == b'{"exception":"class jakarta.ws.rs.NotFoundException","message":"HTTP 404 Not Found","cause":""}'
    assert _count(door, "GET (unmatched).status.404") == 1
    r = _call(door, "/big", method="POST")
    assert r["status"] == 405 and r["headers"]["allow"] in ("GET, HEAD", "HEAD, GET")
    assert _count(door, "POST /big.status.405") == 1


def test_a_bug_is_a_500_body_and_is_re_raised(door: FrontDoor) -> None:
    r = _call(door, "/bug")
    assert r["status"] == 500
    assert r["body"] == (
        b'{"exception":"class java.lang.RuntimeException",'
        b'"message":"Internal server error; the server log has the details","cause":""}'
    )
    assert isinstance(r["raised"], ZeroDivisionError)  # the server logs the traceback
    assert _count(door, "GET /bug.status.500") == 1


def test_a_bug_after_the_response_started_is_re_raised_only(door: FrontDoor) -> None:
    r = _call(door, "/late-bug")
    assert r["status"] == 200 and r["body"] == b"[1,"
    assert isinstance(r["raised"], ZeroDivisionError)
    assert _count(door, "GET /late-bug.status.200") == 1


def test_gzip_only_for_large_2xx_bodies_the_client_accepts(door: FrontDoor) -> None:
    accept = ((b"accept-encoding", b"gzip, deflate"),)
    r = _call(door, "/big", headers=accept)
    assert r["headers"]["content-encoding"] == "gzip"
    assert int(r["headers"]["content-length"]) == len(r["body"])
    assert gzip.decompress(r["body"]).startswith(b'{"data":["xxx')
    small = _call(door, "/g/x/items/1", headers=accept)
    assert "content-encoding" not in small["headers"] and small["body"] == b'{"id":"1"}'
    assert small["messages"] == 2
    plain = _call(door, "/big", headers=((b"accept-encoding", b"gzip;q=0"),))
    assert "content-encoding" not in plain["headers"] and len(plain["body"]) > 1024
    streamed = _call(door, "/stream", headers=accept)
    assert streamed["headers"]["content-encoding"] == "gzip"
    assert gzip.decompress(streamed["body"]) == b"y" * 2400


def test_other_scopes_go_to_the_fallback(door: FrontDoor) -> None:
    async def run() -> None:
        await door({"type": "lifespan"}, None, None)  # type: ignore[arg-type]
        await door({"type": "websocket", "path": "/gremlin"}, None, None)  # type: ignore[arg-type]

    asyncio.run(run())
    assert door.fallback.scopes == ["lifespan", "websocket"]  # type: ignore[attr-defined]
    assert _count(door, "hugelite.requests.total") == 0
