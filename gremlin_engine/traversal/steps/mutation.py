"""Mutating steps: `property` and `drop` (`mergeV`/`mergeE` live in merge.py). All writes go
through the `GraphAccess` write methods, inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Element, Property, Vertex, VertexProperty
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.merge import card_value
from gremlin_engine.traversal.steps.source import eval_arg
from gremlin_engine.traversal.tokens import Cardinality, T
from gremlin_engine.traversal.traverser import Context, Traverser, batches, checked


class PropertyStep(Step):
    """`property([cardinality,] key, value[, metaKey, metaValue...])` or `property([card,] map)`.
    A null value with single cardinality removes the property (TinkerPop 3.6+), except on a
    graph that allows null property values, which stores it (TinkerPop 3.7+)."""

    name = "property"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.cardinality = args[0] if args and isinstance(args[0], Cardinality) else None
        body = args[1:] if self.cardinality is not None else args
        if len(body) == 1 and body[0] is None:
            body = ({},)  # property(null): nothing to set
        self.map = body[0] if len(body) == 1 and isinstance(body[0], dict) else None
        if self.map is None and (len(body) < 2 or len(body) % 2):
            raise StepArgumentError("property() takes a key and a value, then meta-property key/value pairs")
        self.body = body

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "with":
            return  # TinkerPop 3.8 accepts with() here and ignores it for property()
        super().modulate(name, args)

    def _pairs(self, t: Traverser, ctx: Context) -> list[tuple[Any, Any, dict[str, Any]]]:
        if self.map is not None:
            return [(k, eval_arg(v, t, ctx, self.name), {}) for k, v in self.map.items()]
        key = eval_arg(self.body[0], t, ctx, self.name)
        value = eval_arg(self.body[1], t, ctx, self.name)
        meta = {self.body[i]: eval_arg(self.body[i + 1], t, ctx, self.name) for i in range(2, len(self.body), 2)}
        return [(key, value, meta)]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            elem = t.obj
            for key, value, meta in self._pairs(t, ctx):
                self._set(elem, key, value, meta, ctx)
            yield t

    def _set(self, elem: Any, key: Any, value: Any, meta: dict[str, Any], ctx: Context) -> None:
        if key is None:
            raise StepArgumentError("property(): the key must not be null")
        if isinstance(key, T):
            raise StepArgumentError(f"property(): {key!r} cannot be changed on an existing element")
        if isinstance(elem, VertexProperty):
            ctx.access.set_meta_property(elem, key, value)
            return
        if not isinstance(elem, Element):
            raise TraversalError(f"property() can only be applied to an element, not {elem!r}")
        value, own_card = card_value(value)
        if value is None and not getattr(ctx.access, "allow_nulls", False):
            ctx.load([elem])
            for prop in list(elem.properties(key)):
                ctx.access.remove_property(prop)
            return
        card = (own_card or self.cardinality) if isinstance(elem, Vertex) else None
        ctx.access.set_property(elem, key, value, card, meta or None)

    def children(self) -> list[CompiledTraversal]:
        vals = list(self.map.values()) if self.map is not None else list(self.body)
        return [v for v in vals if isinstance(v, CompiledTraversal)]


class DropStep(Step):
    """`drop()`: removes elements (batched) and properties; emits nothing."""

    name = "drop"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for batch in batches(it, ctx.batch_size, ctx):
            elements = []
            for t in batch:
                obj = t.obj
                if isinstance(obj, Element):
                    elements.append(obj)
                elif isinstance(obj, VertexProperty | Property):
                    ctx.access.remove_property(obj)
                else:
                    raise TraversalError(f"drop() can only remove elements and properties, not {obj!r}")
            if elements:
                ctx.access.drop(list(dict.fromkeys(elements)))
        return
        yield
