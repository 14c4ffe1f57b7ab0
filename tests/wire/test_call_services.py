"""hugelite's HugeGraph services through `call()`, against the REST traversers on one graph.

A real server holds HugeGraph's documentation example graph (strict schema, ids `1:marko`,
`2:lop`...). Every case asks the same question twice: once as the REST traverser
(`GET/POST /graphs/hugegraph/traversers/<name>`), once through gremlinpython as
`g.call('hugegraph.<name>', params)`, in bytecode and as a script; the answers must be the
same but for `measure` (timings). The registry itself: `g.call()` lists the HugeGraph
services on a HugeGraph (strict) graph, and `verbose` gives their parameters.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import GraphTraversalSource

from tests.algorithms.example_graph import load_example
from tests.wire.server import Server, free_port, write_conf

G = "/graphs/hugegraph"
_IDS = {"source", "target", "vertex", "other"}


class _Resp:
    def __init__(self, status: int, body: bytes) -> None:
        self.status_code = status
        self.text = body.decode()


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    conf = write_conf(tmp_path_factory.mktemp("services"), port,
                      graphs={"hugegraph": "backend=memory\nschema.mode=strict\n"})
    s = Server(conf, port)

    def post(path: str, json: Any) -> _Resp:
        import json as js

        return _Resp(*s.request("POST", path, js.dumps(json), "application/json"))

    load_example(post, G)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def g(strict_server: Server) -> Iterator[GraphTraversalSource]:
    conn = DriverRemoteConnection(strict_server.url, "g")
    yield traversal().with_(conn)
    conn.close()


@pytest.fixture(scope="module")
def client(strict_server: Server) -> Iterator[Client]:
    c = Client(strict_server.url, "g")
    yield c
    c.close()


def rest(server: Server, name: str, params: dict[str, Any], post: bool) -> Any:
    if post:
        status, body = server.request("POST", f"{G}/traversers/{name}", json.dumps(params), "application/json")
    else:
        # ids travel JSON-quoted in HugeGraph's query strings, other values bare
        query = "&".join(f"{k}={quote(json.dumps(v) if k in _IDS else str(v))}" for k, v in params.items())
        status, body = server.request("GET", f"{G}/traversers/{name}?{query}")
    assert status in (200, 201), body
    return json.loads(body)


def groovy(value: Any) -> str:
    """A Groovy literal of a JSON-like value (maps as `[k: v]`)."""
    if isinstance(value, dict):
        return "[" + ", ".join(f"'{k}': {groovy(v)}" for k, v in value.items()) + "]" if value else "[:]"
    if isinstance(value, list):
        return "[" + ", ".join(groovy(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value.replace("'", "\\'") + "'"
    return repr(value)


def plain(value: Any) -> Any:
    """The answer without `measure`, with gremlinpython's containers as JSON's."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if k != "measure"}
    if isinstance(value, list | tuple | set):
        return [plain(v) for v in value]
    return value


CASES = [
    ("kout", {"source": "1:marko", "max_depth": 2}, False),
    ("kneighbor", {"source": "1:marko", "max_depth": 2}, False),
    ("kout", {"source": "1:marko", "max_depth": 1, "with_path": True,
              "steps": {"direction": "BOTH", "edge_steps": [{"label": "knows", "properties": {}}]}}, True),
    ("shortestpath", {"source": "1:marko", "target": "2:ripple", "max_depth": 3}, False),
    ("allshortestpaths", {"source": "1:marko", "target": "1:peter", "max_depth": 3}, False),
    ("paths", {"source": "1:marko", "target": "1:josh", "max_depth": 5}, False),
    ("crosspoints", {"source": "2:lop", "target": "2:ripple", "max_depth": 5, "direction": "IN"}, False),
    ("rays", {"source": "1:marko", "max_depth": 2, "direction": "OUT"}, False),
    ("sameneighbors", {"vertex": "1:marko", "other": "1:josh"}, False),
    ("jaccardsimilarity", {"vertex": "1:marko", "other": "1:josh"}, False),
    ("personalrank", {"source": "1:marko", "label": "created", "max_depth": 3, "with_label": "BOTH_LABEL"}, True),
    ("neighborrank", {"source": "1:marko", "alpha": 0.9, "capacity": -1,
                      "steps": [{"direction": "OUT", "labels": ["knows"], "max_degree": -1, "top": 100},
                                {"direction": "OUT", "labels": ["created"], "max_degree": -1, "top": 100}]}, True),
]


@pytest.mark.parametrize(("name", "params", "post"), CASES, ids=[f"{c[0]}-{'post' if c[2] else 'get'}" for c in CASES])
def test_call_answers_as_the_rest_traverser(strict_server: Server, g: GraphTraversalSource, client: Client,
                                             name: str, params: dict[str, Any], post: bool) -> None:
    expected = plain(rest(strict_server, name, params, post))
    assert expected, "the REST answer should not be empty"
    assert plain(g.call(f"hugegraph.{name}", params).next()) == expected
    script = f"g.call('hugegraph.{name}', {groovy(params)})"
    assert plain(client.submit(script).all().result()) == [expected]


def test_call_mid_traversal_starts_from_the_vertex(strict_server: Server, g: GraphTraversalSource) -> None:
    expected = plain(rest(strict_server, "kout", {"source": "1:marko", "max_depth": 2}, False))
    assert plain(g.V("1:marko").call("hugegraph.kout", {"max_depth": 2}).next()) == expected


def test_the_registry_lists_the_hugegraph_services(g: GraphTraversalSource) -> None:
    names = g.call().to_list()
    assert "hugegraph.kout" in names and "hugegraph.personalrank" in names
    assert not any(n.startswith("tinker.") for n in names)  # TinkerGraph's samples are for TinkerGraph-like graphs
    [described] = g.call("--list").with_("service", "hugegraph.kout").with_("verbose", True).to_list()
    assert described["hugegraph.kout"]["type"] == ["Start", "Streaming"]
    assert {"source", "max_depth", "direction", "label"} <= set(described["hugegraph.kout"]["params"])


def test_a_bad_parameter_is_hugegraphs_error(g: GraphTraversalSource) -> None:
    with pytest.raises(Exception, match="max_depth"):
        g.call("hugegraph.kout", {"source": "1:marko", "max_depth": 0}).next()
