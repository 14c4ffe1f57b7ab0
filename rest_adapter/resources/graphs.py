"""Graph management: list, show, create and drop graphs; clear; conf; mode; read mode.

Server-level `GET /graphs` lists graphs; everything else is graph-scoped (`routes`, whose
path `/` stands for the graph itself, `/graphs/{graph}`), mounted by `app.py` under both
`/graphs/{graph}` and `/graphspaces/DEFAULT/graphs/{graph}`.

Creating a graph at runtime accepts HugeGraph 1.5's `text/plain` properties body (answered
200, as 1.5 does) and 1.7's JSON object of properties (answered 201); a non-memory graph
gets a `conf/graphs/<name>.properties` file so it is there again after a restart.

A sqlite graph created over REST keeps its store in the server's data folder (issue 16): `store`
is what it is in HugeGraph, the backend store's *name* (`store=hugegraph2`), and names the
file `data/<store>.db` (default: the graph's name; `data/<store>.db` itself is accepted
too); any other path is refused with a 400. A file
already there that is not a hugelite store is refused untouched, and dropping a graph
deletes its store only when hugelite created that file (`storage.remove_store_files`).
A PostgreSQL graph created over REST (`backend=postgresql`, issue 24) keeps its database,
named by `store` (default: the graph's name), on a server one of the served graphs already
uses; `?clone_graph_name=G` copies G's server keys. Dropping it drops that database when
hugelite created it (`graph_config.remove_store`).
Create, drop and clear become administrator-only once authentication exists (issue 19).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from gremlin_engine import GraphConfig, IllegalArgument
from gremlin_engine.auth.permissions import READ, permissions_of
from rest_adapter.context import (
    execution_context,
    graph_of,
    json_response,
    no_content,
    principal_of,
    query_one,
    read_json,
    registry_of,
    run,
    settings_of,
)
from rest_adapter.errors import bad_request
from rest_adapter.settings import GRAPH_NAME_RE, check_graph_name, parse_properties

log = logging.getLogger("hugelite.rest")
Handler = Callable[[Request], Awaitable[Response]]

CONFIRM_CLEAR = "I'm sure to delete all data"
CONFIRM_DROP = "I'm sure to drop the graph"


def _info(graph: object) -> dict[str, str]:
    return {"name": graph.name, "backend": graph.backend}  # type: ignore[attr-defined]


async def list_graphs(request: Request) -> Response:
    """The served graphs a caller may read something of, as HugeGraph filters the list by
    each graph's READ role (everything for the administrator, and with auth off)."""
    names = registry_of(request).names()
    permissions = permissions_of(principal_of(request.scope))
    return json_response({"graphs": [n for n in names if permissions.may(n, READ, "NONE")]})


async def get_graph(request: Request) -> Response:
    return json_response(_info(graph_of(request)))


async def _config_from_body(request: Request, name: str) -> tuple[GraphConfig, bool]:
    """(config, came as JSON). A JSON body is an object of property values; any other body
    is `.properties` text. `clone_graph_name` starts from an existing graph's properties."""
    base: dict[str, str] = {}
    clone = query_one(request, "clone_graph_name")
    if clone:
        src = registry_of(request).get(clone)
        base = src.config.clone_properties()
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = (await request.body()).decode("utf-8", errors="replace")
    as_json = ctype == "application/json" or (not ctype.startswith("text/") and raw.lstrip().startswith("{"))
    text = ""
    if as_json and raw.strip():
        body = await read_json(request, dict)
        props = dict(base)
        for k, v in body.items():
            if isinstance(v, (dict, list)):
                raise bad_request(f"The graph config value of '{k}' must be a string, number or boolean")
            props[str(k)] = str(v).lower() if isinstance(v, bool) else str(v)
        props.pop("gremlin.graph", None)
    else:
        if not raw.strip() and not base:
            raise bad_request("The graph config can't be empty")
        props = {**base, **parse_properties(raw)}
        text = "" if base or "store" in props else raw
    if (props.get("backend") or "sqlite").strip().lower() != "postgresql":
        props["store"] = _confined_store(name, props.get("store"))
    cfg = GraphConfig.from_properties(name, props, text=text)
    if cfg.url is not None:
        _confined_server(request, cfg)
    return cfg, as_json


def _confined_server(request: Request, cfg: GraphConfig) -> None:
    """A PostgreSQL graph created over REST keeps its database on a server the server's own
    graphs already use (the same host, port and user), as a sqlite one keeps its file in the
    data folder: a request may not make the server connect wherever it names."""
    served = {(c.url.host, c.url.port, c.url.username)
              for c in (g.config for g in registry_of(request).graphs()) if c.url is not None}
    if (cfg.url.host, cfg.url.port, cfg.url.username) not in served:
        raise bad_request(
            f"The graph config names the PostgreSQL server {cfg.url.host}:{cfg.url.port} (user "
            f"'{cfg.url.username}'), which none of the served graphs uses: a graph created over REST may only "
            f"use a server a configured graph uses (clone one with ?clone_graph_name=GRAPH)")


