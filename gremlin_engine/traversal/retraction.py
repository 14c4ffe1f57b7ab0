"""Path retraction inside `repeat()`: the one place where TinkerPop's PathRetractionStrategy
changes what a traversal answers, so the engine must do as TinkerGraph does.

TinkerGraph runs PathRetractionStrategy by default. At each *path processor* (`select`,
`where`, ...) it drops every step label that, by its reckoning, nothing later reads. It
reckons per traversal, walking the steps backwards, and counts a label as read only where
a *scoping* step names it (`select('a')`, `where('a', ...)`, `dedup('a')`, `math('a')`) at
that traversal's own level, or anywhere inside a child of a *later* step. Inside a
repeat() body that is not enough: the body runs again, so a label that only an *earlier*
step's child reads (`project(..).by(select(all, 'v'))` before a `where('src', ...)`) is
dropped after the first iteration and missing from the second. (TinkerPop keeps every
label a scoping step at the body's level names, for that reason, but not those read in
children.) The corpus scenario `g_V_shortestpath` (integrated/Paths.feature) records the
result: from the second iteration on, `select(first, 'v')` sees one `v` only.

Outside a repeat() a dropped label is never read again, so only bulk merging could tell
(and `bulking._path_key` already keys on labelled entries only). So the engine drops no
more than what can show: in a repeat() body, at each path processor, the labels the body
itself reads somewhere (its own steps and their children) that TinkerPop's reckoning
does not keep there. Like the strategy it is off when some step reads whole paths
(`path()`, `simplePath()`, `tree()`, ...: TinkerPop then skips the strategy) and under
`withoutStrategies(PathRetractionStrategy)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.branch import RepeatStep
from gremlin_engine.traversal.steps.filter import DedupStep, WherePredicateStep, WhereTraversalStep
from gremlin_engine.traversal.steps.map import MathStep, SelectStep
from gremlin_engine.traversal.traverser import Context, PathNode, Traverser

STRATEGY = "PathRetractionStrategy"


def scope_keys(step: Any) -> set[str]:
    """The labels a scoping step names at its own level (TinkerPop's `getScopeKeys`)."""

    if isinstance(step, SelectStep):
        return {k for k in step.keys if isinstance(k, str)}
    if isinstance(step, WherePredicateStep):
        found = {step.start} if isinstance(step.start, str) else set()

        def note(v: Any) -> Any:
            if isinstance(v, str):
                found.add(v)
            return v

        step.predicate.map_values(note)
        return found
    if isinstance(step, WhereTraversalStep):
        return {lb for lb in (step.start_label, step.end_label) if lb}
    if isinstance(step, MathStep):
        return {v for v in step.expr.variables if v != "_"}
    if isinstance(step, DedupStep):
        return {lb for lb in step.dedup_labels if isinstance(lb, str)}
    if step.name == "match":  # by name: a query without match() never imports its module
        return {lb for child in step.args if isinstance(child, CompiledTraversal) for s in child.walk() for lb in s.labels}
    return set()


def _processor(step: Any) -> bool:
    """Path processors: the steps at which TinkerPop drops labels."""

    return isinstance(step, SelectStep | WherePredicateStep | WhereTraversalStep)


def _read_in(steps: Iterable[Any]) -> set[str]:
    """Every label the steps and their children (at any depth) name."""
    out: set[str] = set()
    for s in steps:
        out |= scope_keys(s)
        for child in s.children():
            out |= _read_in(child.walk())
    return out


def apply(root: CompiledTraversal, disabled: Iterable[str] = ()) -> None:
    """Puts a `RetractStep` after each path processor of a repeat() body that drops labels."""
    steps = list(root.walk())
    if STRATEGY in set(disabled) or not any(s.name == "repeat" for s in steps) or any(s.full_path for s in steps):
        return
    _visit(root, set())


def _visit(traversal: CompiledTraversal, outer: set[str]) -> None:
    """`outer`: the labels read after this traversal's parent step, at every enclosing
    level (TinkerPop's keeper trail and its push of later children into earlier ones)."""

    steps = traversal.steps
    for i, step in enumerate(steps):
        later = outer | _read_in(steps[i + 1:])
        for child in step.children():
            _visit(child, later)
        if isinstance(step, RepeatStep):
            _mark(step, later)


def _mark(repeat: Any, outer: set[str]) -> None:
    body: list[Any] = repeat.body.steps
    read = _read_in(body)
    level = set().union(*(scope_keys(s) for s in body))
    others = _read_in(s for c in repeat.children() if c is not repeat.body for s in c.steps)
    steps: list[Any] = []
    for i, step in enumerate(body):
        steps.append(step)
        if not _processor(step):
            continue
        keep = level | outer | others | _read_in(body[i + 1:])
        drop = frozenset(read - keep)
        if drop:
            steps.append(RetractStep(drop))
    repeat.body.steps = steps


class RetractStep(Step):
    """`retract(labels)`: takes `labels` off the path of every traverser it passes on. Put
    after a path processor (so after its own `as()` labels, as TinkerPop retracts); only
    repeat() bodies that drop something get one, so no other traversal pays for it."""

    name = "retract"

    def __init__(self, drop: frozenset[str]) -> None:
        super().__init__(drop)
        self.drop = drop

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        drop = self.drop
        for t in it:
            yield retracted(t, drop)


def retracted(t: Traverser, drop: frozenset[str]) -> Traverser:
    """`t` with `drop` taken off its path's labels (the same traverser when none is there)."""
    node = t.path
    if node is None:
        return t
    chain: list[PathNode] = []
    hit = -1
    while node is not None and node.parent is not None:
        if node.labels & drop:
            hit = len(chain)
        chain.append(node)
        node = node.parent
    if hit < 0:
        return t
    base = chain[hit].parent
    for n in reversed(chain[: hit + 1]):
        base = PathNode(n.obj, n.labels - drop, base)
    return Traverser(t.obj, t.bulk, base, t.loops, t.sack)
