"""Pull-based execution: chains each step's generator over the previous one's.

A `CompiledTraversal` is a list of step instances (after strategies). `execute` wires
`step.process(upstream, ctx)` generators together, so nothing runs until the caller pulls,
and a downstream `limit` stops upstream work by simply not pulling any more. Steps that
need a whole batch (flat-maps, property loads) cut the stream with `traverser.batches`.

Child traversals (`where(out())`, `by(values('age'))`, `repeat(...)`) are `CompiledTraversal`s
too; parents run them through the same `execute`, either for one traverser
(`first_result`, `results`) or for a whole stream (`execute`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gremlin_engine.traversal.traverser import Context, Traverser

if TYPE_CHECKING:
    from gremlin_engine.limits import CancelToken
    from gremlin_engine.traversal.compiler import SourceOptions
    from gremlin_engine.traversal.steps.base import Step


NOTHING: Any = object()  # "the child traversal produced no result"


@dataclass
class CompiledTraversal:
    """Step instances ready to run. `anonymous` child traversals start from their parent's
    traverser; root traversals start from their source step."""

    steps: list[Step] = field(default_factory=list)
    anonymous: bool = False
    #: a root traversal's source options (`compile_traversal` sets them; None for children)
    options: SourceOptions | None = field(default=None, compare=False, repr=False)
    #: one fused step offering `answer(access)` under the default source options: the
    #: runner asks that method (`traversal.run_compiled`); set once the traversal is final
    answers: bool = field(default=False, compare=False, repr=False)
    #: `answers`, and the step's answer runs at most one storage statement and gives plain
    #: values or elements loaded from that statement (its class says `reads_once`): a read-only run may ask it inside a
    #: single-statement read (`runtime/session.Session.answer_once`)
    reads_once: bool = field(default=False, compare=False, repr=False)

    def answer(self, access: Any, cancel: CancelToken | None = None) -> list[Any] | None:
        """The one fused step's answer (when `answers`): its results, or None to run."""
        return self.steps[0].answer(access, None, cancel)  # type: ignore[attr-defined, no-any-return]

    def whole(self) -> CompiledTraversal:
        """The traversal the executor runs (itself; a `prepared.BoundAnswer` binds one)."""
        return self

    def walk(self) -> Iterator[Step]:
        """Every step, including those of nested child traversals (depth first)."""
        for s in self.steps:
            yield s
            for child in s.children():
                yield from child.walk()

    def needs_paths(self) -> bool:
        return any(s.requires_path or s.labels for s in self.walk())

    def __repr__(self) -> str:
        head = "__" if self.anonymous else "g"
        return ".".join([head, *map(repr, self.steps)]) if self.steps else head + ".identity()"


def execute(traversal: CompiledTraversal, start: Iterable[Traverser], ctx: Context) -> Iterator[Traverser]:
    """Runs `traversal` over the `start` stream (ignored by source steps, which make their own)."""
    it: Iterator[Traverser] = iter(start)
    for step in traversal.steps:
        it = step.process(it, ctx)
        if step.labels:
            it = _labelled(it, step.labels)
    return it


def _labelled(it: Iterator[Traverser], labels: tuple[str, ...]) -> Iterator[Traverser]:
    for t in it:
        t.add_labels(labels)
        yield t


def results(child: CompiledTraversal, t: Traverser, ctx: Context) -> Iterator[Traverser]:
    """The child's output traversers for one parent traverser, which enters with bulk 1
    (a bulked traverser stands for identical walks; each is answered alike)."""
    start = t.clone()
    start.bulk = 1
    return execute(child, (start,), ctx)


_SIDE_EFFECTS = frozenset({"aggregate", "store", "group", "groupCount", "tree", "sideEffect", "sack", "subgraph"})


def local_results(child: CompiledTraversal, t: Traverser, ctx: Context) -> Iterator[Traverser]:
    """`local()` semantics: a bulked traverser is unrolled, each walk running the child
    alone (bulk 1). A child without side-effects answers every walk alike, so it runs once
    and its results carry `t`'s bulk; one with side-effects runs once per walk."""
    if t.bulk == 1:
        yield from results(child, t, ctx)
        return
    if any(s.name in _SIDE_EFFECTS or getattr(s, "side_effect", None) for s in child.walk()):
        for _ in range(t.bulk):
            yield from results(child, t, ctx)
        return
    for r in results(child, t, ctx):
        yield r.with_bulk(r.bulk * t.bulk)


def first_result(child: CompiledTraversal, t: Traverser, ctx: Context) -> Any:
    """The first object the child yields for `t`, or NOTHING (used by `by()` and friends)."""
    if not child.steps:
        return t.obj
    for r in results(child, t, ctx):
        return r.obj
    return NOTHING


def produces(child: CompiledTraversal, t: Traverser, ctx: Context) -> bool:
    """Whether the child yields anything for `t` (filter semantics of where/and/or/not)."""
    if not child.steps:
        return True
    for _ in results(child, t, ctx):
        return True
    return False


def objects(traversers: Iterable[Traverser], cancel: CancelToken | None = None) -> Iterator[Any]:
    """Expands bulk: the result objects a client sees. A merged traverser may stand for
    billions of walks, so the expansion itself honours the deadline. A stream that holds
    its objects in lists (`object_chunks()`: bulk 1 each, e.g. the ids a REST batch write
    returns) hands them over list by list, without a traverser per object."""
    chunks = getattr(traversers, "object_chunks", None)
    found = chunks() if chunks is not None else None
    if found is not None:
        for chunk in found:
            yield from chunk
        return
    for t in traversers:
        obj = t.obj
        if t.bulk <= _EXPAND_CHECK_EVERY or cancel is None:
            for _ in range(t.bulk):
                yield obj
            continue
        for i in range(t.bulk):
            if i % _EXPAND_CHECK_EVERY == 0:
                cancel.check()
            yield obj


_EXPAND_CHECK_EVERY = 1024
