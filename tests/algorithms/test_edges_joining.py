"""`edges_joining` (the edge each step of a shortest path names) against a plain-Python model
of "the first edge joining the pair in adjacency order", on random multigraphs where one
label mixes empty and non-empty sort values: its one-label probe for an empty-sort-values
edge must never pick an edge the adjacency order puts later."""

from __future__ import annotations

import random

import pytest

from storage import AdjacencyQuery, open_store


def _first(edges, a, b, direction, labels):
    """edges: (key, label, out, in, sort). The first edge from `a` to `b` in `a`'s
    adjacency order for `direction` ('both': out-edges first), or None."""
    sides = []
    if direction in ("out", "both"):
        sides.append(sorted((lab, srt, ek) for ek, lab, o, i, srt in edges if o == a and i == b))
    if direction in ("in", "both"):
        sides.append(sorted((lab, srt, ek) for ek, lab, o, i, srt in edges if i == a and o == b))
    for side in sides:
        for lab, _srt, ek in side:
            if labels is None or lab in labels:
                return ek
    return None


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_edges_joining_matches_adjacency_order(seed: int) -> None:
    rnd = random.Random(seed)
    store = open_store(None)
    store.initialise()
    with store.write() as tx:
        vkeys = tx.elements.vertices_insert([(f"v{i}", 1, None) for i in range(8)])  # dense: parallel edges
        rows = [(None, rnd.randint(1, 3), rnd.choice(vkeys), rnd.choice(vkeys), rnd.choice(["", "", "a", "b"]), None)
                for _ in range(250)]
        ekeys = tx.elements.edges_insert(rows)
    edges = [(ek, r[1], r[2], r[3], r[4]) for ek, r in zip(ekeys, rows, strict=True)]
    with store.read() as tx:
        for _ in range(80):
            pairs = [(rnd.choice(vkeys), rnd.choice(vkeys)) for _ in range(rnd.randint(1, 6))]
            direction = rnd.choice(["out", "in", "both"])
            labels = rnd.choice([None, [1], [2], [3], [2, 3]])
            got = tx.adjacency.joining(AdjacencyQuery(direction, labels), pairs)
            for a, b in pairs:
                want = _first(edges, a, b, direction, labels)
                assert (got[(a, b)].key if (a, b) in got else None) == want, (a, b, direction, labels)
    store.close()


def test_a_hub_pair_needs_no_scan_of_the_hub() -> None:
    """The probe's plan: the whole index prefix, so a hub's pair is one index seek."""
    store = open_store(None)
    store.initialise()
    with store.write() as tx:
        hub, *others = tx.elements.vertices_insert([(f"v{i}", 1, None) for i in range(2001)])
        tx.elements.edges_insert([(None, 1, hub, o, "", None) for o in others])
    with store.read() as tx:
        got = tx.adjacency.joining(AdjacencyQuery("out", [1]), [(hub, others[-1]), (others[5], hub)])
        assert [(r.out_key, r.in_key) for r in got.values()] == [(hub, others[-1])]
        from storage.adjacency_sql import joining_sql

        plan = [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + joining_sql("out_key", "in_key", (1,)), ["[]"])]
        assert any("sort_values=? AND in_key=?" in line for line in plan), plan
    store.close()
