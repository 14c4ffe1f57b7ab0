"""The key-level fast paths of the traversers against the general forms they stand in for.

* `tx.adjacency.edges_joining(pairs, direction, labels)` (the edge a path step takes) must be the
  first edge of `tx.adjacency.adjacent` joining the pair, for every direction and label filter, on
  multigraphs with parallel edges under two labels;
* `tx.adjacency.adjacent_targets` (the unordered frontier read by counting k-out / k-neighbor) must
  hold the same multiset as the `to` column of `tx.adjacency.adjacent_keys`, limits included;
* `count_only` k-out / k-neighbor (which use it) must count what the listing forms list, and
  path responses must name, in path order, the edges joining consecutive path vertices.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import AdjacencyQuery, Lookup, Project
from tests.algorithms.conftest import load_edges, run_step

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DIRECTIONS = ("OUT", "IN", "BOTH")


@st.composite
def multigraphs(draw: Any, max_n: int = 7) -> tuple[int, list[tuple[int, int, str]]]:
    """Vertices 0..n-1 and edges (out, in, label): parallel edges and self-loops allowed."""
    n = draw(st.integers(1, max_n))
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(["a", "b"]))
    return n, draw(st.lists(edge, max_size=4 * n))


def build(registry: Any, name: str, n: int, edges: list[tuple[int, int, str]]) -> Any:
    from gremlin_engine.graph import GraphConfig

    g = registry.open(GraphConfig(name=name, backend="memory", schema_mode="auto"))
    load_edges(g, n, edges)
    return g


_count = itertools.count()


@SETTINGS
@given(multigraphs(), st.sampled_from(["out", "in", "both"]), st.sampled_from([None, ("a",), ("a", "b")]))
def test_edges_joining_is_the_first_adjacent_edge(registry: Any, gr: Any, direction: str, labels: Any) -> None:
    n, edges = gr
    g = build(registry, f"j{next(_count)}", n, edges)
    with g.store.read() as tx:
        lids = None if labels is None else [g.schema.edge_label(x).id for x in labels if g.schema.edge_label(x)]
        keys = [r.key for r in tx.elements.find(Lookup.VERTICES_BY_IDS, list(range(n)))]
        first: dict[tuple[int, int], Any] = {}
        for k in keys:
            for row in tx.adjacency.read(AdjacencyQuery(direction, lids, None, Project.EDGES), [k]):
                other = {"out": row.in_key, "in": row.out_key}.get(direction)
                if other is None:  # both: an out-edge of k leads to its in end, an in-edge back
                    other = row.in_key if row.out_key == k else row.out_key
                first.setdefault((k, other), row)
        pairs = list(itertools.product(keys, keys))
        got = tx.adjacency.joining(AdjacencyQuery(direction, lids), pairs)
    assert {p: r.key for p, r in got.items()} == {p: r.key for p, r in first.items()}


@SETTINGS
@given(multigraphs(), st.sampled_from(["out", "in", "both"]), st.sampled_from([None, 1, 2]),
       st.sampled_from([None, ("a",)]))
def test_adjacent_targets_is_the_multiset_of_adjacent_keys(registry: Any, gr: Any, direction: str, lim: Any,
                                                           labels: Any) -> None:
    n, edges = gr
    g = build(registry, f"t{next(_count)}", n, edges)
    with g.store.read() as tx:
        lids = None if labels is None else [g.schema.edge_label(x).id for x in labels if g.schema.edge_label(x)]
        keys = [r.key for r in tx.elements.find(Lookup.VERTICES_BY_IDS, list(range(n)))]
        want = Counter(to for _, to in tx.adjacency.read(AdjacencyQuery(direction, lids, lim, Project.PAIRS), keys))
        assert Counter(tx.adjacency.read(AdjacencyQuery(direction, lids, lim, Project.TARGETS), keys)) == want


@SETTINGS
@given(multigraphs(), st.sampled_from(DIRECTIONS), st.integers(1, 4), st.sampled_from([-1, 1, 2]),
       st.sampled_from([-1, 2, 5]), st.data())
def test_count_only_counts_what_the_listing_lists(registry: Any, gr: Any, direction: str, depth: int,
                                                  max_degree: int, lim: int, data: Any) -> None:
    n, edges = gr
    g = build(registry, f"c{next(_count)}", n, edges)
    src = data.draw(st.integers(0, n - 1))
    for nearest in (True, False):
        req = {"source": src, "max_depth": depth, "direction": direction, "max_degree": max_degree,
               "limit": lim, "capacity": -1, "nearest": nearest}
        listed = run_step(g, "hg_kout", req)["vertices"]
        assert run_step(g, "hg_kout", {**req, "count_only": True})["vertices_size"] == len(listed)
    req = {"source": src, "max_depth": depth, "direction": direction, "max_degree": max_degree, "limit": lim}
    listed = run_step(g, "hg_kneighbor", req)["vertices"]
    assert run_step(g, "hg_kneighbor", {**req, "count_only": True})["vertices_size"] == len(listed)
    post = {"source": src, "max_depth": depth, "steps": {"direction": direction, "max_degree": max_degree},
            "limit": lim}
    listed = run_step(g, "hg_kneighbor", post)["kneighbor"]
    assert run_step(g, "hg_kneighbor", {**post, "count_only": True})["size"] == len(listed)


@SETTINGS
@given(multigraphs(), st.sampled_from(DIRECTIONS), st.data())
def test_path_edges_join_consecutive_path_vertices(registry: Any, gr: Any, direction: str, data: Any) -> None:
    n, edges = gr
    g = build(registry, f"p{next(_count)}", n, edges)
    src, dst = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    got = run_step(g, "hg_shortestpath", {"source": src, "target": dst, "max_depth": 6, "direction": direction,
                                          "with_edge": True, "with_vertex": True})
    path = [int(x) for x in got["path"]]
    assert [int(v.id) for v in got["vertices"]] == path
    assert len(got["edges"]) == len({(a, b) for a, b in itertools.pairwise(path)})
    for (a, b), e in zip(itertools.pairwise(path), got["edges"], strict=True):
        ends = (int(e.out_v.id), int(e.in_v.id))
        allowed = {"OUT": [(a, b)], "IN": [(b, a)], "BOTH": [(a, b), (b, a)]}[direction]
        assert ends in allowed
    ids_only = run_step(g, "hg_shortestpath", {"source": src, "target": dst, "max_depth": 6, "direction": direction})
    assert ids_only["edges"] == [e.id for e in got["edges"]] and ids_only["vertices"] == got["path"]


def test_sample_picks_at_random_seeded_by_the_request(make_graph: Any) -> None:
    g = make_graph(41, [(0, i) for i in range(1, 41)])
    req = {"sources": {"ids": [0]}, "steps": [{"direction": "OUT", "sample": 5}], "limit": -1}
    picks = [int(p["objects"][1]) for p in run_step(g, "hg_customizedpaths", req)["paths"]]
    assert len(picks) == 5 and len(set(picks)) == 5 and set(picks) <= set(range(1, 41))
    assert picks == sorted(picks)  # adjacency order is kept
    assert [int(p["objects"][1]) for p in run_step(g, "hg_customizedpaths", req)["paths"]] == picks
    others = set()
    for n in range(2, 12):  # other requests (another limit) sample other edges
        got = run_step(g, "hg_customizedpaths", {**req, "limit": 1000 + n})["paths"]
        others.add(tuple(int(p["objects"][1]) for p in got))
    assert len(others) > 1 and others != {tuple(range(1, 6))}
