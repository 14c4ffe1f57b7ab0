"""GET an element by id answers the same bytes whether `V(id)` runs as the fused whole-element
step (`steps/point_element.py`, a single-statement read) or as the general step.

One real server holds the same data in four graphs: strict and auto schema modes, each once
with the default strategies and once with `gremlin.strategies=none` (the general path, no
fused step). Every GET by id (vertices, edges, missing and malformed ids) must give the same
status and the same body, byte for byte, from both graphs of a mode.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import ServerFactory

GRAPHS = {
    "sfused": "backend=sqlite\nstore=data/sfused.db\nschema.mode=strict\n",
    "sgeneral": "backend=sqlite\nstore=data/sgeneral.db\nschema.mode=strict\ngremlin.strategies=none\n",
    "afused": "backend=sqlite\nstore=data/afused.db\nschema.mode=auto\n",
    "ageneral": "backend=sqlite\nstore=data/ageneral.db\nschema.mode=auto\ngremlin.strategies=none\n",
}

STRICT_DATA = (
    "s = graph.schema(); s.propertyKey('name').asText().create(); s.propertyKey('age').asInt().create(); "
    "s.propertyKey('tags').asText().valueSet().create(); s.propertyKey('scores').asInt().valueList().create(); "
    "s.propertyKey('weight').asDouble().create(); "
    "s.vertexLabel('person').properties('name', 'age', 'tags', 'scores').primaryKeys('name')"
    ".nullableKeys('age', 'tags', 'scores').create(); "
    "s.vertexLabel('item').useCustomizeNumberId().properties('name').nullableKeys('name').create(); "
    "s.vertexLabel('user').useCustomizeStringId().properties('name').nullableKeys('name').create(); "
    "s.vertexLabel('auto').useAutomaticId().properties('name').nullableKeys('name').create(); "
    "s.edgeLabel('knows').sourceLabel('person').targetLabel('person').properties('weight')"
    ".nullableKeys('weight').create(); "
    "marko = graph.addVertex(T.label, 'person', 'name', 'marko', 'age', 29, 'tags', 'a', 'tags', 'b', "
    "'scores', 3, 'scores', 3, 'scores', 1); "
    "vadas = graph.addVertex(T.label, 'person', 'name', 'vadas'); "
    "graph.addVertex(T.label, 'item', T.id, 7, 'name', 'seven'); "
    "graph.addVertex(T.label, 'user', T.id, 'u1', 'name', 'one'); "
    "graph.addVertex(T.label, 'auto', 'name', 'made'); "
    "marko.addEdge('knows', vadas, 'weight', 0.5); 'ok'"
)

AUTO_DATA = (
    "a = graph.addVertex(T.id, 1, T.label, 'person', 'name', 'marko', 'age', 29); "
    "b = graph.addVertex(T.id, 'x', T.label, 'person', 'name', 'vadas'); "
    "graph.addVertex(T.label, 'thing'); "
    "a.addEdge('knows', b, T.id, 10, 'weight', 0.5); b.addEdge('knows', a, T.id, 'e2'); 'ok'"
)

STRICT_VERTICES = ['"1:marko"', '"1:vadas"', "7", '"u1"', "1", '"1:nobody"', "8", '"7"', "abc", '"', '""']
AUTO_VERTICES = ["1", '"1"', '"x"', "2", "3", '"nobody"', "999", "abc", '"', '""']


@pytest.fixture(scope="module")
def client(server_factory: ServerFactory) -> Iterator[httpx.Client]:
    server = server_factory.start(graphs=GRAPHS)
    with httpx.Client(base_url=server.base_url, timeout=30) as c:
        for graph in GRAPHS:
            script = STRICT_DATA if graph.startswith("s") else AUTO_DATA
            r = c.post("/gremlin", json={"gremlin": script, "aliases": {"graph": graph, "g": f"__g_{graph}"}})
            assert r.status_code == 200, r.text
        yield c
    server.stop()


def _same(client: httpx.Client, fused: str, general: str, path: str) -> httpx.Response:
    a = client.get(f"/graphs/{fused}/graph/{path}")
    b = client.get(f"/graphs/{general}/graph/{path}")
    assert (a.status_code, a.content) == (b.status_code, b.content), path
    return a


def _edge_ids(client: httpx.Client, graph: str) -> list[str]:
    r = client.get(f"/graphs/{graph}/graph/edges")
    return [e["id"] for e in r.json()["edges"]]


@pytest.mark.parametrize("vid", STRICT_VERTICES)
def test_strict_vertex_by_id(client: httpx.Client, vid: str) -> None:
    _same(client, "sfused", "sgeneral", f"vertices/{vid}")


@pytest.mark.parametrize("vid", AUTO_VERTICES)
def test_auto_vertex_by_id(client: httpx.Client, vid: str) -> None:
    _same(client, "afused", "ageneral", f"vertices/{vid}")


def test_the_answers_are_real_vertices_and_errors(client: httpx.Client) -> None:
    marko = _same(client, "sfused", "sgeneral", 'vertices/"1:marko"').json()
    assert marko["id"] == "1:marko" and marko["label"] == "person"
    assert marko["properties"] == {"name": "marko", "age": 29, "tags": ["a", "b"], "scores": [3, 3, 1]}
    assert _same(client, "sfused", "sgeneral", "vertices/7").json()["properties"] == {"name": "seven"}
    missing = _same(client, "sfused", "sgeneral", 'vertices/"1:nobody"')
    assert missing.status_code == 404 and "does not exist" in missing.json()["message"]
    assert _same(client, "afused", "ageneral", "vertices/1").json()["properties"] == {"name": "marko", "age": 29}


def test_edges_by_id(client: httpx.Client) -> None:
    strict = _edge_ids(client, "sfused")
    assert strict == _edge_ids(client, "sgeneral") and len(strict) == 1
    for eid in [*strict, strict[0] + "x", "S1:marko>1>>S1:nobody", "nothing"]:
        _same(client, "sfused", "sgeneral", f"edges/{eid}")
    auto = _edge_ids(client, "afused")
    assert sorted(map(str, auto)) == ["10", "e2"]
    for eid in [10, "e2", 11, "nothing"]:
        _same(client, "afused", "ageneral", f"edges/{eid}")
