"""Fused point plans: `V(id).values(keys)` / `V(id).id()` / `V(id).label()`,
`V(id).out|in|both(labels).id()` and `V().hasLabel(l).has(key, value).id()` as one step each.

The general pipeline for a point lookup builds a `Vertex`, caches it, decodes every
property into `VertexProperty` objects (each with its property id) and passes traversers
through two generators, to hand back one string. `PointStep` asks the access for the row
(`point_vertex`: one indexed statement) and yields the requested values straight from the
row's JSON, decoding only the requested keys.

Semantics are the general path's: `values(keys)` yields every value of every requested key
in the row's key order (multi-properties expanded, as `Vertex.properties(*keys)` does),
`values()` every value, `id()` the id as stored ids decode, `label()` the label's name. A
missing vertex yields nothing. Whenever the access cannot answer exactly (`point_vertex`
returns None, or the access is a wrapper such as SubgraphStrategy's filtered view, whose
class does not define the method), the original steps run unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import orjson

from gremlin_engine.access import GraphAccess, PointAccess, offers_point
from gremlin_engine.structure.values import entry_value
from gremlin_engine.traversal.executor import CompiledTraversal, execute
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.traverser import Context, Traverser


class PointStep(Step):
    """`V(id)` followed by one of `values(keys)`, `id()`, `label()`, fused (see module)."""

    name = "point"

    def __init__(self, source: GraphStep, tail: Step, mode: str, keys: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.source = source  # kept whole: its id is a cache slot, and the fallback runs it
        self.tail = tail
        self.mode = mode  # "values", "id" or "label"
        self.keys = keys
        self.is_start = True

    #: the attribute holding the step whose values a prepared run binds (`prepared.BoundAnswer`)
    answer_source = "source"
    #: `answer` runs one statement (`point_vertex`: one `find`) and gives plain values
    reads_once = True

    def answer(self, access: GraphAccess, source: GraphStep | None = None, cancel: Any = None) -> list[Any] | None:
        """Every result of this step, or None when the access cannot answer exactly (see
        module) and the original steps must run. The executor asks this directly when the
        step is the whole traversal (`traversal.run_compiled`): no traverser is made.
        `source` stands for `self.source` (a prepared run's bound copy of it)."""
        if not offers_point(access):
            return None
        found = access.point_vertex((source or self.source).ids[0])  # type: ignore[index]
        if not found:
            return None if found is None else []
        mode = self.mode
        if mode == "id":
            return [found[0]]
        if mode == "label":
            return [found[1]]
        return _values(found[2], self.keys)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        ctx.check()
        found = self.answer(ctx.access)
        if found is None:
            yield from execute(CompiledTraversal([self.source, self.tail]), it, ctx)
            return
        new = ctx.new_traverser
        for value in found:
            yield new(value)

    def __repr__(self) -> str:
        return f"point({self.source!r}.{self.tail!r})"


_ABSENT: Any = object()


def _values(raw: Any, keys: tuple[str, ...]) -> list[Any]:
    """Every value of `keys` (all keys when empty) in the row's key order."""
    if not raw:
        return []
    doc = orjson.loads(raw)
    if len(keys) == 1:  # `values(key)`, the usual read: that member alone
        entry = doc.get(keys[0], _ABSENT)
        if entry is _ABSENT:
            return []
        if type(entry) is str:
            return [entry]
        return [entry_value(e) for e in entry] if type(entry) is list else [entry_value(entry)]
    out: list[Any] = []
    for key, entry in doc.items():
        if keys and key not in keys:
            continue
        if type(entry) is list:
            out.extend(entry_value(e) for e in entry)
        else:
            out.append(entry_value(entry))
    return out


class _FusedIdsStep(Step):
    """A fused root that yields a list of ids the access answers in one statement, or runs
    its original steps when the access declines (None) or is a wrapper (see module)."""

    #: the access method that answers, looked up on the access's class (wrappers forward
    #: unknown attributes, so an instance lookup would reach past a filtered view)
    fast_method = ""

    def __init__(self, source: GraphStep, tail: Step) -> None:
        super().__init__()
        self.source = source  # kept whole: its ids/values are cache slots, and the fallback runs it
        self.tail = tail
        self.is_start = True

    def fallback_steps(self) -> list[Step]:
        return [self.source, self.tail]

    #: see `PointStep.answer_source`
    answer_source = "source"

    def ask(self, access: PointAccess, source: GraphStep) -> list[Any] | None:
        raise NotImplementedError

    def answer(self, access: GraphAccess, source: GraphStep | None = None, cancel: Any = None) -> list[Any] | None:
        """Every result of this step (see `PointStep.answer`), or None to run the
        original steps."""
        # the fast method looked up on the access's class: a filtering view offers none
        # (`access.offers_point`), and this one is a `PointAccess` method
        if getattr(type(access), self.fast_method, None) is None:
            return None
        return self.ask(cast(PointAccess, access), source or self.source)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        ctx.check()
        found = self.answer(ctx.access)
        if found is None:
            yield from execute(CompiledTraversal(self.fallback_steps()), it, ctx)
            return
        new = ctx.new_traverser
        for n, ident in enumerate(found):
            if n % 64 == 63:
                ctx.check()
            yield new(ident)


class HopIdsStep(_FusedIdsStep):
    """`V(id)`, one `out/in/both(labels)` and `id()`, fused (see module)."""

    name = "hopIds"
    fast_method = "point_neighbour_ids"
    #: one adjacency statement, ids out
    reads_once = True

    def __init__(self, source: GraphStep, hop: Any, tail: Step) -> None:
        super().__init__(source, tail)
        self.hop = hop

    def fallback_steps(self) -> list[Step]:
        return [self.source, self.hop, self.tail]

    def ask(self, access: PointAccess, source: GraphStep) -> list[Any] | None:
        hop = self.hop
        return access.point_neighbour_ids(source.ids[0], hop.direction, hop.edge_labels)  # type: ignore[index]

    def __repr__(self) -> str:
        return f"hopIds({self.source!r}.{self.hop!r}.{self.tail!r})"


class IndexIdsStep(_FusedIdsStep):
    """A root `V()` with folded labels and property conditions, and `id()`, fused (see
    module)."""

    name = "indexIds"
    fast_method = "point_index_ids"
    #: one statement for one index and one value; the access declines any other lookup
    #: before its first statement when its transaction runs one (`StoreAccess.one_statement`)
    reads_once = True

    def ask(self, access: PointAccess, source: GraphStep) -> list[Any] | None:
        return access.point_index_ids(source.label_filter, tuple(source.conditions))

    def __repr__(self) -> str:
        return f"indexIds({self.source!r}.{self.tail!r})"
