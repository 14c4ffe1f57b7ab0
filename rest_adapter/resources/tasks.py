"""Tasks: `/graphs/{g}/tasks` list, get, cancel (`PUT ?action=cancel`, 202 + task map) and
delete (204), per gremlin-and-tasks.md §3. The task manager owns every rule; handlers only
parse parameters."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.errors import NotFound
from rest_adapter.context import (
    execution_context,
    graph_of,
    json_response,
    no_content,
    query_bool,
    query_int,
    query_one,
    run,
)
from rest_adapter.errors import bad_request, unsupported_action

#: task ids are Java longs (HugeGraph's `Id`); a bigger number names no task
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


def _as_long(raw: str) -> int | None:
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if _LONG_MIN <= value <= _LONG_MAX else None


def _task_id(request: Request) -> int:
    raw = request.path_params["id"]
    value = _as_long(raw)
    if value is None:
        raise NotFound(f"Can't find task with id '{raw}'")
    return value


async def list_tasks(request: Request) -> Response:
    graph = graph_of(request)
    status = query_one(request, "status")
    page = query_one(request, "page")
    if page is None and "page" in request.query_params:
        page = ""
    limit = query_int(request, "limit", 100)
    raw_ids = request.query_params.getlist("ids")
    ids = [_as_long(i) for i in raw_ids]
    if None in ids:
        raise bad_request(f"Invalid task ids: {raw_ids} (each a 64-bit integer)")
    tasks, next_page = await run(request, graph.tasks.list, status, limit, page, ids or None,
                                     ctx=execution_context(request))
    if page is not None and not ids:
        return json_response({"tasks": tasks, "page": next_page})
    return json_response({"tasks": tasks})


async def get_task(request: Request) -> Response:
    graph = graph_of(request)
    return json_response(await run(request, graph.tasks.get, _task_id(request), ctx=execution_context(request)))


async def update_task(request: Request) -> Response:
    graph = graph_of(request)
    action = request.query_params.get("action")
    if action != "cancel":
        raise unsupported_action("null" if action is None else action)
    return json_response(await run(request, graph.tasks.cancel, _task_id(request), ctx=execution_context(request)), status=202)


async def delete_task(request: Request) -> Response:
    graph = graph_of(request)
    await run(request, graph.tasks.delete, _task_id(request), query_bool(request, "force", False),
              ctx=execution_context(request))
    return no_content()


routes = [
    Route("/tasks", list_tasks, methods=["GET"]),
    Route("/tasks/{id}", get_task, methods=["GET"]),
    Route("/tasks/{id}", update_task, methods=["PUT"]),
    Route("/tasks/{id}", delete_task, methods=["DELETE"]),
]
