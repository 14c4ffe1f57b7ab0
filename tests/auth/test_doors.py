"""Every door hands the engine the request's principal, and the engine's checks answer
alike through each: REST vertices, edges, traversers, tasks, `/gremlin`, `/jobs/gremlin`,
WebSocket eval and bytecode (the embedded door is in test_guard.py). A real server process
(principal_server.py: the stock app, with a header standing in for credentials), httpx and
gremlinpython."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal

from tests.wire.server import free_port, write_conf

HERE = Path(__file__).resolve().parent

SCHEMA = (
    "s = graph.schema(); s.propertyKey('name').asText().ifNotExist().create(); "
    "s.propertyKey('city').asText().ifNotExist().create(); s.propertyKey('weight').asDouble().ifNotExist().create(); "
    "s.vertexLabel('person').properties('name', 'city').primaryKeys('name').nullableKeys('city').ifNotExist().create(); "
    "s.vertexLabel('software').properties('name').primaryKeys('name').ifNotExist().create(); "
    "s.edgeLabel('knows').sourceLabel('person').targetLabel('person').properties('weight').nullableKeys('weight')"
    ".ifNotExist().create(); "
    "s.edgeLabel('created').sourceLabel('person').targetLabel('software').ifNotExist().create(); "
    "marko = graph.addVertex(T.label, 'person', 'name', 'marko', 'city', 'Beijing'); "
    "vadas = graph.addVertex(T.label, 'person', 'name', 'vadas', 'city', 'Hongkong'); "
    "josh = graph.addVertex(T.label, 'person', 'name', 'josh', 'city', 'Beijing'); "
    "lop = graph.addVertex(T.label, 'software', 'name', 'lop'); "
    "marko.addEdge('knows', vadas, 'weight', 0.5); marko.addEdge('knows', josh, 'weight', 1.0); "
    "marko.addEdge('created', lop); 'ok'"
)


class PrincipalServer:
    def __init__(self, conf: Path, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/gremlin"
        self.log = conf / "server.log"
        self.proc = subprocess.Popen([sys.executable, str(HERE / "principal_server.py"), str(conf), str(port)],
                                     cwd=str(conf), stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log.read_text())
            try:
                httpx.get(self.base + "/versions", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrincipalServer]:
    port = free_port()
    conf = write_conf(tmp_path_factory.mktemp("doors"), port,
                      graphs={"hugegraph": "backend=memory\nschema.mode=strict\n"})
    srv = PrincipalServer(conf, port)
    try:
        r = httpx.post(srv.base + "/gremlin", json={"gremlin": SCHEMA, "aliases": {"g": "__g_hugegraph",
                                                                                 "graph": "hugegraph"}})
        assert r.status_code == 200, r.text
        yield srv
    finally:
        srv.stop()


G = "/graphs/hugegraph"


def call(server: PrincipalServer, method: str, path: str, who: str | None = None, **kw: Any) -> httpx.Response:
    headers = {"X-Test-Principal": who} if who else {}
    return httpx.request(method, server.base + path, headers=headers, timeout=30, **kw)


def gremlin(server: PrincipalServer, script: str, who: str | None) -> httpx.Response:
    return call(server, "POST", "/gremlin", who, json={"gremlin": script, "aliases": {"g": "__g_hugegraph"}})


def test_rest_element_doors(server: PrincipalServer) -> None:
    r = call(server, "GET", f"{G}/graph/vertices", "beijing")
    assert r.status_code == 200 and sorted(v["id"] for v in r.json()["vertices"]) == ["1:josh", "1:marko"]
    admin = call(server, "GET", f"{G}/graph/vertices")
    assert len(admin.json()["vertices"]) == 4
    r = call(server, "GET", f'{G}/graph/vertices/"1:vadas"', "beijing")
    assert r.status_code == 403, r.text
    assert r.json()["message"].startswith("Permission denied: read Resource{graph=hugegraph,type=VERTEX")
    assert call(server, "GET", f'{G}/graph/vertices/"1:marko"', "beijing").status_code == 200
    assert call(server, "GET", f'{G}/graph/vertices/"1:marko"', "nobody").status_code == 403
    r = call(server, "GET", f"{G}/graph/edges", "beijing")
    assert r.status_code == 200 and len(r.json()["edges"]) == 3  # every edge may be read
    assert call(server, "GET", f"{G}/graph/edges", "nobody").json()["edges"] == []


def test_rest_writes(server: PrincipalServer) -> None:
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


def test_traverser_door(server: PrincipalServer) -> None:
    path = f'{G}/traversers/kout?source="1:marko"&max_depth=1&direction=OUT'
    assert sorted(call(server, "GET", path).json()["vertices"]) == ["1:josh", "1:vadas", "2:lop"]
    assert call(server, "GET", path, "beijing").json()["vertices"] == ["1:josh"]
    # REST traversers are not Gremlin: no EXECUTE on GREMLIN needed
    assert sorted(call(server, "GET", path, "restonly").json()["vertices"]) == ["1:josh", "1:vadas", "2:lop"]


def test_gremlin_http_door(server: PrincipalServer) -> None:
    r = gremlin(server, "g.V().values('name')", "beijing")
    assert r.status_code == 200 and sorted(r.json()["result"]["data"]) == ["josh", "marko"]
    r = gremlin(server, "g.V().count()", "restonly")
    assert r.status_code == 403 and "type=GREMLIN" in r.json()["message"]


def test_job_and_task_doors(server: PrincipalServer) -> None:
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


def test_administrator_only(server: PrincipalServer) -> None:
    for method, path in (("GET", f"{G}/conf"), ("GET", f"{G}/mode"), ("GET", f"{G}/graph_read_mode"),
                         ("DELETE", f"{G}/clear?confirm_message=I%27m+sure+to+delete+all+data")):
        r = call(server, method, path, "writer")
        assert r.status_code == 403 and "needs the administrator" in r.json()["message"], (path, r.text)
    r = call(server, "PUT", f"{G}/mode", "writer", json="LOADING")
    assert r.status_code == 403
    assert call(server, "GET", f"{G}/mode").json() == {"mode": "NONE"}
    assert len(call(server, "GET", f"{G}/graph/vertices").json()["vertices"]) >= 4


def test_websocket_eval_door(server: PrincipalServer) -> None:
    client = Client(server.ws, "g", headers={"X-Test-Principal": "beijing"})
    try:
        got = client.submit("g.V().values('name')", request_options={"aliases": {"g": "__g_hugegraph"}}).all().result()
        assert sorted(got) == ["josh", "marko"]
    finally:
        client.close()
    client = Client(server.ws, "g", headers={"X-Test-Principal": "restonly"})
    try:
        with pytest.raises(GremlinServerError, match="Permission denied: execute"):
            client.submit("g.V().count()", request_options={"aliases": {"g": "__g_hugegraph"}}).all().result()
    finally:
        client.close()


def test_websocket_bytecode_door(server: PrincipalServer) -> None:
    conn = DriverRemoteConnection(server.ws, "__g_hugegraph", headers={"X-Test-Principal": "beijing"})
    try:
        g = traversal().with_(conn)
        assert sorted(g.V().values("name").to_list()) == ["josh", "marko"]
        assert g.V("1:marko").out().values("name").to_list() == ["josh"]
        assert g.E().count().next() == 3
    finally:
        conn.close()
    conn = DriverRemoteConnection(server.ws, "__g_hugegraph", headers={"X-Test-Principal": "restonly"})
    try:
        with pytest.raises(GremlinServerError, match="Permission denied: execute"):
            traversal().with_(conn).V().count().next()
    finally:
        conn.close()


def test_schema_and_variable_routes(server: PrincipalServer) -> None:
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
