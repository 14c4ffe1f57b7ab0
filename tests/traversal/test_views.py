"""Subgraph/Partition/ReadOnly strategies as filtering views over the GraphAccess."""

from __future__ import annotations

import pytest

from gremlin_engine.bytecode import StrategySpec
from gremlin_engine.errors import TraversalError
from gremlin_engine.traversal.predicates import make_predicate

from .gremlin import __, g
from .helpers import r


def _sub(**config):
    return StrategySpec("SubgraphStrategy", config)


def test_subgraph_vertices_filter_every_read(graph):
    keep = _sub(vertices=__.has("name", make_predicate("P", "within", (["josh", "lop", "ripple"],))).ir)
    s = g.withStrategies(keep)
    assert sorted(v.id for v in r(s.V(), graph)) == [3, 4, 5]
    assert sorted(e.id for e in r(s.E(), graph)) == [10, 11]
    assert sorted(v.id for v in r(s.V(4).both(), graph)) == [3, 5]  # marko is outside
    assert r(s.V().count(), graph) == [3]


def test_subgraph_edges_without_adjacent_check_and_bothV(graph):
    view = _sub(
        checkAdjacentVertices=False,
        vertices=__.has("name", make_predicate("P", "within", (["josh", "lop", "ripple"],))).ir,
        edges=__.hasLabel("created").ir,
    )
    assert sorted(e.id for e in r(g.withStrategies(view).E(), graph)) == [9, 10, 11, 12]
    assert [v.id for v in r(g.withStrategies(view).E(9).bothV(), graph)] == [3]


def test_subgraph_vertex_properties_do_not_leak(graph):
    view = _sub(vertexProperties=__.hasKey("name").ir)
    assert r(g.withStrategies(view).V(1).values(), graph) == ["marko"]
    assert sorted(r(g.V(1).values(), graph), key=str) == [29, "marko"]


def test_partition_reads_and_writes(graph):
    part = StrategySpec("PartitionStrategy", {"partitionKey": "_p", "writePartition": "a", "readPartitions": ["a"]})
    new = r(g.withStrategies(part).addV("person").property("name", "alice"), graph)[0]
    assert r(g.V(new.id).values("_p"), graph) == ["a"]
    assert [v.id for v in r(g.withStrategies(part).V(), graph)] == [new.id]


def test_read_only_and_verification_strategies(graph):
    with pytest.raises(TraversalError, match="has a mutating step and thus is not read only"):
        r(g.withStrategies(StrategySpec("ReadOnlyStrategy", {})).V().property("x", 1), graph)
    labels = StrategySpec("EdgeLabelVerificationStrategy", {"throwException": True})
    with pytest.raises(TraversalError, match="vertex step without any specified edge label"):
        r(g.withStrategies(labels).V().out(), graph)
    assert len(r(g.withStrategies(labels).V().out("knows"), graph)) == 2


def test_subgraph_step_collects_edges_and_their_ends(graph):
    sg = r(g.V(1).outE("knows").subgraph("sg").values("name").cap("sg"), graph)[0]
    assert sorted(e.id for e in sg.edges) == [7, 8]
    assert sorted(v.id for v in sg.vertices) == [1, 2, 4]


def test_io_read_needs_an_import_folder(graph):
    from gremlin_engine.errors import Forbidden

    with pytest.raises(Forbidden):
        r(g.io("data/x.json").read(), graph)
