"""`GET /versions` and `GET /apis/version`: what this server claims to be.

hugegraph-python probes `/versions` (no auth, 0.5 s timeout) when a client is built and
picks its URL layout from `versions.core`: 1.7 selects the graphspace layout, which this
server also serves. So the answer must be instant: it is a constant and touches no store.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from rest_adapter.console_page import root_html, wants_html
from rest_adapter.context import json_response

HUGEGRAPH_CORE = "1.7.0"
GREMLIN = "3.8.2"
API = "0.71.0.0"
REST_VERSION = "v1"

VERSIONS = {"versions": {"version": REST_VERSION, "core": HUGEGRAPH_CORE, "gremlin": GREMLIN, "api": API}}


async def versions(request: Request) -> Response:
    return json_response(VERSIONS)


async def api_version(request: Request) -> Response:
    return json_response({"version": REST_VERSION, "core": HUGEGRAPH_CORE, "gremlin": GREMLIN, "api": API})


async def root(request: Request) -> Response:
    if wants_html(request):  # a browser: a page linking to the web console
        return HTMLResponse(root_html(request.scope.get("root_path", "")))
    # only what is served: the auth management API is not built yet
    apis = sorted({"graph", "graphs", "gremlin", "metrics", "schema", "tasks", "traversers", "variables"})
    return json_response({"service": "hugegraph", "version": HUGEGRAPH_CORE, "implementation": "hugelite", "apis": apis})


#: server-level routes (not graph-scoped)
server_routes = [
    Route("/versions", versions, methods=["GET"]),
    Route("/apis/version", api_version, methods=["GET"]),
    Route("/", root, methods=["GET"]),
]
routes: list[Route] = []
