"""The auth records over REST: users, groups, targets, belongs, accesses; login, logout, verify.

Two layouts, one set of handlers (HugeGraph moved them between 1.5 and 1.7, and
hugegraph-python 1.7.1 sends the 1.7 ones):

==========================================  =============================================
1.5 (graph-scoped, the graph must exist)    1.7
==========================================  =============================================
`/graphs/{g}/auth/users[/{id}[/role]]`      `/graphspaces/DEFAULT/auth/users[/{id}[/role]]`
`/graphs/{g}/auth/groups[/{id}]`            `/auth/groups[/{id}]` (and under the graphspace)
`/graphs/{g}/auth/{targets,belongs,         `/graphspaces/DEFAULT/auth/{targets,belongs,
accesses}[/{id}]`                           accesses}[/{id}]`
`/graphs/{g}/auth/{login,logout,verify}`    `/auth/{login,logout,verify}`
==========================================  =============================================

A handler is a translation: the request's principal (`rest_adapter/auth.py`) and body go to
`gremlin_engine.auth.AuthRecords` on the worker pool, which applies every rule (fields,
ids, who may do what) in one store transaction. The records are not graph elements, so no
traversal is involved. With auth off (or the static ConfigAuthenticator) there are no
records to manage: a 400 saying how to turn them on.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.auth import BY_PLURAL, AuthenticationFailed, StandardAuthenticator
from rest_adapter.auth import authenticator_of, check_password, principal_of
from rest_adapter.context import graph_of, json_response, no_content, query_int, read_json, run
from rest_adapter.errors import HttpError, bad_request

UNCONFIGURED = ("Unconfigured authenticator, please config auth.authenticator option in rest-server.properties "
                "(org.apache.hugegraph.auth.StandardAuthenticator keeps users, groups, targets, belongs and "
                "accesses)")
LIST_FILTERS = {"belongs": ("user", "group"), "accesses": ("group", "target")}


def _standard(request: Request) -> StandardAuthenticator:
    if "graph" in request.path_params:
        graph_of(request)  # 1.5's paths name a graph, which must exist (404 otherwise)
    authenticator = authenticator_of(request.scope)
    if not isinstance(authenticator, StandardAuthenticator):
        raise HttpError(400, UNCONFIGURED, "java.lang.IllegalStateException")
    return authenticator


def _plural(request: Request) -> str:
    return request.url.path.rstrip("/").split("/auth/", 1)[1].split("/", 1)[0]


async def list_records(request: Request) -> Response:
    records = _standard(request).records
    plural = _plural(request)
    filters = {k: request.query_params.get(k, "") for k in LIST_FILTERS.get(plural, ())}
    limit = query_int(request, "limit", 100)
    rows = await run(request, records.list, principal_of(request.scope), plural, limit, filters)
    return json_response({plural: rows})


async def create_record(request: Request) -> Response:
    records = _standard(request).records
    body = await read_json(request, dict)
    row = await run(request, records.create, principal_of(request.scope), _plural(request), body)
    return json_response(row, status=201)


async def get_record(request: Request) -> Response:
    records = _standard(request).records
    plural = _plural(request)
    row = await run(request, records.get, principal_of(request.scope), plural, request.path_params["id"])
    return json_response({"users": [row]} if plural == "users" else row)


async def update_record(request: Request) -> Response:
    records = _standard(request).records
    body = await read_json(request, dict)
    row = await run(request, records.update, principal_of(request.scope), _plural(request),
                    request.path_params["id"], body)
    return json_response(row)


async def delete_record(request: Request) -> Response:
    records = _standard(request).records
    await run(request, records.delete, principal_of(request.scope), _plural(request), request.path_params["id"])
    return no_content()


async def user_role(request: Request) -> Response:
    records = _standard(request).records
    return json_response(await run(request, records.role, principal_of(request.scope), request.path_params["id"]))


async def login(request: Request) -> Response:
    authenticator = _standard(request)
    body = await read_json(request, dict)
    name, password = body.get("user_name"), body.get("user_password")
    if not name or not isinstance(name, str):
        raise bad_request("The name of user can't be null")
    if not password or not isinstance(password, str):
        raise bad_request("The password of user can't be null")
    principal = await check_password(request.scope, authenticator, name, password)  # throttled
    if principal is None:
        raise HttpError(401, "Incorrect username or password", "jakarta.ws.rs.NotAuthorizedException")
    return json_response({"token": authenticator.issue(principal)})


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "").strip()
    if not header:
        raise bad_request("Request header Authorization must not be null")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise bad_request("Only HTTP Bearer authentication is supported")
    return token.strip()


async def logout(request: Request) -> Response:
    authenticator = _standard(request)
    await run(request, authenticator.logout, _bearer(request))
    return no_content()


async def verify(request: Request) -> Response:
    authenticator = _standard(request)
    token = _bearer(request)
    try:
        return json_response(await run(request, authenticator.verify, token))
    except AuthenticationFailed:
        raise HttpError(401, "Authentication failed", "jakarta.ws.rs.NotAuthorizedException") from None


def _family_routes(prefix: str, families: Any) -> list[Route]:
    out = []
    for plural in families:
        base = f"{prefix}/{plural}"
        out += [
            Route(base, list_records, methods=["GET"]),
            Route(base, create_record, methods=["POST"]),
            Route(base + "/{id}", get_record, methods=["GET"]),
            Route(base + "/{id}", update_record, methods=["PUT"]),
            Route(base + "/{id}", delete_record, methods=["DELETE"]),
        ]
        if plural == "users":
            out.append(Route(base + "/{id}/role", user_role, methods=["GET"]))
    return out


def _login_routes(prefix: str) -> list[Route]:
    return [
        Route(prefix + "/login", login, methods=["POST"]),
        Route(prefix + "/logout", logout, methods=["DELETE"]),
        Route(prefix + "/verify", verify, methods=["GET"]),
    ]


#: 1.5's layout, under each graph prefix (`app.build_routes`)
routes = _family_routes("/auth", BY_PLURAL) + _login_routes("/auth")

#: 1.7's layout: groups at `/auth/groups`, where 1.7's code and hugegraph-python put them, and at
#: `/graphspaces/DEFAULT/auth/groups`, where 1.7's documentation does
server_routes = (_family_routes("/graphspaces/DEFAULT/auth", BY_PLURAL)
                 + _family_routes("/auth", ("groups",)) + _login_routes("/auth"))
