"""Reflective members under other spellings, through the real engine and over HTTP.

`test_escapes.py` catalogues the classic escapes against a recording host; this file tries
the spellings a red team reaches for next (subscripts, method pointers, `.@`, safe
navigation, spread, unicode escapes and look-alike letters in names, quoted member names,
`$` names, dunders on every kind of value) against a real graph, and then sends the worst
findings of this session to a real server process, which must answer each with a
HugeGraph-style JSON error and stay up.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gremlin_engine.errors import GremlinError
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry


@pytest.fixture
def graph() -> Iterator[Graph]:
    registry = GraphRegistry(evaluation_timeout_ms=30000)
    graph = registry.create(GraphConfig(name="hugegraph", backend="memory", schema_mode="auto"))
    graph.execute("g.addV('person').property('name', 'marko').iterate()")
    yield graph
    registry.close_all()


SPELLINGS: list[tuple[str, str]] = [
    ("g['class']", "unexpected '['"),
    ("g.V().next()['class']", "unexpected '['"),
    ("g.&V", "unexpected character '&'"),
    ("g.@V", "unexpected '@'"),
    ("g?.V()", "'?.' is not supported"),
    ("[g]*.V()", "unexpected '.'"),
    ("g*.V()", "unexpected '.'"),
    ("\\u0063lass", "unexpected character '\\\\'"),
    ("g.\\u0063lass", "unexpected character '\\\\'"),
    ("\uff43lass", "unexpected character"),  # a fullwidth 'c'
    ('g."class"', "expected a name"),
    ("g.V().next().'getClass'()", "expected a name"),
    ("g.V().next().__dict__", "`.__dict__` is not accessible"),
    ("g.V().next().id.__class__", "`.__class__` is not accessible"),
    ("g.V().next().$getClass()", "Method '$getClass' is not supported on Vertex"),
    ("g.V().$class", "property access on traversal values"),
    ("__globals__", "`__globals__` is not accessible"),
    ("x = __builtins__", "`__builtins__` is not accessible"),
    ("T.__members__", "No such property: __members__ for class: T"),
    ("T.id.name", "property access on T values"),
    ("P.eq.__globals__", "`.__globals__` is not accessible"),
    ("P.gt(1).__class__", "`.__class__` is not accessible"),
    ("graph.tx().__enter__()", "`.__enter__()` is not accessible"),
    ("graph.schema()._graph", "`._graph` is not accessible"),
    ("graph.schema().graph", "Property 'graph' is not supported on SchemaManager"),
    ("graph.schema().propertyKey('x').build", "Property 'build' is not supported"),
    ("datetime('2020-01-01T00:00:00Z').year", "property access on datetime values"),
    ("UUID().hex", "property access on UUID values"),
    ("T.id.getDeclaringClass().forName('os')", "`.forName()` is not accessible"),
    ('"${1}"', "GString interpolation"),
]


@pytest.mark.parametrize(("script", "named"), SPELLINGS, ids=[s for s, _ in SPELLINGS])
def test_other_spellings_of_reflection_are_refused(graph: Graph, script: str, named: str) -> None:
    with pytest.raises(GremlinError) as info:
        graph.execute(script)
    assert named in str(info.value)


def test_escaped_dollar_brace_is_a_plain_string(graph: Graph) -> None:
    # `\u0024{` and `\${` spell the characters, not an interpolation (as in Groovy)
    assert graph.execute('"\\u0024{1}"') == ["${1}"]
    assert graph.execute('"\\${1}"') == ["${1}"]


def test_huge_literals_are_bounded(graph: Graph) -> None:
    with pytest.raises(GremlinError, match="integer literal is too large"):
        graph.execute("g.inject(0x" + "f" * 5000 + ")")
    with pytest.raises(GremlinError, match="cannot be computed: InvalidOperation"):
        graph.execute("x = 1e999999999m; x + 1")
    with pytest.raises(GremlinError, match="cannot be computed: Overflow"):
        graph.execute("x = 1e999999m; x * x")
    assert graph.execute("g.inject(1e400)") == [float("inf")]


# ---- the worst findings, over HTTP against a real server process ----------------------------

OVER_HTTP: list[tuple[str, int, str, str]] = [
    ("g.inject('aa').filter(__.is(TextP.regex('(a)\\\\1')))", 400,
     "java.lang.IllegalArgumentException", "regex feature not supported: backreference \\1"),
    ("x = 'a'\n" + "x = x + x\n" * 40 + "x", 400,
     "org.apache.hugegraph.exception.LimitExceedException", "MAX_VALUE_SIZE"),
    ("x = 99999999999n\n" + "x = x * x\n" * 40 + "x", 400,
     "org.apache.hugegraph.exception.LimitExceedException", "MAX_BIG"),
    ("(" * 100_000 + "1" + ")" * 100_000, 400, "groovy.lang.MissingMethodException", "nested too deeply"),
    ("g.V()" + ".out()" * 100_000, 400, "groovy.lang.MissingMethodException", "steps or members in one chain"),
    ("g.inject(1).repeat(identity()).times(1000000000)", 400,
     "java.util.concurrent.TimeoutException", "time limit of 1000 ms"),
    ("g.V().repeat(both()).emit().path().fold()", 400,
     "org.apache.hugegraph.exception.LimitExceedException", "HUGELITE_TRAVERSAL_MEMORY_MB is 64"),
    ("g.inject(graph.schema())", 400, "java.lang.SecurityException", "a SchemaManager cannot be passed"),
]


ALIASES = {"graph": "hugegraph", "g": "__g_hugegraph"}


def _post(client: httpx.Client, script: str) -> httpx.Response:
    return client.post("/gremlin", json={"gremlin": script, "bindings": {}, "language": "gremlin-groovy",
                                         "aliases": ALIASES})


@pytest.fixture(scope="module")
def bomb_server(server_factory, monkeypatch_module) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    monkeypatch_module.setenv("HUGELITE_TRAVERSAL_MEMORY_MB", "64")
    running = server_factory.start(server={"gremlinserver.evaluation_timeout_ms": "1000"})
    with httpx.Client(base_url=running.base_url, timeout=60) as client:
        r = _post(client, (
            "graph.schema().propertyKey('name').asText().ifNotExist().create();"
            "graph.schema().vertexLabel('p').properties('name').ifNotExist().create();"
            "graph.schema().edgeLabel('k').sourceLabel('p').targetLabel('p').ifNotExist().create();"
            "a = graph.addVertex(T.label, 'p', 'name', 'a'); b = graph.addVertex(T.label, 'p', 'name', 'b');"
            "a.addEdge('k', b); b.addEdge('k', a); g.V().count()"
        ))
        assert r.status_code == 200, r.text
    yield running
    running.stop()


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


@pytest.mark.parametrize(("script", "status", "exception", "named"), OVER_HTTP, ids=[s[:30] for s, *_ in OVER_HTTP])
def test_worst_findings_over_http_end_in_json_errors(
    bomb_server: Any, script: str, status: int, exception: str, named: str
) -> None:
    with httpx.Client(base_url=bomb_server.base_url, timeout=120) as client:
        r = _post(client, script)
        assert r.status_code == status, r.text[:500]
        body = r.json()
        assert body["exception"] == exception
        assert named in body["message"]
        # the process is still up and answering
        again = _post(client, "g.V().count()")
        assert again.status_code == 200 and again.json()["result"]["data"] == [2]


def test_the_server_process_memory_stays_bounded(bomb_server: Any) -> None:
    """After every bomb above (run first, in file order), the server's resident size is
    far below what the memory bomb alone reaches unbounded (gigabytes within a second)."""
    statm = f"/proc/{bomb_server.process.pid}/statm"
    if not os.path.exists(statm):
        pytest.skip("needs /proc")
    with httpx.Client(base_url=bomb_server.base_url, timeout=120) as client:
        r = _post(client, "graph.schema()")
        assert r.json()["result"]["data"] == ["SchemaManager"]
    with open(statm) as f:
        resident = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    assert resident < 512 * 1024 * 1024
