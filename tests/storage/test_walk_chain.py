"""`Aggregates.count` from `WalkStart.ID`: a walk count from one public vertex id as one join-chain
statement must count exactly what the frontier CTE (`walk_count`) and a brute-force walk
count: parallel edges once each, a 'both' self-loop twice, label filters per hop, mixed
directions, int / str / bytes ids, and 0 for an unknown id."""

from __future__ import annotations

import itertools
import random

import pytest

from storage import StoreError, WalkCount, WalkStart, tx_aggregates
from storage.tx_aggregates import CHAIN_MAX_HOPS, _chain_sql

KNOWS, LIKES, OTHER = 10, 20, 30


@pytest.fixture
def graph(store):
    """A small multigraph: self-loops, parallel edges of one label (id-identified rows, as
    auto mode writes them), parallel edges told apart by sort values, two labels between
    the same pair, a vertex with no edges, and ids of three kinds."""
    rng = random.Random(7)
    ids = [1, 2, 3, 4, 5, "s6", "s7", b"\x01\x02", 9]
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, None) for i in ids])
        edges = [(None, KNOWS, keys[0], keys[0], "", None),  # self-loop
                 (None, KNOWS, keys[0], keys[1], "", None),  # two parallel, id-identified
                 (None, KNOWS, keys[0], keys[1], "", None),
                 (None, LIKES, keys[0], keys[1], "", None),  # another label between the pair
                 (None, KNOWS, keys[1], keys[1], "", None),
                 (None, LIKES, keys[2], keys[2], "", None)]
        for _ in range(40):
            a, b = rng.randrange(4, 8), rng.randrange(4, 8)  # ids 1-4 keep the edges above only
            edges.append((None, rng.choice((KNOWS, LIKES, OTHER)), keys[a], keys[b], "", None))
        tx.elements.edges_insert(edges)
        tx.elements.edges_insert([(f"p{i}", KNOWS, keys[3], keys[4], f"sort{i}", None) for i in range(3)], unique_parts=True)
    out: dict[int, list[tuple[int, int]]] = {}
    inn: dict[int, list[tuple[int, int]]] = {}
    for _id, label, o, i, _s, _p in edges + [(None, KNOWS, keys[3], keys[4], "", None)] * 3:
        out.setdefault(o, []).append((label, i))
        inn.setdefault(i, []).append((label, o))
    return store, dict(zip(ids, keys, strict=True)), out, inn


def _brute(start: int, hops, out, inn) -> int:
    """Walks enumerated one by one (the definition the statement must meet)."""
    frontier = [start]
    for direction, labels in hops:
        nxt = []
        for k in frontier:
            sides = {"out": (out,), "in": (inn,), "both": (out, inn)}[direction]
            for side in sides:
                nxt.extend(o for lab, o in side.get(k, ()) if labels is None or lab in labels)
        frontier = nxt
    return len(frontier)


HOP_CHOICES = [("out", None), ("in", None), ("both", None), ("out", [KNOWS]), ("both", [KNOWS, LIKES]), ("in", [LIKES])]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_counts_equal_the_frontier_walk_and_brute_force(graph, k) -> None:
    store, keys, out, inn = graph
    combos = list(itertools.product(HOP_CHOICES, repeat=k))
    if k == 3:
        combos = combos[::7]  # a spread of the 216, enough to mix every direction and filter
    with store.read() as tx:
        for hops in combos:
            for vid, key in keys.items():
                want = _brute(key, hops, out, inn)
                assert tx.aggregates.count(WalkCount(hops, WalkStart.ID), vid) == want, (vid, hops)
                assert tx.aggregates.count(WalkCount(hops), [(key, 1)]) == want, (vid, hops)
    assert any(_brute(keys[5], hops, out, inn) > 10 for hops in combos)  # not a vacuous comparison


