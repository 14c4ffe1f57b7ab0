"""`/openapi.json` built from the app's own route table, so it can never miss a route.

Every HTTP route the router holds (the graph mounts walked down to their routes, both path
families, the server routes) becomes an operation. Its description is the row of
`operations.OPERATIONS` for its method and classic path; a route without a row still
appears, with a generic JSON operation marked `x-hugelite-undescribed` (`undescribed()`
lists them for the test that keeps the table complete). WebSocket routes (`/gremlin`'s
Gremlin Server protocol) and static-file mounts (Swagger UI's assets) are not REST
operations and are left out.

Every operation answers its errors with HugeGraph's body (`components.schemas.Error`). The
document's security (Basic or Bearer) applies when auth is on; the public routes
(`rest_adapter.auth.PUBLIC_PATHS`) say `security: []`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from starlette.routing import BaseRoute, Mount, Route

from rest_adapter.auth import PUBLIC_PATHS
from rest_adapter.openapi.operations import OPERATIONS, Operation, Param
from rest_adapter.openapi.schemas import COMPONENTS, STRING, Schema, ref

OPENAPI_VERSION = "3.1.0"
GRAPHSPACE = "/graphspaces/DEFAULT/graphs/"
#: HugeGraph 1.7's auth layouts: their routes share the rows of 1.5's `/graphs/{graph}/auth/...`
AUTH_LAYOUTS = ("/graphspaces/DEFAULT/auth/", "/auth/")
CLASSIC_AUTH = "/graphs/{graph}/auth/"
_CONVERTER = re.compile(r"\{(\w+):\w+\}")
_PARAM = re.compile(r"\{(\w+)\}")
PATH_PARAMS: dict[str, str] = {
    "graph": "the graph's name",
    "id": "a vertex id as a JSON literal (\"1:marko\", 1001), an edge id as it is, or a task id",
    "name": "a schema element's name",
    "key": "a variable's name",
    "kind": "indexlabels, vertexlabels or edgelabels",
}
AUTH_ID = "an auth record's id: -63:<user_name>, -69:<group_name>, -77:<target_name>, or a belong's or access's id"
#: both accepted whenever auth is on (`rest_adapter/auth.py`); with auth off, none is needed
SECURITY_SCHEMES: dict[str, Any] = {
    "basic": {"type": "http", "scheme": "basic", "description": "a user's name and password"},
    "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
               "description": "a token from `POST /auth/login`"},
}


def http_routes(routes: Iterable[BaseRoute], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, OpenAPI path) of every HTTP route, mounted ones under their mount; HEAD,
    which Starlette adds to every GET, is not an operation of its own."""
    for route in routes:
        if isinstance(route, Mount):
            yield from http_routes(route.routes, prefix + route.path)
        elif isinstance(route, Route):
            path = _CONVERTER.sub(r"{\1}", prefix + route.path)
            for method in sorted(route.methods or ()):
                if method != "HEAD":
                    yield method, path


def classic(path: str) -> str:
    """The `/graphs/{graph}/...` spelling of a graphspace path or a 1.7 auth path (its row in
    `OPERATIONS`), so each layout of a route shares one row."""
    if path.startswith(GRAPHSPACE):
        return "/graphs/" + path[len(GRAPHSPACE):]
    for layout in AUTH_LAYOUTS:
        if path.startswith(layout):
            return CLASSIC_AUTH + path[len(layout):]
    return path


def undescribed(routes: Iterable[BaseRoute]) -> list[str]:
    """`METHOD path` of every route served without a row in `OPERATIONS`."""
    return sorted({f"{m} {classic(p)}" for m, p in http_routes(routes) if (m, classic(p)) not in OPERATIONS})


def _parameters(path: str, op: Operation | None, graphs: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in _PARAM.findall(path):
        schema: Schema = dict(STRING)
        if name == "graph" and graphs:
            schema["examples"] = graphs
        out.append({"name": name, "in": "path", "required": True, "schema": schema,
                    "description": _path_param(name, path)})
    for p in op.query if op else ():
        out.append(_query(p))
    return out


def _path_param(name: str, path: str) -> str:
    """What a path parameter is: an `{id}` below `auth/` is a record's, not an element's."""
    if name == "id" and classic(path).startswith(CLASSIC_AUTH):
        return AUTH_ID
    return PATH_PARAMS.get(name, "")


def _query(p: Param) -> dict[str, Any]:
    param: dict[str, Any] = {"name": p.name, "in": "query", "required": p.required, "schema": p.schema}
    if p.description:
        param["description"] = p.description
    if p.schema.get("type") == "array":
        param["explode"] = True  # repeated: `?ids=1&ids=2`
    return param


def _operation(method: str, path: str, graphs: list[str]) -> dict[str, Any]:
    op = OPERATIONS.get((method, classic(path)))
    twin = path.startswith(GRAPHSPACE)
    out: dict[str, Any] = {
        "operationId": method.lower() + re.sub(r"[^A-Za-z0-9]+", "_", path).rstrip("_"),
        "tags": ["graphspaces" if twin else (op.tag if op else "undescribed")],
        "summary": op.summary if op else f"{method} {path}",
        "parameters": _parameters(path, op, graphs),
    }
    if path in PUBLIC_PATHS:
        out["security"] = []  # answered without credentials even with auth on
    if op is not None and op.description:
        out["description"] = op.description
    if op is None:
        out["x-hugelite-undescribed"] = True
        if method in ("POST", "PUT"):
            out["requestBody"] = {"required": False, "content": {"application/json": {"schema": ref("Object")}}}
        ok: dict[str, Any] = {"description": "the answer", "content": {"application/json": {"schema": {}}}}
        out["responses"] = {"2XX": ok, **_errors()}
        return out
    if op.body is not None:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": op.body}}}
    answer: dict[str, Any] = {"description": op.summary}
    if op.answer is not None:
        answer["content"] = {op.media: {"schema": op.answer}}
    out["responses"] = {str(op.status): answer, **_errors()}
    return out


def _errors() -> dict[str, Any]:
    body = {"content": {"application/json": {"schema": ref("Error")}}}
    return {"4XX": {"description": "a client error, HugeGraph's body", **body},
            "503": {"description": "the graph's store is not initialised", **body}}


def build_document(routes: Iterable[BaseRoute], version: str, graphs: list[str] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of `routes` (an app's `routes`); `graphs` are offered as
    examples of the `{graph}` parameter."""
    paths: dict[str, dict[str, Any]] = {}
    for method, path in http_routes(routes):
        paths.setdefault(path, {})[method.lower()] = _operation(method, path, graphs or [])
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "hugelite",
            "version": version,
            "summary": "Apache HugeGraph's REST interface over SQLite",
            "description": "Every route is served under `/graphs/{graph}` and under "
                           "`/graphspaces/DEFAULT/graphs/{graph}`; the auth routes under "
                           "`/graphs/{graph}/auth`, `/graphspaces/DEFAULT/auth` and `/auth`. "
                           "Errors are HugeGraph's body. With auth on (`auth.authenticator`), every "
                           "route but the public ones needs HTTP Basic or a Bearer token; with it off "
                           "(the default), no credentials are needed. "
                           "The Gremlin Server WebSocket protocol on `/gremlin` is not described here.",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": COMPONENTS, "securitySchemes": SECURITY_SCHEMES},
        "security": [{name: []} for name in SECURITY_SCHEMES],
    }
