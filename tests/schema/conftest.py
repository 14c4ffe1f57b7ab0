"""Fixtures: a real graph over a memory store and over a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gremlin_engine import GraphConfig, GraphRegistry
from gremlin_engine.graph import Graph
from tests.backends import stored_graph_config


@pytest.fixture
def registry() -> Iterator[GraphRegistry]:
    reg = GraphRegistry()
    yield reg
    reg.close_all()


@pytest.fixture
def graph(registry: GraphRegistry) -> Graph:
    return registry.open(GraphConfig(name="hugegraph", backend="memory"))


@pytest.fixture
def file_graph(registry: GraphRegistry, tmp_path) -> Graph:
    cfg = stored_graph_config("hugegraph", tmp_path)  # a file, or a PostgreSQL database
    GraphRegistry.init_store(cfg)
    return registry.open(cfg)


@pytest.fixture
def auto_graph(registry: GraphRegistry) -> Graph:
    return registry.open(GraphConfig(name="autograph", backend="memory", schema_mode="auto"))
