"""`mergeV` and `mergeE`: find-or-create by a search map, with `option(Merge.onCreate, m)`,
`option(Merge.onMatch, m[, Cardinality])` and, for edges, `option(Merge.outV|inV, x)`.

Search maps hold `T.id`, `T.label`, property keys and (edges) `Direction.OUT/IN`, whose
value is a vertex, a vertex id or the `Merge.outV/inV` placeholder resolved through the
matching option. Every match is emitted (and updated with onMatch); with no match one
element is created from the search map plus onCreate, which may add to the search map but
never change it. Values may carry their own cardinality (`Cardinality.set(31)`).
The checks and messages follow TinkerPop's, which the corpus asserts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Element, Vertex
from gremlin_engine.traversal.compare import equals
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.tokens import Cardinality, Direction, Merge, T
from gremlin_engine.traversal.traverser import Context, Traverser, checked

_OUT = (Direction.OUT, getattr(Direction, "from_", Direction.OUT))
_IN = (Direction.IN, getattr(Direction, "to", Direction.IN))


def card_value(v: Any) -> tuple[Any, Cardinality | None]:
    """(value, cardinality) of a map value that may be a `Cardinality.x(value)` wrapper."""
    if type(v).__name__ == "CardinalityValue":
        return v.value, v.cardinality
    return v, None


def _check_keys(m: Mapping[Any, Any], edges: bool) -> None:
    for k, v in m.items():
        if isinstance(k, str):
            if k.startswith("~"):
                raise StepArgumentError(f"Property key can not be a hidden key: {k}")
            continue
        if k is T.label:
            if v is None:
                raise StepArgumentError("Label can not be null")
            if isinstance(v, str) and v.startswith("~"):
                raise StepArgumentError(f"Label can not be a hidden key: {v}")
            continue
        if k is T.id or (edges and isinstance(k, Direction)):
            continue
        allowed = "T.id, T.label, Direction.OUT, Direction.IN and String keys" if edges else "T.id, T.label and String keys"
        raise StepArgumentError(f"{'mergeE' if edges else 'mergeV'}() maps can only contain {allowed}, not {k!r}")


def _direction(m: Mapping[Any, Any], which: tuple[Any, ...]) -> Any:
    for d in which:
        if d in m:
            return m[d]
    return None


class MergeStep(Step):
    """Shared parts: argument and option maps (constant or per-traverser), validation."""

    edges = False

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.search = args[0] if args else NOTHING  # NOTHING: the incoming map
        self.options: dict[Merge, Any] = {}
        self.match_card: Cardinality | None = None
        self.create_card: Cardinality | None = None
        if isinstance(self.search, Mapping):
            _check_keys(self.search, self.edges)

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name != "option" or len(args) not in (2, 3) or not isinstance(args[0], Merge):
            raise StepArgumentError(f"{self.name}() takes option(Merge.x, value[, Cardinality])")
        token, value = args[0], args[1]
        if isinstance(value, Mapping) and token in (Merge.onCreate, Merge.onMatch):
            _check_keys(value, self.edges)
            if token is Merge.onMatch and any(k is T.id or k is T.label for k in value):
                raise StepArgumentError(f"option(onMatch) cannot override {next(k for k in value if not isinstance(k, str))!r}")
        self.options[token] = value
        if len(args) == 3:
            if token is Merge.onMatch:
                self.match_card = args[2]
            elif token is Merge.onCreate:
                self.create_card = args[2]

    def finish(self) -> None:
        """Constant maps conflict at compile time, as TinkerPop checks them up front."""
        create = self.options.get(Merge.onCreate)
        if isinstance(self.search, Mapping) and isinstance(create, Mapping):
            for k, v in create.items():
                if k in self.search and not equals(self.search[k], v):
                    raise StepArgumentError("option(onCreate) cannot override values from merge() argument")

    def children(self) -> list[CompiledTraversal]:
        vals = [self.search, *self.options.values()]
        return [v for v in vals if isinstance(v, CompiledTraversal)]

    def _map(self, spec: Any, t: Traverser, ctx: Context, what: str) -> dict[Any, Any]:
        if spec is NOTHING:
            spec = t.obj
        if isinstance(spec, CompiledTraversal):
            spec = first_result(spec, t, ctx)
            if spec is NOTHING:
                spec = None
            if isinstance(spec, Mapping):
                _check_keys(spec, self.edges)
        if spec is None:
            return {}
        if not isinstance(spec, Mapping):
            raise StepArgumentError(f"{self.name}(): {what} must be a map, not {spec!r}")
        return dict(spec)

    def _create_map(self, search: dict[Any, Any], t: Traverser, ctx: Context) -> dict[Any, Any]:
        on_create = self._map(self.options.get(Merge.onCreate), t, ctx, "option(onCreate)")
        for k, v in on_create.items():
            if k in search and not equals(search[k], v):
                raise StepArgumentError("option(onCreate) cannot override values from merge() argument")
        return {**search, **on_create}

    def _props(self, m: Mapping[Any, Any], default: Cardinality | None) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        for k, raw in m.items():
            if not isinstance(k, str):
                continue
            v, card = card_value(raw)
            card = card or default
            out.append((k, v, card, {}) if card is not None else (k, v))
        return out

    def _update(self, elem: Element, t: Traverser, ctx: Context) -> None:
        spec = self.options.get(Merge.onMatch)
        if spec is None:
            return
        on_match = self._map(spec, t.split(elem), ctx, "option(onMatch)")
        for k in on_match:
            if not isinstance(k, str):
                raise StepArgumentError(f"option(onMatch) cannot override {k!r}")
        is_vertex = isinstance(elem, Vertex)
        for k, raw in on_match.items():
            v, card = card_value(raw)
            card = (card or self.match_card or Cardinality.single) if is_vertex else None
            if is_vertex and card is Cardinality.single:
                ctx.load([elem])
                for prop in list(elem.properties(k)):
                    ctx.access.remove_property(prop)
            ctx.access.set_property(elem, k, v, card)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start:
            start = ctx.new_traverser(None)
            for elem in self.merge(start, ctx):
                yield ctx.new_traverser(elem)
            return
        for t in checked(it, ctx):
            for elem in self.merge(t, ctx):
                yield t.split(elem)

    def merge(self, t: Traverser, ctx: Context) -> list[Element]:
        raise NotImplementedError


def _conditions(m: Mapping[Any, Any]) -> tuple[list[Any] | None, list[str] | None, list[tuple[Any, P]]]:
    ids = [m[T.id]] if T.id in m else None
    labels = [m[T.label]] if T.label in m else None
    conds = [(k, P("eq", card_value(v)[0])) for k, v in m.items() if isinstance(k, str)]
    return ids, labels, conds


class MergeVStep(MergeStep):
    name = "mergeV"

    def merge(self, t: Traverser, ctx: Context) -> list[Element]:
        search = self._map(self.search, t, ctx, "the merge() argument")
        ids, labels, conds = _conditions(search)
        found: list[Element] = list(ctx.access.vertices(ids, labels, conds)) if ids != [None] else []
        if found:
            for v in found:
                self._update(v, t, ctx)
            return found
        create = self._create_map(search, t, ctx)
        label = create.get(T.label, "vertex")
        return [ctx.access.add_vertex(label, create.get(T.id), self._props(create, self.create_card))]


class MergeEStep(MergeStep):
    name = "mergeE"
    edges = True

    def _vertex(self, ref: Any, t: Traverser, ctx: Context) -> Vertex:
        if ref is Merge.outV or ref is Merge.inV:
            if ref not in self.options:
                raise TraversalError(f"mergeE(): {ref!r} is used but option({ref!r}, ...) is not given")
            ref = self.options[ref]
            if isinstance(ref, CompiledTraversal):
                ref = first_result(ref, t, ctx)
            if isinstance(ref, Mapping):
                ids, labels, conds = _conditions(ref)
                found = list(ctx.access.vertices(ids, labels, conds, 1))
                if not found:
                    raise TraversalError(f"Vertex could not be resolved from mergeE: {ref!r}")
                return found[0]
        if isinstance(ref, Vertex):
            return ref
        found = list(ctx.access.vertices([ref])) if ref is not None and not isinstance(ref, Edge) else []
        if not found:
            raise TraversalError(f"Vertex id could not be resolved from mergeE: {ref!r}")
        return found[0]

    def _find(self, search: Mapping[Any, Any], out_v: Vertex | None, in_v: Vertex | None, ctx: Context) -> list[Edge]:
        ids, labels, conds = _conditions(search)
        if ids == [None]:
            return []
        anchor = out_v if out_v is not None else in_v
        if ids is None and anchor is not None:
            direction = Direction.OUT if out_v is not None else Direction.IN
            cands = [e for _, e in ctx.access.adjacent_edges([anchor], direction, labels or ())]
            if conds:
                ctx.load(cands)
            cands = [e for e in cands if all(any(p.test(x.value) for x in e.properties(k)) for k, p in conds)]
        else:
            cands = list(ctx.access.edges(ids, labels, conds))
        return [
            e for e in cands
            if (out_v is None or e.out_v == out_v) and (in_v is None or e.in_v == in_v)
        ]

    def merge(self, t: Traverser, ctx: Context) -> list[Element]:
        search = self._map(self.search, t, ctx, "the merge() argument")
        out_ref, in_ref = _direction(search, _OUT), _direction(search, _IN)
        out_v = self._vertex(out_ref, t, ctx) if out_ref is not None else None
        in_v = self._vertex(in_ref, t, ctx) if in_ref is not None else None
        found = self._find(search, out_v, in_v, ctx)
        if found:
            for e in found:
                self._update(e, t, ctx)
            return list(found)
        create = self._create_map(search, t, ctx)
        o, i = _direction(create, _OUT), _direction(create, _IN)
        if o is None:
            raise TraversalError("Out Vertex not specified")
        if i is None:
            raise TraversalError("In Vertex not specified")
        out_v = out_v if o is out_ref and out_v is not None else self._vertex(o, t, ctx)
        in_v = in_v if i is in_ref and in_v is not None else self._vertex(i, t, ctx)
        props = [(p[0], p[1]) for p in self._props(create, None)]
        return [ctx.access.add_edge(create.get(T.label, "edge"), out_v, in_v, create.get(T.id), props)]
