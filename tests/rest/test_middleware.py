"""The app's middleware stack as a client sees it (`rest_adapter/middleware.py` inside
Starlette's own): a bug is a 500 with HugeGraph's body and no Python text, counted under its
route with that status; handled errors keep their status; telemetry names routes by template."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rest_adapter.app import create_app, open_registry
from tests.conftest import SyncASGIClient, _memory_settings


async def _bug(request: Request) -> Response:
    return Response(str(1 // 0))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[SyncASGIClient]:
    settings = _memory_settings(tmp_path)
    registry = open_registry(settings)
    app = create_app(settings, registry=registry)
    app.router.routes.append(Route("/bug", _bug, methods=["GET"]))
    c = SyncASGIClient(app)
    c.app = app  # type: ignore[attr-defined]
    yield c
    c.close()
    registry.close_all()


def test_a_bug_is_a_500_with_hugegraphs_body(client: SyncASGIClient) -> None:
    r = client.get("/bug")
    assert r.status_code == 500
    assert r.json() == {"exception": "class java.lang.RuntimeException",
                        "message": "Internal server error; the server log has the details", "cause": ""}
    counters = client.get("/metrics/counters").json()
    assert counters["GET /bug.status.500"]["count"] == 1


def test_routes_are_counted_by_template(client: SyncASGIClient) -> None:
    assert client.get("/graphs/memgraph/graph/vertices/123").status_code == 404
    assert client.get("/graphspaces/DEFAULT/graphs/memgraph/schema/").status_code == 200
    assert client.get("/graphs/memgraph/nothing").status_code == 404
    counters = client.get("/metrics/counters").json()
    assert counters["GET /graphs/{graph}/graph/vertices/{id:path}.status.404"]["count"] == 1
    assert counters["GET /graphspaces/DEFAULT/graphs/{graph}/schema.status.200"]["count"] == 1
    assert counters["GET (unmatched).status.404"]["count"] == 1
