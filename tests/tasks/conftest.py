"""Fixtures: a real graph over a memory store and over a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gremlin_engine import GraphConfig, GraphRegistry
from gremlin_engine.graph import Graph


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
    cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "g.db"))
    GraphRegistry.init_store(cfg)
    return registry.open(cfg)


@pytest.fixture
def auto_graph(registry: GraphRegistry) -> Graph:
    return registry.open(GraphConfig(name="autograph", backend="memory", schema_mode="auto"))
