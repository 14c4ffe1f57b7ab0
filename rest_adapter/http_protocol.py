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

The lean path (`CoalescingHttpToolsProtocol`): the parser callbacks are uvicorn's, made
cheaper where a request is everyday, and a complete keep-alive request without a body,
upgrade or `Expect` (a GET by id) is not made a Task at once. Its headers are held until
the parser has seen the whole buffer (so pipelined requests queue, and a parse error is
answered, exactly as uvicorn orders them); then, if the message completed with no body,
`_run_now` steps the cycle's coroutine right there, in a copy of the current context as a
Task would. A request answered without a real suspension (the GET by id answered on the
loop) ends there: no Task, no scheduled step, no done callback. One that suspends (thread
pool, timer, body, `sleep(0)`) is handed, from that very suspension, to a Task driving a
`_Continuation`, which gives the Task what the coroutine yielded, so the wake-up, results,
exceptions and cancellation reach the coroutine as if the Task had run it from the start.
Anything else (a body, chunked, `Expect`, upgrades and the WebSocket, `Connection: close`,
HTTP/1.0, pipelined requests) starts as uvicorn starts it, as a Task.

The one thing a Task gives that the first step lacks is `asyncio.current_task()`: until its
first suspension, a lean request has none. Code that needs one before suspending (anyio
cancel scopes and task groups, `asyncio.timeout`, sniffio's library detection) would
fail there; hugelite's HTTP handlers use none (their engine calls go to `context.run`'s
executor, which asks for no task; sniffio, if installed, is told "asyncio" in the request's
context, for Starlette code that still calls anyio after a suspension). An app that
does must set `inline_first_step = False` on a subclass: every request is then a Task.

Keep-alive: uvicorn cancels a timer at each data arrival and arms a new one at each
response (a libuv timer allocated and freed per request). Here a response notes the time,
data arrival clears it, and one timer per idle period closes the connection when it fires
at least `timeout_keep_alive` after the last response with no data since (re-armed for the
rest when it fires early): the same closing time, without a timer per request.

Measured (`python -m bench.asgi_floor`, a bare ASGI app, server CPU per keep-alive GET,
stock uvicorn against this protocol in the same run): 114 -> 83 µs on 1 connection, 72 ->
57 µs on 8; fed in process without sockets, the protocol's Python 47 -> 36 µs. The REST
GET by id (`bench.rest_load --only get --get-clients raw`): 273 -> 230 µs on 1 connection,
257 -> 223 µs on 8 (medians of three alternating runs against the previous protocol).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import urllib.parse
from collections.abc import Coroutine
from itertools import chain
from typing import Any

