"""ConnectiveStrategy: infix `and()`/`or()` (no arguments) combine the steps around them.

Before: ``__.has('name','marko').or().where(__.in('knows'))``
After:  ``__.or(__.has('name','marko'), __.where(__.in('knows')))``

`or` binds looser than `and`: the traversal is split at each `or()` marker first, then each
side at its `and()` markers. The steps collected on the left stop at the traversal's
source step; a label on the marker (`and().as('a')`) starts the right-hand side. Unlike
the optimisations this one gives the markers their meaning, so the compiler applies it
unless `withoutStrategies(ConnectiveStrategy)` asks for the raw (always-false) markers.
"""

from __future__ import annotations

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.base import IdentityStep, Step
from gremlin_engine.traversal.steps.filter import AndStep, OrStep


def _start(labels: tuple[str, ...]) -> list[Step]:
    if not labels:
        return []
    s = IdentityStep()
    s.labels = labels
    return [s]


def _split(steps: list[Step], marker: type[Step]) -> None:
    i = 0
    while i < len(steps):
        s = steps[i]
        if type(s) is marker and not s.args:
            left: list[Step] = []
            while i > 0 and not steps[i - 1].is_start:
                left.insert(0, steps.pop(i - 1))
                i -= 1
            children = [CompiledTraversal(left, anonymous=True)]
            right = _start(s.labels)
            s.labels = ()
            while i + 1 < len(steps):
                nxt = steps.pop(i + 1)
                if type(nxt) is marker and not nxt.args:
                    children.append(CompiledTraversal(right, anonymous=True))
                    right = _start(nxt.labels)
                else:
                    right.append(nxt)
            children.append(CompiledTraversal(right, anonymous=True))
            s.args = tuple(children)
            if marker is OrStep:
                for c in children:
                    _split(c.steps, AndStep)
        i += 1


def apply(traversal: CompiledTraversal) -> None:
    """Rewrites the markers of `traversal` and of every child traversal, in place."""
    for step in list(traversal.steps):
        for child in step.children():
            apply(child)
    if any(type(s) in (AndStep, OrStep) and not s.args for s in traversal.steps):
        _split(traversal.steps, OrStep)
        _split(traversal.steps, AndStep)
