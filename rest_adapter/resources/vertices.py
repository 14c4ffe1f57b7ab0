"""Vertices: `/graphs/{g}/graph/vertices` (spec: Vertices; rest-reference.md §5).

Every handler compiles the request into ONE traversal:

==================================  ================================================================
POST /vertices                      `addV(label).property(T.id, id).property(k, v)...`
POST /vertices/batch                `inject(item...).hgAddVertices().id()`
PUT  /vertices/batch                `inject(item...).hgUpsert('vertex', strategies)`
PUT  /vertices/{id}?action=append   `V(id).hgAppend(props, label)`
PUT  /vertices/{id}?action=elim...  `V(id).hgEliminate(keys, label)`
GET  /vertices                      `V().hasLabel(l).has(k, P)...range(o, o+n)` or `...hgPage(p, n)`,
                                    then `hgRequireIndex(...)` (checked before anything is read)
GET  /vertices/{id}                 `V(id)`
DELETE /vertices/{id}               `V(id).hasLabel(l).sideEffect(__.drop()).count()`
==================================  ================================================================
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.traversal.tokens import T
from rest_adapter.compression import compress_any_size
from rest_adapter.context import graph_of, json_response, read_json, settings_of
from rest_adapter.resources import _element_common as c
from rest_adapter.serializers.hugegraph_json import id_key

BASE = "/graph/vertices"


def _missing(vid: Any) -> NotFound:
    return NotFound(f"Vertex '{id_key(vid)}' does not exist")


async def create(request: Request) -> Response:
    graph = graph_of(request)
    item = c.vertex_item(await read_json(request, dict))
    steps: list[tuple[Any, ...]] = [("addV", item["label"]) if item["label"] is not None else ("addV",)]
    if item["id"] is not None:
        steps.append(("property", T.id, item["id"]))
    steps += [("property", k, v) for k, v in item["properties"].items()]
    result = await c.traverse(request, graph, c.ir(*steps))
    return json_response(c.one_vertex_json(graph, result[0]), status=201)


async def create_batch(request: Request) -> Response:
    graph = graph_of(request)
    body = await read_json(request, list)
    items = c.vertex_items(c.batch_items(body, "vertex", settings_of(request).max_vertices_per_batch))
    ids = await c.traverse(request, graph, c.ir(("inject", *items), ("hgAddVertices",), ("id",)))
    return json_response(c.ids_json(ids), status=201)


async def update_batch(request: Request) -> Response:
    graph = graph_of(request)
    body = await read_json(request, dict)
    raw, strategies = c.update_batch_body(body, "vertex", settings_of(request).max_vertices_per_batch)
    items = c.vertex_items(raw)
    result = await c.traverse(request, graph, c.ir(("inject", *items), ("hgUpsert", "vertex", strategies)))
    return json_response({"vertices": c.vertices_json(graph, result)})


async def update_one(request: Request) -> Response:
    graph = graph_of(request)
    vid = c.vertex_id_param(request.path_params["id"])
    action = c.action_of(request)
    body = await read_json(request, dict)
    c.check_fields(body, c.VERTEX_FIELDS, "vertex")
    props = c.properties_of(body, "vertex")
    if body.get("id") is not None and body["id"] != vid:
        raise IllegalArgument(f"The ids are different between url and request body ('{id_key(vid)}' != '{body['id']}')")
    label = body.get("label")
    if action == "append":
        step: tuple[Any, ...] = ("hgAppend", props, label)
    else:
        step = ("hgEliminate", list(props), label)
    result = await c.traverse(request, graph, c.ir(("V", vid), step), strict=True)
    if not result:
        raise _missing(vid)
    return json_response(c.one_vertex_json(graph, result[0]))


async def list_vertices(request: Request) -> Response:
    compress_any_size(request.scope)  # HugeGraph gzips its lists at any size
    graph = graph_of(request)
    label = c.label_param(request)
    conditions = c.conditions_param(request, graph)
    page, offset, limit = c.paging_params(request, "vertex")
    steps: list[tuple[Any, ...]] = [("V",)]
    if label is not None:
        steps.append(("hasLabel", label))
    steps += [("has", k, p) for k, p in conditions]
    window = c.window_step(page, offset, limit)
    if window is not None:
        steps.append(window)
    steps.append(("hgRequireIndex", "vertex", label, [[k, p] for k, p in conditions]))
    result = await c.traverse(request, graph, c.ir(*steps))
    return c.listing_response("vertices", result, page, lambda items: c.vertices_json(graph, items))


async def get_one(request: Request) -> Response:
    graph = graph_of(request)
    vid = c.vertex_id_param(request.scope["path_params"]["id"])
    result = await c.traverse(request, graph, c.point_ir("V", vid), strict=True)
    if not result:
        raise _missing(vid)
    return json_response(c.one_vertex_json(graph, result[0]))


async def delete(request: Request) -> Response:
    graph = graph_of(request)
    return await c.delete_element(request, graph, "vertex", c.vertex_id_param(request.path_params["id"]), c.label_param(request))


routes = [
    Route(BASE, create, methods=["POST"]),
    Route(BASE, list_vertices, methods=["GET"]),
    Route(BASE + "/batch", create_batch, methods=["POST"]),
    Route(BASE + "/batch", update_batch, methods=["PUT"]),
    Route(BASE + "/{id:path}", get_one, methods=["GET"]),
    Route(BASE + "/{id:path}", update_one, methods=["PUT"]),
    Route(BASE + "/{id:path}", delete, methods=["DELETE"]),
]
