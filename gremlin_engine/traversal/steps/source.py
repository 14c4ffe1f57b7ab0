"""Source steps: `V`, `E`, `inject`, `addV`, `addE`.

`V()`/`E()` carry the has-containers that strategies fold into them (labels, conditions,
limit), so the runtime answers `g.V().hasLabel('person').has('age', gt(30)).limit(2)`
with one `access.vertices(...)` call. In the middle of a traversal (`g.V(1).V()`), they
start a fresh element stream for every incoming traverser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Element, Vertex
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import Step, arg_list
from gremlin_engine.traversal.tokens import Cardinality, T
from gremlin_engine.traversal.traverser import Context, Traverser, checked

#: the most ids `GraphStep.answer` reads in one call (more: the streaming pipeline)
ANSWER_MAX_IDS = 64


class GraphStep(Step):
    """`V(ids...)` / `E(ids...)` with folded `hasLabel/hasId/has` conditions and a limit."""

    kind = "vertex"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        flat = arg_list(args)
        ids = [a.id if isinstance(a, Element) else a for a in flat]
        self.ids: list[Any] | None = ids if args else None
        if args and len(flat) == 1 and flat[0] is None:
            self.ids = []  # V(null) finds nothing
        self.label_filter: list[str] | None = None
        self.conditions: list[tuple[Any, Any]] = []
        self.limit: int | None = None

    def fetch(self, ctx: Context) -> Iterator[Element]:
        if self.ids is not None and not self.ids:
            return iter(())
        fn = ctx.access.vertices if self.kind == "vertex" else ctx.access.edges
        return fn(self.ids, self.label_filter, tuple(self.conditions), self.limit)

    #: the step itself holds what a prepared run binds (`prepared.BoundAnswer`)
    answer_source = ""

    def answer(self, access: Any, source: GraphStep | None = None, cancel: Any = None) -> list[Any] | None:
        """Every result when this step is the whole traversal and names a few ids (a REST
        GET by id, `g.V(id)`): the elements of the access call `process` makes, without a
        context or traversers (`traversal.run_compiled`); None otherwise, so a scan keeps
        streaming and polling its cancel token. `source` stands for `self` (a prepared
        run's bound copy)."""
        src = source or self
        ids = src.ids
        if not src.is_start or ids is None or len(ids) > ANSWER_MAX_IDS:
            return None
        if not ids:
            return []
        fn = access.vertices if src.kind == "vertex" else access.edges
        return list(fn(ids, src.label_filter, tuple(src.conditions), src.limit))

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start:
            for n, elem in enumerate(self.fetch(ctx)):
                if n % 64 == 0:
                    ctx.check()
                yield ctx.new_traverser(elem)
            return
        for t in checked(it, ctx):
            for elem in self.fetch(ctx):
                yield t.split(elem)

    def __repr__(self) -> str:
        parts = [f"{self.name}({', '.join(map(repr, self.ids or []))})"]
        if self.label_filter:
            parts.append(f"hasLabel({', '.join(map(repr, self.label_filter))})")
        parts += [f"has({k!r}, {p!r})" for k, p in self.conditions]
        if self.limit is not None:
            parts.append(f"limit({self.limit})")
        label = "".join(f".as({lb!r})" for lb in self.labels)
        return ".".join(parts) + label


class VStep(GraphStep):
    name = "V"
    kind = "vertex"


class EStep(GraphStep):
    name = "E"
    kind = "edge"


class InjectStep(Step):
    """`inject(a, b, ...)`: at the start, these objects are the stream; mid-traversal they
    are emitted ahead of the incoming traversers, except as the first step of a child
    traversal, where the parent's traverser comes first (TinkerPop behaviour)."""

    name = "inject"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.child_start = False  # first step of a child traversal (set by the compiler)
        self._children_of: tuple[Any, ...] | None = None  # the args `_children` was found in
        self._children: list[CompiledTraversal] = []

    def children(self) -> list[CompiledTraversal]:
        """The anonymous traversals among the arguments, found once: strategies ask ~40
        times per compile, and a REST batch injects 500 items (re-found only if `args` is
        replaced)."""
        if self._children_of is not self.args:
            self._children = Step.children(self)
            self._children_of = self.args
        return list(self._children)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start and not self.child_start and not ctx.track_paths and ctx.sack_initial is None:
            return InjectedStream(self.args)
        return self._injected(it, ctx)

    def _injected(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.child_start:  # TinkerPop queues the parent's traverser ahead of injected ones
            yield from checked(it, ctx)
        if not ctx.track_paths and ctx.sack_initial is None:
            for v in self.args:  # what `new_traverser` makes, without a call per item
                yield Traverser(v, 1, None, (), None)
        else:
            for v in self.args:
                yield ctx.new_traverser(v)
        if not self.is_start and not self.child_start:
            yield from checked(it, ctx)


class InjectedStream:
    """`g.inject(a, b, ...)` at the start, with no path or sack to track: the objects as
    fresh traversers, and as `injected` the objects themselves, so a step that takes a whole
    batch (the HugeGraph batch writes, 500 REST items) reads them without a traverser each."""

    __slots__ = ("injected", "_traversers")

    def __init__(self, objects: tuple[Any, ...]) -> None:
        self.injected = objects
        self._traversers: Iterator[Traverser] | None = None

    def __iter__(self) -> Iterator[Traverser]:
        if self._traversers is None:
            self._traversers = (Traverser(v, 1, None, (), None) for v in self.injected)
        return self._traversers

    def __next__(self) -> Traverser:
        return next(iter(self))


def eval_arg(value: Any, t: Traverser, ctx: Context, step: str) -> Any:
    """A step argument that may be a child traversal (`property('x', __.select('a'))`)."""
    if isinstance(value, CompiledTraversal):
        out = first_result(value, t, ctx)
        if out is NOTHING:
            raise TraversalError(f"The provided traverser of {step}() does not map to a value: {value!r}")
        return out
    return value


class PropertySpec:
    """A folded `property([cardinality,] key, value, [metaKey, metaValue...])` of addV/addE."""

    __slots__ = ("cardinality", "key", "value", "meta")

    def __init__(self, cardinality: Cardinality | None, key: Any, value: Any, meta: dict[Any, Any]) -> None:
        self.cardinality = cardinality
        self.key = key
        self.value = value
        self.meta = meta

    def __repr__(self) -> str:
        return f"property({self.key!r}, {self.value!r})"


class AddElementStep(Step):
    """Shared parts of addV/addE: a label (constant or traversal) and folded properties."""

    default_label = "vertex"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if len(args) > 1:
            raise StepArgumentError(f"{self.name}() takes at most one label")
        self.label_arg = args[0] if args else None
        self.props: list[PropertySpec] = []

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "with":
            return  # with() after a folded property(): accepted and ignored, as TinkerPop does
        super().modulate(name, args)

    def fold_property(self, spec: PropertySpec) -> None:
        self.props.append(spec)

    def children(self) -> list[CompiledTraversal]:
        out = super().children()
        for p in self.props:
            out += [x for x in (p.key, p.value) if isinstance(x, CompiledTraversal)]
        return out

    def resolved(self, t: Traverser, ctx: Context) -> tuple[Any, Any, list[tuple[Any, ...]]]:
        """(label, id, properties) for one new element."""
        label = eval_arg(self.label_arg, t, ctx, self.name)
        elem_id = None
        props: list[tuple[Any, ...]] = []
        for p in self.props:
            key = eval_arg(p.key, t, ctx, self.name)
            value = eval_arg(p.value, t, ctx, self.name)
            if key is T.id:
                elem_id = value
            elif key is T.label:
                label = value
            elif p.cardinality is not None or p.meta:
                props.append((key, value, p.cardinality, dict(p.meta)))
            else:
                props.append((key, value))
        if label is None:
            label = self.default_label
        if not isinstance(label, str):
            raise StepArgumentError(f"{self.name}(): the label must be a string, not {label!r}")
        return label, elem_id, props

    def __repr__(self) -> str:
        return super().__repr__() + "".join("." + repr(p) for p in self.props)


class AddVertexStep(AddElementStep):
    name = "addV"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start:
            start = ctx.new_traverser(None)
            label, vid, props = self.resolved(start, ctx)
            yield ctx.new_traverser(ctx.access.add_vertex(label, vid, props))
            return
        for t in checked(it, ctx):
            label, vid, props = self.resolved(t, ctx)
            yield t.split(ctx.access.add_vertex(label, vid, props))


class AddEdgeStep(AddElementStep):
    """`addE(label).from(x).to(y)`: x/y are a step label, a vertex or a child traversal;
    a missing end defaults to the incoming traverser's vertex."""

    name = "addE"
    default_label = "edge"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.from_: Any = None
        self.to: Any = None

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name not in ("from", "to") or len(args) != 1:
            super().modulate(name, args)
            return
        if name == "from":
            self.from_ = args[0]
        else:
            self.to = args[0]

    def children(self) -> list[CompiledTraversal]:
        return super().children() + [x for x in (self.from_, self.to) if isinstance(x, CompiledTraversal)]

    def _end(self, spec: Any, t: Traverser, ctx: Context) -> Vertex:
        if spec is None:
            v = t.obj
        elif isinstance(spec, str):
            found = t.labelled(spec)
            if not found:
                se = ctx.side_effects.get(spec, NOTHING)
                if se is NOTHING:
                    raise TraversalError(f"addE(): no vertex labelled {spec!r}")
                found = [se]
            v = found[-1]
        elif isinstance(spec, CompiledTraversal):
            v = eval_arg(spec, t, ctx, self.name)
        else:
            v = spec
        if not isinstance(v, Vertex):
            found_v = [] if isinstance(v, Element) or v is None else list(ctx.access.vertices([v]))
            if not found_v:
                which = "from()" if spec is self.from_ else "to()"
                raise TraversalError(
                    f"The value given to addE({self.label_arg!r}).{which} must resolve to a Vertex or the ID of "
                    f"a Vertex present in the graph. The provided value does not: {v!r}"
                )
            v = found_v[0]
        return v

    def _add(self, t: Traverser, ctx: Context) -> Edge:
        label, eid, props = self.resolved(t, ctx)
        out_v, in_v = self._end(self.from_, t, ctx), self._end(self.to, t, ctx)
        return ctx.access.add_edge(label, out_v, in_v, eid, [(p[0], p[1]) for p in props])

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.is_start:
            start = ctx.new_traverser(None)
            yield ctx.new_traverser(self._add(start, ctx))
            return
        for t in checked(it, ctx):
            yield t.split(self._add(t, ctx))
