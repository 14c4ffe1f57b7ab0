"""Schema: `/graphs/{g}/schema` and its property key, vertex/edge/index label families, plus
`PUT /graphs/{g}/jobs/rebuild/{kind}/{name}` (rest-reference.md §4).

Handlers translate requests into `graph.schema` calls and HugeGraph's status codes: property
keys answer 202 `{"property_key", "task_id"}`, vertex/edge labels 201 with the label, index
labels 202 `{"index_label", "task_id"}`, deletes 202 `{"task_id"}`; unknown names are 404
(hugegraph-python's `ifNotExist()` depends on it), an unknown `action` is 415.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rest_adapter.context import execution_context, graph_of, json_response, read_json, run
from rest_adapter.errors import bad_request, unsupported_action

# path segment -> (schema kind, list key, single key in create/update answers)
FAMILIES = {
    "propertykeys": ("propertykey", "propertykeys", "property_key"),
    "vertexlabels": ("vertexlabel", "vertexlabels", None),
    "edgelabels": ("edgelabel", "edgelabels", None),
    "indexlabels": ("indexlabel", "indexlabels", "index_label"),
}


def _json(element: Any) -> dict[str, Any]:
    return element.to_json()


def _action(request: Request, allowed: tuple[str, ...]) -> str:
    action = request.query_params.get("action")
    if not action:
        raise bad_request("The action param can't be empty")
    if action not in allowed:
        raise unsupported_action(action)
    return action


async def get_schema(request: Request) -> Response:
    graph = graph_of(request)
    return json_response(await run(request, graph.schema.schema_json, ctx=execution_context(request)))


def _family_handlers(segment: str) -> list[Route]:
    kind, list_key, single_key = FAMILIES[segment]

    async def create(request: Request) -> Response:
        graph = graph_of(request)
        body = await read_json(request, dict)
        element, task_id = await run(request, graph.schema.create, kind, body, ctx=execution_context(request))
        if single_key is None:
            return json_response(_json(element), status=201)
        return json_response({single_key: _json(element), "task_id": task_id}, status=202)

    async def update(request: Request) -> Response:
        graph = graph_of(request)
        name = request.path_params["name"]
        allowed = ("append", "eliminate", "clear") if kind == "propertykey" else ("append", "eliminate")
        action = _action(request, allowed)
        body = await read_json(request, dict, required=False) or {}
        if action == "clear":
            pk = await run(request, graph.schema.get, kind, name, ctx=execution_context(request))
            if not pk.is_olap:
                raise bad_request(f"Only olap property key can do action clear, but got '{name}'")
            return json_response({"property_key": _json(pk), "task_id": 0}, status=202)
        element = await run(request, graph.schema.update, kind, name, action, body,
                              ctx=execution_context(request))
        if kind == "propertykey":
            return json_response({"property_key": _json(element), "task_id": 0}, status=202)
        return json_response(_json(element))

    async def list_all(request: Request) -> Response:
        graph = graph_of(request)
        names = request.query_params.getlist("names")
        elements = await run(request, graph.schema.get_many, kind, names or None, ctx=execution_context(request))
        return json_response({list_key: [_json(e) for e in elements]})

    async def get_one(request: Request) -> Response:
        graph = graph_of(request)
        return json_response(_json(await run(request, graph.schema.get, kind, request.path_params["name"],
                                              ctx=execution_context(request))))

    async def delete(request: Request) -> Response:
        graph = graph_of(request)
        task_id = await run(request, graph.schema.remove, kind, request.path_params["name"],
                            ctx=execution_context(request))
        return json_response({"task_id": task_id}, status=202)

    base = f"/schema/{segment}"
    return [
        Route(base, create, methods=["POST"]),
        Route(base, list_all, methods=["GET"]),
        Route(base + "/{name}", get_one, methods=["GET"]),
        Route(base + "/{name}", update, methods=["PUT"]),
        Route(base + "/{name}", delete, methods=["DELETE"]),
    ]


async def rebuild(request: Request) -> Response:
    graph = graph_of(request)
    segment = request.path_params["kind"]
    if segment not in ("indexlabels", "vertexlabels", "edgelabels"):
        raise bad_request(f"Can't rebuild index of '{segment}'")
    task_id = await run(request, graph.schema.rebuild, FAMILIES[segment][0], request.path_params["name"],
                        ctx=execution_context(request))
    return json_response({"task_id": task_id}, status=202)


routes = [Route("/schema", get_schema, methods=["GET"])]
for _segment in FAMILIES:
    routes.extend(_family_handlers(_segment))
routes.append(Route("/jobs/rebuild/{kind}/{name}", rebuild, methods=["PUT"]))
