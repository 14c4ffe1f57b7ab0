"""The red team's last raw server errors, now answers: `math()` in Java doubles (an
overflow is Infinity, a domain error NaN, as exp4j answers), a predicate stored as a graph
variable (refused naming the value and its type), and `repeat()` over a body ending in a
reducing barrier (`fold()`, `count()`: the barrier's fresh traverser belongs to its
iteration, as TinkerPop's RepeatUnrollStrategy runs `times(n)`). Each through a real graph,
and the errors over HTTP against a real server."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry


@pytest.fixture
def graph() -> Iterator[Graph]:
    registry = GraphRegistry(evaluation_timeout_ms=30000)
    graph = registry.create(GraphConfig(name="hugegraph", backend="memory", schema_mode="auto"))
    yield graph
    registry.close_all()


def _math(graph: Graph, expr: str) -> float:
    [value] = graph.execute(f"g.inject(1).math('{expr}')")
    return value


@pytest.mark.parametrize(("expr", "want"), [
    ("2^10000000", math.inf),
    ("(0-2)^10000001", -math.inf),
    ("(0-2)^10000000", math.inf),
    ("0^(0-1)", math.inf),
    ("exp(1000)", math.inf),
    ("cosh(1000)", math.inf),
    ("sinh(0-1000)", -math.inf),
    ("ceil(exp(1000))", math.inf),
    ("log(0)", -math.inf),
    ("log10(0)", -math.inf),
    ("2^10", 1024.0),
    ("2^0.5", math.sqrt(2)),
    ("(0-8)^2", 64.0),
])
def test_math_overflows_are_java_infinities(graph: Graph, expr: str, want: float) -> None:
    assert _math(graph, expr) == want


@pytest.mark.parametrize("expr", ["(0-8)^0.5", "sqrt(0-1)", "log(0-1)", "acos(2)", "asin(0-2)", "1^(1/0)",
                                  "floor(0/0)", "(1/0) % 2", "5 % 0", "signum(0/0)"])
def test_math_domain_errors_are_nan(graph: Graph, expr: str) -> None:
    assert math.isnan(_math(graph, expr))


def test_a_predicate_is_not_a_storable_variable(graph: Graph) -> None:
    with pytest.raises(IllegalArgument, match=r"Graph variable value \[gt\(1.*\)\] is of type P is not supported"):
        graph.execute("graph.variables().set('k', P.gt(1))")
    with pytest.raises(IllegalArgument, match="is of type P is not supported"):
        graph.execute("graph.variables().set('k', [a: [1, P.within(1, 2)]])")
    assert graph.execute("graph.variables().asMap()") == []  # nothing was stored (an empty map unrolls to no results)
    graph.execute("graph.variables().set('k', [a: [1, 'x']])")
    assert graph.execute("graph.variables().get('k')") == [{"a": [1, "x"]}]


REPEAT_FOLD = "g.inject(1).repeat(union(identity(), identity()).fold())"


def test_repeat_over_a_fold_nests_once_per_round(graph: Graph) -> None:
    assert graph.execute(REPEAT_FOLD + ".times(1)") == [[1, 1]]
    assert graph.execute(REPEAT_FOLD + ".times(2)") == [[[1, 1], [1, 1]]]
    assert graph.execute(REPEAT_FOLD + ".times(3)") == [[[[1, 1], [1, 1]], [[1, 1], [1, 1]]]]
    assert graph.execute(REPEAT_FOLD + ".times(3).unfold().unfold().unfold().count()") == [8]


def test_repeat_over_a_barrier_with_until_emit_and_nesting(graph: Graph) -> None:
    assert graph.execute(REPEAT_FOLD + ".until(loops().is(2))") == [[[1, 1], [1, 1]]]
    assert graph.execute(REPEAT_FOLD + ".emit().times(2)") == [[1, 1], [[1, 1], [1, 1]]]
    assert graph.execute("g.inject(1).repeat('a', union(identity(), identity()).fold()).until(loops('a').is(2))") == [
        [[1, 1], [1, 1]]
    ]
    assert graph.execute("g.inject(1).repeat(union(identity(), identity()).count()).times(3)") == [2]
    nested = "g.inject(1).repeat(repeat(union(identity(), identity()).fold()).times(2)).times(2)"
    assert graph.execute(nested + ".unfold().unfold().unfold().unfold().count()") == [16]


# ---- over HTTP: HugeGraph JSON, never a raw 500 -------------------------------------------

ALIASES = {"graph": "hugegraph", "g": "__g_hugegraph"}


def _post(client: httpx.Client, script: str) -> httpx.Response:
    return client.post("/gremlin", json={"gremlin": script, "bindings": {}, "language": "gremlin-groovy",
                                         "aliases": ALIASES})


@pytest.fixture(scope="module")
def server(server_factory) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    running = server_factory.start()
    yield running
    running.stop()


def test_the_findings_over_http(server: Any) -> None:
    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        r = _post(client, "graph.variables().set('k', P.gt(1))")
        assert r.status_code == 400, r.text[:500]
        assert r.json()["exception"] == "java.lang.IllegalArgumentException"
        assert "is of type P is not supported" in r.json()["message"]
        r = _post(client, REPEAT_FOLD + ".times(3)")
        assert r.status_code == 200, r.text[:500]
        assert r.json()["result"]["data"] == [[[[1, 1], [1, 1]], [[1, 1], [1, 1]]]]
        r = _post(client, "g.inject(1).math('2^10000000')")
        assert r.status_code == 200, r.text[:500]
        # JSON has no Infinity: the REST serializer writes null today (HugeGraph's Jackson
        # writes the string "Infinity"), the same as `math('1/0')` always has
        assert r.json()["result"]["data"] in ([None], ["Infinity"])


def test_a_result_past_the_bound_over_http_and_websocket(server: Any) -> None:
    """The result bound for traversals: a script over HTTP (400) and bytecode over
    WebSocket (597), each naming MAX_RESULT_BYTES, well before any timeout."""
    from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
    from gremlin_python.driver.protocol import GremlinServerError
    from gremlin_python.process.anonymous_traversal import traversal
    from gremlin_python.process.graph_traversal import __

    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        r = _post(client, REPEAT_FOLD + ".times(26)")
        assert r.status_code == 400, r.text[:500]
        assert r.json()["exception"] == "org.apache.hugegraph.exception.LimitExceedException"
        assert "MAX_RESULT_BYTES (67,108,864 bytes" in r.json()["message"]
    conn = DriverRemoteConnection(server.base_url.replace("http://", "ws://") + "/gremlin", "hugegraph")
    try:
        g = traversal().with_(conn)
        body = __.union(__.identity(), __.identity()).fold()
        assert g.inject(1).repeat(body).times(2).to_list() == [[[1, 1], [1, 1]]]
        with pytest.raises(GremlinServerError, match=r"597.*MAX_RESULT_BYTES \(67,108,864 bytes"):
            g.inject(1).repeat(body).times(26).to_list()
        assert math.isinf(g.inject(1).math("2^10000000").next())
        assert g.inject(1).repeat(body).times(1).to_list() == [[1, 1]]  # the connection still answers
    finally:
        conn.close()


def test_the_findings_over_websocket_eval(server: Any) -> None:
    from gremlin_python.driver.client import Client
    from gremlin_python.driver.protocol import GremlinServerError

    client = Client(server.base_url.replace("http://", "ws://") + "/gremlin", "g")
    try:
        with pytest.raises(GremlinServerError, match="597.*is of type P is not supported"):
            client.submit("graph.variables().set('k', P.gt(1))").all().result()
        assert client.submit(REPEAT_FOLD + ".times(2)").all().result() == [[[1, 1], [1, 1]]]
        assert client.submit("g.inject(1).math('log(0)')").all().result() == [-math.inf]
    finally:
        client.close()
