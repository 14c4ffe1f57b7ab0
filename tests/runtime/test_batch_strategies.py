"""The batch write steps under the element strategies: `ReadOnlyStrategy` refuses them, and
`PartitionStrategy` writes its partition key on every element of a batch, as it does for
`addV`/`addE`."""

from __future__ import annotations

from pathlib import Path

import pytest

from gremlin_engine.errors import TraversalError
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry

PART = "g.withStrategies(new PartitionStrategy(partitionKey: '_p', writePartition: 'a', readPartitions: ['a']))"


@pytest.fixture
def graph(tmp_path: Path) -> Graph:
    cfg = GraphConfig(name="b", backend="sqlite", store=str(tmp_path / "b.db"), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    g = registry.open(cfg)
    for script in (
        "graph.schema().propertyKey('name').asText().create()",
        "graph.schema().propertyKey('_p').asText().create()",
        "graph.schema().vertexLabel('person').properties('name', '_p').primaryKeys('name').nullableKeys('_p').create()",
        "graph.schema().edgeLabel('knows').sourceLabel('person').targetLabel('person').properties('_p')"
        ".nullableKeys('_p').create()",
    ):
        g.execute(script)
    yield g
    registry.close_all()


@pytest.mark.parametrize("script", [
    "g.withStrategies(ReadOnlyStrategy).inject([label: 'person', properties: [name: 'b']]).hgAddVertices()",
    "g.withStrategies(ReadOnlyStrategy).inject([label: 'knows', outV: '1:a', inV: '1:a']).hgAddEdges()",
])
def test_read_only_refuses_batch_writes(graph: Graph, script: str) -> None:
    graph.execute("g.addV('person').property('name', 'a')")
    with pytest.raises(TraversalError, match="not read only"):
        graph.execute(script)
    assert graph.execute("g.V().values('name')") == ["a"]
    assert graph.execute("g.E().count()") == [0]


def test_partition_key_on_batch_writes(graph: Graph) -> None:
    graph.execute(PART + ".inject([label: 'person', properties: [name: 'x']], "
                  "[label: 'person', properties: [name: 'y']]).hgAddVertices()")
    graph.execute(PART + ".inject([label: 'knows', outV: '1:x', inV: '1:y']).hgAddEdges()")
    assert sorted(graph.execute(PART + ".V().values('name')")) == ["x", "y"]
    assert graph.execute("g.V().values('_p')") == ["a", "a"]
    assert graph.execute("g.E().values('_p')") == ["a"]
