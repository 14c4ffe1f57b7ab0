"""Folds `hasLabel`/`hasId`/`has(key, P)` right after `V()`/`E()` into the source step, so the
runtime gets labels, ids and conditions in one `access.vertices(...)` call (index lookup
instead of a scan).

Before: ``g.V().hasLabel('person').has('age', gt(30))``
After:  ``g.V().hasLabel('person').has('age', gt(30))`` as ONE step:
        ``V(labels=['person'], conditions=[('age', gt(30))])``

Only has-steps made of plain `(key, P)` conditions fold; `has(key)` (existence), has with a
traversal, and labelled has-steps stay filters.
"""

from __future__ import annotations

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.filter import HasStep
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.tokens import T


def _label_values(p: object) -> list[str] | None:
    op, value = getattr(p, "op", None), getattr(p, "value", None)
    if op == "eq" and isinstance(value, str):
        return [value]
    if op == "within" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    steps = traversal.steps
    i = 0
    while i < len(steps):
        src = steps[i]
        if isinstance(src, GraphStep) and src.limit is None:
            while i + 1 < len(steps):
                has = steps[i + 1]
                if not isinstance(has, HasStep) or not has.foldable:
                    break
                del steps[i + 1]
                for key, p in has.conditions:
                    labels = _label_values(p) if key is T.label else None
                    if labels is not None:
                        src.label_filter = (
                            labels if src.label_filter is None else [lb for lb in src.label_filter if lb in labels]
                        )
                    else:
                        src.conditions.append((key, p))
                if src.label_filter == []:
                    src.ids = []  # contradictory labels: nothing can match
        i += 1
