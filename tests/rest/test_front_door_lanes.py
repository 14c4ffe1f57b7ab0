"""The front door's lanes (`FrontDoor._lane`): a GET path once routed to an endpoint with a
`lane` and answered 200 is served by the lane from then on, with the same messages, gzip,
telemetry and error answers as the routed path; and the real traverser GETs answer the
same through their lane as through the router."""

from __future__ import annotations

import asyncio
import gzip
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.errors import NotFound
from gremlin_engine.graph import GraphConfig, GraphRegistry
from rest_adapter.app import create_app
from rest_adapter.compression import GZIP_MINIMUM_SIZE
from rest_adapter.context import JSONBytes
from rest_adapter.errors import exception_handlers
from rest_adapter.front_door import FrontDoor
from rest_adapter.routing import IndexedRouter
from rest_adapter.telemetry import Telemetry
from tests.rest.test_front_door import _call, _count

LANE_CALLS: list[str] = []


def _answer(graph: str, query: bytes) -> bytes:
    if query == b"missing":
        raise NotFound("Vertex '1:x' does not exist")
    if query == b"big":
        return orjson.dumps({"graph": graph, "data": ["x" * 50] * 100})
    return orjson.dumps({"graph": graph})


async def _endpoint(request: Request) -> Response:
    return JSONBytes(_answer(request.path_params["graph"], request.scope["query_string"]))


async def _lane(scope: Any, path_params: dict[str, str]) -> bytes:
    LANE_CALLS.append(scope["path"])
    return _answer(path_params["graph"], scope["query_string"])


_endpoint.lane = _lane  # type: ignore[attr-defined]


async def _plain(request: Request) -> Response:
    return JSONBytes(b"{}")


ROUTES = [Route("/g/{graph}/thing", _endpoint, methods=["GET", "POST"]), Route("/plain", _plain, methods=["GET"])]


@pytest.fixture
def door() -> FrontDoor:
    LANE_CALLS.clear()
    return FrontDoor(IndexedRouter(ROUTES), None, Telemetry(), exception_handlers(), minimum_size=1024)  # type: ignore[arg-type]


def _get(door: FrontDoor, path: str, query: bytes = b"", gzip_ok: bool = False, method: str = "GET") -> dict[str, Any]:
    headers = ((b"accept-encoding", b"gzip"),) if gzip_ok else ()

    # `_call` builds the scope without a query string: wrap the door to add one
    async def app(scope: Any, receive: Any, send: Any) -> None:
        scope["query_string"] = query
        await door(scope, receive, send)

    return _call(app, path, method, headers)


def test_the_second_get_takes_the_lane_with_the_same_answer(door: FrontDoor) -> None:
    first = _get(door, "/g/a/thing")
    assert LANE_CALLS == [] and list(door.lanes) == ["/g/a/thing"]
    second = _get(door, "/g/a/thing")
    assert LANE_CALLS == ["/g/a/thing"]
    for r in (first, second):
        assert r["status"] == 200 and r["body"] == b'{"graph":"a"}' and r["messages"] == 2
        assert r["headers"] == {"content-length": "13", "content-type": "application/json"}
    assert _count(door, "GET /g/{graph}/thing.status.200") == 2
    assert _count(door, "hugelite.requests.total") == 2


def test_lanes_are_per_path_and_get_only(door: FrontDoor) -> None:
    _get(door, "/g/a/thing")
    _get(door, "/g/b/thing")  # another graph: routed once, then its own lane
    assert _get(door, "/g/b/thing")["body"] == b'{"graph":"b"}'
    _get(door, "/g/a/thing", method="POST")
    _get(door, "/plain")
    _get(door, "/plain")
    assert LANE_CALLS == ["/g/b/thing"] and sorted(door.lanes) == ["/g/a/thing", "/g/b/thing"]


def test_an_error_answer_never_opens_a_lane(door: FrontDoor) -> None:
    assert _get(door, "/g/a/thing", b"missing")["status"] == 404
    assert door.lanes == {}


