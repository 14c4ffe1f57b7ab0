"""Traversers and rank: `/graphs/{g}/traversers/...` (spec: Traversers, Rank; reference §7).

Every handler is the same three lines: build the request map (query parameters or the JSON
body), run ONE traversal `inject(request).hg_<algorithm>()` (the engine steps of
`gremlin_engine/algorithms/`), and serialise the one result map with HugeGraph's JSON shapes.
No handler walks the graph. Value checks (depth, degree, capacity, alpha, labels, missing
vertices) happen in the engine step and come back as 400s worded as HugeGraph's. Traversals
run on the app's worker pool and stop when their client disconnects (`_answer`).

=============================  ======  ==========================================  ======
path                           method  step                                        status
=============================  ======  ==========================================  ======
kout, kneighbor                GET/POST `hg_kout`, `hg_kneighbor`                   200
sameneighbors, jaccard...      GET/POST `hg_sameneighbors`, `hg_jaccardsimilarity`  200
shortestpath, allshortest...,  GET     `hg_shortestpath`, ...                       200
weighted..., singlesource...
multinodeshortestpath          POST    `hg_multinodeshortestpath`                   200
paths                          GET/POST `hg_paths`                                  200
customizedpaths                POST    `hg_customizedpaths`                         201
templatepaths                  POST    `hg_templatepaths`                           200
crosspoints                    GET     `hg_crosspoints`                             200
customizedcrosspoints          POST    `hg_customizedcrosspoints`                   201
rings, rays                    GET     `hg_rings`, `hg_rays`                        200
fusiformsimilarity             POST    `hg_fusiformsimilarity`                      200
adamicadar, resourceallocation GET     `hg_adamicadar`, `hg_resourceallocation`     200
count                          POST    `hg_count`                                   200
edgeexist                      GET     `hg_edgeexist`                               200
vertices, edges                GET     `hg_vertices`, `hg_edges`                    200
{vertices,edges}/shards, scan  GET     `hg_shards`, `hg_scan`                       200
personalrank, neighborrank     POST    `hg_personalrank`, `hg_neighborrank`         200
=============================  ======  ==========================================  ======
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine import Graph
from gremlin_engine.context import ExecutionContext
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from rest_adapter.context import JSONBytes, graph_of, json_bytes, read_json, run_watched
from rest_adapter.resources._traverser_params import query_request
from rest_adapter.serializers.hugegraph_json import to_json

BASE = "/traversers"
Handler = Callable[[Request], Awaitable[Response]]

def traversal(step: str, req: dict[str, Any]) -> TraversalIR:
    """`g.inject(req).<step>()`: the whole request as one engine traversal."""
    last = _STEPS.get(step)
    if last is None:
        last = _STEPS[step] = Instruction(step, ())
    return TraversalIR((), (Instruction("inject", (req,)), last))


#: step name -> its argument-less instruction (immutable, so one serves every request)
_STEPS: dict[str, Instruction] = {}


def _cardinality(graph: Graph) -> Callable[[str], Any]:
    schema = graph.schema

    def card(key: str) -> Any:
        pk = schema.property_key(key)
        return pk.cardinality if pk is not None else None

    return card


async def _answer(request: Request, graph: Graph, step: str, req: dict[str, Any], status: int) -> Response:
    """Runs the request's one traversal on the app's worker pool through the engine's
    general entry (`graph.traverse`), stopped when the client disconnects
    (`context.run_watched`), and serialises its one result map there too."""
    return JSONBytes(await run_watched(request, _answer_body, graph, step, req), status)


def _answer_body(graph: Graph, step: str, req: dict[str, Any], ctx: ExecutionContext) -> bytes:
    """The run and its JSON, both in the pool: a large answer (93k paths of `rays`, 4.7 MB)
    took ~2 s to write out, which on the event loop held every other client that long."""
    return _body(graph.traverse(traversal(step, req), ctx=ctx)[0], graph)


def _body(result: Any, graph: Graph) -> bytes:
    """The JSON of one result map: `json_bytes(to_json(result))`, byte for byte.

    A light answer is already what `to_json` would make of it (`_json_ready`), so it is
    encoded as it is, without `to_json`'s walk over every value (~7 us a count answer, more
    per id listed). Its ints are not range-checked: orjson encodes exactly the ints
    `to_json` passes as they are (-2**63 <= v < 2**64) and refuses any other, which then
    takes `to_json` (exact text) like every other shape."""
    if _json_ready(result):
        try:
            return orjson.dumps(result)
        except orjson.JSONEncodeError:
            pass  # an int beyond 64 bits: `to_json` writes it as exact text
    return json_bytes(to_json(result, _cardinality(graph)))


def _json_ready(result: Any) -> bool:
    """Whether `to_json(result)` would equal `result` but for ints beyond 64 bits: a map
    with str keys of ints (a count), maps of ints (`measure`), and lists of `Long`/int/str
    ids (k-out / k-neighbor; orjson writes a `Long` as the int). Anything else (elements,
    paths, floats, bools, other id types) is not."""
    if type(result) is not dict:
        return False
    if len(result) == 2:  # a light answer's two shapes, known without the walk below
        m = result.get("measure")
        if type(m) is dict and m.keys() == _MEASURE and _INTS.issuperset(map(type, m.values())):
            keys = result.keys()
            if keys == _COUNT:
                t = type(result["vertices_size"])
                if t is int or t is Long:
                    return True
            elif keys == _LISTING:
                v = result["vertices"]
                if type(v) is list and _IDS.issuperset(map(type, v)):
                    return True
    return _json_ready_walk(result)


def _json_ready_walk(result: dict[Any, Any]) -> bool:
    """`_json_ready` for any map: every value walked (the shortcut above must agree)."""
    if not _STR.issuperset(map(type, result)):
        return False
    for v in result.values():
        t = type(v)
        if t is int or t is Long:
            continue
        if t is dict:
            if _STR.issuperset(map(type, v)) and _INTS.issuperset(map(type, v.values())):
                continue
        elif t is list:
            if _IDS.issuperset(map(type, v)):
                continue
        return False
    return True


_STR = frozenset({str})
_COUNT = frozenset({"vertices_size", "measure"})
_LISTING = frozenset({"vertices", "measure"})
_MEASURE = frozenset({"edge_iterations", "vertice_iterations", "cost(ns)"})
_INTS = frozenset({int, Long})
_IDS = frozenset({int, Long, str})


def get(endpoint: str, step: str, extra: dict[str, Any] | None = None) -> Handler:
    async def handler(request: Request) -> Response:
        graph = graph_of(request)
        req = query_request(request, endpoint)
        if extra:
            req.update(extra)
        return await _answer(request, graph, step, req, 200)

    handler.__name__ = f"get_{endpoint}"
    return handler


def post(step: str, status: int = 200) -> Handler:
    async def handler(request: Request) -> Response:
        graph = graph_of(request)
        body = await read_json(request, dict)
        return await _answer(request, graph, step, body, status)

    handler.__name__ = f"post_{step}"
    return handler


def _post_marked(step: str, marker: str) -> Handler:
    """POST forms of endpoints whose GET form shares the step: the body must carry the key
    that tells the step which form it is (`steps`, `vertex_list`, `step`, `sources`)."""

    async def handler(request: Request) -> Response:
        graph = graph_of(request)
        body = await read_json(request, dict)
        body.setdefault(marker, None)
        return await _answer(request, graph, step, body, 200)

    handler.__name__ = f"post_{step}"
    return handler


routes = [
    Route(f"{BASE}/kout", get("kout", "hg_kout"), methods=["GET"]),
    Route(f"{BASE}/kout", _post_marked("hg_kout", "steps"), methods=["POST"]),
    Route(f"{BASE}/kneighbor", get("kneighbor", "hg_kneighbor"), methods=["GET"]),
    Route(f"{BASE}/kneighbor", _post_marked("hg_kneighbor", "steps"), methods=["POST"]),
    Route(f"{BASE}/sameneighbors", get("sameneighbors", "hg_sameneighbors"), methods=["GET"]),
    Route(f"{BASE}/sameneighbors", _post_marked("hg_sameneighbors", "vertex_list"), methods=["POST"]),
    Route(f"{BASE}/jaccardsimilarity", get("jaccardsimilarity", "hg_jaccardsimilarity"), methods=["GET"]),
    Route(f"{BASE}/jaccardsimilarity", _post_marked("hg_jaccardsimilarity", "step"), methods=["POST"]),
    Route(f"{BASE}/shortestpath", get("shortestpath", "hg_shortestpath"), methods=["GET"]),
    Route(f"{BASE}/allshortestpaths", get("allshortestpaths", "hg_allshortestpaths"), methods=["GET"]),
    Route(f"{BASE}/weightedshortestpath", get("weightedshortestpath", "hg_weightedshortestpath"), methods=["GET"]),
    Route(f"{BASE}/singlesourceshortestpath", get("singlesourceshortestpath", "hg_singlesourceshortestpath"),
          methods=["GET"]),
    Route(f"{BASE}/multinodeshortestpath", post("hg_multinodeshortestpath"), methods=["POST"]),
    Route(f"{BASE}/paths", get("paths", "hg_paths"), methods=["GET"]),
    Route(f"{BASE}/paths", _post_marked("hg_paths", "sources"), methods=["POST"]),
    Route(f"{BASE}/customizedpaths", post("hg_customizedpaths", 201), methods=["POST"]),
    Route(f"{BASE}/templatepaths", post("hg_templatepaths"), methods=["POST"]),
    Route(f"{BASE}/crosspoints", get("crosspoints", "hg_crosspoints"), methods=["GET"]),
    Route(f"{BASE}/customizedcrosspoints", post("hg_customizedcrosspoints", 201), methods=["POST"]),
    Route(f"{BASE}/rings", get("rings", "hg_rings"), methods=["GET"]),
    Route(f"{BASE}/rays", get("rays", "hg_rays"), methods=["GET"]),
    Route(f"{BASE}/fusiformsimilarity", post("hg_fusiformsimilarity"), methods=["POST"]),
    Route(f"{BASE}/adamicadar", get("adamicadar", "hg_adamicadar"), methods=["GET"]),
    Route(f"{BASE}/resourceallocation", get("resourceallocation", "hg_resourceallocation"), methods=["GET"]),
    Route(f"{BASE}/count", post("hg_count"), methods=["POST"]),
    Route(f"{BASE}/edgeexist", get("edgeexist", "hg_edgeexist"), methods=["GET"]),
    Route(f"{BASE}/vertices", get("vertices", "hg_vertices"), methods=["GET"]),
    Route(f"{BASE}/vertices/shards", get("shards", "hg_shards", {"kind": "vertex"}), methods=["GET"]),
    Route(f"{BASE}/vertices/scan", get("scan", "hg_scan", {"kind": "vertex"}), methods=["GET"]),
    Route(f"{BASE}/edges", get("edges", "hg_edges"), methods=["GET"]),
    Route(f"{BASE}/edges/shards", get("shards", "hg_shards", {"kind": "edge"}), methods=["GET"]),
    Route(f"{BASE}/edges/scan", get("scan", "hg_scan", {"kind": "edge"}), methods=["GET"]),
    Route(f"{BASE}/personalrank", post("hg_personalrank"), methods=["POST"]),
    Route(f"{BASE}/neighborrank", post("hg_neighborrank"), methods=["POST"]),
]
