"""Turns a root `V()...count()` whose filters all folded into `V()` into one `COUNT(*)`.

Before: ``g.V().hasLabel('person').count()`` (after has_fold: ``V(labels=[person]).count()``)
After:  ``CountSource(vertex, labels=[person])`` -> ``access.count('vertex', ['person'], ())``

Needs has_fold to have run first; not applied when ids are given or the source is
labelled (a label could be selected later).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.barrier import CountStep
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.tokens import Scope
from gremlin_engine.traversal.traverser import Context, Traverser


class CountSourceStep(Step):
    """`access.count(kind, labels, conditions)` as a start step."""

    name = "countSource"

    def __init__(self, source: GraphStep) -> None:
        super().__init__()
        self.source = source
        self.is_start = True

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        ctx.check()
        n = ctx.access.count(self.source.kind, self.source.label_filter, tuple(self.source.conditions))
        yield ctx.new_traverser(Long(n))

    def __repr__(self) -> str:
        return f"count({self.source!r})"


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    steps = traversal.steps
    if len(steps) < 2 or traversal is not root:
        return
    src, cnt = steps[0], steps[1]
    if (
        isinstance(src, GraphStep)
        and src.is_start
        and src.ids is None
        and src.limit is None
        and not src.labels
        and isinstance(cnt, CountStep)
        and cnt.scope is Scope.global_
    ):
        new: Any = CountSourceStep(src)
        new.labels = cnt.labels
        steps[0:2] = [new]
