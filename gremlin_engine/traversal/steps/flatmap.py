"""Flat-map steps over the graph: `out/in/both`, `outE/inE/bothE`, `outV/inV/bothV/otherV`,
plus `unfold` and `flatMap(traversal)`.

Vertex steps pull a batch of traversers and make ONE `GraphAccess` call for the whole
batch (DESIGN.md, set-at-a-time); `otherV` is the only one that needs paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from gremlin_engine.access import offers_counts, offers_heads
from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.traversal.executor import results
from gremlin_engine.traversal.steps.base import FlatMapStep, Step, arg_list
from gremlin_engine.traversal.tokens import Direction
from gremlin_engine.traversal.traverser import Context, Traverser, batches, checked
from gremlin_engine.traversal.values import MapEntry

_DIRECTIONS = {"out": Direction.OUT, "in": Direction.IN, "both": Direction.BOTH}


def _labels(step: str, args: tuple[Any, ...]) -> tuple[str, ...]:
    labels = arg_list(args)
    if not all(isinstance(lb, str) for lb in labels):
        raise StepArgumentError(f"{step}() takes edge labels (strings), not {args!r}")
    return tuple(labels)


class VertexStep(Step):
    """`out/in/both(labels...)` (returns vertices) and `outE/inE/bothE` (returns edges)."""

    name = "out"
    returns = "vertex"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.edge_labels = _labels(self.name, args)
        self.direction = _DIRECTIONS[self.name.rstrip("E")]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        return AdjacentStream(self, it, ctx)

    def _walk(self, it: Iterator[Traverser], ctx: Context, heads: bool = False) -> Iterator[Traverser]:
        access = ctx.access
        for batch in batches(it, ctx.batch_size, ctx):
            starts = [t.obj for t in batch]
            for v in starts:
                if not isinstance(v, Vertex):
                    raise TraversalError(f"{self.name}() can only be applied to a vertex, not {v!r}")
            if heads and offers_heads(access):
                pairs: list[tuple[int, Any]] = access.adjacent_heads(starts, self.direction, self.edge_labels)
            elif self.returns == "vertex":
                pairs = access.adjacent_vertices(starts, self.direction, self.edge_labels)
            else:
                pairs = access.adjacent_edges(starts, self.direction, self.edge_labels)
            for i, obj in pairs:
                yield batch[i].split(obj)

    def __repr__(self) -> str:
        return f"{self.name}({', '.join(map(repr, self.edge_labels))})" + "".join(f".as({lb!r})" for lb in self.labels)


class AdjacentStream:
    """The output of a vertex step, as an iterator that a consumer needing only the number
    of results (`count()`) can answer from `GraphAccess.adjacent_counts` instead: the
    neighbour vertices are then never built or read. Anyone else just iterates it."""

    __slots__ = ("_it", "_step", "_source", "_ctx", "_heads")

    def __init__(self, step: VertexStep, source: Iterator[Traverser], ctx: Context) -> None:
        self._step = step
        self._source = source
        self._ctx = ctx
        self._it: Iterator[Traverser] | None = None
        self._heads = False

    def __iter__(self) -> AdjacentStream:
        return self

    def __next__(self) -> Traverser:
        if self._it is None:
            self._it = self._step._walk(self._source, self._ctx, self._heads)
        return next(self._it)

    def countable(self) -> bool:
        """True when `count_bulk` may replace iterating (not started; vertex results; an
        access that answers counts itself, so filtering views keep their own path)."""
        return (
            self._it is None
            and self._step.returns == "vertex"
            and not self._step.labels
            and offers_counts(self._ctx.access)
        )

    def heads_only(self) -> None:
        """The consumer reads only ids and labels (`id()`, `label()`): fetch neighbours
        through `GraphAccess.adjacent_heads` (optional) and leave their properties unread."""
        if self.countable():
            self._heads = offers_heads(self._ctx.access)

    def count_bulk(self) -> int:
        """The total bulk the stream would have produced."""
        step, ctx = self._step, self._ctx
        access = ctx.access
        assert offers_counts(access)  # as countable() found before this was called
        total = 0
        for batch in batches(self._source, ctx.batch_size, ctx):
            starts = [t.obj for t in batch]
            for v in starts:
                if not isinstance(v, Vertex):
                    raise TraversalError(f"{step.name}() can only be applied to a vertex, not {v!r}")
            counts = access.adjacent_counts(starts, step.direction, step.edge_labels)
            total += sum(n * t.bulk for n, t in zip(counts, batch, strict=True))
        return total


class OutStep(VertexStep):
    name = "out"


class InStep(VertexStep):
    name = "in"


class BothStep(VertexStep):
    name = "both"


class OutEStep(VertexStep):
    name = "outE"
    returns = "edge"


class InEStep(VertexStep):
    name = "inE"
    returns = "edge"


class BothEStep(VertexStep):
    name = "bothE"
    returns = "edge"


class EdgeVertexStep(FlatMapStep):
    """`outV/inV/bothV/otherV`: the ends of an edge (no graph call: edges carry them)."""

    name = "outV"
    requires_path = False

    def flat(self, t: Traverser, ctx: Context) -> Iterable[Any]:
        ends = self._ends(t)
        admits = getattr(ctx.access, "admits_vertex", None)  # a filtering view (views.py)
        return ends if admits is None else tuple(v for v in ends if admits(v))

    def _ends(self, t: Traverser) -> tuple[Any, ...]:
        e = t.obj
        if not isinstance(e, Edge):
            raise TraversalError(f"{self.name}() can only be applied to an edge, not {e!r}")
        if self.name == "outV":
            return (e.out_v,)
        if self.name == "inV":
            return (e.in_v,)
        if self.name == "bothV":
            return (e.out_v, e.in_v)
        prev = _previous_vertex(t)
        if prev is None:
            raise TraversalError("otherV() needs the vertex the edge was reached from")
        return (e.in_v if prev == e.out_v else e.out_v,)


def _previous_vertex(t: Traverser) -> Vertex | None:
    entries = t.path_entries()
    for e in reversed(entries[:-1]):
        if isinstance(e.obj, Vertex):
            return e.obj
    return None


class OutVStep(EdgeVertexStep):
    name = "outV"


class InVStep(EdgeVertexStep):
    name = "inV"


class BothVStep(EdgeVertexStep):
    name = "bothV"


class OtherVStep(EdgeVertexStep):
    name = "otherV"
    requires_path = True
    full_path = True


def unfold_value(obj: Any) -> Iterable[Any]:
    if isinstance(obj, Mapping):
        return [MapEntry(k, v) for k, v in obj.items()]
    if isinstance(obj, list | tuple | set | frozenset):
        return obj
    if isinstance(obj, Iterator):
        return obj
    if type(obj).__name__ == "Path":
        return list(obj)
    return (obj,)


class UnfoldStep(FlatMapStep):
    name = "unfold"

    def flat(self, t: Traverser, ctx: Context) -> Iterable[Any]:
        return unfold_value(t.obj)


class FlatMapTraversalStep(Step):
    """`flatMap(traversal)`: every result of the child for each traverser."""

    name = "flatMap"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        child = self.args[0]
        for t in checked(it, ctx):
            for r in results(child, t, ctx):  # the child's own steps stay out of the path
                yield t.split(r.obj, r.bulk * t.bulk)
