"""schemathesis over `/openapi.json` against a real server: no 5xx, every error HugeGraph's body.

The document is the server's own (`rest_adapter/openapi`), so every route it serves is
fuzzed, from the shapes it declares. Two changes are made to it for the run, both to reach
the handlers rather than the first check: `{graph}` is narrowed to the served graphs (a
random graph name only ever answers 404), and only the classic `/graphs/{graph}` family is
run (the `/graphspaces/DEFAULT/graphs/{graph}` twins route to the same handlers;
`tests/rest/test_openapi.py` checks both are in the document). The budget is small and
fixed (`MAX_EXAMPLES` per operation, no shrinking, a 500 ms script timeout), so the run
stays within a minute; the hand-written fuzzers beside it go deeper into each family.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from tests.conftest import RunningServer, ServerFactory
from tests.hostile.conftest import MODERN_GRAPH, gremlin
from tests.hostile.fuzzing import PYTHON_INTERNALS
from tests.rest.hg_elements import build_schema

GRAPHS = ["hugegraph", "modern"]
#: generated examples per operation; `HUGELITE_OPENAPI_EXAMPLES=50` makes a long run by hand,
#: which also runs schemathesis's coverage phase (boundary and wrong-type values of every
#: field, starting from the document's examples: it found the 5xx pinned in
#: test_fuzz_regressions.py, but costs ~2 minutes, too long for every `make test`)
MAX_EXAMPLES = int(os.environ.get("HUGELITE_OPENAPI_EXAMPLES", "3"))
LONG_RUN = "HUGELITE_OPENAPI_EXAMPLES" in os.environ


@pytest.fixture(scope="module")
def openapi_server(server_factory: ServerFactory) -> Iterator[RunningServer]:
    running = server_factory.start(
        graphs={"hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=strict\n",
                "modern": MODERN_GRAPH},
        server={"gremlinserver.evaluation_timeout_ms": "500"},
    )
    with httpx.Client(base_url=running.base_url, timeout=30) as c:
        assert gremlin(c, "g.io('tinkerpop-modern-v3.json').read().iterate()").status_code == 200
        build_schema(c, "/graphs/hugegraph")
    yield running
    running.stop()


def fuzzed_document(doc: dict[str, Any]) -> dict[str, Any]:
    """The server's document with `{graph}` narrowed to the served graphs, classic family only."""
    doc = copy.deepcopy(doc)
    doc["paths"] = {p: item for p, item in doc["paths"].items() if not p.startswith("/graphspaces/")}
    for item in doc["paths"].values():
        for op in item.values():
            for param in op.get("parameters", ()):
                if param["in"] == "path" and param["name"] == "graph":
                    param["schema"] = {"enum": GRAPHS}
    return doc


def local_document() -> dict[str, Any]:
    """The document the server serves, built here at collection time (schemathesis 4.32's
    lazy `from_fixture` reads a pytest private that pytest 9 removed); the first test checks
    the server's answer is this document."""
    from rest_adapter.app import create_app
    from rest_adapter.openapi import build_document

    return build_document(create_app().routes, "fuzz", GRAPHS)


@schemathesis.check
def hugegraph_error_body(ctx: Any, response: Any, case: Any) -> bool | None:
    """An error answer is HugeGraph's JSON body with a message a person can read."""
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"error body is not JSON: {response.text[:300]!r}") from None
    assert isinstance(body, dict) and {"exception", "message", "cause"} <= body.keys(), body
    message = body["message"]
    assert isinstance(message, str) and message.strip(), body
    assert not PYTHON_INTERNALS.search(message), f"Python internals in the message: {message!r}"
    return None


DOCUMENT = local_document()
schema = schemathesis.openapi.from_dict(fuzzed_document(DOCUMENT))
# valid requests and invalid ones (a wrong type, a missing field): both must get a 4xx at worst
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
schema.config.phases.update(phases=["examples", "fuzzing", "coverage"] if LONG_RUN else ["examples", "fuzzing"])


def test_the_server_serves_the_fuzzed_document(openapi_server: RunningServer) -> None:
    served = httpx.get(openapi_server.base_url + "/openapi.json", timeout=30).json()
    served["info"]["version"] = "fuzz"
    assert served == DOCUMENT


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck), database=None)
def test_no_5xx_and_hugegraph_errors(case: Any, openapi_server: RunningServer) -> None:
    case.call_and_validate(base_url=openapi_server.base_url, checks=[not_a_server_error, hugegraph_error_body],
                           timeout=30)
