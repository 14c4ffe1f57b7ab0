"""The app's own ASGI middleware (`app.py` puts them in Starlette's stack, outermost first).

* `TrailingSlashMiddleware`: a path ending in `/` is routed as without it, with no redirect
  (hugegraph-python sends both forms; Starlette's router would answer a redirect).
* `TelemetryMiddleware`: each HTTP request timed and recorded in `Telemetry` under its route
  template (`GET /graphs/{graph}/schema`), with the status it was answered with (500 when it
  raised).
* `BodyBoundsMiddleware`: a request body is bounded in size and in time before the app reads
  it whole. Starlette's `RequestBodyLimitMiddleware` counts bytes too, but answers plain text
  (HugeGraph clients read a JSON error body) and has no time bound, so this one does both.

All three are plain ASGI callables: no `BaseHTTPMiddleware`, whose task per request and
wrapped streams cost more than the work they would do here.
"""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rest_adapter.errors import HttpError, error_body, json_error
from rest_adapter.telemetry import Telemetry

UNMATCHED = "(unmatched)"


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
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = strip_trailing_slash(scope)
        await self.app(scope, receive, send)


def route_template(scope: Scope) -> str:
    """The template of the route that answered (a graph route knows its full template; a
    request that matched no route, or only a `Mount`, is `(unmatched)`)."""
    route = scope.get("route")
    template = getattr(route, "template", None)
    if template is not None:
        return str(template)
    return route.path if isinstance(route, Route) else UNMATCHED


#: one line per HTTP request at info level (timestamp from the log format, client, request line,
#: status, duration): uvicorn's own access log has no duration, so it stays off
ACCESS_LOG = logging.getLogger("hugelite.access")


class TelemetryMiddleware:
    def __init__(self, app: ASGIApp, telemetry: Telemetry) -> None:
        self.app = app
        self.telemetry = telemetry

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        start = time.perf_counter()
        try:
            await self.app(scope, receive, send_status)
        except Exception:
            status = 500
            raise
        finally:
            elapsed_ms = (time.perf_counter() - start) * 1000.0
            self.telemetry.record(scope["method"], route_template(scope), status, elapsed_ms)
            if ACCESS_LOG.isEnabledFor(logging.INFO):
                client = scope.get("client") or ("-", 0)
                ACCESS_LOG.info('%s "%s %s" %d %.1f ms', client[0], scope["method"], scope["path"], status,
                                elapsed_ms)


def body_too_large(limit: int) -> HttpError:
    return HttpError(413, f"The request body is larger than the limit of {limit} bytes "
                          "(restserver.max_request_body_size)", headers={"connection": "close"})


def body_too_slow(timeout_s: float) -> HttpError:
    return HttpError(408, f"The request body was not received within {timeout_s:g} s "
                          "(restserver.request_body_timeout)", headers={"connection": "close"})


class BodyBoundsMiddleware:
    """Bounds a request body: at most `max_size` bytes, all received within `timeout_s`.

    A declared `Content-Length` over the limit is answered 413 at once, before the app runs
    and before any body byte is read. A body without one (chunked) is counted as it streams
    in: the read that passes the limit raises the 413 inside the handler that reads, which
    the error table answers. Each body read waits at most for what is left of `timeout_s`
    (counted from the request's start), so a client that trickles its body is answered 408.
    Both answers close the connection (`connection: close`): the rest of the body is never
    read. Reads after the body is complete (the disconnect watch of `context.run`) are not
    bounded: they wait for the client to leave."""

    def __init__(self, app: ASGIApp, max_size: int, timeout_s: float) -> None:
        self.app = app
        self.max_size = max_size
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = None
            elif name == b"transfer-encoding":
                chunked = True
        if declared is not None and declared > self.max_size:
            exc = body_too_large(self.max_size)
            await json_error(413, error_body(exc), exc.headers)(scope, receive, send)
            return
        if not chunked and not declared:
            await self.app(scope, receive, send)
            return
        await self.app(scope, _BoundedReceive(receive, self.max_size, self.timeout_s), send)


class _BoundedReceive:
    """One request's `receive`, counting body bytes against a size limit and a deadline."""

    __slots__ = ("receive", "max_size", "timeout_s", "deadline", "size", "done")

    def __init__(self, receive: Receive, max_size: int, timeout_s: float) -> None:
        self.receive = receive
        self.max_size = max_size
        self.timeout_s = timeout_s
        self.deadline = time.monotonic() + timeout_s
        self.size = 0
        self.done = False

    async def __call__(self) -> Message:
        if self.done:
            return await self.receive()
        try:
            async with asyncio.timeout(max(self.deadline - time.monotonic(), 0.0)):
                message = await self.receive()
        except TimeoutError:
            raise body_too_slow(self.timeout_s) from None
        if message["type"] == "http.request":
            self.size += len(message.get("body", b""))
            if self.size > self.max_size:
                raise body_too_large(self.max_size)
            if not message.get("more_body", False):
                self.done = True
        else:
            self.done = True
        return message
