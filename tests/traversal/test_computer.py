"""The VertexProgram steps and `call()` as Gremlin text on a SQLite memory store (the modern
graph), for what the TinkerPop corpus does not pin: options, the result view, the root-only
rule, the service families, errors."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from gremlin_engine.errors import HugeliteError
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry

from .test_scripts_on_store import MODERN

RANK = "gremlin.pageRankVertexProgram.pageRank"


@pytest.fixture(scope="module")
def registry() -> Iterator[GraphRegistry]:
    reg = GraphRegistry(evaluation_timeout_ms=20000)
    yield reg
    reg.close_all()


@pytest.fixture(scope="module")
def graph(registry: GraphRegistry) -> Graph:
    g = registry.open(GraphConfig(name="modern_vp", backend="memory", schema_mode="auto"))
    g.execute(MODERN)
    return g


def run(graph: Graph, script: str) -> list[Any]:
    return graph.execute(script)


def test_page_rank_from_every_vertex_sums_to_one(graph: Graph) -> None:
    ranks = dict(zip(run(graph, "g.V().pageRank().values('name')"),
                     run(graph, f"g.V().pageRank().values('{RANK}')"), strict=True))
    assert math.isclose(sum(ranks.values()), 1.0)
    assert max(ranks, key=ranks.get) == "lop"  # three in-edges, the others at most one


def test_page_rank_with_no_iteration_keeps_the_initial_rank(graph: Graph) -> None:
    # after V() every vertex starts at 1/n; after another step at its traverser count
    assert set(run(graph, f"g.V().pageRank().with('~tinkerpop.pageRank.times', 0).values('{RANK}')")) == {1 / 6}
    # only TinkerPop's option names configure the step; other keys are kept and ignored, as there
    assert len(set(run(graph, f"g.V().pageRank().with('times', 0).values('{RANK}')"))) > 1
    got = run(graph, "g.V().both().pageRank().with('~tinkerpop.pageRank.times', 0)."
                     f"project('n', 'r').by('name').by('{RANK}').dedup()")
    assert {m["n"]: m["r"] for m in got} == {"marko": 3.0, "vadas": 1.0, "lop": 3.0, "josh": 3.0,
                                             "ripple": 1.0, "peter": 1.0}


def test_results_live_in_the_traversal_not_in_the_graph(graph: Graph) -> None:
    out = run(graph, f"g.V().pageRank().iterate(); g.V().has('{RANK}').count()")
    assert out == [0]
    assert run(graph, "g.V().peerPressure().with('~tinkerpop.peerPressure.propertyName', 'c').values('c').count()"
               ) == [6]
    assert run(graph, "g.V().values('c').count()") == [0]


def test_connected_components_of_a_split_graph(registry: GraphRegistry) -> None:
    g = registry.open(GraphConfig(name="split_vp", backend="memory", schema_mode="auto"))
    g.execute("g.addV('a').property(T.id, 10).as('x').addV('a').property(T.id, 2).as('y').addE('e').from('x').to('y')."
              "addV('a').property(T.id, 7).iterate()")
    got = g.execute("g.V().connectedComponent().project('v', 'c').by(id).by('gremlin.connectedComponentVertexProgram.component')")
    # the least id *string* names a component: "10" < "2"
    assert {m["v"]: m["c"] for m in got} == {10: "10", 2: "10", 7: "7"}


def test_shortest_path_options(graph: Graph) -> None:
    paths = run(graph, "g.V().has('name', 'marko').shortestPath()."
                       "with('~tinkerpop.shortestPath.target', __.has('name', 'ripple'))."
                       "with('~tinkerpop.shortestPath.includeEdges', true)")
    assert [[o.label for o in p.objects] for p in paths] == [["person", "knows", "person", "created", "software"]]
    by_key = run(graph, "g.V().has('name', 'vadas').shortestPath().with('~tinkerpop.shortestPath.distance', 'weight')"
                        ".with('~tinkerpop.shortestPath.target', __.has('name', 'josh'))")
    by_traversal = run(graph, "g.V().has('name', 'vadas').shortestPath()"
                              ".with('~tinkerpop.shortestPath.distance', __.values('weight'))"
                              ".with('~tinkerpop.shortestPath.target', __.has('name', 'josh'))")
    assert by_key == by_traversal and len(by_key) == 1 and len(by_key[0].objects) == 4  # vadas-marko-lop-josh
    assert len(run(graph, "g.V().shortestPath().with('~tinkerpop.shortestPath.maxDistance', 0)")) == 6


def test_vertex_programs_run_at_the_root_only(graph: Graph) -> None:
    with pytest.raises(HugeliteError, match="root traversal"):
        run(graph, "g.V().local(__.pageRank())")
    with pytest.raises(HugeliteError, match="requires a Traversal"):
        run(graph, "g.V().pageRank().with('~tinkerpop.pageRank.edges', 'knows')")


def test_tinker_services(graph: Graph) -> None:
    assert run(graph, "g.call()") == ["tinker.search", "tinker.degree.centrality"]
    found = run(graph, "g.call('tinker.search', [regex: 'j.*']).element().values('name')")
    assert sorted(found) == ["josh", "lop", "ripple"]  # josh's name; lop's and ripple's lang 'java'
    assert run(graph, "g.V().has('name', 'josh').call('tinker.degree.centrality').with('direction', BOTH)") == [3]
    [described] = run(graph, "g.call('--list', [service: 'tinker.search', verbose: true])")
    assert described["tinker.search"]["type"] == ["Start"] and "regex" in described["tinker.search"]["params"]


def test_service_errors(graph: Graph) -> None:
    with pytest.raises(HugeliteError, match="not registered"):
        run(graph, "g.call('no.such')")
    with pytest.raises(HugeliteError, match="can only start"):
        run(graph, "g.V().call('tinker.search', [search: 'x'])")
    with pytest.raises(HugeliteError, match="cannot start"):
        run(graph, "g.call('tinker.degree.centrality')")


def test_services_follow_the_graphs_configuration(registry: GraphRegistry) -> None:
    both = registry.open(GraphConfig(name="svc_vp", backend="memory", schema_mode="auto",
                                     extra={"gremlin.services": "tinker, hugegraph"}))
    names = both.execute("g.call()")
    assert names[:2] == ["tinker.search", "tinker.degree.centrality"] and "hugegraph.kout" in names
    both.execute(MODERN)
    kout = both.execute("g.V(1).call('hugegraph.kout', [max_depth: 2, direction: 'OUT'])")
    assert kout[0]["vertices"] == [5]  # marko -> josh -> ripple; lop is one hop away (`nearest`)
