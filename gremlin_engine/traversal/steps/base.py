"""The step base classes, one per family, and the `by()` modulator.

A step is a small class with one job. It receives its already-evaluated arguments (nested
anonymous traversals arrive compiled, as `CompiledTraversal`), may accept modulators
through `modulate(name, args)`, and transforms a traverser stream in `process`.
Most steps only implement one hook of their family:

* `FilterStep.keep(t, ctx) -> bool`
* `MapStep.map(t, ctx) -> obj` (return `NOTHING` to drop the traverser)
* `FlatMapStep.flat(t, ctx) -> iterable of objs`
* `SideEffectStep.effect(t, ctx)`

Set `loads = True` to have each batch's elements loaded with one `access.load` call
before the hook runs (property-reading steps); flat-maps that talk to the graph override
`process` and make one `GraphAccess` call per batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.tokens import Column, Order, T
from gremlin_engine.traversal.traverser import Context, Traverser, batches, checked
from gremlin_engine.traversal.values import MapEntry


class Step:
    """Base of every step. `labels` are the `as()` names attached to its output."""

    name: ClassVar[str] = "step"
    requires_path: ClassVar[bool] = False  # needs traverser paths (path(), simplePath(), ...)
    full_path: ClassVar[bool] = False  # reads unlabelled path entries too (path(), tree(), ...)
    loads: ClassVar[bool] = False

    def __init__(self, *args: Any) -> None:
        self.args = args
        self.labels: tuple[str, ...] = ()
        self.is_start = False  # first step of a root traversal (set by the compiler)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        raise NotImplementedError

    def children(self) -> list[CompiledTraversal]:
        """Nested traversals, for strategies and path-requirement analysis."""
        return [a for a in self.args if isinstance(a, CompiledTraversal)]

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        raise StepArgumentError(f"{self.name}() cannot be modulated by {name}()")

    def finish(self) -> None:
        """Called by the compiler once all modulators are folded in (validation hook)."""

    def _stream(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        """The input, with each batch's elements loaded when the step reads properties."""
        if not self.loads:
            yield from checked(it, ctx)
            return
        for batch in batches(it, ctx.batch_size, ctx):
            ctx.load(t.obj for t in batch)
            yield from batch

    def __repr__(self) -> str:
        args = ", ".join(map(repr, self.args))
        label = "".join(f".as({lb!r})" for lb in self.labels)
        return f"{self.name}({args}){label}"


class FilterStep(Step):
    def keep(self, t: Traverser, ctx: Context) -> bool:
        raise NotImplementedError

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        keep = self.keep
        for t in self._stream(it, ctx):
            if keep(t, ctx):
                yield t


class MapStep(Step):
    def map(self, t: Traverser, ctx: Context) -> Any:
        raise NotImplementedError

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        fn = self.map
        for t in self._stream(it, ctx):
            obj = fn(t, ctx)
            if obj is not NOTHING:
                yield t.split(obj)


class FlatMapStep(Step):
    def flat(self, t: Traverser, ctx: Context) -> Iterable[Any]:
        raise NotImplementedError

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        fn = self.flat
        for t in self._stream(it, ctx):
            for obj in fn(t, ctx):
                yield t.split(obj)


class SideEffectStep(Step):
    def effect(self, t: Traverser, ctx: Context) -> None:
        raise NotImplementedError

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in self._stream(it, ctx):
            self.effect(t, ctx)
            yield t


class IdentityStep(Step):
    name = "identity"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        return checked(it, ctx)


# ---- by() -------------------------------------------------------------------------


class By:
    """One `by()` modulator: what to take from an object, and (for order) in which order.

    `key` is None (the object itself), a property key / map key string, a `T` token, a
    `Column`, or a child `CompiledTraversal`. `value()` returns `NOTHING` when the object
    has no such value, so steps can apply TinkerPop's "productive by" rules.
    """

    __slots__ = ("key", "order")

    def __init__(self, key: Any = None, order: Any = None) -> None:
        self.key = key
        self.order = order

    @classmethod
    def from_args(cls, step: str, args: tuple[Any, ...]) -> By:
        if not args:
            return cls()
        first = args[0]
        if isinstance(first, Order) and len(args) == 1:
            return cls(None, first)
        if not isinstance(first, str | T | Column | CompiledTraversal) and first is not None:
            raise StepArgumentError(f"{step}().by() does not accept {first!r}")
        order = args[1] if len(args) > 1 else None
        if order is not None and not isinstance(order, Order):
            raise StepArgumentError(f"{step}().by() takes an Order as its second argument, not {order!r}")
        return cls(first, order)

    def is_element_key(self) -> bool:
        return isinstance(self.key, str)

    def value(self, t: Traverser, ctx: Context) -> Any:
        key = self.key
        if key is None:
            return t.obj
        if isinstance(key, CompiledTraversal):
            v = first_result(key, t, ctx)
        else:
            v = project(t.obj, key, ctx)
        return None if v is NOTHING and ctx.productive_by else v

    def value_of(self, obj: Any, ctx: Context) -> Any:
        """`value` for a bare object (group/dedup(local) values, select keys...)."""
        if self.key is None:
            return obj
        if isinstance(self.key, CompiledTraversal):
            v = first_result(self.key, ctx.new_traverser(obj), ctx)
        else:
            v = project(obj, self.key, ctx)
        return None if v is NOTHING and ctx.productive_by else v

    def __repr__(self) -> str:
        parts = [repr(x) for x in (self.key, self.order) if x is not None]
        return f"by({', '.join(parts)})"


