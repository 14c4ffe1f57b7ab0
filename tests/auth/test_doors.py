"""Every door hands the engine the request's principal, and the engine's checks answer
alike through each: REST vertices, edges, traversers, schema, variables, tasks, `/gremlin`,
`/jobs/gremlin`, WebSocket eval and bytecode (the embedded door is in test_guard.py). A real
server process with authentication on and its users made through the auth REST API
(auth_server.py), httpx with Basic credentials and gremlinpython with SASL."""

from __future__ import annotations

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

#: the users of these tests: name -> (permission, resources) grants
USERS: dict[str, list[tuple[str, list[dict[str, Any]]]]] = {
    # reads Beijing people and every edge; runs Gremlin
    "beijing": [("READ", [BEIJING, {"type": "EDGE"}]), ("EXECUTE", [{"type": "GREMLIN"}])],
    # reads everything (ALL), runs Gremlin, writes and deletes only Beijing people
    "writer": [("READ", [{"type": "ALL"}]), ("EXECUTE", [{"type": "GREMLIN"}]),
               ("WRITE", [BEIJING]), ("DELETE", [BEIJING])],
    # reads everything but may not run Gremlin (REST only)
    "restonly": [("READ", [{"type": "VERTEX"}, {"type": "EDGE"}])],
    "nobody": [],
    # reads Beijing people and every edge, runs Gremlin, reads and submits tasks
    "jobs": [("READ", [BEIJING, {"type": "EDGE"}, {"type": "TASK"}]), ("WRITE", [{"type": "TASK"}]),
             ("EXECUTE", [{"type": "GREMLIN"}])],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AuthServer]:
    yield from start_with_users(tmp_path_factory, USERS)


def call(server: AuthServer, method: str, path: str, who: str | None = None, **kw: Any) -> httpx.Response:
    return server.call(method, path, who or "admin", **kw)


def gremlin(server: AuthServer, script: str, who: str | None) -> httpx.Response:
    return call(server, "POST", "/gremlin", who, json={"gremlin": script, "aliases": {"g": "__g_hugegraph"}})


def credentials(who: str) -> dict[str, str]:
    return {"username": who, "password": f"{who}-pw"}


def test_rest_element_doors(server: AuthServer) -> None:
    r = call(server, "GET", f"{G}/graph/vertices", "beijing")
    assert r.status_code == 200 and sorted(v["id"] for v in r.json()["vertices"]) == ["1:josh", "1:marko"]
    admin = call(server, "GET", f"{G}/graph/vertices")
    assert len(admin.json()["vertices"]) == 4
    r = call(server, "GET", f'{G}/graph/vertices/"1:vadas"', "beijing")
    assert r.status_code == 403, r.text
    assert r.json()["message"].startswith("Permission denied: read Resource{graph=hugegraph,type=VERTEX")
    # a readable vertex: the administrator's answer, byte for byte (the fused whole-vertex read
    # is the administrator's; a user reads through the permission view)
    mine = call(server, "GET", f'{G}/graph/vertices/"1:marko"', "beijing")
    assert mine.status_code == 200
    assert mine.content == call(server, "GET", f'{G}/graph/vertices/"1:marko"').content
    r = call(server, "GET", f'{G}/graph/vertices/"1:nobody"', "beijing")
    assert r.status_code == 404 and r.json()["message"] == "Vertex '1:nobody' does not exist"
    assert call(server, "GET", f'{G}/graph/vertices/"1:marko"', "nobody").status_code == 403
    r = call(server, "GET", f"{G}/graph/edges", "beijing")
    assert r.status_code == 200 and len(r.json()["edges"]) == 3  # every edge may be read
    assert call(server, "GET", f"{G}/graph/edges", "nobody").json()["edges"] == []


def test_rest_writes(server: AuthServer) -> None:
    body = {"label": "person", "properties": {"name": "ann", "city": "Paris"}}
    r = call(server, "POST", f"{G}/graph/vertices", "writer", json=body)
    assert r.status_code == 403 and "Permission denied: write" in r.json()["message"]
    assert call(server, "GET", f'{G}/graph/vertices/"1:ann"').status_code == 404  # nothing written
    r = call(server, "POST", f"{G}/graph/vertices", "writer", json={**body, "properties": {"name": "bo", "city": "Beijing"}})
    assert r.status_code == 201, r.text
    r = call(server, "DELETE", f'{G}/graph/vertices/"1:vadas"', "writer")
    assert r.status_code == 403 and "Permission denied: delete" in r.json()["message"]
    assert call(server, "DELETE", f'{G}/graph/vertices/"1:bo"', "writer").status_code == 204
    assert call(server, "GET", f'{G}/graph/vertices/"1:vadas"').status_code == 200


