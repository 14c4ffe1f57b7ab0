"""Fuses a root `V(id)` and a final `values(keys)` / `id()` / `label()` into one `PointStep`.

Before: ``g.V(1).values('name')`` -> ``V(1)`` then ``values('name')``
After:  ``point(V(1).values('name'))``: one indexed read, the requested keys decoded from
the row (`steps/point.py`), no `Vertex`, no traverser pipeline.

A root ``V(1)`` alone becomes ``pointElement(V(1))`` (`steps/point_element.py`): the
vertex read whole from its one row, so the session can answer it in a single-statement read.

Also: ``g.V(1).out('knows').id()`` -> ``hopIds(...)`` (one adjacency statement returning the
neighbours' ids), and ``g.V().hasLabel('person').has('name', x).id()`` -> ``indexIds(...)``
(the index lookup joined to the rows, conditions re-tested on the raw JSON).

Only the exact root shapes qualify: for `V(id)` one id and no folded label/has conditions;
for `V().has(...)` no ids and property conditions only; never a limit, no step labels
(`as()`), and nothing after the final step; so no path, select, sack or side effect can see
the difference. Runs last, after the rewrites that might still change any of the steps.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.flatmap import BothStep, InStep, OutStep
from gremlin_engine.traversal.steps.map import IdStep, LabelStep, ValuesStep
from gremlin_engine.traversal.steps.point import HopIdsStep, IndexIdsStep, PointStep
from gremlin_engine.traversal.steps.point_element import PointElementStep
from gremlin_engine.traversal.steps.source import VStep

_HOPS = (OutStep, InStep, BothStep)


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    steps = traversal.steps
    if traversal is not root:
        return
    if len(steps) == 3:
        _hop_ids(steps)
        return
    if len(steps) == 1:
        if _point_source(steps[0]):
            steps[:] = [PointElementStep(steps[0])]
        return
    if len(steps) != 2:
        return
    if _index_ids(steps):
        return
    src, tail = steps
    if not _point_source(src) or tail.labels:
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


def _point_source(src: Any) -> TypeGuard[VStep]:
    """A root `V(id)` with one id and nothing folded into it."""
    return (
        type(src) is VStep
        and src.is_start
        and src.ids is not None
        and len(src.ids) == 1
        and src.ids[0] is not None
        and src.label_filter is None
        and not src.conditions
        and src.limit is None
        and not src.labels
    )


def _hop_ids(steps: list[Any]) -> None:
    """`V(id).out|in|both(labels).id()` with no step labels -> `HopIdsStep`."""
    src, hop, tail = steps
    if (
        _point_source(src)
        and type(hop) in _HOPS
        and not hop.labels
        and type(tail) is IdStep
        and not tail.labels
    ):
        steps[:] = [HopIdsStep(src, hop, tail)]


def _index_ids(steps: list[Any]) -> bool:
    """A root `V()` with property conditions folded in (no ids, no limit) and `id()` ->
    `IndexIdsStep`; whether an index answers is decided per run by the access."""
    src, tail = steps
    if (
        type(src) is VStep
        and src.is_start
        and src.ids is None
        and src.conditions
        and all(type(k) is str for k, _p in src.conditions)
        and src.limit is None
        and not src.labels
        and type(tail) is IdStep
        and not tail.labels
    ):
        steps[:] = [IndexIdsStep(src, tail)]
        return True
    return False