def project(obj: Any, key: Any, ctx: Context) -> Any:
    """`by('name')`, `by(T.id)`, `by(keys)` on one object; NOTHING when absent."""
    if isinstance(key, T):
        return token_value(obj, key)
    if isinstance(key, Column):
        if isinstance(obj, MapEntry):
            return obj.key if key is Column.keys else obj.value
        if isinstance(obj, Mapping):
            return list(obj.keys()) if key is Column.keys else list(obj.values())
        if isinstance(obj, tuple | list) and len(obj) == 2 and key in (Column.keys, Column.values):
            return obj[0] if key is Column.keys else obj[1]
        raise TraversalError(f"{key!r} cannot be applied to {obj!r}")
    if isinstance(obj, Element):
        if not obj.loaded:
            ctx.load([obj])
        return property_value(obj, key)
    if isinstance(obj, VertexProperty):
        return obj.meta.get(key, NOTHING)
    if isinstance(obj, Mapping):
        return obj.get(key, NOTHING)
    raise TraversalError(f"The by(\"{key}\") modulator can only be applied to an element or map, not {obj!r}")


def property_value(elem: Element, key: str) -> Any:
    """The first value of `key` on a loaded element, or NOTHING."""
    if isinstance(elem, Vertex):
        for vp in elem.properties(key):
            return vp.value
        return NOTHING
    assert isinstance(elem, Edge)
    return elem._props.get(key, NOTHING) if elem._props is not None else NOTHING


def token_value(obj: Any, token: T) -> Any:
    if token is T.id:
        if isinstance(obj, Element | VertexProperty):
            return obj.id
    elif token is T.label:
        if isinstance(obj, Element | VertexProperty):
            return obj.label
    elif token is T.key:
        if isinstance(obj, VertexProperty | Property):
            return obj.key
    elif token is T.value:
        if isinstance(obj, VertexProperty | Property):
            return obj.value
    if isinstance(obj, Mapping):
        return obj.get(token, NOTHING)
    raise TraversalError(f"{token!r} is not a property of {obj!r}")


class ByModulated(Step):
    """Mixin for steps that take `by()` modulators; `self.bys` collects them in order. A
    `Step` itself so that it types its use of the step's name and children; listed first
    among the bases (`class OrderStep(ByModulated, Step)`), so the method order is the same."""

    max_bys: ClassVar[int | None] = None
    bys: list[By]

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name != "by":
            Step.modulate(self, name, args)
            return
        if not hasattr(self, "bys"):
            self.bys = []
        if self.max_bys is not None and len(self.bys) >= self.max_bys:
            step = self.name
            count = {1: "one", 2: "two"}.get(self.max_bys, str(self.max_bys))
            raise StepArgumentError(f"{step[0].upper()}{step[1:]} step can only have {count} by modulator")
        self.bys.append(By.from_args(self.name, args))

    def children(self) -> list[CompiledTraversal]:
        return Step.children(self) + self.by_children()

    def by_children(self) -> list[CompiledTraversal]:
        return [b.key for b in getattr(self, "bys", []) if isinstance(b.key, CompiledTraversal)]

    def by_at(self, i: int) -> By:
        """The i-th by(), cycling like TinkerPop does for path()/select()/project()."""
        bys = getattr(self, "bys", [])
        return bys[i % len(bys)] if bys else By()


def arg_list(args: tuple[Any, ...]) -> list[Any]:
    """Flattens `f(a, b)` / `f([a, b])` into one list (ids, labels, keys)."""
    out: list[Any] = []
    for a in args:
        if isinstance(a, list | tuple | set):
            out.extend(a)
        else:
            out.append(a)
    return out
