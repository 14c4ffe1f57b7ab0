"""Edges: `/graphs/{g}/graph/edges` (spec: Edges; rest-reference.md §6).

Every handler compiles the request into ONE traversal:

==================================  ================================================================
POST /edges                         `inject(item).hgAddEdges(true)`
POST /edges/batch?check_vertex=     `inject(item...).hgAddEdges(check_vertex).id()`
PUT  /edges/batch                   `inject(item...).hgUpsert('edge', strategies)`
PUT  /edges/{id}?action=append      `E(id).hgAppend(props)`
PUT  /edges/{id}?action=eliminate   `E(id).hgEliminate(keys)`
GET  /edges?vertex_id=...           `V(v).outE|inE|bothE(label).has(k, P)...range(o, o+n)`
GET  /edges                         `E().hasLabel(l).has(k, P)...range(o, o+n)` or `...hgPage(p, n)`,
                                    then `hgRequireIndex(...)`
GET  /edges/{id}                    `E(id)`
DELETE /edges/{id}                  `E(id).hasLabel(l).sideEffect(__.drop()).count()`
==================================  ================================================================

The five edge-query rules of the spec are enforced; a violation is a 400 naming its rule.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.errors import IllegalArgument, NotFound
from rest_adapter.compression import compress_any_size
from rest_adapter.context import (
    graph_of,
    json_response,
    query_bool,
    query_one,
    read_json,
    settings_of,
)
from rest_adapter.errors import bad_request
from rest_adapter.resources import _element_common as c
from rest_adapter.serializers.hugegraph_json import id_key

BASE = "/graph/edges"
_DIRECTION_STEPS = {"OUT": "outE", "IN": "inE", "BOTH": "bothE"}


def _missing(eid: Any) -> NotFound:
    return NotFound(f"Edge '{id_key(eid)}' does not exist")


async def create(request: Request) -> Response:
    graph = graph_of(request)
    item = c.edge_item(await read_json(request, dict), labels_required=False)
    result = await c.traverse(request, graph, c.ir(("inject", item), ("hgAddEdges", True)))
    return json_response(c.edges_json(result)[0], status=201)


async def create_batch(request: Request) -> Response:
    graph = graph_of(request)
    check_vertex = query_bool(request, "check_vertex", True)
    body = await read_json(request, list)
    items = c.edge_items(c.batch_items(body, "edge", settings_of(request).max_edges_per_batch), labels_required=True)
    ids = await c.traverse(request, graph, c.ir(("inject", *items), ("hgAddEdges", check_vertex), ("id",)))
    return json_response(c.ids_json(ids), status=201)


async def update_batch(request: Request) -> Response:
    graph = graph_of(request)
    body = await read_json(request, dict)
    raw, strategies = c.update_batch_body(body, "edge", settings_of(request).max_edges_per_batch)
    items = c.edge_items(raw, labels_required=False)
    result = await c.traverse(request, graph, c.ir(("inject", *items), ("hgUpsert", "edge", strategies)))
    return json_response({"edges": c.edges_json(result)})


async def update_one(request: Request) -> Response:
    graph = graph_of(request)
    eid = c.edge_id_param(graph, request.path_params["id"])
    action = c.action_of(request)
    body = await read_json(request, dict)
    c.check_fields(body, c.EDGE_FIELDS, "edge")
    props = c.properties_of(body, "edge")
    if body.get("id") is not None and str(body["id"]) != str(eid):
        raise IllegalArgument(f"The ids are different between url and request body ('{id_key(eid)}' != '{body['id']}')")
    step: tuple[Any, ...] = ("hgAppend", props) if action == "append" else ("hgEliminate", list(props))
    result = await c.traverse(request, graph, c.ir(("E", eid), step), strict=True)
    if not result:
        raise _missing(eid)
    return json_response(c.edges_json(result)[0])


def _direction(request: Request) -> str | None:
    raw = query_one(request, "direction")
    if raw is None or raw == "":
        return None
    if raw.upper() not in _DIRECTION_STEPS:
        raise bad_request(f"Direction value must be in [OUT, IN, BOTH], but got '{raw}'")
    return raw.upper()


def _rule(n: int, ok: bool, what: str) -> None:
    if not ok:
        raise bad_request(f"Edge query rule {n} violated: {what}")


async def list_edges(request: Request) -> Response:
    compress_any_size(request.scope)  # HugeGraph gzips its lists at any size
    graph = graph_of(request)
    raw_vertex = query_one(request, "vertex_id")
    vertex_id = c.vertex_id_param(raw_vertex) if raw_vertex not in (None, "") else None
    direction = _direction(request)
    label = c.label_param(request)
    conditions = c.conditions_param(request, graph)
    raw_page = query_one(request, "page")
    has_page = raw_page is not None
    has_offset = query_one(request, "offset") not in (None, "")
    first_page_of_vertex = vertex_id is not None and raw_page == ""
    if vertex_id is not None:
        _rule(1, raw_page in (None, ""), "a 'page' cursor is not allowed together with 'vertex_id'")
    elif has_page:
        _rule(3, (c.query_int(request, "offset", 0) or 0) == 0 or not has_offset,
              "'offset' must be absent or 0 when paging without 'vertex_id'")
        _rule(3, direction is None, "'direction' is not allowed when paging without 'vertex_id'")
        _rule(3, len(conditions) <= 1, "'properties' may hold at most one pair when paging without 'vertex_id'")
    page, offset, limit = c.paging_params(request, "edge")
    if first_page_of_vertex:
        # hugegraph-python sends a bare `page` with every listing: it asks for the first page.
        # Rule 1 forbids following a cursor from a vertex, so that page is the whole answer
        # (`offset`/`limit` go further) and its `page` is null.
        page = None
    steps: list[tuple[Any, ...]]
    if vertex_id is not None:
        if label is not None and graph.schema.edge_label(label) is None:
            raise IllegalArgument(f"Undefined edge label: '{label}'")
        edge_step = _DIRECTION_STEPS[direction or "BOTH"]
        steps = [("V", vertex_id), (edge_step, label) if label is not None else (edge_step,)]
        steps += [("has", k, p) for k, p in conditions]
    else:
        # rule 4: without vertex_id and page, direction is ignored
        steps = [("E",)]
        if label is not None:
            steps.append(("hasLabel", label))
        steps += [("has", k, p) for k, p in conditions]
    window = c.window_step(page, offset, limit)
    if window is not None:
        steps.append(window)
    if vertex_id is None:
        steps.append(("hgRequireIndex", "edge", label, [[k, p] for k, p in conditions]))
    result = await c.traverse(request, graph, c.ir(*steps))
    if first_page_of_vertex:
        return json_response({"edges": c.edges_json(result), "page": None})
    return c.listing_response("edges", result, page, c.edges_json)


async def get_one(request: Request) -> Response:
    graph = graph_of(request)
    eid = c.edge_id_param(graph, request.scope["path_params"]["id"])
    result = await c.traverse(request, graph, c.point_ir("E", eid), strict=True)
    if not result:
        raise _missing(eid)
    return json_response(c.edges_json(result)[0])


async def delete(request: Request) -> Response:
    graph = graph_of(request)
    try:
        eid = c.edge_id_param(graph, request.path_params["id"])
    except NotFound as e:  # HugeGraph turns a malformed id into a 400 here
        raise IllegalArgument(str(e)) from None
    return await c.delete_element(request, graph, "edge", eid, c.label_param(request))


routes = [
    Route(BASE, create, methods=["POST"]),
    Route(BASE, list_edges, methods=["GET"]),
    Route(BASE + "/batch", create_batch, methods=["POST"]),
    Route(BASE + "/batch", update_batch, methods=["PUT"]),
    Route(BASE + "/{id:path}", get_one, methods=["GET"]),
    Route(BASE + "/{id:path}", update_one, methods=["PUT"]),
    Route(BASE + "/{id:path}", delete, methods=["DELETE"]),
]
