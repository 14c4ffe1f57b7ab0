"""`match(pattern, ...)`: declarative pattern matching over step labels.

Each pattern is a child traversal `__.as('a')...as('b')` (start label a, optional end
label b), or a filter pattern: `where(...)`, `not(...)`, `or(...)`; `and(...)` patterns are
flattened into the list. For every incoming traverser the step solves the patterns one at
a time, depth first over partial solutions (label -> object bindings):

* a traversal pattern is ready when its start label is bound; it runs from that object
  (with every binding visible as a path label, so inner `where(P.gte('b'))` works); an
  unbound end label branches the solution once per result, a bound one must be reached;
  without an end label the pattern is a filter;
* a filter pattern is ready when all the labels it names are bound (or nothing else is).

The incoming object is bound to the computed start label (the first label that no pattern
ends at) unless the path already holds that label; labels already in the path are bound
from it. Each solution leaves as a map of the match's labels, with the newly bound
objects appended to the path so that `select`/`where`/`dedup` after the match see them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.traversal.compare import equals
from gremlin_engine.traversal.executor import CompiledTraversal, execute, produces
from gremlin_engine.traversal.steps.base import IdentityStep, Step
from gremlin_engine.traversal.steps.filter import (
    AndStep,
    NotStep,
    OrStep,
    WherePredicateStep,
    WhereTraversalStep,
)
from gremlin_engine.traversal.traverser import ROOT, Context, PathNode, Traverser, checked

Bindings = dict[str, Any]


def _labels_in(trav: CompiledTraversal) -> list[str]:
    """Every step label and where()-label a traversal mentions, in order."""
    out: list[str] = []
    for step in trav.walk():
        for lb in step.labels:
            if lb not in out:
                out.append(lb)
        if isinstance(step, WherePredicateStep):
            for lb in [step.start, *_pred_labels(step.predicate)]:
                if isinstance(lb, str) and lb not in out:
                    out.append(lb)
        if isinstance(step, WhereTraversalStep):
            for end in (step.start_label, step.end_label):
                if end is not None and end not in out:
                    out.append(end)
    return out


def _pred_labels(p: Any) -> list[Any]:
    vals = p.values() if callable(getattr(p, "values", None)) else []
    return [v for v in vals if isinstance(v, str)]


class Pattern:
    """One traversal pattern: `as(start) body... as(end)`."""

    def __init__(self, trav: CompiledTraversal) -> None:
        steps = list(trav.steps)
        first = steps[0] if steps else None
        if not (isinstance(first, IdentityStep) and first.labels):
            raise StepArgumentError(f"match() patterns must start with as(label): {trav!r}")
        self.start: str = first.labels[0]
        extra = first.labels[1:]
        body = steps[1:]
        self.end: str | None = None
        if body and body[-1].labels:
            self.end = body[-1].labels[-1]
            body[-1].labels = body[-1].labels[:-1]
        elif not body and extra:
            self.end = extra[-1]
        self.body = CompiledTraversal(body, anonymous=True)
        self.labels = [self.start, *([self.end] if self.end else []), *_labels_in(self.body)]

    def results(self, b: Bindings, ctx: Context) -> Iterator[Traverser]:
        return execute(self.body, (start_traverser(b, self.start, ctx),), ctx)

    def holds(self, b: Bindings, ctx: Context) -> bool:
        """Filter use (inside not/or/and): does the pattern hold under `b`?"""
        if self.start not in b:
            return False
        if self.end is None or self.end not in b:
            return produces(self.body, start_traverser(b, self.start, ctx), ctx) if self.body.steps else True
        want = b[self.end]
        return any(equals(r.obj, want) for r in self.results(b, ctx))


class FilterPattern:
    """`where(...)`, `not(...)`, `or(...)`, `and(...)` used as a test of the bindings."""

    def __init__(self, step: Step) -> None:
        self.step = step
        self.labels = _labels_in(CompiledTraversal([step], anonymous=True))
        self.end = None
        self.parts: list[Pattern | FilterPattern] = []
        if isinstance(step, NotStep | OrStep | AndStep):
            self.parts = [parse_filter(c) for c in step.args]
        elif isinstance(step, WhereTraversalStep) and step.start_label is None:
            inner = parse_filter(step.traversal)
            if isinstance(inner, Pattern) and step.end_label and inner.end is None:
                inner.end = step.end_label
            self.parts = [inner]

    def holds(self, b: Bindings, ctx: Context) -> bool:
        step = self.step
        if isinstance(step, NotStep):
            return not self.parts[0].holds(b, ctx)
        if isinstance(step, OrStep):
            return any(p.holds(b, ctx) for p in self.parts)
        if isinstance(step, AndStep) or self.parts:
            return all(p.holds(b, ctx) for p in self.parts)
        start = getattr(step, "start", None) or getattr(step, "start_label", None)
        label = start if isinstance(start, str) and start in b else next(iter(b), None)
        t = start_traverser(b, label, ctx)
        return bool(step.keep(t, ctx))  # type: ignore[attr-defined]


def parse_filter(trav: CompiledTraversal) -> Pattern | FilterPattern:
    steps = trav.steps
    if len(steps) == 1 and isinstance(steps[0], NotStep | OrStep | AndStep | WherePredicateStep | WhereTraversalStep):
        return FilterPattern(steps[0])
    if not steps or not (isinstance(steps[0], IdentityStep) and steps[0].labels):
        raise StepArgumentError(f"match() patterns must start with as(label): {trav!r}")
    return Pattern(trav)


def start_traverser(b: Bindings, current: str | None, ctx: Context) -> Traverser:
    """A traverser at `b[current]` whose path holds every binding under its label."""
    node: PathNode = ROOT
    for label, obj in b.items():
        if label != current:
            node = PathNode(obj, frozenset((label,)), node)
    obj = b.get(current) if current is not None else None
    node = PathNode(obj, frozenset((current,)) if current is not None else frozenset(), node)
    t = ctx.new_traverser(obj)
    t.path = node
    return t


class MatchStep(Step):
    name = "match"
    requires_path = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if not args:
            raise StepArgumentError("match() needs at least one pattern")
        self.patterns: list[Pattern | FilterPattern] = []
        self.match_labels: list[str] = []
        self.start_label = ""
        self._prepared = False

    def _prepare(self) -> None:
        """Parses the patterns on first use, after the compiler's connective pass and the
        strategies have shaped the child traversals."""
        self._prepared = True
        for trav in self.args:
            self._add(trav)
        self.match_labels = []
        for p in self.patterns:
            for lb in p.labels:
                if lb not in self.match_labels:
                    self.match_labels.append(lb)
        ends = {p.end for p in self.patterns if isinstance(p, Pattern) and p.end and p.end != p.start}
        starts = [lb for lb in self.match_labels if lb not in ends]
        self.start_label = starts[0] if starts else self.match_labels[0]

    def _add(self, trav: CompiledTraversal) -> None:
        steps = trav.steps
        if len(steps) == 1 and isinstance(steps[0], AndStep):
            for child in steps[0].args:
                self._add(child)
            return
        self.patterns.append(parse_filter(trav))

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if not self._prepared:
            self._prepare()
        for t in checked(it, ctx):
            bindings: Bindings = {}
            for lb in self.match_labels:
                found = t.labelled(lb)
                if found:
                    bindings[lb] = found[-1]
            if self.start_label not in bindings:
                bindings[self.start_label] = t.obj
            known = set(bindings)
            for solution in self._solve(bindings, list(range(len(self.patterns))), ctx):
                yield self._emit(t, solution, known)

    def _ready(self, p: Pattern | FilterPattern, b: Bindings) -> bool:
        if isinstance(p, Pattern):
            return p.start in b
        return all(lb in b for lb in p.labels)

    def _next(self, b: Bindings, todo: list[int]) -> int | None:
        """The pattern to solve next: a ready one that cannot branch (a filter, or an end
        label already bound) first, else the ready pattern starting from the most recently
        bound label (depth first, so filters on what it binds prune early)."""
        ready = [i for i in todo if self._ready(self.patterns[i], b)]
        if not ready:
            return next((i for i in todo if isinstance(self.patterns[i], FilterPattern)), None)
        for i in ready:
            p = self.patterns[i]
            if isinstance(p, FilterPattern) or p.end is None or p.end in b:
                return i
        order = {lb: n for n, lb in enumerate(b)}
        return max(ready, key=lambda i: (order.get(self.patterns[i].start, -1), -i))  # type: ignore[union-attr]

    def _solve(self, b: Bindings, todo: list[int], ctx: Context) -> Iterator[Bindings]:
        if not todo:
            yield b
            return
        ctx.check()
        pick = self._next(b, todo)
        if pick is None:
            return  # unsolvable: no pattern can start from what is bound
        p = self.patterns[pick]
        rest = [i for i in todo if i != pick]
        if isinstance(p, FilterPattern):
            if p.holds(b, ctx):
                yield from self._solve(b, rest, ctx)
            return
        if p.end is None:
            if p.holds(b, ctx):
                yield from self._solve(b, rest, ctx)
            return
        if p.end in b:
            want = b[p.end]
            if any(equals(r.obj, want) for r in p.results(b, ctx)):
                yield from self._solve(b, rest, ctx)
            return
        for r in list(p.results(b, ctx)):
            for _ in range(r.bulk):
                yield from self._solve({**b, p.end: r.obj}, rest, ctx)

    def _emit(self, t: Traverser, b: Bindings, known: set[str]) -> Traverser:
        out = t.clone()
        if out.path is not None:
            node = out.path
            for lb, obj in b.items():
                if lb not in known or (lb == self.start_label and not t.labelled(lb)):
                    node = PathNode(obj, frozenset((lb,)), node)
            out.path = node
        return out.split({lb: b[lb] for lb in self.match_labels if lb in b})

    def children(self) -> list[CompiledTraversal]:
        return [a for a in self.args if isinstance(a, CompiledTraversal)]
