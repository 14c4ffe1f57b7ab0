"""Traverser steps under a filtering view (`SubgraphStrategy`): the key-level storage reaches
of the walker (`Walker.store`) must not bypass the view, which forwards unknown attribute
names to the access it wraps."""

from __future__ import annotations

from typing import Any

import pytest

from gremlin_engine.errors import IllegalArgument

SUBGRAPH = "g.withStrategies(new SubgraphStrategy(vertices: hasLabel('a')))"


def _graph(make_graph: Any) -> Any:
    # 0 -> 1, 2, 3 and 1 -> 2; vertices 0 and 1 are 'a', 2 and 3 are 'b'
    return make_graph(4, [(0, 1), (0, 2), (0, 3), (1, 2)], label_of=lambda i: "a" if i < 2 else "b")


def test_kout_and_kneighbor_see_only_the_subgraph(make_graph: Any) -> None:
    g = _graph(make_graph)
    req = "['source': 0, 'max_depth': 1, 'direction': 'OUT']"
    assert g.execute(f"g.inject({req}).hg_kout()")[0]["vertices"] == [1, 2, 3]
    got = g.execute(f"{SUBGRAPH}.inject({req}).hg_kout()")[0]
    assert got["vertices"] == [1]
    assert got["measure"]["edge_iterations"] == 1
    req2 = "['source': 0, 'max_depth': 2, 'direction': 'OUT', 'count_only': true]"
    assert g.execute(f"g.inject({req2}).hg_kneighbor()")[0]["vertices_size"] == 4
    assert g.execute(f"{SUBGRAPH}.inject({req2}).hg_kneighbor()")[0]["vertices_size"] == 2


def test_a_vertex_outside_the_subgraph_is_not_a_source(make_graph: Any) -> None:
    g = _graph(make_graph)
    req = "['source': 2, 'max_depth': 1, 'direction': 'IN']"
    assert g.execute(f"g.inject({req}).hg_kout()")[0]["vertices"] == [0, 1]
    with pytest.raises(IllegalArgument, match="does not exist"):
        g.execute(f"{SUBGRAPH}.inject({req}).hg_kout()")


def test_scan_sees_only_the_subgraph(make_graph: Any) -> None:
    g = _graph(make_graph)
    req = "['kind': 'vertex', 'start': '0', 'end': '100']"
    assert len(g.execute(f"g.inject({req}).hg_scan()")[0]["vertices"]) == 4
    got = g.execute(f"{SUBGRAPH}.inject({req}).hg_scan()")[0]["vertices"]
    assert sorted(v.id for v in got) == [0, 1]
