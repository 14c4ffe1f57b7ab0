"""A whole element by id: `V(id)` alone as one fused step that reads once.

Why: a REST `GET .../vertices/{id}` (and a Gremlin `g.V(id)`) is the general `VStep`, whose
`answer` gives the vertex unloaded; its properties are filled afterwards (`load_results`)
inside a normal read transaction (BEGIN, the statement, ROLLBACK). A vertex row holds the
id, the label and every property, so one `find` answers it whole. `PointElementStep`
reads the vertex through the access's own `vertices` call (the element cache, the id rules,
the `Vertex` built as the general path builds it) and fills its properties from the row it
already read, so its answer is the general path's, element for element, and it is marked
`reads_once`: the session may run it in a single-statement read of its own
(`Session.answer_once`: no BEGIN/ROLLBACK, one round trip on PostgreSQL).

It reads that way only on the plain store access (`offers_point`: the class that answers the
other fused point reads). Any other access, a permission view (a principal who is not the
administrator) or SubgraphStrategy's filtered view, gets exactly the general `V(id)`: the
view's own `vertices` (which hides or, for a strict single-element read, refuses what the
principal may not read), with the properties loaded afterwards as usual.

`E(id)` is not fused: an edge's answer needs its end vertices' labels, a second statement
(`runtime/loader.py` `_edges_from_rows`), so it could not be marked `reads_once`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gremlin_engine.access import GraphAccess, offers_point
from gremlin_engine.traversal.executor import CompiledTraversal, execute
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.source import GraphStep
from gremlin_engine.traversal.traverser import Context, Traverser


class PointElementStep(Step):
    """`V(id)` with one id and nothing folded into it, as the whole traversal (see module)."""

    name = "pointElement"

    #: the attribute holding the step whose values a prepared run binds (`prepared.BoundAnswer`)
    answer_source = "source"
    #: on the plain store access `answer` runs one statement (one `find`, no other read:
    #: the properties come from that row)
    reads_once = True

    def __init__(self, source: GraphStep) -> None:
        super().__init__()
        self.source = source  # kept whole: its id is a cache slot, and other accesses run it
        self.is_start = True

    def answer(self, access: GraphAccess, source: GraphStep | None = None, cancel: Any = None) -> list[Any] | None:
        """The element(s) of `V(id)`, loaded on the plain store access, else as the general
        step gives them (`GraphStep.answer`). `source` stands for `self.source` (a prepared
        run's bound copy of it)."""
        src = source or self.source
        found = src.answer(access, src, cancel)
        if found and offers_point(access):
            access.load(found)  # from the row `vertices` just read: no statement
        return found

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        ctx.check()
        found = self.answer(ctx.access)
        if found is None:
            yield from execute(CompiledTraversal([self.source]), it, ctx)
            return
        new = ctx.new_traverser
        for element in found:
            yield new(element)

    def __repr__(self) -> str:
        return f"pointElement({self.source!r})"
