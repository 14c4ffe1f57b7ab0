"""Pushes a global `limit`/`range` that directly follows `V()`/`E()` into the source query.

Before: ``g.V().hasLabel('person').limit(2)``
After:  ``V(labels=[person], limit=2).range(0, 2)`` -> ``access.vertices(..., limit=2)``

The range step stays (it is then a no-op cut), so the rewrite can never change results.
Runs after has_fold: a has-step between the source and the limit blocks the push-down.
Vertex steps have no per-batch limit in GraphAccess, so they are left alone.
"""

from __future__ import annotations

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.range import RangeStep
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.tokens import Scope


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    steps = traversal.steps
    for i in range(len(steps) - 1):
        src, rng = steps[i], steps[i + 1]
        if (
            isinstance(src, GraphStep)
            and not src.labels
            and isinstance(rng, RangeStep)
            and rng.scope is Scope.global_
            and rng.high != -1
        ):
            src.limit = rng.high if src.limit is None else min(src.limit, rng.high)
