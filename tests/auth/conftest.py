"""Two kinds of fixtures for the auth tests: servers with authentication on
(StandardAuthenticator, records in the sqlite graph `hugegraph`), started as real processes,
with their bootstrap admin's password; and a modern graph (HugeGraph's strict schema,
TinkerPop's six people and programs) in a real store with principals built directly, as the
auth layer hands them to the doors."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gremlin_engine.auth.principal import Principal
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from tests.backends import stored_graph_config
from tests.conftest import RunningServer, ServerFactory
from tests.runtime.conftest import load_modern, modern_schema

ADMIN_PASSWORD = "pa-secret"
STANDARD = {
    "auth.authenticator": "org.apache.hugegraph.auth.StandardAuthenticator",
    "auth.graph_store": "hugegraph",
    "auth.token_secret": "a-test-secret-of-enough-length-for-hs256",
}
GRAPHS = {
    "hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=strict\n",
    "memgraph": "backend=memory\nschema.mode=auto\n",
}


def start_auth_server(factory: ServerFactory, **server: str) -> RunningServer:
    """A server with auth on; `init-store` creates `admin` from HUGELITE_ADMIN_PASSWORD."""
    old = os.environ.get("HUGELITE_ADMIN_PASSWORD")
    os.environ["HUGELITE_ADMIN_PASSWORD"] = ADMIN_PASSWORD
    try:
        return factory.start(graphs=GRAPHS, server={**STANDARD, **server})
    finally:
        if old is None:
            del os.environ["HUGELITE_ADMIN_PASSWORD"]
        else:
            os.environ["HUGELITE_ADMIN_PASSWORD"] = old


@pytest.fixture(scope="session")
def auth_server(server_factory: ServerFactory) -> RunningServer:
    return start_auth_server(server_factory)


@pytest.fixture
def admin(auth_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=auth_server.base_url, auth=("admin", ADMIN_PASSWORD), timeout=30) as client:
        yield client


@pytest.fixture
def anon(auth_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=auth_server.base_url, timeout=30) as client:
        yield client


BEIJING = {"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}


def user(name: str, role: dict[str, Any]) -> Principal:
    return Principal(name=name, user_id=f"-63:{name}", admin=False, role=role)


#: reads Beijing people and every edge; runs Gremlin
BEIJING_READER = user("beijing", {"hugegraph": {
    "READ": [BEIJING, {"type": "EDGE"}],
    "EXECUTE": [{"type": "GREMLIN"}],
}})
#: reads everything (ALL), runs Gremlin, writes and deletes only Beijing people
BEIJING_WRITER = user("writer", {"hugegraph": {
    "READ": [{"type": "ALL"}],
    "EXECUTE": [{"type": "GREMLIN"}],
    "WRITE": [BEIJING],
    "DELETE": [BEIJING],
}})
#: reads everything but may not run Gremlin (REST only)
NO_GREMLIN = user("restonly", {"hugegraph": {"READ": [{"type": "VERTEX"}, {"type": "EDGE"}]}})
#: a user with no grants at all
NOBODY = user("nobody", {})
#: reads Beijing people and every edge, runs Gremlin, reads and submits tasks
BEIJING_JOBS = user("jobs", {"hugegraph": {
    "READ": [BEIJING, {"type": "EDGE"}, {"type": "TASK"}],
    "WRITE": [{"type": "TASK"}],
    "EXECUTE": [{"type": "GREMLIN"}],
}})


@pytest.fixture(params=["memory", "file"])
def modern(request: Any, tmp_path: Path) -> Iterator[Graph]:
    registry = GraphRegistry(evaluation_timeout_ms=30000)
    if request.param == "file":
        cfg = stored_graph_config("hugegraph", tmp_path, "strict")  # a file, or a PostgreSQL database
        GraphRegistry.init_store(cfg)
    else:
        cfg = GraphConfig(name="hugegraph", backend="memory", schema_mode="strict")
    graph = registry.open(cfg)
    modern_schema(graph)
    load_modern(graph)
    yield graph
    registry.close_all()
