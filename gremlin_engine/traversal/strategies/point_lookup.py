"""Fuses a root `V(id)` and a final `values(keys)` / `id()` / `label()` into one `PointStep`.

Before: ``g.V(1).values('name')`` -> ``V(1)`` then ``values('name')``
After:  ``point(V(1).values('name'))``: one indexed read, the requested keys decoded from
the row (`steps/point.py`), no `Vertex`, no traverser pipeline.

Only the exact two-step root shape qualifies: one id, no folded label/has conditions or
limit, no step labels (`as()`), and nothing after the map step; so no path, select, sack or
side effect can see the difference. Runs last, after the rewrites that might still change
either step.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.map import IdStep, LabelStep, ValuesStep
from gremlin_engine.traversal.steps.point import PointStep
from gremlin_engine.traversal.steps.source import VStep


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    steps = traversal.steps
    if traversal is not root or len(steps) != 2:
        return
    src, tail = steps
    if not (
        type(src) is VStep
        and src.is_start
        and src.ids is not None
        and len(src.ids) == 1
        and src.ids[0] is not None
        and src.label_filter is None
        and not src.conditions
        and src.limit is None
        and not src.labels
        and not tail.labels
    ):
        return
    new: Any
    if type(tail) is ValuesStep and all(type(k) is str for k in tail.args):
        new = PointStep(src, tail, "values", tuple(tail.args))
    elif type(tail) is IdStep:
        new = PointStep(src, tail, "id")
    elif type(tail) is LabelStep:
        new = PointStep(src, tail, "label")
    else:
        return
    steps[:] = [new]