_DATA_FILE = re.compile(re.escape(GraphConfig.store_in_data_folder("@")).replace("@", "([^/]*)"))


def _confined_store(graph: str, store: str | None) -> str:
    """The store file a graph created over REST gets: `data/<store name>.db`, never a
    client's path (see the module docstring)."""
    store = (store or "").strip() or graph
    in_data = _DATA_FILE.fullmatch(store)  # the data folder's own form, `data/<name>.db`
    store = in_data.group(1) if in_data else store
    if not GRAPH_NAME_RE.match(store):
        raise bad_request(
            f"The graph config 'store' must be a store name (a letter, then letters, digits or '_'), "
            f"not a path: a graph created over REST keeps its store in the server's data folder "
            f"as {GraphConfig.store_in_data_folder('<store>')}"
        )
    return GraphConfig.store_in_data_folder(store)


def _one_process(request: Request, what: str, name: str) -> None:
    """A graph created or dropped at runtime would be so in the answering process only when
    several serve the stores (`rest_adapter/workers.py`): refused, with the way that works."""
    settings = settings_of(request)
    if settings is not None and settings.workers > 1:
        raise IllegalArgument(
            f"Can't {what} the graph '{name}' at runtime while {settings.workers} server processes serve the "
            f"stores (--workers): only the process answering would see it. Change conf/graphs/{name}.properties "
            f"(then hugelite init-store) and restart the server")


async def create_graph(request: Request) -> Response:
    name = check_graph_name(request.path_params["graph"])
    _one_process(request, "create", name)
    registry = registry_of(request)
    if name in registry:
        raise IllegalArgument(f"The graph '{name}' has existed")
    cfg, as_json = await _config_from_body(request, name)
    graph = await run(request, registry.create, cfg, ctx=execution_context(request))
    settings = settings_of(request)
    conf_file = settings.graph_file(name) if settings is not None else None
    if conf_file is not None and cfg.backend != "memory":
        try:
            conf_file.write_text(cfg.text if cfg.text else cfg.properties_text(), encoding="utf-8")
        except OSError as e:  # the graph works; it just won't come back after a restart
            log.warning("could not write %s: %s", conf_file, e)
    return json_response(_info(graph), status=201 if as_json else 200)


async def drop_graph(request: Request) -> Response:
    name = request.path_params["graph"]
    registry = registry_of(request)
    registry.get(name)
    _one_process(request, "drop", name)
    if query_one(request, "confirm_message") != CONFIRM_DROP:
        raise IllegalArgument(f"Please take the message: {CONFIRM_DROP}")
    await run(request, registry.drop, name, ctx=execution_context(request))
    settings = settings_of(request)
    conf_file = settings.graph_file(name) if settings is not None else None
    if conf_file is not None and conf_file.exists():
        conf_file.unlink()
    return no_content()


async def get_conf(request: Request) -> Response:
    graph = graph_of(request)
    text = graph.config_text(ctx=execution_context(request))
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")


async def clear_graph(request: Request) -> Response:
    graph = graph_of(request)
    if query_one(request, "confirm_message") != CONFIRM_CLEAR:
        raise IllegalArgument(f"Please take the message: {CONFIRM_CLEAR}")
    await run(request, graph.clear, ctx=execution_context(request))
    return no_content()


async def _mode_body(request: Request, what: str) -> str:
    value = await read_json(request, (str, type(None)), required=False)
    if value is None:
        raise IllegalArgument(f"{what} can't be null")
    return value


def _mode_handlers(key: str, attr: str, what: str) -> tuple[Handler, Handler]:
    """GET and PUT of one of a graph's modes: both answer `{key: mode}`; the getter is the
    graph's `attr`, the setter its `set_<attr>`, and `what` names the mode when PUT's body
    is null (HugeGraph's message)."""

    async def get(request: Request) -> Response:
        graph = graph_of(request)
        return json_response({key: await run(request, graph.mode_of, attr, ctx=execution_context(request))})

    async def put(request: Request) -> Response:
        graph = graph_of(request)
        mode = await _mode_body(request, what)
        setter = getattr(graph, "set_" + attr)
        return json_response({key: await run(request, setter, mode, ctx=execution_context(request))})

    get.__name__, put.__name__ = f"get_{attr}", f"put_{attr}"  # the routes' names, as before
    return get, put


get_mode, put_mode = _mode_handlers("mode", "mode", "Graph mode")
get_read_mode, put_read_mode = _mode_handlers("graph_read_mode", "read_mode", "Graph-read-mode")


server_routes = [Route("/graphs", list_graphs, methods=["GET"])]

routes = [
    Route("/", get_graph, methods=["GET"]),
    Route("/", create_graph, methods=["POST"]),
    Route("/", drop_graph, methods=["DELETE"]),
    Route("/conf", get_conf, methods=["GET"]),
    Route("/clear", clear_graph, methods=["DELETE"]),
    Route("/mode", get_mode, methods=["GET"]),
    Route("/mode", put_mode, methods=["PUT"]),
    Route("/graph_read_mode", get_read_mode, methods=["GET"]),
    Route("/graph_read_mode", put_read_mode, methods=["PUT"]),
]
