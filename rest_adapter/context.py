"""What every resource handler needs from a request: its graph, its JSON body, a JSON
response, and a way to run blocking engine calls off the event loop.

Handlers stay thin: `graph = graph_of(request)`, `body = await read_json(request, dict)`,
`result = await run(request, graph.schema.list, "propertykey")`, `return json_response(result)`.
"""

from __future__ import annotations

import asyncio
import contextvars
import zlib
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gremlin_engine import Graph, GraphRegistry
from gremlin_engine.auth.principal import Principal
from gremlin_engine.context import REST, ExecutionContext
from gremlin_engine.limits import CancelToken
from gremlin_engine.structure.numbers import LONG_MAX, LONG_MIN
from rest_adapter.errors import HttpError, bad_request, unauthorized

T = TypeVar("T")

JSON_TYPE = "application/json"
_TYPE_NAMES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean",
               type(None): "null"}


def registry_of(request: Request) -> GraphRegistry:
    return scope_registry(request.scope)


def scope_registry(scope: Any) -> GraphRegistry:
    """The served registry of a request's ASGI scope (what `registry_of` reads)."""
    # `HugeliteApp.registry` mirrors `app.state.registry`: a plain attribute, where `state`
    # answers through `State.__getattr__` (a failed lookup first, ~5 µs per request)
    app = scope["app"]
    registry = getattr(app, "registry", None)
    return registry if registry is not None else app.state.registry  # type: ignore[no-any-return]


def settings_of(request: Request) -> Any:
    return request.app.state.settings


#: where the authenticating layer (auth middleware, WebSocket handshake) leaves the
#: request's `Principal` in the ASGI scope; absent means authentication is off
PRINCIPAL_KEY = "hugelite.principal"


def principal_of(scope: Any) -> Principal:
    """Who is asking: the principal the auth layer (`rest_adapter.auth.AuthMiddleware`, or
    SASL on a WebSocket) put in the scope; with authentication off that is the anonymous
    administrator. A scope without one fails closed (401): no door runs as administrator
    because a layer forgot to say who asked."""
    principal = scope.get(PRINCIPAL_KEY)
    if principal is None:
        raise unauthorized()
    return principal  # type: ignore[no-any-return]


def execution_context(
    request: Request, door: str = REST, *, cancel: CancelToken | None = None, strict: bool = False
) -> ExecutionContext:
    """The one `ExecutionContext` of a REST request (`strict`: a single-element request,
    whose forbidden element is a 403 rather than left out)."""
    return ExecutionContext(principal_of(request.scope), door, cancel=cancel, strict_reads=strict)


def graph_of(request: Request) -> Graph:
    """The graph named by the `{graph}` path parameter (404 `Graph 'x' does not exist`)."""
    return registry_of(request).get(request.scope["path_params"]["graph"])


