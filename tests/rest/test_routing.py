"""Routing as a client sees it: the graph routes answer alike under both prefixes (one set of
routes, mounted twice), unknown paths and wrong methods answer HugeGraph's JSON errors, a
trailing slash is ignored, and engine work never runs on the event loop."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rest_adapter.app import create_app, open_registry
from tests.conftest import SyncASGIClient, write_conf

GRAPH_PATHS = [
    "", "/conf", "/mode", "/graph_read_mode", "/graph/vertices", "/graph/edges", "/schema",
    "/schema/propertykeys", "/schema/propertykeys/nothing", "/schema/vertexlabels", "/variables", "/tasks",
    "/tasks/12", "/traversers/kout?source=1&max_depth=1", "/graph/vertices/123", '/graph/vertices/"a/b"',
    "/graph/nothing", "/traversers/kout/extra",
]


@pytest.mark.parametrize("path", GRAPH_PATHS)
def test_both_prefixes_answer_alike(app_client: SyncASGIClient, path: str) -> None:
    plain = app_client.get(f"/graphs/memgraph{path}")
    spaced = app_client.get(f"/graphspaces/DEFAULT/graphs/memgraph{path}")
    assert (plain.status_code, plain.content) == (spaced.status_code, spaced.content)
    assert plain.status_code != 500


def test_graph_listing_under_both_prefixes(app_client: SyncASGIClient) -> None:
    assert app_client.get("/graphs").json() == app_client.get("/graphspaces/DEFAULT/graphs").json()


def test_unknown_and_wrong_method_answers(app_client: SyncASGIClient) -> None:
    r = app_client.get("/graphs/hugegraph/nothing")
    assert r.status_code == 404
    assert r.json()["exception"] == "class jakarta.ws.rs.NotFoundException"
    assert app_client.get("/nothing/here").status_code == 404
    r = app_client.request("PATCH", "/graphs/hugegraph/graph/vertices")
    assert r.status_code == 405
    assert r.json()["exception"] == "class jakarta.ws.rs.NotAllowedException"
    assert app_client.get("/graphs/hugegraph/graph/vertices/").status_code == 200  # trailing slash ignored
    assert app_client.get("/graphs/hugegraph/").status_code == 200


def test_engine_work_runs_on_the_worker_pool(tmp_path: Path) -> None:
    from gremlin_engine import GraphRegistry
    from rest_adapter.settings import Settings

    conf = write_conf(tmp_path, {"filegraph": f"backend=sqlite\nstore={tmp_path / 'f.db'}\nschema.mode=auto\n",
                                 "memgraph": "backend=memory\nschema.mode=auto\n"})
    settings = Settings.load(conf)
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
            assert client.get(f"/graphs/{name}/traversers/kout", params={"source": vid, "max_depth": 1}).status_code == 200
            graph.traverse = original  # type: ignore[method-assign]
        assert len(seen) == 6
        assert all(name.startswith("hugelite-rest") for name in seen), seen
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


def test_server_routes_below_a_segment_answer_as_routes(app_client: SyncASGIClient) -> None:
    """`/metrics/...` and `/auth/...` are grouped under one `Mount` each: every route still
    answers, a wrong method is a 405 naming the route's methods, an unknown path below the
    segment a 404, and the request telemetry names each route by its full path."""
    assert app_client.get("/metrics").status_code == 200
    assert app_client.get("/metrics/system").status_code == 200
    r = app_client.post("/metrics/system")
    assert r.status_code == 405
    assert r.json()["exception"] == "class jakarta.ws.rs.NotAllowedException"
    assert set(r.headers["allow"].split(", ")) == {"GET", "HEAD"}
    r = app_client.get("/metrics/nothing")
    assert r.status_code == 404
    assert r.json()["exception"] == "class jakarta.ws.rs.NotFoundException"
    assert app_client.get("/auth/nothing").status_code == 404
    assert app_client.get("/versions").json()["versions"]["core"] == "1.7.0"
    timers = app_client.get("/metrics/timers").json()
    assert timers["GET /metrics/system"]["count"] == 1
    assert "GET /system" not in timers
