"""Mutating steps: `property`, `drop`, `mergeV`, `mergeE`. All writes go through the
`GraphAccess` write methods, inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.source import eval_arg
from gremlin_engine.traversal.tokens import Cardinality, Direction, Merge, T
from gremlin_engine.traversal.traverser import Context, Traverser, batches, checked


class PropertyStep(Step):
    """`property([cardinality,] key, value[, metaKey, metaValue...])` or `property([card,] map)`.
    A null value with single cardinality removes the property (TinkerPop 3.6+)."""

    name = "property"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.cardinality = args[0] if args and isinstance(args[0], Cardinality) else None
        body = args[1:] if self.cardinality is not None else args
        self.map = body[0] if len(body) == 1 and isinstance(body[0], dict) else None
        if self.map is None and (len(body) < 2 or len(body) % 2):
            raise StepArgumentError("property() takes a key and a value, then meta-property key/value pairs")
        self.body = body

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
        if value is None:
            ctx.load([elem])
            for prop in list(elem.properties(key)):
                ctx.access.remove_property(prop)
            return
        card = self.cardinality if isinstance(elem, Vertex) else None
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


class _MergeStep(Step):
    """Shared parts of mergeV/mergeE: the search map and `option(Merge.x, map)`s."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.search = args[0] if args else None
        self.options: dict[Merge, Any] = {}

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name != "option" or len(args) != 2 or not isinstance(args[0], Merge):
            super().modulate(name, args)
        self.options[args[0]] = args[1]

    def children(self) -> list[CompiledTraversal]:
        vals = [self.search, *self.options.values()]
        return [v for v in vals if isinstance(v, CompiledTraversal)]

    def _map(self, spec: Any, t: Traverser, ctx: Context, what: str) -> dict[Any, Any]:
        if spec is None:
            spec = t.obj if isinstance(t.obj, Mapping) else {}
        if isinstance(spec, CompiledTraversal):
            spec = first_result(spec, t, ctx)
            if spec is NOTHING:
                spec = {}
        if spec is None:
            return {}
        if not isinstance(spec, Mapping):
            raise StepArgumentError(f"{self.name}(): {what} must be a map, not {spec!r}")
        return dict(spec)

    @staticmethod
    def _conditions(m: Mapping[Any, Any]) -> tuple[list[Any] | None, list[str] | None, list[tuple[Any, P]]]:
        ids = [m[T.id]] if T.id in m else None
        labels = [m[T.label]] if T.label in m else None
        conds = [(k, P("eq", v)) for k, v in m.items() if isinstance(k, str)]
        return ids, labels, conds

    def _update(self, elem: Element, t: Traverser, ctx: Context) -> None:
        on_match = self._map(self.options.get(Merge.onMatch, {}), t.split(elem), ctx, "onMatch")
        for k, v in on_match.items():
            if isinstance(k, T | Direction):
                raise StepArgumentError(f"{self.name}(): onMatch cannot change {k!r}")
            card = Cardinality.single if isinstance(elem, Vertex) else None
            ctx.access.set_property(elem, k, v, card)


class MergeVStep(_MergeStep):
    name = "mergeV"

    def _merge(self, t: Traverser, ctx: Context) -> list[Vertex]:
        search = self._map(self.search, t, ctx, "the search")
        ids, labels, conds = self._conditions(search)
        found = list(ctx.access.vertices(ids, labels, conds))
        if found:
            for v in found:
                self._update(v, t, ctx)
            return found
        create = {**search, **self._map(self.options.get(Merge.onCreate, {}), t, ctx, "onCreate")}
        props = [(k, v) for k, v in create.items() if isinstance(k, str)]
        return [ctx.access.add_vertex(create.get(T.label, "vertex"), create.get(T.id), props)]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        source = (ctx.new_traverser(None),) if self.is_start else checked(it, ctx)
        for t in source:
            for v in self._merge(t, ctx):
                yield ctx.new_traverser(v) if self.is_start else t.split(v)


class MergeEStep(_MergeStep):
    name = "mergeE"

    def _vertex(self, ref: Any, t: Traverser, ctx: Context, which: Merge) -> Vertex:
        if ref is Merge.outV or ref is Merge.inV:
            ref = self._map(self.options.get(ref), t, ctx, str(ref)) if isinstance(self.options.get(ref), Mapping | CompiledTraversal) else self.options.get(ref)
            if isinstance(ref, Mapping):
                ids, labels, conds = self._conditions(ref)
                found = list(ctx.access.vertices(ids, labels, conds))
                if not found:
                    raise TraversalError(f"mergeE(): no vertex matches {ref!r}")
                return found[0]
        if isinstance(ref, Vertex):
            return ref
        found = list(ctx.access.vertices([ref]))
        if not found:
            raise TraversalError(f"mergeE(): vertex {ref!r} does not exist")
        return found[0]

    def _merge(self, t: Traverser, ctx: Context) -> list[Edge]:
        search = self._map(self.search, t, ctx, "the search")
        ids, labels, conds = self._conditions(search)
        out_ref = search.get(Direction.OUT, search.get(Direction.from_))
        in_ref = search.get(Direction.IN, search.get(Direction.to))
        out_v = self._vertex(out_ref, t, ctx, Merge.outV) if out_ref is not None else None
        in_v = self._vertex(in_ref, t, ctx, Merge.inV) if in_ref is not None else None
        found = [
            e for e in ctx.access.edges(ids, labels, conds)
            if (out_v is None or e.out_v == out_v) and (in_v is None or e.in_v == in_v)
        ]
        if found:
            for e in found:
                self._update(e, t, ctx)
            return found
        create = {**search, **self._map(self.options.get(Merge.onCreate, {}), t, ctx, "onCreate")}
        o = create.get(Direction.OUT, create.get(Direction.from_))
        i = create.get(Direction.IN, create.get(Direction.to))
        if o is None or i is None:
            raise TraversalError("mergeE(): creating an edge needs both Direction.OUT and Direction.IN")
        out_v = self._vertex(o, t, ctx, Merge.outV)
        in_v = self._vertex(i, t, ctx, Merge.inV)
        props = [(k, v) for k, v in create.items() if isinstance(k, str)]
        return [ctx.access.add_edge(create.get(T.label, "edge"), out_v, in_v, create.get(T.id), props)]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        source = (ctx.new_traverser(None),) if self.is_start else checked(it, ctx)
        for t in source:
            for e in self._merge(t, ctx):
                yield ctx.new_traverser(e) if self.is_start else t.split(e)