async def run(request: Request, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Runs a blocking engine call on the app's worker pool (`app.Workers.rest`): storage
    and traversals block, and the event loop only moves bytes (`in_pool`)."""
    return await in_pool(request.scope["app"].workers.rest, fn, *args, **kwargs)


async def in_pool(pool: Executor, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` on `pool`'s threads, awaited: what `loop.run_in_executor` does,
    with less machinery per call.

    The call runs in a copy of the caller's context (the engine's context variables stay
    per call), and its exception is raised here as it was raised there. A caller cancelled
    while its call is queued drops the call; one already running runs to its end (or to its
    cancel token: `run_watched`). `run_in_executor` chains a `concurrent.futures.Future`
    to an asyncio one (`asyncio.wrap_future`: a callback on each side, a copy of the
    outcome, an `iscoroutinefunction` check); here the worker hands its outcome straight to
    the loop with `call_soon_threadsafe`, which is ~12 µs less CPU per call on this host
    (`bench/README.md`, "The REST hop"), once per REST request."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    context = contextvars.copy_context()

    def job() -> None:
        try:
            result = context.run(fn, *args, **kwargs)
        except BaseException as exc:  # re-raised in the awaiting request
            _hand_over(loop, done, None, exc)
        else:
            _hand_over(loop, done, result, None)

    queued = pool.submit(job)
    try:
        return await done
    except asyncio.CancelledError:
        queued.cancel()  # still queued: never runs
        raise


def _hand_over(loop: asyncio.AbstractEventLoop, done: asyncio.Future[Any], result: Any,
               exc: BaseException | None) -> None:
    try:
        loop.call_soon_threadsafe(_settle, done, result, exc)
    except RuntimeError:  # the loop has closed (server shutdown): nobody is waiting
        pass


def _settle(done: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if done.cancelled():
        return
    if isinstance(exc, StopIteration):  # an asyncio future refuses it: the request would never end
        exc = RuntimeError(f"the call raised StopIteration: {exc}")
    if exc is not None:
        done.set_exception(exc)
    else:
        done.set_result(result)


async def run_watched(
    request: Request, fn: Callable[..., T], *args: Any, door: str = REST, strict: bool = False, **kwargs: Any
) -> T:
    """`run(request, fn, *args, ctx=context, **kwargs)` with the request's one
    `ExecutionContext` (`execution_context(request, door, strict=strict)`) whose cancel
    token is cancelled when the client disconnects (issue 16 item 3): the engine checks the
    token as it goes, so a traversal or script whose client left stops within a check
    interval instead of running to its timeout. `fn` must take the engine's `ctx=` keyword.

    The disconnect is seen by reading the request's ASGI `receive` while the call runs: once
    the body has been read, the server's next message is `http.disconnect`, sent when the
    connection closes (uvicorn sends it then, or after the response: the watch is cancelled
    before that). The watch starts only once the call has run `WATCH_AFTER_S`: most calls
    end sooner, and a timer is cheaper than a task started and cancelled per request
    (~1 against ~5 µs); a client that left earlier is seen then, since uvicorn answers
    `http.disconnect` at once to a read after the connection closed."""
    token = CancelToken()
    loop = asyncio.get_running_loop()
    watch: list[asyncio.Task[None]] = []
    timer = loop.call_later(WATCH_AFTER_S, _start_watch, loop, request.receive, token, watch)
    try:
        ctx = execution_context(request, door, cancel=token, strict=strict)
        return await run(request, fn, *args, ctx=ctx, **kwargs)
    finally:
        timer.cancel()
        if watch:
            watch[0].cancel()


#: how long an engine call runs before `run_watched` starts watching for its client leaving (s)
WATCH_AFTER_S = 0.05


def _start_watch(loop: asyncio.AbstractEventLoop, receive: Any, token: CancelToken,
                 watch: list[asyncio.Task[None]]) -> None:
    watch.append(loop.create_task(_watch_disconnect(receive, token)))


async def _watch_disconnect(receive: Any, token: CancelToken) -> None:
    """Cancels `token` at `http.disconnect`. Body parts a handler left unread are read and
    dropped; a body bound they break (`middleware.BodyBoundsMiddleware`) ends the watch only:
    the handler did not ask for that body, and its call runs on."""
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                token.cancel()
                return
    except HttpError:
        return


async def read_json(request: Request, expect: type | tuple[type, ...] | None = None, required: bool = True) -> Any:
    """The request body as JSON. Malformed JSON or a body of the wrong JSON type is a 400
    (HugeGraph answers those from Jackson's mappers); an empty body is None, or a 400 when
    `required`. A body declared as anything but JSON is a 415, as HugeGraph's JSON-only
    resources answer it (a request without a `Content-Type` is read as JSON)."""
    _require_json(request)
    raw = await request.body()
    if not raw.strip():
        if required:
            raise bad_request("The request body can't be empty")
        return None
    if request.headers.get("content-encoding", "").lower() == "gzip":
        raw = _gunzip(raw, getattr(settings_of(request), "max_request_body_bytes", 16 * 1024 * 1024))
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise bad_request(f"Invalid JSON in request body: {e}") from None
    if expect is not None and not isinstance(value, expect):
        wanted = expect if isinstance(expect, tuple) else (expect,)
        names = " or ".join(dict.fromkeys(_TYPE_NAMES.get(t, t.__name__) for t in wanted))
        raise bad_request(f"The request body must be a JSON {names}, but got {_json_type(value)}")
    return value


def _require_json(request: Request) -> None:
    declared = request.headers.get("content-type")
    if declared is None:
        return
    media = declared.split(";", 1)[0].strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        raise HttpError(415, f"The request body must be JSON (Content-Type: application/json), but it is "
                             f"declared as '{media}'", "jakarta.ws.rs.NotSupportedException")


def _gunzip(raw: bytes, limit: int) -> bytes:
    """A gzip request body, decompressed to at most `limit` bytes (the body limit applies to
    what the body holds, so a small gzip bomb is refused like a large body)."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(raw, limit + 1)
    except zlib.error as e:
        raise bad_request(f"Invalid gzip request body: {e}") from None
    if len(out) > limit:
        raise HttpError(413, f"The request body is larger than the limit of {limit} bytes once decompressed "
                             "(restserver.max_request_body_size)")
    if not inflater.eof:
        raise bad_request("Invalid gzip request body: it ends before its gzip stream does")
    return out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    for t, name in _TYPE_NAMES.items():
        if type(value) is t:
            return name
    return type(value).__name__


class JSONBytes(Response):
    """A JSON body already encoded: the same response Starlette's `Response(body,
    media_type=JSON_TYPE)` makes (same status, same two headers in the same order), built
    without `init_headers`' general bookkeeping, since every JSON answer is made here."""

    media_type = JSON_TYPE

    def __init__(self, body: bytes, status_code: int = 200) -> None:
        self.status_code = status_code
        self.background = None
        self.body = body
        self.raw_headers = [(b"content-length", str(len(body)).encode()), (b"content-type", _JSON_TYPE_BYTES)]


_JSON_TYPE_BYTES = JSON_TYPE.encode()


def json_bytes(data: Any) -> bytes:
    """`orjson.dumps(data, option=OPT_NON_STR_KEYS)`, byte for byte: tried first without the
    option, which only matters for a dict with a non-str key (then it is encoded again with
    it) and makes orjson take its slower path for every dict (a 500-vertex list answer
    ~140 -> ~67 µs). A value orjson cannot encode fails the same way both times."""
    try:
        return orjson.dumps(data)
    except orjson.JSONEncodeError:
        pass  # encoded again outside the handler: no chained first failure on a real error
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    body = json_bytes(data)
    if headers:
        return Response(body, status_code=status, media_type=JSON_TYPE, headers=headers)
    return JSONBytes(body, status)


def no_content() -> Response:
    return Response(status_code=204)


def query_one(request: Request, name: str, default: str | None = None) -> str | None:
    """A single-valued query parameter; given twice is a 400 (as HugeGraph's Jersey params)."""
    values = request.query_params.getlist(name)
    if not values:
        return default
    if len(values) > 1:
        raise bad_request(f"Invalid query param '{name}', can only accept one value, but got {values}")
    return values[0]


def query_int(request: Request, name: str, default: int | None = None) -> int | None:
    value = query_one(request, name)
    if value is None or value == "":
        return default
    return parse_int(name, value)


def parse_int(name: str, raw: str) -> int:
    """One query parameter's text as an int, or the 400 HugeGraph words for it."""
    try:
        value = int(raw)
    except ValueError:
        raise bad_request(f"The query param '{name}' must be an integer, but got '{raw}'") from None
    if not LONG_MIN <= value <= LONG_MAX:  # HugeGraph's query integers are Java longs
        raise bad_request(f"The query param '{name}' must be an integer in the range of a 64-bit long, "
                          f"but got '{raw}'")
    return value


def query_bool(request: Request, name: str, default: bool = False) -> bool:
    value = query_one(request, name)
    if value is None or value == "":
        return default
    return parse_bool(name, value)


def parse_bool(name: str, raw: str) -> bool:
    """One query parameter's text as a bool (true/false, 1/0, yes/no), or a 400."""
    low = raw.lower()
    if low in ("true", "1", "yes"):
        return True
    if low in ("false", "0", "no"):
        return False
    raise bad_request(f"The query param '{name}' must be a boolean, but got '{raw}'")
