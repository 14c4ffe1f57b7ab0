"""LazyBarrierStrategy: a bulking window after each flat-map step past the first, so
repeated walks to the same element travel as one traverser (with bulk) from there on.

Before: ``g.V().out().out().count()``
After:  ``g.V().out().barrier(2500).out().count()``

TinkerPop's rules: not when whole paths are read (path(), simplePath(), tree(), ...) or
elements are dropped; the first flat-map (or a plain `V()` start) only arms the strategy;
edge-returning vertex steps do not count; no window right before a barrier or at the end;
no more windows once a step carries a label (the labelled path must stay per walk). The
window keeps the first occurrence's position, as TinkerPop's NoOpBarrierStep does, so
results differ only in how bulk is packed.
"""

from __future__ import annotations

from collections.abc import Iterator

from gremlin_engine.traversal.bulking import merge_traversers
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.branch import global_child
from gremlin_engine.traversal.steps.flatmap import (
    EdgeVertexStep,
    FlatMapTraversalStep,
    UnfoldStep,
    VertexStep,
)
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.traverser import Context, Traverser, checked

WINDOW = 2500


class LazyBarrierStep(Step):
    """Merges equal traversers within windows of `size` (TinkerPop's NoOpBarrierStep)."""

    name = "barrier"

    def __init__(self, size: int = WINDOW) -> None:
        super().__init__(size)
        self.size = size

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        window: list[Traverser] = []
        for t in checked(it, ctx):
            window.append(t)
            if len(window) >= self.size:
                yield from merge_traversers(window, ctx)
                window = []
        if window:
            yield from merge_traversers(window, ctx)


def _is_barrier(step: Step) -> bool:
    return global_child(CompiledTraversal([step], anonymous=True)) or step.name in ("barrier", "cap", "aggregate")


def _flat(step: Step, i: int) -> bool:
    if isinstance(step, VertexStep):
        return step.returns == "vertex"
    if isinstance(step, EdgeVertexStep | FlatMapTraversalStep | UnfoldStep):
        return True
    if isinstance(step, GraphStep):
        return i > 0 or (step.ids is None and not step.conditions and step.label_filter is None)
    return False


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    if any(s.full_path or s.name == "drop" for s in root.walk()):
        return
    steps = traversal.steps
    found = False
    labelled = False
    i = 0
    while i < len(steps):
        step = steps[i]
        if _flat(step, i):
            nxt = steps[i + 1] if i + 1 < len(steps) else None
            if found and not labelled and nxt is not None and not _is_barrier(nxt):
                barrier = LazyBarrierStep()
                barrier.labels, step.labels = step.labels, ()
                steps.insert(i + 1, barrier)
                i += 1
            else:
                found = True
        if step.labels:
            labelled = True
        i += 1
