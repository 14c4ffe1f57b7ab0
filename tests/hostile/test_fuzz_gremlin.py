"""Fuzz the script interpreter through `/gremlin` and `/jobs/gremlin`: no 5xx, every error a body.

The scripts are `script_strategies.py`'s: generated in the shape of `grammar/gremlin.lark`
so that they reach the interpreter, and one-character mutations of them for the parser
(its docstring lists what is left out, and why). The budget of a script is the server's
1 s evaluation timeout.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import RunningServer, ServerFactory
from tests.hostile.conftest import MODERN_GRAPH, gremlin
from tests.hostile.fuzzing import check_rest, fuzz_settings, request_once_more
from tests.hostile.script_strategies import mutated, scripts


@pytest.fixture(scope="module")
def fuzz_server(server_factory: ServerFactory) -> Iterator[RunningServer]:
    running = server_factory.start(
        graphs={"hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=auto\n", "modern": MODERN_GRAPH},
        server={"gremlinserver.evaluation_timeout_ms": "1000"},
    )
    with httpx.Client(base_url=running.base_url, timeout=30) as c:
        for graph in ("modern", "hugegraph"):
            loaded = gremlin(c, "g.io('tinkerpop-modern-v3.json').read().iterate()", graph=graph)
            assert loaded.status_code == 200, loaded.text
    yield running
    running.stop()


def post(http: httpx.Client, script: str, graph: str, bindings: dict[str, object]) -> None:
    body = {"gremlin": script, "bindings": bindings, "language": "gremlin-groovy",
            "aliases": {"g": f"__g_{graph}", "graph": graph}}
    response = request_once_more(http, "POST", "/gremlin", json=body)
    check_rest(response, f"POST /gremlin {body!r}")


bindings = st.dictionaries(st.sampled_from(["x", "y", "z"]), st.one_of(
    st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=3), st.none(), st.booleans(),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)), max_size=2)
graphs = st.sampled_from(["modern", "modern", "hugegraph"])


@fuzz_settings(300)
@given(script=scripts, graph=graphs, bindings=bindings)
def test_generated_scripts(http: httpx.Client, script: str, graph: str, bindings: dict[str, object]) -> None:
    post(http, script, graph, bindings)


@fuzz_settings(150)
@given(script=mutated(), graph=graphs)
def test_mutated_scripts(http: httpx.Client, script: str, graph: str) -> None:
    post(http, script, graph, {})


@fuzz_settings(30)
@given(script=scripts, graph=graphs)
def test_async_jobs(http: httpx.Client, script: str, graph: str) -> None:
    """`/jobs/gremlin` answers a task id or a 4xx body; the task itself never takes the server down."""
    response = request_once_more(http, "POST", f"/graphs/{graph}/jobs/gremlin", json={"gremlin": script})
    check_rest(response, f"POST /graphs/{graph}/jobs/gremlin {script!r}")


def test_the_server_is_still_up(http: httpx.Client, fuzz_server: RunningServer) -> None:
    assert fuzz_server.process.poll() is None
    answer = gremlin(http, "g.V().count()")
    assert answer.status_code == 200, answer.text
