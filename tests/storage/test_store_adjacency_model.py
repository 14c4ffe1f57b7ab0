"""Adjacency against a plain-Python model on random multigraphs (self-loops, parallel edges,
several labels and sort values), for every direction, label filter and limit."""

from __future__ import annotations

import random

import pytest

from storage import AdjacencyQuery, Project, open_store


def _model(edges, keys, direction, labels, limit):
    """edges: list of (key, label, out, in, sort). Expected (from, to, edge key) sequence."""
    out = []
    for k in dict.fromkeys(keys):
        sides = []
        if direction in ("out", "both"):
            sides.append(sorted(((lab, srt, i, ek) for ek, lab, o, i, srt in edges if o == k)))
        if direction in ("in", "both"):
            sides.append(sorted(((lab, srt, o, ek) for ek, lab, o, i, srt in edges if i == k)))
        per_vertex = [(k, other, ek) for side in sides for _lab, _srt, other, ek in side
                      if labels is None or _lab in labels]
        out.extend(per_vertex if limit is None else per_vertex[:limit])
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_adjacency_matches_model(seed: int) -> None:
    rnd = random.Random(seed)
    store = open_store(None)
    store.initialise()
    with store.write() as tx:
        vkeys = tx.elements.vertices_insert([(f"v{i}", 1, None) for i in range(12)])  # dense: many parallel edges
        rows = [(None, rnd.randint(1, 3), rnd.choice(vkeys), rnd.choice(vkeys), rnd.choice(["", "a", "b"]), None)
                for _ in range(300)]
        ekeys = tx.elements.edges_insert(rows)
    edges = [(ek, r[1], r[2], r[3], r[4]) for ek, r in zip(ekeys, rows, strict=True)]
    with store.read() as tx:
        for _ in range(60):
            batch = [rnd.choice(vkeys) for _ in range(rnd.randint(1, 12))]
            direction = rnd.choice(["out", "in", "both"])
            labels = rnd.choice([None, [1], [2, 3], [3, 1]])
            limit = rnd.choice([None, None, 1, 2, 5])
            want = _model(edges, batch, direction, labels, limit)
            got = tx.adjacency.read(AdjacencyQuery(direction, labels, limit, Project.EDGES), batch)
            assert [r.key for r in got] == [ek for _f, _t, ek in want], (batch, direction, labels, limit)
            pairs = tx.adjacency.read(AdjacencyQuery(direction, labels, limit, Project.PAIRS), batch)
            assert pairs == [(f, t) for f, t, _ek in want], (batch, direction, labels, limit)
    store.close()
