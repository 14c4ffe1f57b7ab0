"""Graph variables: `/graphs/{g}/variables[/{key}]` (list, get, put `{"data": v}`, delete)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine import IllegalArgument
from rest_adapter.context import execution_context, graph_of, json_response, no_content, read_json, run


async def list_variables(request: Request) -> Response:
    graph = graph_of(request)
    return json_response(await run(request, graph.variables.list, ctx=execution_context(request)))


async def get_variable(request: Request) -> Response:
    graph = graph_of(request)
    key = request.path_params["key"]
    return json_response({key: await run(request, graph.variables.get, key, ctx=execution_context(request))})


async def put_variable(request: Request) -> Response:
    graph = graph_of(request)
    key = request.path_params["key"]
    body = await read_json(request, dict)
    if body.get("data") is None:
        raise IllegalArgument("The variable value can't be empty")
    value = await run(request, graph.variables.set, key, body["data"], ctx=execution_context(request))
    return json_response({key: value})


async def delete_variable(request: Request) -> Response:
    graph = graph_of(request)
    await run(request, graph.variables.remove, request.path_params["key"], ctx=execution_context(request))
    return no_content()


routes = [
    Route("/variables", list_variables, methods=["GET"]),
    Route("/variables/{key}", get_variable, methods=["GET"]),
    Route("/variables/{key}", put_variable, methods=["PUT"]),
    Route("/variables/{key}", delete_variable, methods=["DELETE"]),
]