def test_traverser_door(server: AuthServer) -> None:
    path = f'{G}/traversers/kout?source="1:marko"&max_depth=1&direction=OUT'
    assert sorted(call(server, "GET", path).json()["vertices"]) == ["1:josh", "1:vadas", "2:lop"]
    assert call(server, "GET", path, "beijing").json()["vertices"] == ["1:josh"]
    # REST traversers are not Gremlin: no EXECUTE on GREMLIN needed
    assert sorted(call(server, "GET", path, "restonly").json()["vertices"]) == ["1:josh", "1:vadas", "2:lop"]


def test_gremlin_http_door(server: AuthServer) -> None:
    r = gremlin(server, "g.V().values('name')", "beijing")
    assert r.status_code == 200 and sorted(r.json()["result"]["data"]) == ["josh", "marko"]
    r = gremlin(server, "g.V().count()", "restonly")
    assert r.status_code == 403 and "type=GREMLIN" in r.json()["message"]


def test_job_and_task_doors(server: AuthServer) -> None:
    r = call(server, "POST", f"{G}/jobs/gremlin", "beijing", json={"gremlin": "g.V().values('name')"})
    assert r.status_code == 403 and "type=TASK" in r.json()["message"]
    r = call(server, "POST", f"{G}/jobs/gremlin", "jobs", json={"gremlin": "g.V().values('name')"})
    assert r.status_code == 201, r.text
    task = r.json()["task_id"]
    for _ in range(100):
        rec = call(server, "GET", f"{G}/tasks/{task}", "jobs").json()
        if rec["task_status"] == "success":
            break
        time.sleep(0.1)
    assert sorted(__import__("json").loads(rec["task_result"])) == ["josh", "marko"]
    assert call(server, "GET", f"{G}/tasks", "beijing").status_code == 403
    assert call(server, "DELETE", f"{G}/tasks/{task}", "jobs").status_code == 403


def test_administrator_only(server: AuthServer) -> None:
    for method, path in (("GET", f"{G}/conf"), ("GET", f"{G}/mode"), ("GET", f"{G}/graph_read_mode"),
                         ("DELETE", f"{G}/clear?confirm_message=I%27m+sure+to+delete+all+data")):
        r = call(server, method, path, "writer")
        assert r.status_code == 403 and "needs the administrator" in r.json()["message"], (path, r.text)
    r = call(server, "PUT", f"{G}/mode", "writer", json="LOADING")
    assert r.status_code == 403
    assert call(server, "GET", f"{G}/mode").json() == {"mode": "NONE"}
    assert len(call(server, "GET", f"{G}/graph/vertices").json()["vertices"]) >= 4


def test_websocket_eval_door(server: AuthServer) -> None:
    client = Client(server.ws, "g", **credentials("beijing"))
    try:
        got = client.submit("g.V().values('name')", request_options={"aliases": {"g": "__g_hugegraph"}}).all().result()
        assert sorted(got) == ["josh", "marko"]
    finally:
        client.close()
    client = Client(server.ws, "g", **credentials("restonly"))
    try:
        with pytest.raises(GremlinServerError, match="Permission denied: execute"):
            client.submit("g.V().count()", request_options={"aliases": {"g": "__g_hugegraph"}}).all().result()
    finally:
        client.close()


def test_websocket_bytecode_door(server: AuthServer) -> None:
    conn = DriverRemoteConnection(server.ws, "__g_hugegraph", **credentials("beijing"))
    try:
        g = traversal().with_(conn)
        assert sorted(g.V().values("name").to_list()) == ["josh", "marko"]
        assert g.V("1:marko").out().values("name").to_list() == ["josh"]
        assert g.E().count().next() == 3
    finally:
        conn.close()
    conn = DriverRemoteConnection(server.ws, "__g_hugegraph", **credentials("restonly"))
    try:
        with pytest.raises(GremlinServerError, match="Permission denied: execute"):
            traversal().with_(conn).V().count().next()
    finally:
        conn.close()


def test_schema_and_variable_routes(server: AuthServer) -> None:
    # listings drop what may not be read; a named element is a 403
    assert call(server, "GET", f"{G}/schema/vertexlabels", "beijing").json() == {"vertexlabels": []}
    assert len(call(server, "GET", f"{G}/schema/vertexlabels").json()["vertexlabels"]) == 2
    assert call(server, "GET", f"{G}/schema/vertexlabels/person", "beijing").status_code == 403
    r = call(server, "POST", f"{G}/schema/propertykeys", "beijing", json={"name": "zz", "data_type": "TEXT"})
    assert r.status_code == 403 and "type=PROPERTY_KEY" in r.json()["message"]
    assert call(server, "GET", f"{G}/schema/propertykeys/zz").status_code == 404
    r = call(server, "PUT", f"{G}/variables/v", "beijing", json={"data": 1})
    assert r.status_code == 403 and "type=VAR" in r.json()["message"]
    assert call(server, "GET", f"{G}/variables").json() == {}
