"""Property tests: the traverser steps on random graphs against independent implementations
(networkx where it has the algorithm, small direct ones here where it does not)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.algorithms.conftest import run_step

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DIRECTIONS = ("OUT", "IN", "BOTH")


@st.composite
def graphs(draw: Any, max_n: int = 9) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(1, max_n))
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=3 * n)) if pairs else []
    return n, edges


def nx_view(n: int, edges: list[tuple[int, int]], direction: str) -> nx.Graph:
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    if direction == "IN":
        return g.reverse()
    if direction == "BOTH":
        return g.to_undirected()
    return g


def ids(values: list[Any]) -> list[int]:
    return [int(v) for v in values]


@SETTINGS
@given(graphs(), st.sampled_from(DIRECTIONS), st.integers(1, 4), st.data())
def test_kout_and_kneighbor_match_bfs_distances(make_graph: Any, gr: Any, direction: str, depth: int, data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    src = data.draw(st.integers(0, n - 1))
    dist = nx.single_source_shortest_path_length(nx_view(n, edges, direction), src)
    kout = run_step(g, "hg_kout", {"source": src, "max_depth": depth, "direction": direction})
    assert sorted(ids(kout["vertices"])) == sorted(v for v, d in dist.items() if d == depth)
    kn = run_step(g, "hg_kneighbor", {"source": src, "max_depth": depth, "direction": direction})
    assert ids(kn["vertices"])[0] == src
    assert sorted(ids(kn["vertices"])) == sorted(v for v, d in dist.items() if d <= depth)


@SETTINGS
@given(graphs(), st.sampled_from(DIRECTIONS), st.integers(1, 4), st.data())
def test_kout_not_nearest_is_walks_of_exact_length(make_graph: Any, gr: Any, direction: str, depth: int,
                                                    data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    src = data.draw(st.integers(0, n - 1))
    view = nx_view(n, edges, direction)
    level = {src}
    for _ in range(depth):  # walks that never come back through the source (HugeGraph's rule)
        level = {w for v in level for w in view.neighbors(v) if w != src}
    kout = run_step(g, "hg_kout", {"source": src, "max_depth": depth, "direction": direction, "nearest": False})
    assert sorted(ids(kout["vertices"])) == sorted(level)


@SETTINGS
@given(graphs(), st.sampled_from(DIRECTIONS), st.integers(1, 5), st.data())
def test_shortest_paths_match_networkx(make_graph: Any, gr: Any, direction: str, depth: int, data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    view = nx_view(n, edges, direction)
    try:
        expected = nx.shortest_path_length(view, src, dst)
    except nx.NetworkXNoPath:
        expected = None
    if expected is not None and expected > depth:
        expected = None
    req = {"source": src, "target": dst, "max_depth": depth, "direction": direction}
    path = ids(run_step(g, "hg_shortestpath", req)["path"])
    if expected is None:
        assert path == []
        return
    assert len(path) == expected + 1 and path[0] == src and path[-1] == dst
    assert all(view.has_edge(a, b) for a, b in itertools.pairwise(path))
    every = {tuple(ids(p["objects"])) for p in run_step(g, "hg_allshortestpaths", req)["paths"]}
    assert every == {tuple(p) for p in nx.all_shortest_paths(view, src, dst)}


@SETTINGS
@given(graphs(), st.sampled_from(DIRECTIONS), st.data())
def test_weighted_and_single_source_match_dijkstra(make_graph: Any, gr: Any, direction: str, data: Any) -> None:
    n, edges = gr
    weights = {e: data.draw(st.sampled_from([0.5, 1.0, 2.0, 3.5])) for e in edges}
    g = make_graph(n, edges, weights=weights)
    view = nx_view(n, edges, direction)
    for (u, v), w in weights.items():
        a, b = (v, u) if direction == "IN" else (u, v)
        view[a][b]["weight"] = w
    if direction == "BOTH":  # two opposite edges: the cheaper one counts
        for (u, v), w in weights.items():
            view[u][v]["weight"] = min(w, weights.get((v, u), w))
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    expected = nx.single_source_dijkstra_path_length(view, src, weight="weight")
    got = run_step(g, "hg_singlesourceshortestpath", {"source": src, "direction": direction, "weight": "weight",
                                                       "limit": -1, "capacity": -1})
    assert {int(k): v["weight"] for k, v in got["paths"].items()} == pytest_approx(
        {k: d for k, d in expected.items() if k != src})
    one = run_step(g, "hg_weightedshortestpath", {"source": src, "target": dst, "direction": direction,
                                                   "weight": "weight"})
    if dst in expected:
        assert math.isclose(one["path"]["weight"], expected[dst])
        path = ids(one["path"]["vertices"])
        assert math.isclose(sum(view[a][b]["weight"] for a, b in itertools.pairwise(path)), expected[dst])
    else:
        assert one["path"] == {}


def pytest_approx(d: dict[int, float]) -> Any:
    import pytest

    return pytest.approx(d)


@SETTINGS
@given(graphs(8), st.sampled_from(DIRECTIONS), st.integers(1, 5), st.data())
def test_paths_are_all_simple_paths(make_graph: Any, gr: Any, direction: str, depth: int, data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    got = run_step(g, "hg_paths", {"source": src, "target": dst, "max_depth": depth, "direction": direction,
                                   "limit": -1, "capacity": -1})
    expected = set() if src == dst else {tuple(p) for p in nx.all_simple_paths(nx_view(n, edges, direction), src, dst,
                                                                              cutoff=depth)}
    assert {tuple(ids(p["objects"])) for p in got["paths"]} == expected


@SETTINGS
@given(graphs(8), st.sampled_from(DIRECTIONS), st.integers(1, 5), st.data())
def test_crosspoints_join_both_sides(make_graph: Any, gr: Any, direction: str, depth: int, data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    view = nx_view(n, edges, direction)
    got = run_step(g, "hg_crosspoints", {"source": src, "target": dst, "max_depth": depth, "direction": direction,
                                         "limit": -1, "capacity": -1})

    def walks(start: int, k: int) -> dict[int, list[tuple[int, ...]]]:
        out: dict[int, list[tuple[int, ...]]] = {start: [(start,)]}
        layer = [(start,)]
        for _ in range(k):
            layer = [(*p, w) for p in layer for w in view.neighbors(p[-1]) if w not in p]
            for p in layer:
                out.setdefault(p[-1], []).append(p)
        return out

    left, right = walks(src, (depth + 1) // 2), walks(dst, depth // 2)
    expected = set()
    for c in left.keys() & right.keys():
        for a in left[c]:
            for b in right[c]:
                joined = a + b[-2::-1]
                if len(set(joined)) == len(joined):
                    expected.add(joined)
    if src == dst:  # HugeGraph answers an empty set when source and target coincide
        expected = set()
    found = {tuple(ids(p["objects"])): int(p["crosspoint"]) for p in got["crosspoints"]}
    assert set(found) == expected
    assert all(c in p for p, c in found.items())


def _rings_reference(view: nx.DiGraph, src: int, depth: int) -> set[frozenset[tuple[int, ...]]]:
    """Cycles through `src` of length <= depth, as {path, reversed path} (HugeGraph dedups those)."""
    out = set()
    stack = [(src,)]
    while stack:
        p = stack.pop()
        if len(p) - 1 >= depth:
            continue
        for w in view.neighbors(p[-1]):
            if w == src:
                ring = (*p, w)
                out.add(frozenset({ring, ring[::-1]}))
            elif w not in p:
                stack.append((*p, w))
    return out


def _rays_reference(view: nx.DiGraph, src: int, depth: int) -> set[tuple[int, ...]]:
    out = set()
    stack = [(src,)]
    while stack:
        p = stack.pop()
        nbrs = list(view.neighbors(p[-1]))
        if not nbrs:
            out.add(p)
            continue
        for w in nbrs:
            if w in p:
                continue
            q = (*p, w)
            if len(q) - 1 == depth:
                out.add(q)
            else:
                stack.append(q)
    return out


@SETTINGS
@given(graphs(8), st.sampled_from(("OUT", "IN")), st.integers(1, 5), st.data())
def test_rings_and_rays(make_graph: Any, gr: Any, direction: str, depth: int, data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    src = data.draw(st.integers(0, n - 1))
    view = nx_view(n, edges, direction)
    req = {"source": src, "max_depth": depth, "direction": direction, "limit": -1, "capacity": -1}
    rings = [tuple(ids(p["objects"])) for p in run_step(g, "hg_rings", req)["rings"]]
    assert {frozenset({r, r[::-1]}) for r in rings} == _rings_reference(view, src, depth)
    assert len(rings) == len({frozenset({r, r[::-1]}) for r in rings})
    rays = {tuple(ids(p["objects"])) for p in run_step(g, "hg_rays", req)["rays"]}
    assert rays == _rays_reference(view, src, depth)


@SETTINGS
@given(graphs(), st.sampled_from(DIRECTIONS), st.data())
def test_jaccard_get_and_top(make_graph: Any, gr: Any, direction: str, data: Any) -> None:
    n, edges = gr
    g = make_graph(n, edges)
    view = nx_view(n, edges, direction)
    a, b = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))

    def jac(x: int, y: int) -> float:
        nx_, ny = set(view.neighbors(x)), set(view.neighbors(y))
        return len(nx_ & ny) / len(nx_ | ny) if nx_ | ny else 0.0

    got = run_step(g, "hg_jaccardsimilarity", {"vertex": a, "other": b, "direction": direction})
    assert math.isclose(got["jaccard_similarity"], jac(a, b))
    top = run_step(g, "hg_jaccardsimilarity", {"vertex": a, "step": {"direction": direction}, "top": 0})
    hop1 = set(view.neighbors(a))
    candidates = (hop1 | {w for v in hop1 for w in view.neighbors(v)}) - {a}
    assert {int(k): v for k, v in top["jaccard_similarity"].items()} == pytest_approx(
        {c: jac(a, c) for c in candidates})
    scores = list(top["jaccard_similarity"].values())
    assert scores == sorted(scores, reverse=True)


def _personal_rank_reference(out_adj: dict[int, list[int]], in_adj: dict[int, list[int]], src: int,
                             alpha: float, depth: int) -> dict[int, float]:
    """The HugeGraph personal-rank recurrence written directly (rank vectors as dicts)."""
    ranks = {src: 1.0}
    walk_out, walk_in = {src}, set()
    first: set[int] = set()
    for i in range(depth):
        new: dict[int, float] = {}
        reached_in, reached_out = set(), set()
        for seeds, adj, reached in ((walk_out, out_adj, reached_in), (walk_in, in_adj, reached_out)):
            for s in seeds:
                nbrs = adj.get(s, [])
                if not nbrs:
                    new[s] = ranks.get(s, 0.0)
                    continue
                for t in nbrs:
                    new[t] = new.get(t, 0.0) + ranks.get(s, 0.0) * alpha / len(nbrs)
                    reached.add(t)
        walk_out |= reached_out
        walk_in |= reached_in
        new[src] = new.get(src, 0.0) + 1 - alpha
        ranks = new
        if i == 0:
            first = set(ranks)
    return {k: v for k, v in ranks.items() if k not in first}


@SETTINGS
@given(st.integers(1, 5), st.integers(1, 5), st.data(), st.sampled_from([0.5, 0.85, 1.0]), st.integers(2, 6))
def test_personal_rank_on_bipartite_graphs(make_graph: Any, users: int, items: int, data: Any, alpha: float,
                                           depth: int) -> None:
    pairs = [(u, users + i) for u in range(users) for i in range(items)]
    edges = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    g = make_graph(users + items, edges, label_of=lambda i: "user" if i < users else "item", edge_label="rated")
    src = data.draw(st.integers(0, users - 1))
    out_adj: dict[int, list[int]] = {}
    in_adj: dict[int, list[int]] = {}
    for u, v in edges:
        out_adj.setdefault(u, []).append(v)
        in_adj.setdefault(v, []).append(u)
    expected = _personal_rank_reference(out_adj, in_adj, src, alpha, depth)
    got = run_step(g, "hg_personalrank", {"source": src, "label": "rated", "alpha": alpha, "max_depth": depth,
                                          "limit": -1})
    assert {int(k): v for k, v in got.items()} == pytest_approx(expected)
    assert list(got.values()) == sorted(got.values(), reverse=True)
