"""The benchmark workload: a deterministic social graph at two sizes.

Every system under test loads exactly these rows, so their timings compare the same work.
Vertices are `person` (name unique, age 18..80, city among 100), edges `knows` with a
`weight`. Out-degrees follow a skewed distribution (a few hubs, many small fan-outs), which
is what makes k-hop queries grow the way real social graphs do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SIZES = {"small": (10_000, 100_000), "large": (100_000, 1_000_000)}


@dataclass(frozen=True)
class Workload:
    n_vertices: int
    n_edges: int
    seed: int = 42

    def vertices(self) -> list[tuple[int, str, int, str]]:
        """(index, name, age, city) for every vertex, index from 0."""
        rnd = random.Random(self.seed)
        return [(i, f"p{i}", rnd.randint(18, 80), f"city{rnd.randrange(100)}") for i in range(self.n_vertices)]

    def edges(self) -> list[tuple[int, int, float]]:
        """(out index, in index, weight); no self-loops, duplicates allowed only across pairs."""
        rnd = random.Random(self.seed + 1)
        n = self.n_vertices
        out: list[tuple[int, int, float]] = []
        seen: set[tuple[int, int]] = set()
        while len(out) < self.n_edges:
            # skew: squaring a uniform draw favours low indexes as sources (hubs)
            src = int((rnd.random() ** 2) * n)
            dst = rnd.randrange(n)
            if src == dst or (src, dst) in seen:
                continue
            seen.add((src, dst))
            out.append((src, dst, round(rnd.random(), 3)))
        return out

    def probe_vertices(self, count: int = 100) -> list[int]:
        """Vertex indexes used as query starting points (same for every system)."""
        rnd = random.Random(self.seed + 2)
        return [rnd.randrange(self.n_vertices) for _ in range(count)]


def workload(size: str) -> Workload:
    nv, ne = SIZES[size]
    return Workload(nv, ne)
