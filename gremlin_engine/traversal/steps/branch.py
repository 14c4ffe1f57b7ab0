"""Branch steps: `repeat` (times/until/emit, before or after), `union`, `choose`, `branch`
(with `option`, including `Pick.none`/`Pick.any`), `coalesce`, `optional`, `local`.

`repeat` runs its body set-at-a-time: each iteration feeds the whole frontier through the
body as one stream, so a vertex-step body makes one `GraphAccess` call per batch per level.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, execute, first_result, produces
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.tokens import Pick
from gremlin_engine.traversal.traverser import Context, Traverser, checked


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
        yield from enter(it)
        while frontier:
            level, frontier = frontier, []
            for r in execute(self.body, iter(level), ctx):
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
        from gremlin_engine.traversal.steps.filter import IsStep

        return CompiledTraversal([IsStep(arg)], anonymous=True)
    raise StepArgumentError(f"expected a traversal or predicate, not {arg!r}")


class UnionStep(Step):
    name = "union"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start:
            for child in self.args:
                yield from execute(child, (ctx.new_traverser(None),), ctx)
            return
        for t in checked(it, ctx):
            for child in self.args:
                yield from execute(child, (t.clone(),), ctx)


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
            yield from execute(self.args[0], (t.clone(),), ctx)


class BranchStep(Step):
    """`branch(traversal).option(value, traversal)...`; `choose` builds on it."""

    name = "branch"

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
        self.options.append((args[0], args[1]))

    def children(self) -> list[CompiledTraversal]:
        sel = [self.selector] if isinstance(self.selector, CompiledTraversal) else []
        return sel + [c for _, c in self.options]

    def _choice(self, t: Traverser, ctx: Context) -> Any:
        if isinstance(self.selector, P):
            return self.selector.test(t.obj)
        return first_result(self.selector, t, ctx)

    def _branches(self, t: Traverser, ctx: Context) -> list[CompiledTraversal]:
        value = self._choice(t, ctx)
        chosen = []
        for pick, child in self.options:
            if pick is Pick.any:
                chosen.append(child)
            elif isinstance(pick, CompiledTraversal):
                if value is not NOTHING and produces(pick, t.split(value), ctx):
                    chosen.append(child)
            elif isinstance(pick, P):
                if value is not NOTHING and pick.test(value):
                    chosen.append(child)
            elif pick is not Pick.none and value is not NOTHING and hashable(pick) == hashable(value):
                chosen.append(child)
        if not [c for p, c in self.options if p is not Pick.any and c in chosen]:
            chosen += [c for p, c in self.options if p is Pick.none]
        return chosen

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            branches = self._branches(t, ctx)
            if not branches and self.unmatched_passes:
                yield t
            for child in branches:
                yield from execute(child, (t.clone(),), ctx)

    unmatched_passes = False


class ChooseStep(BranchStep):
    """`choose(pred|trav, true_trav[, false_trav])` or `choose(trav).option(...)`.
    Unmatched traversers pass through unchanged (TinkerPop's identity default)."""

    name = "choose"
    unmatched_passes = True

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
