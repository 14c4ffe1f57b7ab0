"""What k-out / k-neighbor keep per schema snapshot (their settled options, keyed by the
request's parameters; the edge label ids they read) never answers one request with
another's options or with labels of an older schema."""

from __future__ import annotations

from typing import Any

from gremlin_engine.graph import GraphConfig
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Long
from tests.algorithms.conftest import load_edges, run_step


def _graph(registry: Any) -> Any:
    g = registry.open(GraphConfig(name="keys", backend="memory", schema_mode="auto"))
    # 0 -a-> 1 -a-> 2, 0 -a-> 3
    load_edges(g, 4, [(0, 1, "a"), (1, 2, "a"), (0, 3, "a")])
    return g


def test_requests_differing_in_one_value_or_its_type_get_their_own_answers(registry: Any) -> None:
    g = _graph(registry)
    base = {"source": Long(0), "direction": "OUT", "label": "a", "max_degree": -1, "capacity": -1, "limit": -1}
    one = run_step(g, "hg_kout", {**base, "max_depth": 1, "count_only": False})
    two = run_step(g, "hg_kout", {**base, "max_depth": 2, "count_only": False})
    counted = run_step(g, "hg_kout", {**base, "max_depth": 1, "count_only": True})
    assert sorted(one["vertices"]) == [1, 3]
    assert two["vertices"] == [2]
    assert counted["vertices_size"] == 2
    # the same parameters in another order: the same answer
    reordered = {"count_only": False, "max_depth": 1, **{k: base[k] for k in reversed(list(base))}}
    assert sorted(run_step(g, "hg_kout", reordered)["vertices"]) == [1, 3]
    # another source with the settled options of the first: its own neighbours
    assert run_step(g, "hg_kout", {**base, "source": Long(1), "max_depth": 1, "count_only": False})["vertices"] == [2]


def test_a_label_made_after_a_walk_named_it_is_read(registry: Any) -> None:
    g = _graph(registry)
    req = {"source": Long(0), "direction": "OUT", "label": "a", "max_depth": 1, "max_degree": -1, "limit": -1}
    assert sorted(run_step(g, "hg_kneighbor", req)["vertices"]) == [0, 1, 3]
    # a label no edge has yet: nothing to walk, the source alone
    assert run_step(g, "hg_kneighbor", {**req, "label": "b"})["vertices"] == [0]
    # then it appears (auto mode makes it with its first edge): the walk over it sees that edge
    with g.store.write() as tx:
        a = StoreAccess.for_graph(g, tx)
        v0, v2 = (next(iter(a.vertices(ids=[Long(i)]))) for i in (0, 2))
        a.add_edge("b", v0, v2)
    assert run_step(g, "hg_kneighbor", {**req, "label": "b"})["vertices"] == [0, 2]
    assert sorted(run_step(g, "hg_kneighbor", req)["vertices"]) == [0, 1, 3]
