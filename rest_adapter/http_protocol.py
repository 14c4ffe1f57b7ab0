"""uvicorn's httptools protocol, writing each complete small response with one socket write.

uvicorn writes a response's status line and headers as soon as the application sends
`http.response.start`, and the body with a second `transport.write` when it arrives. On
loopback each write is a system call that runs the whole TCP send path and wakes the
client, and a GET by id answers ~200 bytes: two writes cost the server (and the client,
woken twice) about as much CPU as building the response.

`CoalescingHttpToolsProtocol` runs each request's cycle as a `LeanCycle`, whose `send`
handles the everyday response itself: a `http.response.start` that declares its
`content-length` (and no `transfer-encoding`/`connection` header) has its head built and
held, and the body that follows (or its first part) goes out with it in one write. The head
is byte for byte the one uvicorn builds (same status line, default headers first, names
lowercased, same checks of names and values, `connection: close` when the connection will
close), and the cycle's state ends as uvicorn's would. Everything else (streaming, HEAD,
a body longer than declared, paused writing, odd headers) is handed to uvicorn's own `send`
after the held head is written: slower, never different. An app that stops after the start
(raises, or returns without a body) still gets its head written before uvicorn closes.

(An earlier version held the head by standing in for the cycle's transport during two
wrapped `send` calls; its per-request closures and wrappers cost more than the second write
saved: measured with a bare ASGI app, 92-115 µs of server CPU per request against stock
uvicorn's 75-82 µs; `LeanCycle` is below both.)

`_start_asgi_task` is uvicorn's (private) single entry point for starting a request's
cycle, pipelined or not; the cycle's class is switched there (`LeanCycle` adds no state
uvicorn does not know but one held head). Should a later uvicorn rename it, the override is
simply never called and responses go out as stock uvicorn sends them.
"""

from __future__ import annotations

import logging
from itertools import chain
from typing import Any

from uvicorn.protocols.http.httptools_impl import (
    HEADER_RE,
    HEADER_VALUE_RE,
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string

#: header names seen valid -> lowercased (`transfer-encoding` and `connection` never here)
_NAMES: dict[bytes, bytes] = {}
#: header values seen valid (content types, dates: few; lengths are digits, checked as such)
_VALUES: set[bytes] = set()
_CACHE_LIMIT = 512
_STATEFUL = (b"transfer-encoding", b"connection")  # headers that change uvicorn's framing


def _lean_head(cycle: RequestResponseCycle, status: Any, headers: Any) -> bytes | None:
    """The head uvicorn would write for a start message, with the cycle's framing state
    set as uvicorn sets it; None (state untouched) when uvicorn must handle it."""
    line = STATUS_LINE.get(status) if type(status) is int else None
    if line is None:
        return None
    parts = [line]
    length = -1
    for name, value in chain(cycle.default_headers, headers):
        lower = _NAMES.get(name)
        if lower is None:
            if type(name) is not bytes or HEADER_RE.search(name):
                return None
            lower = name.lower()
            if lower in _STATEFUL:
                return None
            if len(_NAMES) < _CACHE_LIMIT:
                _NAMES[name] = lower
        if lower == b"content-length":
            if type(value) is not bytes or not value.isdigit() or not value.isascii():
                return None
            if length < 0:
                length = int(value)
        elif value not in _VALUES:
            if type(value) is not bytes or HEADER_VALUE_RE.search(value):
                return None
            if len(_VALUES) < _CACHE_LIMIT:
                _VALUES.add(value)
        parts += (lower, b": ", value, b"\r\n")
    if length < 0:
        return None  # no content-length: uvicorn picks chunked framing
    if not cycle.keep_alive:
        parts.append(b"connection: close\r\n")
    parts.append(b"\r\n")
    cycle.expected_content_length = length
    cycle.chunked_encoding = False
    return b"".join(parts)


class LeanCycle(RequestResponseCycle):
    """uvicorn's request/response cycle, sending a complete small response in one write
    (see the module doc)."""

    _held: bytes | None = None  # the head built at start, not written yet

    async def run_asgi(self, app: Any) -> None:
        async def app_then_head(scope: Any, receive: Any, send: Any) -> None:
            try:
                await app(scope, receive, send)
            finally:
                # the app stopped after the start (raised, or returned without the body):
                # the head goes out as uvicorn would have sent it, before uvicorn closes
                self._write_held()

        await super().run_asgi(app_then_head)

    def _write_held(self) -> None:
        head = self._held
        if head is not None:
            self._held = None
            if not self.disconnected:
                self.transport.write(head)

    async def send(self, message: Any) -> None:
        head = self._held
        if head is None:
            if (message["type"] == "http.response.start" and not self.response_started and not self.disconnected
                    and not self.flow.write_paused):
                status = message["status"]
                head = _lean_head(self, status, message.get("headers", ()))
                if head is not None:
                    if self.access_log and self.access_logger.isEnabledFor(logging.INFO):
                        self.access_logger.info('%s - "%s %s HTTP/%s" %d', get_client_addr(self.scope),
                                                self.scope["method"], get_path_with_query_string(self.scope),
                                                self.scope["http_version"], status)
                    self.response_started = True
                    self.waiting_for_100_continue = False
                    self._held = head
                    return
            await super().send(message)
            return
        self._held = None
        if (message["type"] == "http.response.body" and not self.disconnected and not self.flow.write_paused
                and self.scope["method"] != "HEAD"):
            body = message.get("body", b"")
            more_body = message.get("more_body", False)
            if len(body) <= self.expected_content_length:
                self.expected_content_length -= len(body)
                self.transport.write(head + body)
                if not more_body:
                    if self.expected_content_length != 0:
                        raise RuntimeError("Response content shorter than Content-Length")
                    self.response_complete = True
                    self.message_event.set()
                    if not self.keep_alive:
                        self.transport.close()
                    self.on_response()
                return
        if not self.disconnected:
            self.transport.write(head)  # where uvicorn would have written it, just later
        await super().send(message)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with one write per complete small response."""

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        if type(cycle) is RequestResponseCycle:
            cycle.__class__ = LeanCycle
        super()._start_asgi_task(cycle, app)
