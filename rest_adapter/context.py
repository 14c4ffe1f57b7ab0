"""What every resource handler needs from a request: its graph, its JSON body, a JSON
response, and a way to run blocking engine calls off the event loop.

Handlers stay thin: `graph = graph_of(request)`, `body = await read_json(request, dict)`,
`result = await run(graph.schema.list, "propertykey")`, `return json_response(result)`.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gremlin_engine import Graph, GraphRegistry
from rest_adapter.errors import bad_request
from rest_adapter.thread_pools import LazyPool

T = TypeVar("T")

JSON_TYPE = "application/json"
_TYPE_NAMES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean"}


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


def graph_of(request: Request) -> Graph:
    """The graph named by the `{graph}` path parameter (404 `Graph 'x' does not exist`)."""
    return registry_of(request).get(request.scope["path_params"]["graph"])


#: engine calls at once, as anyio's default thread limiter (what `run` used before) allowed
WORKER_THREADS = 40
_workers = LazyPool(WORKER_THREADS, "hugelite-rest")


async def run(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Runs a blocking engine call on a worker thread (storage and traversals block).

    A bounded executor of our own, awaited as `loop.run_in_executor` does, rather than
    Starlette's `run_in_threadpool`: anyio's thread call (a checkpoint, a capacity limiter,
    a cancel scope, a queue per worker) cost the server ~55-90 µs of CPU per request more
    (schema list 302 -> 250 µs, a vertex list 757 -> 695 µs over the wire, A/B).
    What anyio gave is kept: the call runs in a copy of the request's context (the engine's
    context variables stay per call), its exception is raised here as it was raised there,
    and a cancelled request waits for a call already running to end before it is cancelled
    (a call still queued never runs)."""
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    if kwargs:
        fn, args = functools.partial(fn, *args, **kwargs), ()
    job: Future[T] = _workers().submit(context.run, fn, *args)
    try:
        return await asyncio.wrap_future(job, loop=loop)
    except asyncio.CancelledError:
        while not job.done():  # running: the engine call ends first, as under anyio's shield
            try:
                await asyncio.wrap_future(job, loop=loop)
            except BaseException:  # its outcome is no longer this request's
                continue
        raise


async def read_json(request: Request, expect: type | tuple[type, ...] | None = None, required: bool = True) -> Any:
    """The request body as JSON. Malformed JSON or a body of the wrong JSON type is a 400
    (HugeGraph answers those from Jackson's mappers); an empty body is None, or a 400 when
    `required`."""
    raw = await request.body()
    if not raw.strip():
        if required:
            raise bad_request("The request body can't be empty")
        return None
    if request.headers.get("content-encoding", "").lower() == "gzip":
        import gzip

        try:
            raw = gzip.decompress(raw)
        except OSError as e:
            raise bad_request(f"Invalid gzip request body: {e}") from None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise bad_request(f"Invalid JSON in request body: {e}") from None
    if expect is not None and not isinstance(value, expect):
        wanted = expect if isinstance(expect, tuple) else (expect,)
        names = " or ".join(dict.fromkeys(_TYPE_NAMES.get(t, t.__name__) for t in wanted))
        raise bad_request(f"The request body must be a JSON {names}, but got {_json_type(value)}")
    return value


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
        return int(raw)
    except ValueError:
        raise bad_request(f"The query param '{name}' must be an integer, but got '{raw}'") from None


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
