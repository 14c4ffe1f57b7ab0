"""Answers a root `V()/E()[.hasLabel(...)].groupCount().by(key)` with one `GROUP BY`.

Before: ``g.V().hasLabel('person').groupCount().by('city')``
After:  ``g.groupCount(V().hasLabel('person'), by('city'))`` ->
        ``access.group_counts('vertex', ['person'], 'city', ...)``

The scan would build a traverser (and decode a row) per element to add 1 to a counter;
storage instead counts per distinct stored value (or label, for `by(T.label)`) and the step
decodes one value per group. Groups are met in scan order and merged with the same
`hashable` keys as `GroupCountStep`, so the map (its key types, its order, Long counts) is
the one the scan gives. Needs has_fold first; only for the root's source step with no ids,
no remaining `has()` conditions, no limit and no step label, and a groupCount without a
side-effect key whose one `by()` names a property or `T.label`. The access method is
optional: without it (views, the in-memory graph) or when it declines (returns None), the
original two steps run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.access import offers_group_counts
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal
from gremlin_engine.traversal.steps.barrier import GroupCountStep, map_key
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.tokens import T
from gremlin_engine.traversal.traverser import Context, Traverser


class GroupCountSourceStep(Step):
    """`source.groupCount().by(key)` as one start step."""

    name = "groupCountSource"

    def __init__(self, source: GraphStep, group: GroupCountStep) -> None:
        super().__init__()
        self.source = source
        self.group = group
        self.key = group.bys[0].key
        self.is_start = True

    def children(self) -> list[CompiledTraversal]:
        return self.group.children()

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        access = ctx.access
        if offers_group_counts(access):
            token = ctx.cancel
            pairs = access.group_counts(
                self.source.kind, self.source.label_filter, self.key, NOTHING,
                lambda: token.cancelled or token.expired(),
            )
            if pairs is not None:
                yield ctx.new_traverser(self._merged(pairs, ctx))
                return
            ctx.check()  # interrupted: raise the timeout; declined: take the general path
        yield from self.group.process(self.source.process(iter(()), ctx), ctx)

    @staticmethod
    def _merged(pairs: list[tuple[Any, int]], ctx: Context) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        keys: dict[Any, Any] = {}
        for value, n in pairs:
            if value is NOTHING:
                if not ctx.productive_by:
                    continue
                value = None
            k = keys.setdefault(hashable(value), map_key(value))
            out[k] = Long(out.get(k, 0) + n)
        return out

    def __repr__(self) -> str:
        return f"groupCount({self.source!r}, {self.group.bys[0]!r})" + "".join(f".as({lb!r})" for lb in self.labels)


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    steps = traversal.steps
    if traversal is not root or len(steps) < 2:
        return
    src, group = steps[0], steps[1]
    if not (
        isinstance(src, GraphStep)
        and src.is_start
        and src.ids is None
        and src.limit is None
        and not src.conditions
        and not src.labels
        and type(group) is GroupCountStep
        and group.side_effect is None
        and len(group.bys) == 1
        and (isinstance(group.bys[0].key, str) or group.bys[0].key is T.label)
    ):
        return
    new = GroupCountSourceStep(src, group)
    new.labels = group.labels
    steps[0:2] = [new]