import httptools
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import (
    HEADER_RE,
    HEADER_VALUE_RE,
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string

try:  # anyio asks sniffio which library runs, and sniffio answers from the current task
    from sniffio import current_async_library_cvar as _SNIFFIO
except ImportError:  # pragma: no cover - depends on the environment
    _SNIFFIO = None

#: header names seen valid -> lowercased (`transfer-encoding` and `connection` never here)
_NAMES: dict[bytes, bytes] = {}
#: header values seen valid (content types, dates: few; lengths are digits, checked as such)
_VALUES: set[bytes] = set()
_CACHE_LIMIT = 512
_STATEFUL = (b"transfer-encoding", b"connection")  # headers that change uvicorn's framing


def _nothing() -> None:
    """A finished cycle's `on_response` (uvicorn sets a fresh lambda per request)."""


#: heads built for the server's current default headers (a new list each second: the
#: date): (status, keep-alive, the response's headers as a tuple) -> (head, content length).
#: A JSON answer's headers are the same two but for its length, so most heads are found here.
_HEADS: dict[Any, tuple[bytes, int]] = {}
_HEADS_FOR: list[Any] = [None]  # the default headers `_HEADS` was built with
_HEADS_MAX = 256


def _lean_head(cycle: RequestResponseCycle, status: Any, headers: Any) -> bytes | None:
    """The head uvicorn would write for a start message, with the cycle's framing state
    set as uvicorn sets it; None (state untouched) when uvicorn must handle it. Remembered
    in `_HEADS` while the default headers stay the same object: a head is a function of
    those, the status, the keep-alive flag and the headers (their names and values as
    given: a value equal to the bytes of a remembered head is one whose head was built)."""
    if type(status) is int and type(headers) is list:
        try:
            key = (status, cycle.keep_alive, tuple(headers))
            if _HEADS_FOR[0] is cycle.default_headers:
                found = _HEADS.get(key)
                if found is not None:
                    cycle.expected_content_length = found[1]
                    cycle.chunked_encoding = False
                    return found[0]
            else:
                _HEADS.clear()
                _HEADS_FOR[0] = cycle.default_headers
        except TypeError:  # an unhashable header value: built, not remembered
            return _build_head(cycle, status, headers)
        head = _build_head(cycle, status, headers)
        if head is not None and len(_HEADS) < _HEADS_MAX:
            _HEADS[key] = (head, cycle.expected_content_length)
        return head
    return _build_head(cycle, status, headers)


def _build_head(cycle: RequestResponseCycle, status: Any, headers: Any) -> bytes | None:
    """`_lean_head` without its memo."""
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
        """uvicorn's `run_asgi` (same logging, 500s and closes), writing a held head first
        when the app stopped after the start (raised, or returned without the body)."""
        try:
            result = await app(self.scope, self.receive, self.send)
        except BaseException as exc:
            self._write_held()
            self.logger.error("Exception in ASGI application\n", exc_info=exc)
            if not self.response_started:
                await self.send_500_response()
            else:
                self.transport.close()
        else:
            if self._held is not None:
                self._write_held()
            if result is not None:
                self.logger.error("ASGI callable should return None, but returned '%s'.", result)
                self.transport.close()
            elif not self.response_started and not self.disconnected:
                self.logger.error("ASGI callable returned without starting response.")
                await self.send_500_response()
            elif not self.response_complete and not self.disconnected:
                self.logger.error("ASGI callable returned without completing response.")
                self.transport.close()
        finally:
            self.on_response = _nothing

    def _write_held(self) -> None:
        head = self._held
        if head is not None:
            self._held = None
            if not self.disconnected:
                self.transport.write(head)

    def _completed(self) -> None:
        """The end of a response the lean path wrote whole, as uvicorn ends one."""
        self.response_complete = True
        self.message_event.set()
        if not self.keep_alive:
            self.transport.close()
        self.on_response()

    def _log_access(self, status: int) -> None:
        """uvicorn's access-log line for a response the lean path starts itself."""
        if self.access_logger.isEnabledFor(logging.INFO):
            scope = self.scope
            self.access_logger.info('%s - "%s %s HTTP/%s" %d', get_client_addr(scope), scope["method"],
                                    get_path_with_query_string(scope), scope["http_version"], status)

    async def send(self, message: Any) -> None:
        head = self._held
        if head is None:
            if (message["type"] == "http.response.start" and not self.response_started and not self.disconnected
                    and not self.flow.write_paused):
                status = message["status"]
                head = _lean_head(self, status, message.get("headers", ()))
                if head is not None:
                    if self.access_log:
                        self._log_access(status)
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
                    self._completed()
                return
        if not self.disconnected:
            self.transport.write(head)  # where uvicorn would have written it, just later
        await super().send(message)


    async def send_json(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        """`send` of a start message (`status`, `headers`, which declare the body's length)
        then of `body` as the one and last body message, for a caller holding the whole
        answer (the front door's lanes): the same state, bytes, write and checks as those
        two messages through `send`'s lean path, in one call, without the two message
        dicts. Anything that path would not take goes as the two messages."""
        if (self._held is None and not self.response_started and not self.disconnected
                and not self.flow.write_paused and self.scope["method"] != "HEAD"):
            head = _lean_head(self, status, headers)
            if head is not None and len(body) == self.expected_content_length:
                if self.access_log:
                    self._log_access(status)
                self.response_started = True
                self.waiting_for_100_continue = False
                self.expected_content_length = 0
                self.transport.write(head + body)
                self._completed()
                return
        await self.send({"type": "http.response.start", "status": status, "headers": headers})
        await self.send({"type": "http.response.body", "body": body})


class _Continuation(Coroutine[Any, Any, None]):
    """The rest of a request cycle whose first step ran in `data_received`, for a Task to
    drive: its first `send` hands the Task what the cycle's coroutine yielded when it
    suspended (a future to wait on, or None for a bare yield), every later call goes to the
    coroutine itself, so wake-ups, results, exceptions and cancellation reach it exactly as
    if the Task had run it from the start."""

    __slots__ = ("_coro", "_first", "_started")

    def __init__(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        self._coro = coro
        self._first = first
        self._started = False

    def send(self, value: Any) -> Any:
        if not self._started:
            self._started = True
            first, self._first = self._first, None
            return first
        return self._coro.send(value)

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        self._started = True
        self._first = None
        if val is None and tb is None:
            return self._coro.throw(typ)
        return self._coro.throw(typ, val, tb)  # pragma: no cover - 3-argument form, unused by asyncio

    def close(self) -> None:
        self._started = True
        self._first = None
        self._coro.close()

    def __await__(self) -> Any:  # pragma: no cover - Tasks call send/throw directly
        return self

    def __iter__(self) -> Any:  # pragma: no cover
        return self

    def __next__(self) -> Any:  # pragma: no cover
        return self.send(None)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a lean path for complete bodiless keep-alive
    requests (see the module doc) and one write per complete small response."""

    #: run a lean request's first step in `data_received` (see the module doc: an app that
    #: needs `asyncio.current_task()` before its first real suspension must turn this off)
    inline_first_step = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: (cycle, app) of a lean-eligible request whose headers are in, not started yet
        self._ready: tuple[LeanCycle, Any] | None = None
        self._complete = False  # that request's message is complete (no body came)
        self._idle_since: float | None = None  # when the connection became idle (keep-alive)
        self._idle_timer: asyncio.TimerHandle | None = None
        self._asgi: dict[str, str] = {"version": self.asgi_version, "spec_version": "2.3"}
        self._fresh_context = bool(self.config.reset_contextvars)

    # ---- keep-alive: one timer per idle period, checking a timestamp when it fires ----

    def _unset_keepalive_if_required(self) -> None:
        self._idle_since = None

    def _arm_keep_alive(self) -> None:
        self._idle_since = self.loop.time()
        if self._idle_timer is None:
            self._idle_timer = self.loop.call_later(self.timeout_keep_alive, self._keep_alive_check)

    def _keep_alive_check(self) -> None:
        """Closes the connection once it has been idle for the keep-alive timeout (what
        uvicorn's per-response timer does, re-armed here only when it fires too early)."""
        self._idle_timer = None
        since = self._idle_since
        if since is None:
            return  # a request came in since: the next response re-arms
        remaining = since + self.timeout_keep_alive - self.loop.time()
        if remaining > 0:
            self._idle_timer = self.loop.call_later(remaining, self._keep_alive_check)
        elif not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        timer, self._idle_timer = self._idle_timer, None
        if timer is not None:
            timer.cancel()
        super().connection_lost(exc)

    # ---- parsing ----

    def data_received(self, data: bytes) -> None:
        self._idle_since = None
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            self._start_ready()
            msg = "Invalid HTTP request received."
            self.logger.warning(msg)
            self.send_400_response(msg)
            return
        except httptools.HttpParserUpgrade:
            self._start_ready()
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        ready = self._ready
        if ready is not None:
            if self._complete:
                self._ready = None
                self._run_now(*ready)
            else:
                self._start_ready()

    def _start_ready(self) -> None:
        """Starts a held request as uvicorn does, as a Task (a body or a parser event came)."""
        ready = self._ready
        if ready is not None:
            self._ready = None
            self._start_asgi_task(*ready)

    def on_message_begin(self) -> None:
        self.url = b""
        self.expect_100_continue = False
        self.headers = []
        self.scope = {  # type: ignore[typeddict-item]
            "type": "http",
            "asgi": self._asgi,
            "http_version": "1.1",
            "server": self.server,
            "client": self.client,
            "scheme": self.scheme,
            "root_path": self.root_path,
            "headers": self.headers,
            "state": self.app_state.copy(),
        }

    def on_headers_complete(self) -> None:
        parser = self.parser
        http_version = parser.get_http_version()
        scope = self.scope
        scope["method"] = parser.get_method().decode("ascii")
        if http_version != "1.1":
            scope["http_version"] = http_version
        upgrade = parser.should_upgrade()
        if upgrade and self._should_upgrade():
            return
        parsed_url = httptools.parse_url(self.url)
        raw_path = parsed_url.path
        path = raw_path.decode("ascii")
        if "%" in path:
            path = urllib.parse.unquote(path)
        root_path = self.root_path
        scope["path"] = root_path + path if root_path else path
        scope["raw_path"] = root_path.encode("ascii") + raw_path if root_path else raw_path
        scope["query_string"] = parsed_url.query or b""
        limit = self.limit_concurrency
        if limit is not None and (len(self.connections) >= limit or len(self.tasks) >= limit):
            app = service_unavailable
            self.logger.warning("Exceeded concurrency limit.")
        else:
            app = self.app
        existing = self.cycle
        keep_alive = http_version != "1.0" and parser.should_keep_alive()
        self.cycle = cycle = LeanCycle(
            scope=scope, transport=self.transport, flow=self.flow, logger=self.logger,
            access_logger=self.access_logger, access_log=self.access_log,
            default_headers=self.server_state.default_headers, message_event=asyncio.Event(),
            expect_100_continue=self.expect_100_continue, keep_alive=keep_alive,
            on_response=self.on_response_complete)
        if existing is None or existing.response_complete:
            if keep_alive and not upgrade and not self.expect_100_continue:
                self._ready = (cycle, app)  # run once the message is complete: data_received
                self._complete = False
            else:
                self._start_asgi_task(cycle, app)
        else:
            # pipelined behind a request still in flight: queued, as uvicorn does
            self.flow.pause_reading()
            self.pipeline.appendleft((cycle, app))

    def on_body(self, body: bytes) -> None:
        ready = self._ready
        if ready is not None and ready[0] is self.cycle:
            self._start_ready()  # a body: uvicorn's path from here on
        super().on_body(body)

    def on_message_complete(self) -> None:
        ready = self._ready
        if ready is not None and ready[0] is self.cycle:
            self._complete = True
            cycle = self.cycle
            cycle.more_body = False
            cycle.message_event.set()
            return
        super().on_message_complete()

    # ---- running a request ----

    def _run_now(self, cycle: RequestResponseCycle, app: Any) -> None:
        """Runs the request's cycle up to its first real suspension right here; one that
        completes (the everyday GET answered on the loop) never becomes a Task."""
        if not self.inline_first_step:
            self._start_asgi_task(cycle, app)
            return
        coro = cycle.run_asgi(app)
        context = contextvars.Context() if self._fresh_context else contextvars.copy_context()
        if _SNIFFIO is not None:  # sniffio finds asyncio through the current task: none yet
            context.run(_SNIFFIO.set, "asyncio")
        try:
            first = context.run(coro.send, None)
        except StopIteration:
            return
        except Exception as exc:  # what a Task would have held as its exception
            self.loop.call_exception_handler({"message": "Exception in ASGI request cycle", "exception": exc,
                                              "protocol": self})
            return
        task = self.loop.create_task(_Continuation(coro, first), context=context)
        task.add_done_callback(self.tasks.discard)
        self.tasks.add(task)

    def on_response_complete(self) -> None:
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        self._idle_since = None
        flow = self.flow
        if flow.read_paused:  # `flow.resume_reading()`'s own test, without the call
            flow.resume_reading()
        if self.pipeline:
            cycle, app = self.pipeline.pop()
            self._start_asgi_task(cycle, app)
        else:
            self._arm_keep_alive()

    def timeout_keep_alive_handler(self) -> None:  # pragma: no cover - uvicorn's timer is not used
        self._keep_alive_check()
