"""Counts walks of several hops in one storage statement instead of one traverser per walk.

Before: ``g.V(1).out().out().count()``, ``g.V(1).repeat(out('knows')).times(3).count()``
After:  ``g.V(1).walkCount(out(), out())``, ``g.V(1).walkCount(out('knows') x3)``

A root ``g.V()[.hasLabel(...)]`` right before the hops joins them (``walkCount(V(), out(),
out())``): the walks then start at every such vertex inside the statement, and no start
vertex is built either. A root ``g.V(id)`` of one plain id is folded in too (`start`), and
the walk count asks `walk_count_from_id` first: one statement that finds the start by id
and counts (at most `CHAIN_MAX_HOPS` hops), without reading the start vertex or opening a
frontier CTE; as the whole traversal, the runner asks it through `answer`, with no
traverser made. Where that method declines (None: auto mode, more hops, interrupted) the
start step runs and the walks are counted as below.

`count()` after a chain of vertex steps needs only how many walks reach the end, and the
number of walks through a vertex is its multiplicity: so the chain becomes k expansions of
a key-level frontier with multiplicities merged per level (`GraphAccess.walk_count`,
optional; storage does it with one `GROUP BY` per level), and no vertex row is ever read.

A hop is an unlabelled `out/in/both(labels...)` (a plain `barrier()` between hops is none);
`repeat(<hops>).times(k)` without
`emit`/`until`/a loop name is its body k times (`times(0)` after `repeat` still runs the
body once, before it not at all, as RepeatStep does). At most `WALK_MAX_HOPS` hops are
unrolled (the statement grows with them, and `times(k)` is the client's number: 100,000
hops crashed SQLite preparing the statement): a longer walk stays the stepwise repeat, which
merges bulk per level and polls the deadline between levels. The rewrite needs at least two hops,
or a repeat (one hop is `AdjacentStream.count_bulk`'s job). Not applied when the traversal
tracks paths. At run time the step keeps the original steps and runs them instead when the
access cannot count walks (filtering views, the in-memory graph), under `withBulk(false)`
(merging would then drop walks), or with sacks.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from gremlin_engine.access import Stop, offers_walk_count
from gremlin_engine.errors import TraversalError
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.executor import CompiledTraversal, execute
from gremlin_engine.traversal.steps.barrier import BarrierStep, CountStep
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.branch import RepeatStep
from gremlin_engine.traversal.steps.flatmap import BothStep, InStep, OutStep
from gremlin_engine.traversal.steps.source import GraphStep, VStep
from gremlin_engine.traversal.tokens import Direction, Scope
from gremlin_engine.traversal.traverser import Context, Traverser, batches
from storage import WALK_MAX_HOPS

Hop = tuple[Direction, tuple[str, ...]]

#: traversers handed to one `walk_count` call (counts add up, so chunks are independent)
CHUNK = 5000

_HOP_STEPS = (OutStep, InStep, BothStep)


def _stopper(ctx: Context) -> Stop:
    token = ctx.cancel
    return lambda: token.cancelled or token.expired()


class WalkCountStep(Step):
    """`count()` of the walks `hops` make from each input vertex (bulk-weighted)."""

    name = "walkCount"

    #: the attribute holding the step whose values a prepared run binds (`prepared.BoundAnswer`)
    answer_source = "start"
    #: `answer` is one counting statement (`walk_count_from_id`) and a number
    reads_once = True

    def __init__(self, original: list[Step], hops: list[Hop], first: str, source: GraphStep | None = None,
                 start: GraphStep | None = None) -> None:
        super().__init__()
        self.original = CompiledTraversal(original, anonymous=True)
        #: a tuple: the access keys the walk's derived `WalkCount` by it, as it is
        self.hops: tuple[Hop, ...] = tuple(hops)
        self.first = first  # the first vertex step's name, for its error message
        self.source = source  # a fused `V()[.hasLabel()]`: the walks start at every such vertex
        #: the root `V(id)` folded into this step, which then is the whole traversal: asked
        #: through `answer` (`walk_count_from_id`), and run as a step of its own ahead of
        #: the walk when that declines
        self.start = start
        self.is_start = source is not None or start is not None

    def answer(self, access: Any, source: GraphStep | None = None, cancel: Any = None) -> list[Any] | None:
        """The count when the step is the whole traversal `V(id).walkCount(...)` and the access
        counts it in one statement (`traversal.run_compiled` asks, with no traverser made);
        None to run the step. `source` stands for `self.start` (a prepared run's bound copy)."""
        start = source or self.start
        kind = type(access)
        if (
            start is None or self.source is not None or not _plain_id_start(start)
            or not callable(getattr(kind, "walk_count", None))
            or not callable(getattr(kind, "walk_count_from_id", None))
        ):
            return None
        stop = None if cancel is None else (lambda: cancel.cancelled or cancel.expired())
        n = access.walk_count_from_id(start.ids[0], self.hops, stop)  # type: ignore[index]
        return None if n is None else [Long(n)]

    def children(self) -> list[CompiledTraversal]:
        return [self.original]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.start is not None:
            it = self.start.process(it, ctx)
        if (
            not offers_walk_count(ctx.access)
            or not ctx.bulk
            or ctx.sack_initial is not None
            or ctx.track_paths
        ):
            return execute(self.original, it, ctx)
        if self.source is not None:
            return self._counted_from_all(ctx)
        if self.start is not None:
            return self._counted_from_id(it, ctx)
        return self._counted(it, ctx)

    def _counted_from_id(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        """The count from the one start `V(id)` in one statement, or (None) as the steps run."""
        ctx.check()  # as the start step checks before its first vertex
        start = self.start
        assert start is not None
        ids = start.ids
        n = None
        access = ctx.access
        if ids is not None and len(ids) == 1 and _plain_id_start(start) and offers_walk_count(access):
            n = access.walk_count_from_id(ids[0], self.hops, _stopper(ctx))
        if n is None:  # declined or interrupted: the start step runs (and raises a pending timeout)
            yield from self._counted(it, ctx)
            return
        yield ctx.new_traverser(Long(n))

    def _counted_from_all(self, ctx: Context) -> Iterator[Traverser]:
        n = None
        access = ctx.access
        if offers_walk_count(access):
            assert self.source is not None
            n = access.walk_count_all(self.source.label_filter, self.hops, _stopper(ctx))
        if n is None:
            ctx.check()
            yield from execute(self.original, iter(()), ctx)
            return
        yield ctx.new_traverser(Long(n))

    def _counted(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        stop = _stopper(ctx)
        total = 0
        chunk: list[Traverser] = []
        for batch in batches(it, ctx.batch_size, ctx):
            for t in batch:
                if not isinstance(t.obj, Vertex):
                    raise TraversalError(f"{self.first}() can only be applied to a vertex, not {t.obj!r}")
            chunk += batch
            if len(chunk) >= CHUNK:
                n = self._walk(chunk, ctx, stop)
                if n is None:
                    yield from self._fallback(total, chunk, it, ctx)
                    return
                total += n
                chunk = []
        n = self._walk(chunk, ctx, stop) if chunk else 0
        if n is None:
            yield from self._fallback(total, chunk, iter(()), ctx)
            return
        yield ctx.new_traverser(Long(total + n))

    def _walk(self, chunk: list[Traverser], ctx: Context, stop: Stop) -> int | None:
        access = ctx.access
        assert offers_walk_count(access)  # process() took this path because it does
        return access.walk_count([(t.obj, t.bulk) for t in chunk], self.hops, stop)

    def _fallback(self, total: int, chunk: list[Traverser], rest: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        """The access could not count (or was interrupted): raise a pending timeout, else
        count what is left by running the original steps."""
        ctx.check()

        def remaining() -> Iterator[Traverser]:
            yield from chunk
            yield from rest

        for r in execute(self.original, remaining(), ctx):
            yield ctx.new_traverser(Long(total + int(r.obj)))

    def __repr__(self) -> str:
        parts = [f"{d.name.lower()}({', '.join(map(repr, labels))})" for d, labels in self.hops]
        if self.source is not None:
            parts.insert(0, repr(self.source))
        start = f"{self.start!r}." if self.start is not None else ""
        return f"{start}walkCount({', '.join(parts)})" + "".join(f".as({lb!r})" for lb in self.labels)


def _simple_hop(step: Step) -> Hop | None:
    if type(step) in _HOP_STEPS and not step.labels:
        return (step.direction, step.edge_labels)  # type: ignore[attr-defined]
    return None


def _hops(step: Step) -> tuple[list[Hop], bool] | None:
    """The hops a step stands for and whether it is a repeat, or None when it is not a hop."""
    hop = _simple_hop(step)
    if hop is not None:
        return [hop], False
    if type(step) is BarrierStep and not step.labels and all(isinstance(a, int) for a in step.args):
        return [], False  # barrier()/barrier(n) only packs bulk, which a count sums anyway
    if (
        type(step) is RepeatStep
        and not step.labels
        and step.loop_name is None
        and step.until is None
        and step.emit is False
        and step.times is not None
        and step.body.steps
    ):
        body = [_simple_hop(s) for s in step.body.steps]
        if any(h is None for h in body):
            return None
        times = step.times if step.until_first else max(1, step.times)
        if times * len(body) > WALK_MAX_HOPS:
            return None  # checked before the list is made: `times` is the client's number
        return [h for h in body if h is not None] * times, True
    return None


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    if root.needs_paths():
        return
    steps = traversal.steps
    i = 0
    while i < len(steps):
        cnt = steps[i]
        if type(cnt) is CountStep and cnt.scope is Scope.global_ and not cnt.labels:
            hops: list[Hop] = []
            j, repeats = i, False
            while j > 0 and not steps[j - 1].is_start:
                got = _hops(steps[j - 1])
                if got is None:
                    break
                if len(got[0]) + len(hops) > WALK_MAX_HOPS:
                    break
                hops = got[0] + hops
                repeats = repeats or got[1]
                j -= 1
            if hops and (len(hops) >= 2 or repeats):
                source = steps[j - 1] if j == 1 and traversal is root and _plain_v(steps[0]) else None
                start = steps[0] if j == 1 and traversal is root and _plain_id_start(steps[0]) else None
                if source is not None:
                    j = 0
                walk = WalkCountStep(steps[j : i + 1], hops, hops[0][0].name.lower(), source, start)  # type: ignore[arg-type]
                if start is not None:
                    j = 0  # the root `V(id)` folded in: the walk count is the whole traversal
                steps[j : i + 1] = [walk]
                i = j
        i += 1


def _plain_v(step: Step) -> bool:
    """A root `V()[.hasLabel(...)]` start with nothing else folded in."""
    return (
        type(step) is VStep
        and step.is_start
        and step.ids is None
        and not step.conditions
        and step.limit is None
        and not step.labels
    )


def _slottable_id(ident: Any) -> bool:
    t = type(ident)
    return t is int or t is Int or t is Long or t is str or t is uuid.UUID


def _plain_id_start(step: Any) -> bool:
    """A root `V(id)` of one id (a number, string or UUID) with nothing folded in: what
    `walk_count_from_id` finds the way the step would."""
    return (
        type(step) is VStep
        and step.is_start
        and step.ids is not None
        and len(step.ids) == 1
        and _slottable_id(step.ids[0])
        and step.label_filter is None
        and not step.conditions
        and step.limit is None
        and not step.labels
    )
