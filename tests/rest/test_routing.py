"""The indexed router picks exactly the route Starlette's full scan picks, and point reads
run on the event loop only when the store can start a read at once."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from starlette.routing import Match, Router

from rest_adapter.app import build_routes, create_app, open_registry
from rest_adapter.routing import IndexedRouter
from tests.conftest import SyncASGIClient, write_conf

PATHS = [
    "/", "/versions", "/graphs", "/graphs/hugegraph", "/graphs/hugegraph/conf", "/graphs/hugegraph/clear",
    "/graphs/hugegraph/graph/vertices", "/graphs/hugegraph/graph/vertices/batch",
    '/graphs/hugegraph/graph/vertices/"1:marko"', "/graphs/hugegraph/graph/vertices/a/b/c",
    "/graphs/hugegraph/graph/edges/S1:marko>1>>S1:vadas", "/graphs/hugegraph/graph/edges/batch",
    "/graphs/hugegraph/schema", "/graphs/hugegraph/schema/propertykeys/age", "/graphs/hugegraph/tasks/12",
    "/graphs/hugegraph/traversers/kout", "/graphs/hugegraph/jobs/gremlin", "/graphs/hugegraph/variables/x",
    "/graphspaces/DEFAULT/graphs", "/graphspaces/DEFAULT/graphs/hugegraph/graph/vertices/1",
    "/graphspaces/DEFAULT/graphs/hugegraph/schema/vertexlabels/person", "/metrics", "/metrics/statistics",
    "/gremlin", "/nothing/here", "/graphs/hugegraph/graph/nothing", "/graphs//graph/vertices", "",
]


def _first(routes: list, scope: dict) -> tuple[object, object]:
    partial = None
    for r in routes:
        match, _ = r.matches(scope)
        if match is Match.FULL:
            return r, None
        if match is Match.PARTIAL and partial is None:
            partial = r
    return None, partial


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE", "HEAD"])
def test_same_route_as_the_full_scan(method: str) -> None:
    routes = build_routes()
    indexed = IndexedRouter(routes)
    for path in PATHS + EXTRA_PATHS:
        for kind in ("http", "websocket"):
            scope = {"type": kind, "path": path, "root_path": "", "method": method}
            assert _first(indexed.candidates(path), scope) == _first(Router(routes).routes, scope), (kind, path)


EXTRA_PATHS = [
    "/graphs/hugegraph/graph/vertices/", "/graphs/hugegraph/graph/vertices//x", "/graphs/hugegraph/graph/vertices/a\nb",
    "/versions\n", "/graphs/hugegraph/schema/propertykeys/", "/graphs/hugegraph/schema/propertykeys/a/b",
    '/graphs/h%20g/graph/edges/"x y"', "/graphs/hugegraph/graph/vertices/batch/1", "/graphspaces/DEFAULT/graphs/",
    "/graphs/hugegraph/traversers/kout/extra", "/graphs/hugegraph/jobs/rebuild/vertexlabels/person", "//versions",
    "/graphs/hugegraph/tasks/", "/graphs/hugegraph/tasks/12/cancel", "/metrics/system", "versions",
]


def _recording(routes: list) -> tuple[list, list]:
    """The same templates and methods, each endpoint recording (route number, path params)."""
    from starlette.responses import Response
    from starlette.routing import Route, WebSocketRoute

    calls: list = []
    out = []
    for n, r in enumerate(routes):
        if isinstance(r, Route):
            async def endpoint(request, n=n):
                calls.append((n, dict(request.path_params)))
                return Response(b"")
            out.append(Route(r.path, endpoint, methods=r.methods))
        else:
            async def ws_endpoint(websocket, n=n):
                calls.append((n, dict(websocket.path_params)))
            out.append(WebSocketRoute(r.path, ws_endpoint))
    return out, calls


def _dispatch(router, scope: dict, calls: list) -> object:
    import asyncio

    from starlette.exceptions import HTTPException

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        pass

    calls.clear()
    try:
        asyncio.run(router.app(dict(scope), receive, send))
    except HTTPException as e:
        return ("http error", e.status_code, e.headers)
    return ("called", *calls)


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE", "HEAD"])
def test_same_endpoint_and_params_as_starlette(method: str) -> None:
    routes, calls = _recording(build_routes())
    indexed, plain = IndexedRouter(routes), Router(routes)
    for path in PATHS + EXTRA_PATHS:
        scope = {"type": "http", "path": path, "root_path": "", "method": method, "app": object(),
                 "query_string": b"", "headers": []}
        assert _dispatch(indexed, scope, calls) == _dispatch(plain, scope, calls), path


def test_unknown_and_wrong_method_answers_unchanged(app_client: SyncASGIClient) -> None:
    r = app_client.get("/graphs/hugegraph/nothing")
    assert r.status_code == 404
    r = app_client.request("PATCH", "/graphs/hugegraph/graph/vertices")
    assert r.status_code == 405
    assert app_client.get("/graphs/hugegraph/graph/vertices/").status_code == 200  # trailing slash ignored


def test_point_reads_run_inline_only_when_a_read_can_start(tmp_path: Path) -> None:
    from rest_adapter.settings import Settings

    conf = write_conf(tmp_path, {"filegraph": f"backend=sqlite\nstore={tmp_path / 'f.db'}\nschema.mode=auto\n",
                                 "memgraph": "backend=memory\nschema.mode=auto\n"})
    settings = Settings.load(conf)
    from gremlin_engine import GraphRegistry

    for cfg in settings.graphs:
        GraphRegistry.init_store(cfg)
    registry = open_registry(settings)
    client = SyncASGIClient(create_app(settings, registry=registry))
    try:
        seen: list[str] = []
        for name in ("filegraph", "memgraph"):
            graph = registry.get(name)
            r = client.post(f"/graphs/{name}/graph/vertices", json={"label": "dog", "properties": {"name": "rex"}})
            assert r.status_code == 201, r.text
            vid = r.json()["id"]
            original = graph.traverse

            def traced(ir, *a, _orig=original, **kw):
                seen.append(threading.current_thread().name)
                return _orig(ir, *a, **kw)

            graph.traverse = traced  # type: ignore[method-assign]
            r = client.get(f"/graphs/{name}/graph/vertices/{vid}")
            assert r.status_code == 200 and r.json()["properties"] == {"name": "rex"}
            assert client.get(f"/graphs/{name}/graph/vertices/{vid + 1000}").status_code == 404
            graph.traverse = original  # type: ignore[method-assign]
        main = threading.main_thread().name
        assert seen[:2] == [main, main]  # file store: on the event loop
        assert main not in seen[2:]  # memory store: its reads may wait for the writer
        assert registry.get("filegraph").read_ready() and not registry.get("memgraph").read_ready()
    finally:
        client.close()
        registry.close_all()


def test_read_ready_is_false_inside_a_transaction(tmp_path: Path) -> None:
    from storage import open_store

    store = open_store(tmp_path / "s.db")
    store.initialise()
    assert store.read_ready()
    with store.read():
        assert not store.read_ready()
    store.close()
    assert not store.read_ready()
