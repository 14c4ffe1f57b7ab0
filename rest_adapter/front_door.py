"""Everything between uvicorn and the router for an HTTP request, in one ASGI callable.

Starlette builds a request's path through the app as a chain of middlewares: its
ServerErrorMiddleware, then ours (trailing slash, telemetry, gzip), then its
ExceptionMiddleware, each a coroutine wrapping the next and most wrapping `send` again.
For a GET by id that answers ~200 bytes, walking that chain cost about as much CPU as the
engine's point read. `FrontDoor` does the same work for HTTP in one frame and one `send`
wrapper:

* a path ending in `/` is routed as without it (no redirect; hugegraph-python sends both);
* the request is timed and recorded in `Telemetry` under its route template, with the
  status it was answered with (500 when it raised);
* a 2xx body of at least `minimum_size` bytes is gzipped when the client accepts gzip
  (a response that declares a smaller `content-length` is passed on untouched, unbuffered);
* exceptions are answered from the app's exception handlers (`rest_adapter/errors.py`):
  the handled classes as the error table says, anything else as a logged 500 that is then
  re-raised for the server to log, exactly as Starlette's two middlewares did.

WebSocket and lifespan scopes go through Starlette's own middleware stack unchanged.

Lanes: a GET endpoint may carry a `lane` (`endpoint.lane(scope, path_params)`, awaitable,
giving the bytes of a 200 JSON answer; the traverser GETs have one). Once a path has been
routed to such an endpoint and answered 200, later GETs of that very path skip the router,
the `Request`, the `Response` object and the send wrapper: the lane's body goes out as the
same two messages `JSONBytes` sends (content-length, content-type), gzipped exactly as
above when it is large enough, timed and recorded under the same route template; an
exception is answered by the same handlers, with the scope's route and path parameters
set as the router sets them. A path's route never changes while the app runs (the routes
are fixed), so the lane found for it stays right. (k-out depth 1 over HTTP: see
`bench/README.md`.)
"""

from __future__ import annotations

import inspect
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rest_adapter.compression import GzipSender, client_accepts_gzip
from rest_adapter.telemetry import Telemetry

UNMATCHED = "(unmatched)"
#: paths remembered with their lane (graph-scoped paths: a few per graph)
MAX_LANES = 1024
_JSON_TYPE = b"application/json"


def strip_trailing_slash(scope: Scope) -> Scope:
    """`scope` routed as without its trailing slash (a copy; the server's scope is kept)."""
    path = scope["path"]
    if len(path) > 1 and path[-1] == "/":
        scope = dict(scope)
        scope["path"] = path.rstrip("/") or "/"
        raw = scope.get("raw_path")
        if raw:
            scope["raw_path"] = raw.rstrip(b"/") or b"/"
    return scope


class TrailingSlashMiddleware:
    """The trailing-slash rule for the scopes `FrontDoor` hands on (WebSocket)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = strip_trailing_slash(scope)
        await self.app(scope, receive, send)


class _Exchange:
    """One request's view of its response: the status sent, and gzip once it is chosen.

    Whether the client accepts gzip is read from the request's headers only for a response
    that may be gzipped (2xx, not declared smaller than `minimum_size`): most answers are
    small, and scanning the headers was a tenth of a bare request's front-door cost."""

    __slots__ = ("server_send", "status", "started", "gzip", "minimum_size", "level", "request_headers")

    def __init__(self, send: Send, request_headers: Any, minimum_size: int, level: int) -> None:
        self.server_send = send
        self.status = 500
        self.started = False
        self.gzip: GzipSender | None = None  # once chosen
        self.request_headers = request_headers
        self.minimum_size = minimum_size
        self.level = level

    async def send(self, message: Message) -> None:
        gzip = self.gzip
        if gzip is not None:
            await gzip(message)
            return
        if message["type"] == "http.response.start":
            self.started = True
            self.status = status = message["status"]
            if (200 <= status < 300 and status != 204 and self._may_be_large(message)
                    and client_accepts_gzip(self.request_headers)):
                self.gzip = sender = GzipSender(self.server_send, self.minimum_size, self.level)
                await sender(message)
                return
        await self.server_send(message)

    def _may_be_large(self, message: Message) -> bool:
        for name, value in message.get("headers", ()):
            lower = name.lower()
            if lower == b"content-length":
                return int(value) >= self.minimum_size
            if lower == b"content-encoding":
                return False
        return True  # streaming: GzipSender decides


