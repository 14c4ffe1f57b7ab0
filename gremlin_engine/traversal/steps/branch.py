"""Branch steps: `repeat` (times/until/emit, before or after), `union`, `choose`, `branch`
(with `option`, including `Pick.none`/`Pick.any`), `coalesce`, `optional`, `local`.

`repeat` runs its body set-at-a-time: each iteration feeds the whole frontier through the
body as one stream, so a vertex-step body makes one `GraphAccess` call per batch per level.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.traversal.bulking import merge_traversers
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.executor import (
    NOTHING,
    CompiledTraversal,
    execute,
    first_result,
    local_results,
    produces,
)
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.barrier import (
    FoldStep,
    GroupCountStep,
    GroupStep,
    OrderStep,
    ReducingStep,
    TreeStep,
)
from gremlin_engine.traversal.steps.base import Step, token_value
from gremlin_engine.traversal.steps.filter import DedupStep, IsStep
from gremlin_engine.traversal.steps.range import RangeStep, SampleStep, TailStep
from gremlin_engine.traversal.tokens import Pick, Scope, T
from gremlin_engine.traversal.traverser import ROOT, Context, Traverser, checked


class RepeatStep(Step):
    name = "repeat"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.loop_name: str | None = args[0] if len(args) == 2 else None
        self.body: CompiledTraversal = args[-1]
        self.times: int | None = None
        self.until: CompiledTraversal | None = None
        self.emit: CompiledTraversal | bool = False
        self.until_first = False
        self.emit_first = False
        self._last_mod: str | None = None
        if self.body.steps and self.body.steps[0].name == "inject":
            raise StepArgumentError("The parent of inject()-step can not be repeat()-step")

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "times":
            self.times = int(args[0])
        elif name == "until":
            self.until = _as_test(args[0])
        elif name == "emit":
            self.emit = _as_test(args[0]) if args else True
        else:
            super().modulate(name, args)
        self._last_mod = name

    def modulate_position(self, name: str, before: bool) -> None:
        """Called by the compiler for `until/emit/times` written before `repeat`."""
        if name == "until":
            self.until_first = before
        elif name == "emit":
            self.emit_first = before
        elif name == "times":
            self.until_first = before

    def children(self) -> list[CompiledTraversal]:
        return [c for c in (self.body, self.until, self.emit) if isinstance(c, CompiledTraversal)]

    def _done(self, t: Traverser, ctx: Context) -> bool:
        if self.times is not None and t.loop_count(self.loop_name) >= self.times:
            return True
        return self.until is not None and produces(self.until, t, ctx)

    def _emits(self, t: Traverser, ctx: Context) -> bool:
        if self.emit is True:
            return True
        return isinstance(self.emit, CompiledTraversal) and produces(self.emit, t, ctx)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        def enter(src: Iterator[Traverser]) -> Iterator[Traverser]:
            for t in checked(src, ctx):
                t = t.clone()
                t.loops = (*t.loops, (self.loop_name, 0))
                if self.until_first and self._done(t, ctx):
                    yield _exit(t)
                    continue
                if self.emit_first and self._emits(t, ctx):
                    yield _exit(t.clone())
                frontier.append(t)


        frontier: list[Traverser] = []
        scope: dict[int, Any] = {}  # step state that lives across iterations (dedup)
        yield from enter(it)
        while frontier:
            level, frontier = merge_traversers(frontier, ctx), []
            outer, ctx.loop_state = ctx.loop_state, scope
            try:
                stream = execute(self.body, iter(level), ctx)
            finally:
                ctx.loop_state = outer
            # every traverser of a level carries the same loop counts (all entered together);
            # a reducing barrier in the body (`fold()`, `count()`) makes a fresh traverser
            # without them, which belongs to this level: `repeat(x.fold()).times(n)` is
            # `x.fold()` n times, as TinkerPop's RepeatUnrollStrategy runs it
            entry = level[0].loops
            # a level may grow by millions before it is handed on: the deadline, the memory
            # bound and a client's leaving are checked as it grows, not only at its end
            for r in checked(stream, ctx):
                if len(r.loops) < len(entry):
                    r.loops = entry
                name, count = r.loops[-1]
                r.loops = (*r.loops[:-1], (name, count + 1))
                if self.until_first:
                    if self._done(r, ctx):
                        yield _exit(r)
                        continue
                    if self.emit_first is False and self._emits(r, ctx):
                        yield _exit(r.clone())
                    elif self.emit_first and self._emits(r, ctx):
                        yield _exit(r.clone())
                    frontier.append(r)
                    continue
                if self._done(r, ctx):
                    yield _exit(r)
                    continue
                if self._emits(r, ctx):
                    yield _exit(r.clone())
                frontier.append(r)
            ctx.check()


def _exit(t: Traverser) -> Traverser:
    t.loops = t.loops[:-1]
    return t


def _as_test(arg: Any) -> CompiledTraversal:
    if isinstance(arg, CompiledTraversal):
        return arg
    if isinstance(arg, P):
        return CompiledTraversal([IsStep(arg)], anonymous=True)
    raise StepArgumentError(f"expected a traversal or predicate, not {arg!r}")


def global_child(child: CompiledTraversal) -> bool:
    """Whether a branch holds a barrier (count, fold, limit, dedup, order, ...) at its top
    level. TinkerPop's union/branch/choose children are *global*: such a barrier sees every
    traverser routed into the branch, not one at a time."""

    kinds = (ReducingStep, FoldStep, OrderStep, RangeStep, TailStep, SampleStep, DedupStep)
    for s in child.steps:
        if getattr(s, "scope", None) is Scope.local:
            continue
        if isinstance(s, kinds):
            return True
        if isinstance(s, GroupStep | GroupCountStep | TreeStep) and getattr(s, "side_effect", None) is None:
            return True
    return False


def _start_traverser(ctx: Context) -> Traverser:
    """The traverser a start-of-traversal union hands its branches: no object in the path."""
    t = ctx.new_traverser(None)
    if t.path is not None:
        t.path = ROOT
    return t


class UnionStep(Step):
    """`union(a, b, ...)`: every branch for every traverser. Branches with a barrier run once
    over all traversers (see `global_child`), after the streaming ones."""

    name = "union"

    def finish(self) -> None:
        if self.is_start:  # g.union(V()..., inject(...)): each branch is a start
            for child in self.args:
                if child.steps and child.steps[0].name in ("V", "E", "inject"):
                    child.steps[0].is_start = True
                    if hasattr(child.steps[0], "child_start"):
                        child.steps[0].child_start = False

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start:
            for child in self.args:
                starts = () if child.steps and child.steps[0].is_start else (_start_traverser(ctx),)
                yield from execute(child, starts, ctx)
            return
        globals_ = [c for c in self.args if global_child(c)]
        if not globals_:
            for t in checked(it, ctx):
                for child in self.args:
                    yield from execute(child, (t.clone(),), ctx)
            return
        seen: list[Traverser] = []
        for t in checked(it, ctx):
            seen.append(t)
            for child in self.args:
                if child not in globals_:
                    yield from execute(child, (t.clone(),), ctx)
        for child in globals_:
            yield from execute(child, (t.clone() for t in seen), ctx)


class CoalesceStep(Step):
    name = "coalesce"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            for child in self.args:
                out = list(execute(child, (t.clone(),), ctx))
                if out:
                    yield from out
                    break


class OptionalStep(Step):
    name = "optional"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            out = list(execute(self.args[0], (t.clone(),), ctx))
            if out:
                yield from out
            else:
                yield t


class LocalStep(Step):
    """`local(traversal)`: the child runs separately for each traverser (so barriers inside
    it, like `limit` or `fold`, apply per traverser)."""

    name = "local"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            yield from local_results(self.args[0], t, ctx)


class BranchStep(Step):
    """`branch(traversal).option(value, traversal)...`: every option whose pick matches the
    selector's value runs (`Pick.any` always, `Pick.none` when nothing else matched,
    `Pick.unproductive` when the selector yields nothing). `choose` builds on it."""

    name = "branch"
    first_match_only = False

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.selector: Any = args[0] if args else None
        self.options: list[tuple[Any, CompiledTraversal]] = []

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name != "option":
            super().modulate(name, args)
        if len(args) == 1:
            args = (Pick.none if self.options else True, args[0])
        if len(args) != 2 or not isinstance(args[1], CompiledTraversal):
            raise StepArgumentError(f"{self.name}().option() takes a pick token and a traversal")
        if self.first_match_only and isinstance(args[0], CompiledTraversal):
            raise StepArgumentError("Traversal is not allowed as a Pick token for choose().option()")
        self.options.append((args[0], args[1]))

    def children(self) -> list[CompiledTraversal]:
        sel = [self.selector] if isinstance(self.selector, CompiledTraversal) else []
        return sel + [c for _, c in self.options]

    def _choice(self, t: Traverser, ctx: Context) -> Any:
        if isinstance(self.selector, P):
            return self.selector.test(t.obj)
        if isinstance(self.selector, T):
            return token_value(t.obj, self.selector)
        return first_result(self.selector, t, ctx)

    def _matches(self, pick: Any, value: Any, t: Traverser, ctx: Context) -> bool:
        if isinstance(pick, Pick):
            return False
        if isinstance(pick, CompiledTraversal):
            return produces(pick, t.split(value), ctx)
        if isinstance(pick, P):
            return pick.test(value)
        return bool(hashable(pick) == hashable(value))

    def _branches(self, t: Traverser, ctx: Context) -> list[CompiledTraversal] | None:
        """The options to run for `t`; None lets the traverser pass through unchanged."""
        value = self._choice(t, ctx)
        if value is NOTHING:
            chosen = [c for p, c in self.options if p is Pick.unproductive]
            return chosen[:1] if self.first_match_only and chosen else (chosen or None)
        matched = [c for p, c in self.options if self._matches(p, value, t, ctx)]
        if self.first_match_only:
            if matched:
                return matched[:1]
            fallback = [c for p, c in self.options if p is Pick.none]
            return fallback[:1] if fallback else None
        if not matched:
            matched = [c for p, c in self.options if p is Pick.none]
        return matched + [c for p, c in self.options if p is Pick.any]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        globals_ = [c for _, c in self.options if global_child(c)]
        routed: dict[int, list[Traverser]] = {id(c): [] for c in globals_}
        for t in checked(it, ctx):
            branches = self._branches(t, ctx)
            if branches is None:
                if self.unmatched_passes:
                    yield t
                continue
            for child in branches:
                if id(child) in routed:
                    routed[id(child)].append(t.clone())
                else:
                    yield from execute(child, (t.clone(),), ctx)
        for child in globals_:
            if routed[id(child)]:
                yield from execute(child, iter(routed[id(child)]), ctx)

    unmatched_passes = True


class ChooseStep(BranchStep):
    """`choose(pred|trav, true_trav[, false_trav])` or `choose(trav|T).option(...)`: the first
    matching option runs; unmatched and unproductive traversers pass through unchanged
    (TinkerPop 3.8)."""

    name = "choose"
    first_match_only = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if len(args) >= 2:
            self.options.append((True, args[1]))
            self.options.append((False, args[2] if len(args) > 2 else CompiledTraversal([], anonymous=True)))
            self.binary = True
        else:
            self.binary = False

    def _choice(self, t: Traverser, ctx: Context) -> Any:
        if self.binary and isinstance(self.selector, CompiledTraversal):
            return produces(self.selector, t, ctx)
        return super()._choice(t, ctx)
