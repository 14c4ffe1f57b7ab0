"""A modern graph (HugeGraph's strict schema, TinkerPop's six people and programs) in a
real store, and principals built directly, as the auth layer will hand them to the doors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.auth.principal import Principal
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from tests.runtime.conftest import load_modern, modern_schema

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
#: by name, for the server that takes a principal from a request header (principal_server.py)
PRINCIPALS = {p.name: p for p in (BEIJING_READER, BEIJING_WRITER, NO_GREMLIN, NOBODY, BEIJING_JOBS)}


@pytest.fixture(params=["memory", "file"])
def modern(request: Any, tmp_path: Path) -> Iterator[Graph]:
    registry = GraphRegistry(evaluation_timeout_ms=30000)
    if request.param == "file":
        cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "g.db"), schema_mode="strict")
        GraphRegistry.init_store(cfg)
    else:
        cfg = GraphConfig(name="hugegraph", backend="memory", schema_mode="strict")
    graph = registry.open(cfg)
    modern_schema(graph)
    load_modern(graph)
    yield graph
    registry.close_all()
