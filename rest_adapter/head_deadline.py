"""Deadlines and a size bound for what a connection sends before the app sees a request
(issue 16 items 6 and 7: slow heads, idle connections, a head's size, and what the server
answers before the app: a head that does not parse, a connection beyond the limit).

uvicorn 0.54 arms no timer before a request's head is complete: its keep-alive timer starts
after a response and is reset by every byte received. A client that connects and sends
nothing, or trickles a head a byte at a time, so holds its connection (one of
`restserver.max_connections`) for ever, and httptools, the default parser, buffers a head of
any size. Neither can be bounded in the app: an ASGI app is called once the head is parsed.

`GuardedHttp` is the `http` protocol uvicorn is given (`cli.server_options`; uvicorn takes a
protocol factory there as well as a name). It makes uvicorn's stock protocol, the one the
name `restserver.http_parser` stands for, and puts a `HeadGuard` in front of it that passes
every call through unchanged and keeps a connection in one of three states:

* idle (just connected, or its last request answered): closed, without a word, after
  `restserver.connection_idle_timeout` with no byte received, as uvicorn's keep-alive does
  after a response (which the guard now also covers before the first request);
* head (bytes arrived, the app has not been called): answered 408 and closed unless the app
  is called within `restserver.request_header_timeout` of its first byte, however the bytes
  trickle; answered 431 and closed once more than `restserver.max_header_size` bytes came
  before the blank line that ends a head;
* busy (the app runs a request or a WebSocket): no deadline here; the body has its own bounds
  (`middleware.BodyBoundsMiddleware`), a script its timeout.

The app tells a connection's guard when a request starts and ends (`HeadDeadlineMiddleware`,
the outermost layer, finds the guard by the request's client address, which is the
connection's peer address). A WebSocket upgrade hands the socket to uvicorn's WebSocket
protocol, past the guard: the guard's part ends there, and it is dropped when the WebSocket's
app returns.

The guard also keeps `restserver.max_connections`: a connection beyond it never reaches
uvicorn's protocol; its head is read (within the same bounds) and answered 503. uvicorn's
own `limit_concurrency` would answer that in plain text, as its protocol answers a head
that does not parse: the guard hands the protocol a transport (`_Replies`) that passes
every call through, except that such a stock 400, written before the app was called, goes
out as the same status with HugeGraph's body. Every refusal carries that body and closes
the connection.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.config import HTTP_PROTOCOLS
from uvicorn.importer import import_from_string

from rest_adapter.errors import HttpError, error_body

#: the guard of each open connection by its peer address: the app's requests name their
#: connection by it (`scope["client"]`). One process, one event loop: no lock needed.
GUARDS: dict[tuple[str, int], HeadGuard] = {}
#: every guard with a deadline to keep (those of GUARDS, and connections beyond the limit)
_WATCHED: set[HeadGuard] = set()
#: the pending sweep of `_WATCHED`, and the loop it runs on
_sweep: list[Any] = [None, None]

_IDLE, _HEAD, _BUSY = 0, 1, 2
_HEAD_END = b"\r\n\r\n"


def _refusal(status: int, reason: str, message: str) -> bytes:
    """A complete HTTP/1.1 answer with HugeGraph's error body (the error table's, as the
    app's own 408 for a slow body has it), that closes the connection."""
    body = orjson.dumps(error_body(HttpError(status, message)))
    return (b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n%s" % (status, reason.encode(), len(body), body))


_NOT_HTTP = ("The request could not be read as HTTP/1.1: its request line or a header is "
             "malformed")


class _Replies:
    """The transport uvicorn's protocol is given: the connection's own, through which every
    call passes, except that a stock 400 (uvicorn's plain-text answer to a head that does not
    parse, written while no request of the app runs) goes out as the guard's 400, and what
    uvicorn writes after it (its body) is dropped: it closes the connection next."""

    __slots__ = ("_transport", "_guard", "_replaced", "is_closing", "close", "get_extra_info",
                 "pause_reading", "resume_reading")

    def __init__(self, transport: asyncio.Transport, guard: HeadGuard) -> None:
        self._transport = transport
        self._guard = guard
        self._replaced = False
        # what the protocol calls per request, bound once: `__getattr__` costs a call each time
        self.is_closing = transport.is_closing
        self.close = transport.close
        self.get_extra_info = transport.get_extra_info
        self.pause_reading = transport.pause_reading
        self.resume_reading = transport.resume_reading

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._replaced:
            return
        if self._guard.state != _BUSY and bytes(data[:13]) == b"HTTP/1.1 400 ":
            self._replaced = True
            data = _refusal(400, "Bad Request", _NOT_HTTP)
        self._transport.write(data)

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class GuardedHttp:
    """uvicorn's `http` option: called as uvicorn calls a protocol class, it answers the stock
    protocol of `parser` ('httptools' or 'h11') behind a `HeadGuard` with these bounds.
    A plain object (not a closure), so that `restserver.workers` processes, which receive
    uvicorn's config pickled, get it too."""

    def __init__(self, parser: str, idle_timeout_s: float, header_timeout_s: float, max_header_bytes: int,
                 max_connections: int) -> None:
        self.parser = parser
        self.idle_timeout_s = idle_timeout_s
        self.header_timeout_s = header_timeout_s
        self.max_header_bytes = max_header_bytes
        self.max_connections = max_connections
        self._stock: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_stock": None}

    def __call__(self, *args: Any, **kwargs: Any) -> HeadGuard:
        if self._stock is None:
            self._stock = import_from_string(HTTP_PROTOCOLS[self.parser])
        return HeadGuard(self._stock(*args, **kwargs), self)


class HeadGuard(asyncio.Protocol):
    """One connection's state (module docstring) in front of uvicorn's protocol `inner`."""

    def __init__(self, inner: asyncio.Protocol, bounds: GuardedHttp) -> None:
        self.inner = inner
        self.bounds = bounds
        self.transport: asyncio.Transport | None = None
        self.key: tuple[str, int] | None = None
        self.state = _IDLE
        self.busy = 0
        self.deadline = 0.0  # the loop's clock; 0: none (a request is being served)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.head_bytes = 0
        self.head_done = False
        self.tail = b""
        self.over = False  # beyond restserver.max_connections: refused once its head is read

    # ---- asyncio.Protocol, passed through -------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of it
        self.loop = asyncio.get_running_loop()
        self.over = len(GUARDS) >= self.bounds.max_connections
        _WATCHED.add(self)
        _keep_sweeping(self.loop, self.bounds)
        peer = transport.get_extra_info("peername")
        if not self.over and isinstance(peer, tuple) and len(peer) >= 2:
            self.key = (str(peer[0]), int(peer[1]))
            GUARDS[self.key] = self
        self._idle()
        if not self.over:
            self.inner.connection_made(cast(asyncio.Transport, _Replies(self.transport, self)))

    def data_received(self, data: bytes) -> None:
        if self.state != _BUSY and not self._watch(data):
            return
        if self.over:
            if self.head_done:
                self._refuse(503, "Service Unavailable",
                             f"The server has {self.bounds.max_connections} connections open, its limit "
                             "(restserver.max_connections): try again later")
            return
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self.over else self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        self.transport = None  # a request still running ends without arming anything
        if not self.over:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if not self.over:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if not self.over:
            self.inner.resume_writing()

    # ---- the app's signals (HeadDeadlineMiddleware) --------------------------------------
    def request_started(self) -> None:
        self.busy += 1
        self.state = _BUSY
        self.deadline = 0.0

    def request_ended(self, upgraded: bool = False) -> None:
        """`upgraded`: a WebSocket's app returned; its connection is over, and the guard,
        out of its path since the upgrade, is dropped at once."""
        if upgraded:
            self._forget()
            return
        self.busy -= 1
        if self.busy <= 0:
            self.busy = 0
            self._idle()

    # ---- the states ---------------------------------------------------------------------
    def _watch(self, data: bytes) -> bool:
        """Counts a head's bytes as they come; False when the connection was refused."""
        if self.state == _IDLE:
            self.state = _HEAD
            self._arm(self.bounds.header_timeout_s)
        if self.head_done:
            return True
        seen = self.tail + data
        if _HEAD_END in seen:  # the head is whole: what follows is its body, or a next request
            self.head_done = True
            return True
        self.head_bytes += len(data)
        if self.head_bytes > self.bounds.max_header_bytes:
            self._refuse(431, "Request Header Fields Too Large",
                         f"The request line and headers are larger than the limit of "
                         f"{self.bounds.max_header_bytes} bytes (restserver.max_header_size)")
            return False
        self.tail = seen[-3:]
        return True

    def _idle(self) -> None:
        self.state = _IDLE
        self.head_bytes = 0
        self.head_done = False
        self.tail = b""
        if self.transport is not None:
            self._arm(self.bounds.idle_timeout_s)

    def expire(self) -> None:
        """The deadline passed: a head in progress is answered 408, an idle connection closed."""
        self.deadline = 0.0
        if self.state == _HEAD:
            self._refuse(408, "Request Timeout",
                         f"The request line and headers were not received within "
                         f"{self.bounds.header_timeout_s:g} s (restserver.request_header_timeout)")
            return
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()
        self._forget()

    def _refuse(self, status: int, reason: str, message: str) -> None:
        self.deadline = 0.0
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.write(_refusal(status, reason, message))
            transport.close()

    def _arm(self, seconds: float) -> None:
        """A deadline `seconds` from now, kept by the sweep (`_keep_sweeping`): setting one
        per request costs a float, where a timer would be made and cancelled twice."""
        if self.loop is not None:
            self.deadline = self.loop.time() + seconds

    def _forget(self) -> None:
        self.deadline = 0.0
        _WATCHED.discard(self)
        if self.key is not None and GUARDS.get(self.key) is self:
            del GUARDS[self.key]


def _keep_sweeping(loop: asyncio.AbstractEventLoop, bounds: GuardedHttp) -> None:
    """Makes sure a sweep of `_WATCHED` is pending on `loop`. The sweep runs every quarter of
    the shortest bound (at most a second), so a deadline is kept within that much; it stops
    when no connection is left, and the next connection starts it again."""
    if _sweep[0] is not None and _sweep[1] is loop:
        return
    interval = min(1.0, bounds.idle_timeout_s / 4, bounds.header_timeout_s / 4)

    def sweep() -> None:
        now = loop.time()
        for guard in [g for g in _WATCHED if g.deadline and g.deadline <= now]:
            guard.expire()
        if _WATCHED:
            _sweep[0] = loop.call_later(interval, sweep)
        else:
            _sweep[0] = _sweep[1] = None

    _sweep[0], _sweep[1] = loop.call_later(interval, sweep), loop


class HeadDeadlineMiddleware:
    """Tells a connection's `HeadGuard` when the app starts and ends one of its requests
    (HTTP or WebSocket). Outermost, so that it sees every request the server hands over; a
    request from a server without guards (a test client) passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        guard = GUARDS.get(client) if type(client) is tuple else None
        if guard is None:
            await self.app(scope, receive, send)
            return
        guard.request_started()
        try:
            await self.app(scope, receive, send)
        finally:
            guard.request_ended(upgraded=scope["type"] == "websocket")
