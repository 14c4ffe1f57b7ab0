"""Tasks: `/graphs/{g}/tasks` list, get, cancel (`PUT ?action=cancel`, 202 + task map) and
delete (204), per gremlin-and-tasks.md §3. The task manager owns every rule; handlers only
parse parameters."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.errors import NotFound
from rest_adapter.context import graph_of, json_response, no_content, query_bool, query_int, query_one, run
from rest_adapter.errors import bad_request, unsupported_action


def _task_id(request: Request) -> int:
    raw = request.path_params["id"]
    try:
        return int(raw)
    except ValueError:
        raise NotFound(f"Can't find task with id '{raw}'") from None


async def list_tasks(request: Request) -> Response:
    graph = graph_of(request)
    status = query_one(request, "status")
    page = query_one(request, "page")
    if page is None and "page" in request.query_params:
        page = ""
    limit = query_int(request, "limit", 100)
    raw_ids = request.query_params.getlist("ids")
    try:
        ids = [int(i) for i in raw_ids]
    except ValueError:
        raise bad_request(f"Invalid task ids: {raw_ids}") from None
    tasks, next_page = await run(graph.tasks.list, status, limit, page, ids or None)
    if page is not None and not ids:
        return json_response({"tasks": tasks, "page": next_page})
    return json_response({"tasks": tasks})


async def get_task(request: Request) -> Response:
    graph = graph_of(request)
    return json_response(await run(graph.tasks.get, _task_id(request)))


async def update_task(request: Request) -> Response:
    graph = graph_of(request)
    action = request.query_params.get("action")
    if action != "cancel":
        raise unsupported_action("null" if action is None else action)
    return json_response(await run(graph.tasks.cancel, _task_id(request)), status=202)


async def delete_task(request: Request) -> Response:
    graph = graph_of(request)
    await run(graph.tasks.delete, _task_id(request), query_bool(request, "force", False))
    return no_content()


routes = [
    Route("/tasks", list_tasks, methods=["GET"]),
    Route("/tasks/{id}", get_task, methods=["GET"]),
    Route("/tasks/{id}", update_task, methods=["PUT"]),
    Route("/tasks/{id}", delete_task, methods=["DELETE"]),
]