class FrontDoor:
    """The HTTP pipeline (see the module doc); `fallback` serves every other scope type."""

    def __init__(self, router: ASGIApp, fallback: ASGIApp, telemetry: Telemetry,
                 exception_handlers: dict[Any, Any], minimum_size: int, level: int = 6) -> None:
        self.router = router
        # a Router's own dispatch (its `app`) when no router middleware sits in between
        self.route: ASGIApp = getattr(router, "middleware_stack", None) or router
        self.fallback = fallback
        self.telemetry = telemetry
        self.minimum_size = minimum_size
        self.level = level
        self.bug_handler = None
        self.handlers: dict[Any, Any] = {}
        self.status_handlers: dict[int, Any] = {}
        for key, handler in exception_handlers.items():
            if key in (500, Exception):
                self.bug_handler = handler
            elif isinstance(key, int):
                self.status_handlers[key] = handler
            else:
                self.handlers[key] = handler
        # what Starlette's ExceptionMiddleware leaves in the scope for route-level wrappers
        self.scope_handlers = (self.handlers, self.status_handlers)
        #: GET path -> (route, lane, path parameters) of an endpoint with a lane (module doc)
        self.lanes: dict[str, tuple[Any, Any, dict[str, str]]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.fallback(scope, receive, send)
            return
        path = scope["path"]
        if len(path) > 1 and path[-1] == "/":
            scope = strip_trailing_slash(scope)
        scope["starlette.exception_handlers"] = self.scope_handlers
        if scope["method"] == "GET":
            lane = self.lanes.get(path)
            if lane is not None:
                await self._lane(lane, scope, receive, send)
                return
        exchange = _Exchange(send, scope["headers"], self.minimum_size, self.level)
        start = time.perf_counter()
        try:
            await self.route(scope, receive, exchange.send)
        except Exception as exc:
            await self._answer_error(scope, receive, send, exchange, exc)
        finally:
            route = scope.get("route")
            elapsed_ms = (time.perf_counter() - start) * 1000.0
            self.telemetry.record(scope["method"], route.path if route is not None else UNMATCHED,
                                  exchange.status, elapsed_ms)
        if exchange.status == 200 and route is not None and scope["method"] == "GET":
            lane = getattr(scope.get("endpoint"), "lane", None)
            if lane is not None and not scope.get("root_path") and len(self.lanes) < MAX_LANES:
                self.lanes[path] = (route, lane, dict(scope["path_params"]))

    async def _lane(self, lane: tuple[Any, Any, dict[str, str]], scope: Scope, receive: Receive, send: Send) -> None:
        """A GET answered by its endpoint's lane (see the module doc)."""
        route, answer, params = lane
        exchange = None
        status = 500
        start = time.perf_counter()
        try:
            body = await answer(scope, params)
            headers = [(b"content-length", str(len(body)).encode()), (b"content-type", _JSON_TYPE)]
            if len(body) >= self.minimum_size:  # may be gzipped: the general send decides
                exchange = _Exchange(send, scope["headers"], self.minimum_size, self.level)
                await exchange.send({"type": "http.response.start", "status": 200, "headers": headers})
                await exchange.send({"type": "http.response.body", "body": body})
            else:
                # our protocol's cycle takes both messages in one call (`LeanCycle.send_json`)
                send_json = getattr(getattr(send, "__self__", None), "send_json", None)
                if send_json is not None:
                    await send_json(200, headers, body)
                else:
                    await send({"type": "http.response.start", "status": 200, "headers": headers})
                    await send({"type": "http.response.body", "body": body})
            status = 200
        except Exception as exc:
            scope["route"] = route
            scope["endpoint"] = getattr(route, "endpoint", None)
            scope["path_params"] = dict(params)
            if exchange is None:
                exchange = _Exchange(send, scope["headers"], self.minimum_size, self.level)
            try:
                await self._answer_error(scope, receive, send, exchange, exc)
            finally:
                status = exchange.status
        finally:
            self.telemetry.record("GET", route.path, status, (time.perf_counter() - start) * 1000.0)

    async def _answer_error(self, scope: Scope, receive: Receive, send: Send, exchange: _Exchange,
                            exc: Exception) -> None:
        handler = None
        if isinstance(exc, HTTPException):
            handler = self.status_handlers.get(exc.status_code)
        if handler is None:
            for cls in type(exc).__mro__:
                handler = self.handlers.get(cls)
                if handler is not None:
                    break
        if exchange.started:
            if handler is not None:
                raise RuntimeError("Caught handled exception, but response already started.") from exc
            raise exc
        request = Request(scope, receive)
        if handler is not None:
            response = handler(request, exc)
            if inspect.isawaitable(response):
                response = await response
            if response is not None:
                await response(scope, receive, exchange.send)
            exc.__traceback__ = None  # reused exception instances would grow their tracebacks
            return
        # a bug: answered with the 500 body, not counted as a response of the route's status
        if self.bug_handler is not None:
            response = self.bug_handler(request, exc)
            if inspect.isawaitable(response):
                response = await response
            await response(scope, receive, send)
        raise exc
