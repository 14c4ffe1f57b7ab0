"""The Gremlin Server WebSocket protocol on `/gremlin`, as gremlinpython 3.8 speaks it.

One WebSocket connection carries many requests. Each request frame starts with its mime
type, which picks the codec (`serializers/mime.py`: GraphBinary 1.0, GraphSON 3.0 or 2.0);
the answer uses the same codec. Supported:

==============  ==========================  =============================================
op              processor                   does
==============  ==========================  =============================================
eval            "" / session                Gremlin script with `bindings`, `aliases`,
                                            `evaluationTimeout`, `batchSize`
bytecode        traversal / session         a gremlinpython traversal (`g` via `aliases`);
                                            `with_('evaluationTimeout', ms)` honoured
authentication  any                         SASL PLAIN, only when auth is enabled
close           session                     ends a session (rolls back what is open)
==============  ==========================  =============================================

Responses: 206 for every full batch but the last, then 200; 204 when there is nothing to
return; errors with TinkerPop codes (401/407 auth, 499 bad request, 597 evaluation error,
598 timeout, 599 serialisation, 500 bug).

Every request runs on a worker thread (`ws/requests.py`), so the event loop only moves
frames: a slow query never blocks other requests or connections. A connection's requests
may overlap; their answers are told apart by request id. Disconnecting cancels what the
connection still runs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rest_adapter.auth import authenticator_of
from rest_adapter.context import PRINCIPAL_KEY, principal_of
from rest_adapter.serializers.mime import (
    GRAPHBINARY_V1,
    Codec,
    MalformedRequest,
    RequestMessage,
    ResponseMessage,
    codec_for,
    split_frame,
)
from rest_adapter.ws.requests import Job, run_job
from rest_adapter.ws.sasl import authenticate, challenge
from rest_adapter.ws.sessions import WRITER_IDLE_TIMEOUT_S, SessionExpired, SessionManager, SessionNotYours
from rest_adapter.ws.status import (
    INVALID_REQUEST_ARGUMENTS,
    NO_CONTENT,
    SERVER_ERROR_TIMEOUT,
    UNAUTHORIZED,
    RequestError,
    error_status,
)

log = logging.getLogger("hugelite.gremlin_ws")

#: Pings (`gremlinserver.ws_ping_interval`, `settings.py`) are off by default: uvicorn would
#: ping every WebSocket and drop a connection whose pong is late, but gremlinpython runs its
#: connection's event loop only while a request is in flight, so an idle
#: `DriverRemoteConnection` never answers and is cut; its next request then fails with
#: "Cannot write to closing transport". Gremlin Server sends no keep-alive pings by default
#: (`keepAliveInterval=0`) either. What bounds a silent connection instead is the idle
#: timeout (`gremlinserver.idle_connection_timeout`): a connection with no request in flight
#: and no frame received for that long is closed (code 1001), as Gremlin Server's
#: `idleConnectionTimeout` does when set.


def _sessions(app: Any) -> SessionManager:
    manager = getattr(app.state, "gremlin_sessions", None)
    if manager is None:
        settings = getattr(app.state, "settings", None)
        bound = getattr(settings, "session_writer_idle_timeout_s", WRITER_IDLE_TIMEOUT_S)
        manager = app.state.gremlin_sessions = SessionManager(writer_idle_timeout_s=bound or None)
    return manager


class GremlinConnection:
    """One client connection: reads request frames, answers each on a worker thread."""

    def __init__(self, websocket: WebSocket) -> None:
        self.ws = websocket
        app = websocket.scope["app"]
        self.app = app
        self.registry = app.state.registry
        self.settings = getattr(app.state, "settings", None)
        self.loop = asyncio.get_running_loop()
        self.send_lock = asyncio.Lock()
        self.jobs: set[Job] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False
        #: the server's authenticator (None: auth off); the connection is authenticated once
        #: its scope holds a principal (`rest_adapter/auth.py`: Basic on the upgrade, else SASL)
        self.authenticator = authenticator_of(websocket.scope)
        self.authenticated = PRINCIPAL_KEY in websocket.scope
        self.pending: dict[Any, tuple[Codec, RequestMessage]] = {}
        self.throttle = app.state.login_throttle
        self.address = websocket.client.host if websocket.client else None
        #: sessionless requests' threads (`app.Workers.ws`), shared by every connection
        self.workers = app.state.workers.ws
        self.idle_timeout_s: float | None = getattr(self.settings, "ws_idle_timeout_s", None) or None

    async def serve(self) -> None:
        await self.ws.accept()
        try:
            while True:
                try:
                    async with asyncio.timeout(self.idle_timeout_s):
                        msg = await self.ws.receive()
                except TimeoutError:
                    if self.jobs:
                        continue  # not idle: a request is still answering
                    await self.ws.close(1001, "idle connection closed (gremlinserver.idle_connection_timeout)")
                    break
                if msg["type"] == "websocket.disconnect":
                    break
                frame = msg.get("bytes")
                await self.on_frame(frame if frame is not None else msg.get("text") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            self.closed = True
            for job in list(self.jobs):
                job.token.cancel()

    async def on_frame(self, frame: bytes | str) -> None:
        codec: Codec | None = None
        try:
            mime, body = split_frame(frame)
            codec = codec_for(mime)
            req = codec.decode_request(body)
        except MalformedRequest as exc:
            await self.send_error(codec or codec_for(GRAPHBINARY_V1), None, exc)
            return
        if req.op == "authentication":
            await self.on_authentication(codec, req)
        elif not self.authenticated:
            self.pending[req.request_id] = (codec, req)
            await self.send_error(codec, req.request_id, challenge())
        else:
            self.start(codec, req)

    async def on_authentication(self, codec: Codec, req: RequestMessage) -> None:
        try:
            principal = await authenticate(self.authenticator, req.args, self.throttle, self.address, self.workers)
        except RequestError as exc:
            self.pending.pop(req.request_id, None)
            await self.send_error(codec, req.request_id, exc)
            return
        self.ws.scope[PRINCIPAL_KEY] = principal  # what the engine's doors read from now on
        self.authenticated = True
        pending = self.pending.pop(req.request_id, None)
        if pending is not None:
            self.start(*pending)  # the driver now waits for the original request's answer
        else:
            await self.send(codec.encode_response(ResponseMessage(req.request_id, NO_CONTENT)))

    def start(self, codec: Codec, req: RequestMessage) -> None:
        task = asyncio.create_task(self.run(codec, req))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(self, codec: Codec, req: RequestMessage) -> None:
        job = Job(self.registry, codec, req, self.send_from_thread,
                  default_timeout_ms=getattr(self.registry, "evaluation_timeout_ms", None),
                  principal=principal_of(self.ws.scope))
        executor: Any = self.workers
        try:
            if req.processor == "session" or "session" in req.args:
                sid = str(req.args.get("session") or "")
                if not sid:
                    raise RequestError(INVALID_REQUEST_ARGUMENTS, "A session request requires the 'session' argument")
                manager = _sessions(self.app)
                owner = (job.principal.name, job.principal.user_id)
                if req.op == "close":
                    try:
                        session = manager.pop(sid, owner)
                    except SessionNotYours as e:
                        raise RequestError(UNAUTHORIZED, str(e)) from None
                    if session is not None:
                        await self.loop.run_in_executor(self.workers, session.close)
                else:
                    try:
                        job.session = manager.get(sid, owner)
                    except SessionExpired as e:
                        raise RequestError(SERVER_ERROR_TIMEOUT, str(e)) from None
                    except SessionNotYours as e:
                        raise RequestError(UNAUTHORIZED, str(e)) from None
                    executor = job.session.executor
        except Exception as exc:  # RequestError, too many sessions, or a bug: answer, never hang
            await self.send_error(codec, req.request_id, exc)
            return
        self.jobs.add(job)
        if job.session is not None:
            job.session.active += 1  # never expired while it answers
        try:
            await self.loop.run_in_executor(executor, run_job, job)
        finally:
            self.jobs.discard(job)
            if job.session is not None:
                job.session.active -= 1
                job.session.last_used = time.monotonic()

    # ---- sending ---------------------------------------------------------------------
    async def send(self, frame: bytes | str) -> None:
        if self.closed:
            raise ConnectionError("the client closed the connection")
        async with self.send_lock:
            try:
                if isinstance(frame, bytes):
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_text(frame)
            except (RuntimeError, WebSocketDisconnect, OSError) as exc:
                self.closed = True
                raise ConnectionError("the client closed the connection") from exc

    def send_from_thread(self, frame: bytes | str) -> None:
        """Called by worker threads; blocks until the frame is written (back-pressure)."""
        asyncio.run_coroutine_threadsafe(self.send(frame), self.loop).result()

    async def send_error(self, codec: Codec, request_id: Any, exc: BaseException) -> None:
        code, message, attributes = error_status(exc)
        try:
            await self.send(codec.encode_response(ResponseMessage(request_id, code, message, attributes)))
        except ConnectionError:
            pass


async def gremlin_endpoint(websocket: WebSocket) -> None:
    await GremlinConnection(websocket).serve()


#: mounted by `rest_adapter.app.build_routes` next to the REST `GET/POST /gremlin`
websocket_routes = [WebSocketRoute("/gremlin", gremlin_endpoint)]
