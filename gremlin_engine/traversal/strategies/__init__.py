"""Strategies: rewrites of the compiled step list that never execute anything.

`DEFAULT_STRATEGIES` is the one ordered list; `apply_strategies` runs it over the root
traversal and every child traversal. Setting `ENABLED = False` (or passing
`strategies=False` to `traversal.run`) turns every optimisation off, which must never
change results — the conformance runner checks both ways.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.strategies import (
    count_pushdown,
    group_count_pushdown,
    has_fold,
    identity_removal,
    incident_to_adjacent,
    lazy_barrier,
    limit_pushdown,
    point_lookup,
    walk_count,
)

Strategy = Callable[[CompiledTraversal, CompiledTraversal], None]

DEFAULT_STRATEGIES: tuple[tuple[str, Strategy], ...] = (
    # first: removing identity() lets a has() after V().identity() reach the source step
    ("IdentityRemovalStrategy", identity_removal.apply),
    # before has_fold so that outE().inV().has(...) patterns see plain vertex steps
    ("IncidentToAdjacentStrategy", incident_to_adjacent.apply),
    # folds has-containers into V()/E(); count and limit push-down depend on it
    ("HasFoldStrategy", has_fold.apply),
    # after has_fold: needs V() and count() adjacent with all filters folded
    ("CountStrategy", count_pushdown.apply),
    # after has_fold: a remaining has() between V() and limit() must block the push-down
    ("EarlyLimitStrategy", limit_pushdown.apply),
    # after has_fold: a root V(labels).groupCount().by(key) becomes one GROUP BY
    ("GroupCountStrategy", group_count_pushdown.apply),
    # hops (and repeat(hops).times(k)) feeding count() become one key-level walk count;
    # before lazy_barrier, which would put windows between the hops
    ("WalkCountStrategy", walk_count.apply),
    # last: windows go between the steps the rewrites above leave
    ("LazyBarrierStrategy", lazy_barrier.apply),
    # after everything: a root V(id) and a final values()/id()/label() become one step
    ("PointLookupStrategy", point_lookup.apply),
)

ENABLED = True  # the one switch: False disables every optimisation


def _all(traversal: CompiledTraversal) -> Iterable[CompiledTraversal]:
    yield traversal
    for step in list(traversal.steps):
        for child in step.children():
            yield from _all(child)


def apply_strategies(
    root: CompiledTraversal,
    disabled: Iterable[str] = (),
    strategies: tuple[tuple[str, Strategy], ...] = DEFAULT_STRATEGIES,
    trace: list[str] | None = None,
) -> None:
    if not ENABLED:
        return
    off = set(disabled)
    for name, strategy in strategies:
        if name in off:
            continue
        for traversal in list(_all(root)):
            strategy(traversal, root)
        if trace is not None:
            trace.append(f"{name:<28} {root!r}")
