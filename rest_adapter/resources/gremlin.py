"""`GET|POST /gremlin` (synchronous scripts) and `POST /graphs/{g}/jobs/gremlin` (tasks).

HugeGraph proxies `/gremlin` to its Gremlin Server; here the engine runs the script
itself, and the answer keeps HugeGraph's envelope:

    {"requestId": "...", "status": {"message": "", "code": 200, "attributes": {}},
     "result": {"data": [...], "meta": {}}}

Every graph is bound under its name and its traversal source as `__g_<name>`; `g` and
`graph` exist only through `aliases` (hugegraph-python sends
`{"graph": G, "g": "__g_" + G}`, with `G` possibly `DEFAULT-hugegraph`). Errors answer
HugeGraph's proxy status (400, or 403 for a refused construct) with its error keys plus the
envelope keys; see `rest_adapter/errors.py`.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.context import GREMLIN_HTTP, JOB, ExecutionContext
from rest_adapter.context import (
    execution_context,
    graph_of,
    json_bytes,
    json_response,
    read_json,
    registry_of,
    run,
    run_watched,
)
from rest_adapter.errors import bad_request, gremlin_error_body, gremlin_status
from rest_adapter.serializers.hugegraph_json import dumps, to_json

log = logging.getLogger("hugelite.rest")

LANGUAGES = ("gremlin-groovy", "gremlin-lang", "gremlin")


def _check_request(gremlin: Any, bindings: Any, language: Any, aliases: Any) -> None:
    if gremlin is None or not isinstance(gremlin, str):
        raise bad_request("The gremlin parameter can't be null" if gremlin is None else "The gremlin parameter must be a string")
    if bindings is not None and not isinstance(bindings, dict):
        raise bad_request("The bindings parameter must be a JSON object")
    if aliases is not None and (
        not isinstance(aliases, dict) or not all(isinstance(v, str) for v in aliases.values())
    ):
        raise bad_request("The aliases parameter must be a JSON object of names")
    if language is not None and language not in LANGUAGES:
        raise bad_request(f"Language '{language}' is not supported; use one of {list(LANGUAGES)}")


def _evaluate(request: Request, gremlin: str, bindings: dict[str, Any], aliases: dict[str, str],
              ctx: ExecutionContext | None = None) -> bytes:
    registry = registry_of(request)
    results = registry.execute(gremlin, bindings, aliases, ctx=ctx)
    envelope = {
        "requestId": request.state.request_id,
        "status": {"message": "", "code": 200, "attributes": {}},
        "result": {"data": to_json(results), "meta": {}},
    }
    return json_bytes(envelope)


def _error_response(request: Request, exc: Exception) -> Response:
    status, code = gremlin_status(exc)
    if status >= 500:
        log.error("/gremlin failed", exc_info=exc)
    body = gremlin_error_body(exc, request.state.request_id, code)
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


async def _answer(request: Request, gremlin: Any, bindings: Any, language: Any, aliases: Any) -> Response:
    try:
        _check_request(gremlin, bindings, language, aliases)
        payload = await run_watched(request, _evaluate, request, gremlin, dict(bindings or {}), dict(aliases or {}),
                                    door=GREMLIN_HTTP)
    except Exception as exc:
        return _error_response(request, exc)
    return Response(payload, media_type="application/json")


async def post_gremlin(request: Request) -> Response:
    request.state.request_id = str(uuid.uuid4())
    try:
        body = await read_json(request, dict)
    except Exception as exc:
        return _error_response(request, exc)
    return await _answer(request, body.get("gremlin"), body.get("bindings"), body.get("language"), body.get("aliases"))


def _query_value(raw: str) -> Any:
    """GET binding values: JSON when they parse as JSON (`1`, `"x"`, `[1,2]`), else text."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return raw


async def get_gremlin(request: Request) -> Response:
    request.state.request_id = str(uuid.uuid4())
    try:
        params = request.query_params
        if not params:
            raise bad_request("The request query can't be empty")
        bindings: dict[str, Any] = {}
        aliases: dict[str, str] = {}
        for key in params:
            values = params.getlist(key)
            if len(values) > 1:
                raise bad_request(f"Invalid query param '{key}', can only accept one value, but got {values}")
            if key.startswith("bindings."):
                bindings[key[len("bindings."):]] = _query_value(values[0])
            elif key.startswith("aliases."):
                aliases[key[len("aliases."):]] = values[0]
    except Exception as exc:
        return _error_response(request, exc)
    return await _answer(request, params.get("gremlin"), bindings, params.get("language"), aliases)


def _task_result(results: Any) -> str:
    """`task_result` text: the results in the same JSON shapes as `/gremlin` data."""
    return dumps(results).decode()


async def submit_job(request: Request) -> Response:
    """POST /graphs/{g}/jobs/gremlin: runs the script as a task; 201 {"task_id": n}."""
    graph = graph_of(request)
    body = await read_json(request, dict)
    gremlin, bindings = body.get("gremlin"), body.get("bindings")
    language, aliases = body.get("language", "gremlin-groovy"), body.get("aliases")
    if aliases:
        raise bad_request("There is no need to pass gremlin aliases")
    if language is None:
        raise bad_request("The language parameter can't be null")
    _check_request(gremlin, bindings, language, None)
    ctx = execution_context(request, JOB)
    task_id = await run(request, graph.tasks.submit_gremlin, gremlin, dict(bindings or {}), language, _task_result,
                        ctx=ctx)
    return json_response({"task_id": task_id}, status=201)


server_routes = [
    Route("/gremlin", get_gremlin, methods=["GET"]),
    Route("/gremlin", post_gremlin, methods=["POST"]),
]
routes = [Route("/jobs/gremlin", submit_job, methods=["POST"])]