def test_errors_through_the_lane_are_answered_as_routed(door: FrontDoor) -> None:
    routed = _get(FrontDoor(IndexedRouter(ROUTES), None, Telemetry(), exception_handlers(), 1024),  # type: ignore[arg-type]
                  "/g/a/thing", b"missing")
    _get(door, "/g/a/thing")
    laned = _get(door, "/g/a/thing", b"missing")
    assert LANE_CALLS == ["/g/a/thing"]
    assert (laned["status"], laned["headers"], laned["body"]) == (routed["status"], routed["headers"], routed["body"])
    assert laned["raised"] is None
    assert _count(door, "GET /g/{graph}/thing.status.404") == 1


def test_gzip_through_the_lane(door: FrontDoor) -> None:
    _get(door, "/g/a/thing", b"big")
    plain = _get(door, "/g/a/thing", b"big")
    zipped = _get(door, "/g/a/thing", b"big", gzip_ok=True)
    assert LANE_CALLS == ["/g/a/thing"] * 2
    assert "content-encoding" not in plain["headers"] and zipped["headers"]["content-encoding"] == "gzip"
    assert gzip.decompress(zipped["body"]) == plain["body"] and len(plain["body"]) >= 1024


# ---- the real traverser GETs ---------------------------------------------------------------

_COST = re.compile(rb'"cost\(ns\)":\d+')


@pytest.fixture
def app(tmp_path: Path) -> Any:
    store = str(tmp_path / "t.db")
    GraphRegistry.init_store(GraphConfig(name="t", backend="sqlite", store=store, schema_mode="auto"))
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    g = reg.open(GraphConfig(name="t", backend="sqlite", store=store, schema_mode="auto"))
    from tests.algorithms.conftest import load_edges

    n = 4000  # vertex 1's ids fill more than `GZIP_MINIMUM_SIZE` bytes
    load_edges(g, n, [(i, (i * 7 + 3) % n) for i in range(n)] + [(i, (i * 11 + 5) % n) for i in range(n)]
               + [(1, j) for j in range(2, n)])
    application = create_app(registry=reg)
    try:
        yield application
    finally:
        reg.close_all()


QUERIES = [
    b"source=1&max_depth=1&direction=OUT&label=e&max_degree=-1&capacity=-1&limit=-1",
    b"source=3&max_depth=2&direction=OUT&label=e&count_only=true",
    b"source=3&max_depth=2&direction=BOTH",
    b"source=99999&max_depth=1",  # a missing source: 400
    b"source=3&max_depth=abc",  # a malformed parameter: 400
    b"source=3&max_depth=0",  # a value the step refuses: 400
    b"source=1&max_depth=1&direction=OUT&max_degree=-1&capacity=-1&limit=-1",  # big: gzipped
]


async def _request(app: Any, path: str, query: bytes) -> tuple[int, dict[str, str], bytes]:
    """One GET through the whole app (gzip accepted): status, headers, body decoded."""
    out: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        else:
            out["body"] += message.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query, "root_path": "",
             "headers": [(b"accept-encoding", b"gzip")], "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    await app(scope, receive, send)
    body = out["body"]
    if out["headers"].get("content-encoding") == "gzip":
        body = gzip.decompress(body)
        assert int(out["headers"].pop("content-length")) == len(out["body"])  # varies with `cost(ns)`
    return out["status"], out["headers"], _COST.sub(b"", body)


@pytest.mark.parametrize("endpoint", ["kout", "kneighbor"])
def test_traverser_gets_answer_alike_through_the_lane(app: Any, endpoint: str) -> None:
    path = f"/graphs/t/traversers/{endpoint}"

    async def both() -> tuple[list[Any], list[Any], Any]:
        async with app.router.lifespan_context(app):
            routed = [await _request(app, path, q) for q in QUERIES]
            laned = [await _request(app, path, q) for q in QUERIES]
            return routed, laned, app.middleware_stack

    routed, laned, door = asyncio.run(both())
    assert isinstance(door, FrontDoor) and path in door.lanes
    assert laned == routed
    assert [s for s, _h, _b in routed] == [200, 200, 200, 400, 400, 400, 200]
    assert routed[-1][1].get("content-encoding") == "gzip" and len(routed[-1][2]) >= GZIP_MINIMUM_SIZE
    assert _count(door, f"GET /graphs/{{graph}}/traversers/{endpoint}.status.400") == 6
