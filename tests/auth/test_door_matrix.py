"""The permission matrix through every server door, with users made through HugeGraph's
auth REST API (issue 19, "What it must show"): users × permissions × resource types with
label and property conditions × doors, asserting exactly which elements come back or change.

It needs the authenticating layer (auth records, `/graphs/{g}/auth/...`, HTTP Basic, SASL):
against a server without it, the set-up's first `/auth` call answers 404 and the module is
skipped, saying so. Everything else is a real server process (`hugelite init-store
--admin-password`, `hugelite serve`), httpx and gremlinpython with Basic credentials / SASL.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal

from tests.auth.auth_server import BEIJING, AuthServer, G, start_with_users

#: user -> (permission, [resources]) grants, each through a group and a target of its own
GRANTS: dict[str, list[tuple[str, list[dict[str, Any]]]]] = {
    "reader": [("READ", [BEIJING, {"type": "EDGE"}]), ("EXECUTE", [{"type": "GREMLIN"}])],
    "restonly": [("READ", [{"type": "VERTEX"}, {"type": "EDGE"}])],
    "writer": [("READ", [{"type": "ALL"}]), ("EXECUTE", [{"type": "GREMLIN"}]),
               ("WRITE", [BEIJING]), ("DELETE", [BEIJING])],
    "jobs": [("READ", [BEIJING, {"type": "EDGE"}, {"type": "TASK"}]), ("WRITE", [{"type": "TASK"}]),
             ("EXECUTE", [{"type": "GREMLIN"}])],
    "nobody": [],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AuthServer]:
    yield from start_with_users(tmp_path_factory, GRANTS)


def _ids(r: httpx.Response, key: str) -> list[Any]:
    assert r.status_code == 200, r.text
    return sorted(e["id"] for e in r.json()[key])


def _gremlin(server: AuthServer, who: str, script: str) -> httpx.Response:
    return server.call("POST", "/gremlin", who, json={"gremlin": script, "aliases": {"g": "__g_hugegraph"}})


# ---- the matrix: (door, user) -> what comes back ------------------------------------------------

VERTEX_LIST = {"admin": ["1:josh", "1:marko", "1:vadas", "2:lop"], "reader": ["1:josh", "1:marko"],
               "restonly": ["1:josh", "1:marko", "1:vadas", "2:lop"], "writer": ["1:josh", "1:marko", "1:vadas", "2:lop"],
               "jobs": ["1:josh", "1:marko"], "nobody": []}
GREMLIN_NAMES = {"admin": ["josh", "lop", "marko", "vadas"], "reader": ["josh", "marko"], "restonly": 403,
                 "writer": ["josh", "lop", "marko", "vadas"], "jobs": ["josh", "marko"], "nobody": 403}
KOUT = {"admin": ["1:josh", "1:vadas", "2:lop"], "reader": ["1:josh"], "restonly": ["1:josh", "1:vadas", "2:lop"],
        "writer": ["1:josh", "1:vadas", "2:lop"], "jobs": ["1:josh"]}


@pytest.mark.parametrize("who", sorted(GRANTS) + ["admin"])
def test_graph_list_shows_what_a_user_may_read(server: AuthServer, who: str) -> None:
    """`GET /graphs` lists a graph only to a user with some READ grant on it (HugeGraph filters
    the list by each graph's READ role)."""
    r = server.call("GET", "/graphs", who)
    assert r.status_code == 200, r.text
    reads = who == "admin" or any(perm == "READ" for perm, _ in GRANTS[who])
    assert r.json() == {"graphs": ["hugegraph"] if reads else []}


@pytest.mark.parametrize("who", sorted(VERTEX_LIST))
def test_rest_vertex_list(server: AuthServer, who: str) -> None:
    assert _ids(server.call("GET", f"{G}/graph/vertices", who), "vertices") == VERTEX_LIST[who]


@pytest.mark.parametrize("who", sorted(VERTEX_LIST))
def test_rest_single_vertex(server: AuthServer, who: str) -> None:
    r = server.call("GET", f'{G}/graph/vertices/"1:vadas"', who)
    assert r.status_code == (200 if "1:vadas" in VERTEX_LIST[who] else 403), r.text


@pytest.mark.parametrize("who", sorted(KOUT))
def test_rest_kout(server: AuthServer, who: str) -> None:
    r = server.call("GET", f'{G}/traversers/kout?source="1:marko"&max_depth=1&direction=OUT', who)
    assert r.status_code == 200, r.text
    assert sorted(r.json()["vertices"]) == KOUT[who]


@pytest.mark.parametrize("who", sorted(GREMLIN_NAMES))
def test_gremlin_http(server: AuthServer, who: str) -> None:
    r = _gremlin(server, who, "g.V().values('name')")
    expected = GREMLIN_NAMES[who]
    if expected == 403:
        assert r.status_code == 403, r.text
    else:
        assert r.status_code == 200 and sorted(r.json()["result"]["data"]) == expected


@pytest.mark.parametrize("who", ["reader", "restonly", "writer"])
def test_websocket_eval_and_bytecode(server: AuthServer, who: str) -> None:
    expected = GREMLIN_NAMES[who]
    client = Client(server.ws, "g", username=who, password=f"{who}-pw")
    conn = DriverRemoteConnection(server.ws, "__g_hugegraph", username=who, password=f"{who}-pw")
    try:
        if expected == 403:
            with pytest.raises(GremlinServerError):
                client.submit("g.V().count()", request_options={"aliases": {"g": "__g_hugegraph"}}).all().result()
            with pytest.raises(GremlinServerError):
                traversal().with_(conn).V().count().next()
            return
        got = client.submit("g.V().values('name')", request_options={"aliases": {"g": "__g_hugegraph"}}).all().result()
        assert sorted(got) == expected
        assert sorted(traversal().with_(conn).V().values("name").to_list()) == expected
    finally:
        client.close()
        conn.close()


def test_jobs_and_tasks(server: AuthServer) -> None:
    assert server.call("POST", f"{G}/jobs/gremlin", "reader", json={"gremlin": "g.V().count()"}).status_code == 403
    r = server.call("POST", f"{G}/jobs/gremlin", "jobs", json={"gremlin": "g.V().values('name')"})
    assert r.status_code == 201, r.text
    task = r.json()["task_id"]
    rec: dict[str, Any] = {}
    for _ in range(100):
        rec = server.call("GET", f"{G}/tasks/{task}", "jobs").json()
        if rec.get("task_status") == "success":
            break
        time.sleep(0.1)
    assert sorted(json.loads(rec["task_result"])) == ["josh", "marko"]


def test_writes_change_exactly_what_is_granted(server: AuthServer) -> None:
    before = _ids(server.call("GET", f"{G}/graph/vertices"), "vertices")
    r = server.call("POST", f"{G}/graph/vertices", "writer", json={"label": "person",
                                                                   "properties": {"name": "ann", "city": "Paris"}})
    assert r.status_code == 403
    assert server.call("DELETE", f'{G}/graph/vertices/"1:vadas"', "writer").status_code == 403
    assert server.call("POST", f"{G}/graph/vertices", "reader", json={
        "label": "person", "properties": {"name": "bo", "city": "Beijing"}}).status_code == 403
    assert _ids(server.call("GET", f"{G}/graph/vertices"), "vertices") == before
    r = server.call("POST", f"{G}/graph/vertices", "writer", json={"label": "person",
                                                                   "properties": {"name": "cy", "city": "Beijing"}})
    assert r.status_code == 201, r.text
    assert server.call("DELETE", f'{G}/graph/vertices/"1:cy"', "writer").status_code == 204
    assert _ids(server.call("GET", f"{G}/graph/vertices"), "vertices") == before


def test_administrator_only(server: AuthServer) -> None:
    for who in ("writer", "reader"):
        assert server.call("GET", f"{G}/conf", who).status_code == 403
        assert server.call("GET", f"{G}/mode", who).status_code == 403
    assert server.call("GET", f"{G}/mode").json() == {"mode": "NONE"}
