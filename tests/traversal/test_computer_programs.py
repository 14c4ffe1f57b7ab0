"""`computer.programs` against the message passing TinkerPop's programs define, step by step,
on random graphs: the connected components' direct fixed point must equal the supersteps."""

from __future__ import annotations

import random

import pytest

from gremlin_engine.computer.programs import connected_components, java_string, page_rank


def supersteps(adj: list[list[int]], ids: list[object], senders: list[bool]) -> list[str]:
    """ConnectedComponentVertexProgram as written: senders send their id first, then a vertex
    that received a smaller id takes it and sends it on, until nobody sends."""
    comp = [java_string(i) for i in ids]
    outbox = {i: comp[i] for i, s in enumerate(senders) if s}
    while outbox:
        inbox: dict[int, list[str]] = {}
        for i, msg in outbox.items():
            for j in adj[i]:
                inbox.setdefault(j, []).append(msg)
        outbox = {}
        for j, msgs in inbox.items():
            least = min(msgs)
            if least < comp[j]:
                comp[j] = outbox[j] = least
    return comp


@pytest.mark.parametrize("seed", range(40))
def test_components_equal_the_supersteps(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.randint(1, 40)
    adj: list[list[int]] = [[] for _ in range(n)]
    for _ in range(rnd.randint(0, 3 * n)):
        adj[rnd.randrange(n)].append(rnd.randrange(n))  # directed scopes: reachability, not symmetry
    ids: list[object] = rnd.sample(range(1000), n) if seed % 2 else [f"v{rnd.randrange(100)}-{i}" for i in range(n)]
    senders = [rnd.random() < 0.8 for _ in range(n)]
    assert connected_components(adj, ids, senders, lambda: None) == supersteps(adj, ids, senders)


def test_page_rank_keeps_its_mass() -> None:
    adj = [[1, 2], [2], [0], []]  # vertex 3 dangles: its rank is handed back to everyone
    ranks = page_rank(adj, None, 0.85, 30, lambda: None)
    assert sum(ranks) == pytest.approx(1.0)
    seeded = page_rank(adj, [2.0, 0.0, 0.0, 1.0], 0.85, 30, lambda: None)
    assert sum(seeded) == pytest.approx(3.0)  # seeded by traverser counts: the mass is theirs
