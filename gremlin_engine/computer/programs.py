"""PageRank, PeerPressure and ConnectedComponent, superstep by superstep as TinkerPop's
vertex programs define them (`PageRankVertexProgram`, `PeerPressureVertexProgram`,
`ConnectedComponentVertexProgram` in gremlin-core), over a `Topology`'s index lists.

The programs' rules carry over exactly, because TinkerGraph's answers depend on them: the
iteration counts and halting votes, PageRank's teleportation energy (the rank that leaves
through dangling vertices and the `1 - alpha` share, handed back evenly next superstep),
PeerPressure's tie-break (the largest vote, then the least `toString()`), the component as
the least id *string*. A superstep visits the vertices in one order and sums as it goes,
as a single TinkerGraph worker does. `check()` (the run's cancel token) runs every superstep.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

Check = Callable[[], None]
_MIN = sys.float_info.min * sys.float_info.epsilon  # Java's Double.MIN_VALUE (4.9e-324)


def page_rank(adj: Sequence[Sequence[int]], initial: Sequence[float] | None, alpha: float,
              iterations: int, check: Check, epsilon: float = 0.00001) -> list[float]:
    """Ranks after `iterations` supersteps (fewer once the total change drops below
    `epsilon`). `initial` None: every vertex starts equal (rank 1/n, the ranks sum to 1);
    else each starts with its value (TinkerPop: the halted traversers at it) and no energy
    is teleported at first."""
    n = len(adj)
    counts = [float(len(a)) for a in adj]
    rank = [0.0] * n
    energy = 1.0 if initial is None else 0.0  # TELEPORTATION_ENERGY, as set up
    error = 1.0  # CONVERGENCE_ERROR, as set up
    vertex_count = float(n)
    iteration = 0  # superstep 0 only counts edges and vertices
    incoming = [0.0] * n
    while not (error < epsilon or iteration >= iterations):
        check()
        iteration += 1
        if iteration == 1:
            current = [0.0] * n if initial is None else [float(x) for x in initial]
        else:
            current = incoming
        incoming = [0.0] * n
        share = energy / vertex_count if energy > 0.0 else 0.0
        added: float | None = None  # this superstep's additions to the energy, summed in order
        error_sum: float | None = None
        keep = 1.0 - alpha
        for i in range(n):
            pr = current[i]
            if share:
                pr = pr + share
                added = -share if added is None else added + -share
            diff = abs(pr - rank[i])
            error_sum = diff if error_sum is None else error_sum + diff
            rank[i] = pr
            gone = keep * pr
            added = gone if added is None else added + gone
            pr = alpha * pr
            c = counts[i]
            if c > 0.0:
                msg = pr / c
                for j in adj[i]:
                    incoming[j] += msg
            else:
                added = pr if added is None else added + pr
        if added is not None:
            energy = energy + added
        error = 0.0 if error_sum is None else error_sum
    return rank


def peer_pressure(adj: Sequence[Sequence[int]], ids: Sequence[Any], strength: Sequence[float] | None,
                  iterations: int, check: Check) -> list[Any]:
    """Each vertex's cluster (a vertex id): votes along `adj`, at most `iterations`
    supersteps after the first, until no vertex changes. `strength` None: every vote weighs
    1.0, else each vertex's own (TinkerPop: the halted traversers at it)."""
    n = len(adj)
    weight = [1.0] * n if strength is None else [float(s) for s in strength]
    cluster = list(ids)
    sent = [(cluster[i], weight[i]) for i in range(n)]  # superstep 0's votes
    iteration = 0
    halt = False  # VOTE_TO_HALT after superstep 0: no vertex votes to halt there
    while not (halt or iteration >= iterations):
        check()
        iteration += 1
        inbox: list[list[tuple[Any, float]]] = [[] for _ in range(n)]
        for i in range(n):
            for j in adj[i]:
                inbox[j].append(sent[i])
        halt = True
        for j in range(n):
            votes: dict[Any, float] = {cluster[j]: weight[j]}
            for c, s in inbox[j]:
                votes[c] = votes[c] + s if c in votes else s
            chosen = _largest(votes)
            if chosen is None:
                chosen = ids[j]
            halt = halt and cluster[j] == chosen
            cluster[j] = chosen
            sent[j] = (chosen, weight[j])
    return cluster


def _largest(votes: dict[Any, float]) -> Any:
    """The cluster with the most votes, ties to the least `toString()`; None when every
    vote weighs nothing (as PeerPressureVertexProgram.largestCount)."""
    best: Any = None
    best_value = _MIN
    for key, value in votes.items():
        if value == best_value:
            if best is not None and java_string(best) > java_string(key):
                best = key
        elif value > best_value:
            best, best_value = key, value
    return best


def connected_components(adj: Sequence[Sequence[int]], ids: Sequence[Any], senders: Sequence[bool],
                         check: Check) -> list[str]:
    """Each vertex's component: the least id string that reaches it along `adj`.

    TinkerPop's program passes messages: in the first superstep the `senders` (vertices with
    an edge) send their own id; afterwards a vertex that received an id less than its own
    takes it and sends it on. Its fixed point, computed here directly: every sender's id
    spreads along `adj` to the vertices whose id is greater, and a vertex keeps the least
    id that reaches it. Taking the senders in increasing id order, the first to reach a
    vertex is that least one, and a walk stops at vertices already taken (whatever reaches
    on from them, a smaller id reached first), so each vertex and edge is visited once; a
    vertex with a smaller id of its own that never sends blocks the walk, as it would the
    messages."""
    own = [java_string(i) for i in ids]
    component = list(own)
    taken = [False] * len(own)
    for n, s in enumerate(sorted((i for i, sends in enumerate(senders) if sends), key=own.__getitem__)):
        if n % 4096 == 0:
            check()
        if taken[s]:
            continue
        label = own[s]
        taken[s] = True
        stack = [s]
        while stack:
            for j in adj[stack.pop()]:
                if taken[j]:
                    continue
                taken[j] = True
                if own[j] < label:  # keeps its own id and sends nothing (it never sends)
                    continue
                component[j] = label
                stack.append(j)
    return component


def java_string(value: Any) -> str:
    """`Object.toString()` of an id as TinkerPop compares them (numbers without a type suffix)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(int(value)) if isinstance(value, int) else str(value)