def test_self_loops_and_parallel_edges(graph) -> None:
    store, keys, _out, _inn = graph
    with store.read() as tx:
        # id 2 has the loop 2->2 and three edges in from 1 (two knows, one likes)
        only_known = [("both", [KNOWS])]
        assert tx.aggregates.count(WalkCount(only_known, WalkStart.ID), 2) == 2 + 2  # the loop twice, both parallel edges
        assert tx.aggregates.count(WalkCount([("out", [KNOWS])], WalkStart.ID), 4) == 3  # the sort-keyed parallel edges
        assert tx.aggregates.count(WalkCount([("out", None), ("both", [KNOWS])], WalkStart.ID), 1) == 4 + 3 * 4  # 1 (loop twice, two to 2), then 2 (four each)
        assert tx.aggregates.count(WalkCount([("both", None)], WalkStart.ID), 9) == 0  # isolated
        assert tx.aggregates.count(WalkCount([], WalkStart.ID), 9) == 1  # zero hops: the start itself
        assert tx.aggregates.count(WalkCount([], WalkStart.ID), 404) == 0


def test_unknown_start_empty_labels_and_limits(graph) -> None:
    store, _keys, _out, _inn = graph
    with store.read() as tx:
        assert tx.aggregates.count(WalkCount([("out", None)], WalkStart.ID), 404) == 0
        assert tx.aggregates.count(WalkCount([("out", None)], WalkStart.ID), "1") == 0  # '1' is not 1
        assert tx.aggregates.count(WalkCount([("out", None), ("out", [])], WalkStart.ID), 1) == 0
        assert tx.aggregates.count(WalkCount([("out", [999])], WalkStart.ID), 1) == 0
        with pytest.raises(StoreError):
            tx.aggregates.count(WalkCount([("out", None)] * (CHAIN_MAX_HOPS + 1), WalkStart.ID), 1)
        with pytest.raises(StoreError):
            tx.aggregates.count(WalkCount([("sideways", None)], WalkStart.ID), 1)


def test_stop_interrupts(graph, monkeypatch) -> None:
    monkeypatch.setattr(tx_aggregates, "POLL_EVERY", 1)  # the graph is too small for the default
    store, _keys, _out, _inn = graph
    with store.read() as tx:
        assert tx.aggregates.count(WalkCount([("both", None)] * 3, WalkStart.ID), 1, stop=lambda: True) is None
        assert tx.aggregates.count(WalkCount([("out", None)], WalkStart.ID), 1, stop=lambda: False) == tx.aggregates.count(WalkCount([("out", None)], WalkStart.ID), 1)


def test_the_chain_is_indexed_at_every_hop(file_store) -> None:
    """One adjacency-index range per hop, the start by the id index; never a table scan."""
    with file_store.write() as tx:
        a, b = tx.elements.vertices_insert([(1, 1, None), (2, 1, None)])
        tx.elements.edges_insert([(None, KNOWS, a, b, "", None), (None, KNOWS, b, a, "", None)])
    for hops, want in (((("out", None), ("out", None)), ["ix_edges_out (out_key=?)"] * 2),
                       ((("out", (KNOWS,)), ("in", (KNOWS,))), ["ix_edges_out (out_key=? AND label_id=?)",
                                                                 "ix_edges_in (in_key=? AND label_id=?)"]),
                       ((("both", None),), ["ix_edges_out (out_key=?)", "ix_edges_in (in_key=?)"])):
        sql = _chain_sql(hops)
        with file_store.read() as tx:
            plan = [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + sql, (1,))]
            assert tx.aggregates.count(WalkCount(hops, WalkStart.ID), 1) == 2 if hops[0][0] == "both" else 1
        assert not [ln for ln in plan if ln.startswith("SCAN") and "subquery" not in ln], plan
        assert sum("sqlite_autoindex_vertices" in ln for ln in plan) == sql.count("FROM vertices"), plan
        for index in want:
            assert any(f"COVERING INDEX {index}" in ln for ln in plan), (index, plan)
