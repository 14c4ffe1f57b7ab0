"""Side-effect steps: `aggregate` (global/local; `store` is local aggregate), `sideEffect`,
`cap`, `sack`, `fail`. Side-effects live in the run's `Context.side_effects`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from gremlin_engine.errors import NotSupported, StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.executor import NOTHING, execute
from gremlin_engine.traversal.operators import apply_operator
from gremlin_engine.traversal.steps.base import ByModulated, Step
from gremlin_engine.traversal.tokens import Operator, Scope
from gremlin_engine.traversal.traverser import Context, Traverser, batches, checked
from gremlin_engine.traversal.values import BulkSet, Subgraph


class AggregateStep(ByModulated, Step):
    """`aggregate([scope,] key)`: global scope is a barrier (everything is collected before
    anything moves on), local scope (`store`) collects lazily as traversers pass.

    A side-effect declared `withSideEffect(key, initial, Operator.x)` is reduced instead of
    collected: each value is folded in with the operator (`assign` takes the whole batch
    collected); a set initial value collects into that set."""

    name = "aggregate"
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope = args[0] if isinstance(args[0], Scope) else Scope.global_
        self.key = args[-1]
        self.bys = []

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "by" and getattr(self, "bys", None):
            raise StepArgumentError("Aggregate step can only have one by modulator")
        super().modulate(name, args)

    def _values(self, t: Traverser, ctx: Context) -> list[Any]:
        v = self.bys[0].value(t, ctx) if self.bys else t.obj
        return [] if v is NOTHING else [v] * t.bulk

    def _add(self, values: list[Any], ctx: Context) -> None:
        op = ctx.side_effect_ops.get(self.key)
        current = ctx.side_effects.get(self.key, NOTHING)
        if op is not None and op is not Operator.addAll:
            if op is Operator.assign:
                ctx.side_effects[self.key] = BulkSet(values)
                return
            for v in values:
                current = v if current is NOTHING else apply_operator(op, current, v)
            if current is not NOTHING:
                ctx.side_effects[self.key] = current
            return
        if isinstance(current, set):
            current.update(hashable_or(v) for v in values)
            return
        if not isinstance(current, list):
            current = BulkSet(current if isinstance(current, list | tuple) else [])
            ctx.side_effects[self.key] = current
        current.extend(values)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.key not in ctx.side_effects and self.key not in ctx.side_effect_ops:
            ctx.side_effects[self.key] = BulkSet()
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                self._add(self._values(t, ctx), ctx)
                yield t
            return
        seen = list(checked(it, ctx))
        values: list[Any] = []
        for t in seen:
            values.extend(self._values(t, ctx))
        self._add(values, ctx)
        yield from seen


def hashable_or(v: Any) -> Any:
    """`v` itself when it can go into a Python set, else its Gremlin-equality stand-in."""
    try:
        hash(v)
        return v
    except TypeError:
        return hashable(v)


def store_step(key: str) -> AggregateStep:
    step = AggregateStep(Scope.local, key)
    return step


class SubgraphStep(Step):
    """`subgraph(key)`: collects every edge passing by (with its end vertices) into the
    side-effect `key`, a `values.Subgraph`. The end vertices are loaded (one access call a
    batch), since TinkerPop's subgraph holds whole vertices and a client keeping it as a
    graph needs their properties."""

    name = "subgraph"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        sg = ctx.side_effects.get(self.args[0])
        if not isinstance(sg, Subgraph):
            sg = ctx.side_effects[self.args[0]] = Subgraph()
        for batch in batches(it, ctx.batch_size, ctx):
            for t in batch:
                if not isinstance(t.obj, Edge):
                    raise TraversalError(f"subgraph() can only collect edges, not {t.obj!r}")
            ctx.load(v for t in batch for v in (t.obj.out_v, t.obj.in_v))
            for t in batch:
                sg.add_edge(t.obj)
                yield t


class IoStep(Step):
    """`g.io(path).read()` / `.write()`, optionally `.with(IO.reader|IO.writer, IO.graphson|
    IO.graphml)`: loads a GraphSON 3.0 or GraphML file from the import folder the runtime
    names as `access.import_dir`, or writes the graph to one in `access.export_dir`. Emits
    nothing. Gryo is refused by name (gremlin_engine/io/folders.py)."""

    name = "io"

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.mode: str | None = None
        self.reader: str | None = None
        self.writer: str | None = None

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name in ("read", "write") and not args:
            self.mode = name
        elif name == "with" and len(args) == 2 and str(args[0]).endswith("reader"):
            self.reader = str(args[1])
        elif name == "with" and len(args) == 2 and str(args[0]).endswith("writer"):
            self.writer = str(args[1])
        elif name != "with":
            super().modulate(name, args)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        from gremlin_engine.io import read_into
        from gremlin_engine.io.export import write_from

        if self.mode == "read":
            read_into(ctx.access, self.args[0], getattr(ctx.access, "import_dir", None), self.reader)
        elif self.mode == "write":
            write_from(ctx.access, self.args[0], getattr(ctx.access, "export_dir", None), self.writer)
        else:
            raise NotSupported("g.io(path) needs read() or write()")
        return
        yield


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
            return v  # a BulkSet stays one (a Java Set); it iterates as its list

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

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "by" and self.bys:
            raise StepArgumentError("Sack step can only have one by modulator")
        super().modulate(name, args)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
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
