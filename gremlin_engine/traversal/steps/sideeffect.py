"""Side-effect steps: `aggregate` (global/local; `store` is local aggregate), `sideEffect`,
`cap`, `sack`, `fail`. Side-effects live in the run's `Context.side_effects`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from gremlin_engine.errors import NotSupported, TraversalError
from gremlin_engine.traversal.executor import NOTHING, execute
from gremlin_engine.traversal.steps.base import ByModulated, Step
from gremlin_engine.traversal.tokens import Operator, Scope
from gremlin_engine.traversal.traverser import Context, Traverser, checked
from gremlin_engine.traversal.values import BulkSet


class AggregateStep(ByModulated, Step):
    """`aggregate([scope,] key)`: global scope is a barrier (everything is collected before
    anything moves on), local scope (`store`) collects lazily as traversers pass."""

    name = "aggregate"
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope = args[0] if isinstance(args[0], Scope) else Scope.global_
        self.key = args[-1]
        self.bys = []

    def _add(self, bag: list[Any], t: Traverser, ctx: Context) -> None:
        v = self.bys[0].value(t, ctx) if self.bys else t.obj
        if v is not NOTHING:
            bag.extend([v] * t.bulk)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        bag = ctx.side_effects.get(self.key)
        if not isinstance(bag, list):
            bag = BulkSet(bag if isinstance(bag, list | tuple | set) else [])
            ctx.side_effects[self.key] = bag
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                self._add(bag, t, ctx)
                yield t
            return
        seen = list(checked(it, ctx))
        for t in seen:
            self._add(bag, t, ctx)
        yield from seen


def store_step(key: str) -> AggregateStep:
    step = AggregateStep(Scope.local, key)
    return step


class SideEffectTraversalStep(Step):
    """`sideEffect(traversal)`: runs the child for each traverser, discards its output."""

    name = "sideEffect"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            for _ in execute(self.args[0], (t.clone(),), ctx):
                pass
            yield t


class CapStep(Step):
    """`cap(key...)`: after all input is consumed, emits the side-effect (a map for several)."""

    name = "cap"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for _ in checked(it, ctx):
            pass

        def value(k: str) -> Any:
            v = ctx.side_effects.get(k, NOTHING)
            if v is NOTHING:
                raise TraversalError(f"cap(): the side-effect key {k!r} does not exist")
            return list(v) if isinstance(v, BulkSet) else v

        if len(self.args) == 1:
            yield ctx.new_traverser(value(self.args[0]))
        else:
            yield ctx.new_traverser({k: value(k) for k in self.args})


class SackStep(ByModulated, Step):
    """`sack()` reads the traverser's sack; `sack(op).by(x)` folds x into it."""

    name = "sack"
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.bys = []

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        from gremlin_engine.traversal.steps.barrier import apply_operator

        if not self.args:
            for t in checked(it, ctx):
                yield t.split(t.sack)
            return
        op: Operator = self.args[0]
        for t in checked(it, ctx):
            v = self.bys[0].value(t, ctx) if self.bys else t.obj
            if v is NOTHING:
                continue
            t = t.clone()
            t.sack = apply_operator(op, t.sack, v)
            yield t


class FailStep(Step):
    name = "fail"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in it:
            msg = self.args[0] if self.args else "fail() step triggered"
            raise TraversalError(f"{msg}: fail() step reached with traverser {t.obj!r}")
        return
        yield


def unsupported(name: str) -> Callable[..., Step]:
    def factory(*args: Any) -> Step:
        raise NotSupported(f"the {name}() step is not supported by hugelite")

    return factory
