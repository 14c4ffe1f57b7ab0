"""/gremlin running real scripts on the real server: envelope, bindings, aliases, element
shapes, errors, time-outs, gzip, and /jobs/gremlin."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

DROP = "I'm sure to drop the graph"


@pytest.fixture(scope="module")
def graph(server_url: str) -> Iterator[str]:
    """A memory graph in auto schema mode holding marko -created-> lop."""
    name = "gr_" + uuid.uuid4().hex[:8]
    with httpx.Client(base_url=server_url, timeout=30) as c:
        assert c.post(f"/graphs/{name}", json={"backend": "memory", "schema.mode": "auto"}).status_code == 201
        r = c.post("/gremlin", json={
            "gremlin": "g.addV('person').property('name','marko').property('age',29).as('a')"
                       ".addV('software').property('name','lop').addE('created').from('a')"
                       ".property('weight',0.4).iterate()",
            "aliases": {"g": f"__g_{name}"},
        })
        assert r.status_code == 200, r.text
        yield name
        c.delete(f"/graphs/{name}", params={"confirm_message": DROP})


def run(http: httpx.Client, script: str, graph: str | None = None, **extra) -> httpx.Response:
    body = {"gremlin": script, "bindings": {}, "language": "gremlin-groovy", "aliases": {}}
    if graph is not None:
        body["aliases"] = {"g": f"__g_{graph}", "graph": graph}
    body.update(extra)
    return http.post("/gremlin", json=body)


def data(r: httpx.Response) -> list:
    assert r.status_code == 200, r.text
    return r.json()["result"]["data"]


def test_envelope(http: httpx.Client) -> None:
    r = run(http, "1 + 2")
    assert r.status_code == 200
    body = r.json()
    assert list(body) == ["requestId", "status", "result"]
    uuid.UUID(body["requestId"])
    assert body["status"] == {"message": "", "code": 200, "attributes": {}}
    assert body["result"] == {"data": [3], "meta": {}}


def test_get_form(http: httpx.Client, graph: str) -> None:
    r = http.get("/gremlin", params={"gremlin": f"{graph}.traversal().V().count()"})
    assert r.json()["result"]["data"] == [2]
    r = http.get("/gremlin", params={"gremlin": "g.V().has('name', n).values('age')",
                                     "bindings.n": "marko", "aliases.g": f"__g_{graph}"})
    assert data(r) == [29]
    r = http.get("/gremlin", params={"gremlin": "x * 2", "bindings.x": "21"})
    assert data(r) == [42]


def test_bindings(http: httpx.Client, graph: str) -> None:
    assert data(run(http, "x + y", bindings={"x": 40, "y": 2})) == [42]
    assert data(run(http, "g.V().has('name', within(names)).values('name').order()", graph,
                    bindings={"names": ["lop", "marko"]})) == ["lop", "marko"]


def test_graph_names_and_aliases(http: httpx.Client, graph: str) -> None:
    assert data(run(http, f"__g_{graph}.V().count()")) == [2]
    assert data(run(http, "g.V().count()", aliases={"g": f"__g_{graph}"})) == [2]
    assert data(run(http, "graph.traversal().E().count()", aliases={"graph": graph})) == [1]
    # hugegraph-python 1.7 in graphspace mode sends DEFAULT-<graph>
    assert data(run(http, "g.V().count()", aliases={"g": f"__g_DEFAULT-{graph}", "graph": f"DEFAULT-{graph}"})) == [2]


def test_g_is_unbound_without_aliases(http: httpx.Client, graph: str) -> None:
    r = run(http, "g.V().count()")
    assert r.status_code == 400
    body = r.json()
    assert "No such property: g" in body["message"]
    assert body["status"]["code"] == 597
    assert body["exception"] == body["status"]["attributes"]["exceptions"][0]


def test_element_shapes(http: httpx.Client, graph: str) -> None:
    vertices = data(run(http, "g.V().order().by('name')", graph))
    lop, marko = vertices
    assert list(marko) == ["id", "label", "type", "properties"]
    assert marko["label"] == "person" and marko["type"] == "vertex"
    assert marko["properties"] == {"name": "marko", "age": 29}
    (edge,) = data(run(http, "g.E()", graph))
    assert list(edge) == ["id", "label", "type", "outV", "outVLabel", "inV", "inVLabel", "properties"]
    assert edge["outV"] == marko["id"] and edge["inV"] == lop["id"]
    assert (edge["outVLabel"], edge["inVLabel"], edge["properties"]) == ("person", "software", {"weight": 0.4})
    (path,) = data(run(http, "g.V().has('name','marko').as('a').out().path()", graph))
    assert path == {"labels": [["a"], []], "objects": [marko, lop]}
    assert data(run(http, "g.V().has('name','marko').valueMap()", graph)) == [{"name": ["marko"], "age": [29]}]
    grouped = data(run(http, "g.V().group().by(label).by('name')", graph))
    assert grouped == [{"person": ["marko"], "software": ["lop"]}]
    counts = data(run(http, "g.V().groupCount()", graph))
    assert counts == [{str(marko["id"]): 1, str(lop["id"]): 1}]
    (tree,) = data(run(http, "g.V().has('name','marko').out().tree()", graph))
    assert tree == [{"key": marko, "value": [{"key": lop, "value": []}]}]
    props = data(run(http, "g.V().has('name','marko').properties('name')", graph))
    assert props == [{"id": props[0]["id"], "value": "marko", "label": "name"}]


def test_syntax_error(http: httpx.Client) -> None:
    r = run(http, "g.V(")
    assert r.status_code == 400
    body = r.json()
    assert body["exception"] == "groovy.lang.MissingMethodException"
    assert "unexpected end of script at line 1, column 5" in body["message"]
    assert body["status"]["code"] == 597
    assert body["result"] == {"data": None, "meta": {}}


def test_unsupported_construct_is_refused(http: httpx.Client) -> None:
    r = run(http, "System.exit(1)")
    assert r.status_code == 400
    assert "not accessible from scripts" in r.json()["message"]


def test_large_results_are_gzipped(server_url: str, graph: str) -> None:
    with httpx.Client(base_url=server_url) as c:
        r = c.post("/gremlin", json={"gremlin": "g.inject(s)", "bindings": {"s": "y" * 20000},
                                     "aliases": {"g": f"__g_{graph}"}}, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200, r.text
        assert r.headers["content-encoding"] == "gzip"
        assert r.json()["result"]["data"] == ["y" * 20000]


def test_timeout(server_factory) -> None:
    srv = server_factory.start(graphs={"t": "backend=memory\n"},
                               server={"gremlinserver.evaluation_timeout_ms": "300"})
    started = time.monotonic()
    r = httpx.post(f"{srv.base_url}/gremlin", timeout=30, json={
        "gremlin": "g.inject(1).repeat(__.identity()).times(100000000)", "aliases": {"g": "__g_t"}})
    assert time.monotonic() - started < 10
    assert r.status_code == 400
    body = r.json()
    assert body["exception"] == "java.util.concurrent.TimeoutException"
    assert body["status"]["code"] == 598
    assert "300 ms" in body["message"]
    srv.stop()


def test_jobs_gremlin_runs_as_task(http: httpx.Client, graph: str) -> None:
    r = http.post(f"/graphs/{graph}/jobs/gremlin", json={"gremlin": "g.V().count()", "bindings": {},
                                                         "language": "gremlin-groovy", "aliases": {}})
    assert r.status_code == 201
    task_id = r.json()["task_id"]
    assert isinstance(task_id, int) and task_id >= 1
    deadline = time.monotonic() + 20
    while True:
        task = http.get(f"/graphs/{graph}/tasks/{task_id}").json()
        if task["task_status"] in ("success", "failed", "cancelled"):
            break
        assert time.monotonic() < deadline, task
        time.sleep(0.05)
    assert task["task_status"] == "success", task
    assert task["task_type"] == "gremlin"
    assert task["task_result"] == "[2]"
    r = http.post(f"/graphspaces/DEFAULT/graphs/{graph}/jobs/gremlin",
                  json={"gremlin": "g.V().has('name','marko')"})
    assert r.status_code == 201
    task_id = r.json()["task_id"]
    deadline = time.monotonic() + 20
    while (task := http.get(f"/graphs/{graph}/tasks/{task_id}").json())["task_status"] != "success":
        assert time.monotonic() < deadline, task
        time.sleep(0.05)
    assert '"type":"vertex"' in task["task_result"] and '"name":"marko"' in task["task_result"]
