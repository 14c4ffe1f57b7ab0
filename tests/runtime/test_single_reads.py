"""Single-statement reads at the doors (`Session.answer_once`, `store.read(ctx, single=True)`).

A read-only call whose traversal is one fused step that reads once (a point lookup, a 1-hop
id listing, a walk count from one id) is answered inside a single-statement read of its own;
everything else runs in a normal read transaction. What must hold: the answers are the
general path's, the request's context still reaches the storage transaction, a step that
declines never has the general path run on the single-statement transaction, a schema
change meanwhile cannot become a second statement, and cancel and timeout still stop it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from gremlin_engine import traversal as engine
from gremlin_engine.auth.principal import Principal
from gremlin_engine.context import GREMLIN_HTTP, ExecutionContext
from gremlin_engine.errors import TraversalCancelled
from gremlin_engine.graph import Graph
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.runtime.api import _SingleGraph
from gremlin_engine.runtime.session import Session, begin
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.base import Step
from tests.runtime.conftest import vertex_id


@contextmanager
def opened(graph: Graph) -> Iterator[list[tuple[Any, bool]]]:
    """Records (the transaction's context, whether it was a single-statement read) of every
    read transaction `graph`'s store opens while the block runs. The store's own `read`
    does the work: this only watches what the engine asked of it."""
    store = graph.store
    real = store.read
    seen: list[tuple[Any, bool]] = []

    def read(ctx: object = None, *, single: bool = False) -> Any:
        seen.append((ctx, single))
        return real(ctx, single=single)

    store.read = read  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        del store.read  # type: ignore[method-assign]


def _ir(*steps: tuple[Any, ...]) -> TraversalIR:
    ir = TraversalIR()
    for name, *args in steps:
        ir = ir.then(name, *args)
    return ir


def test_fused_reads_answer_in_one_statement_at_both_doors(modern: Graph) -> None:
    marko = vertex_id(modern, "marko")
    ctx = ExecutionContext(door=GREMLIN_HTTP, timeout_ms=30000)  # the server's own limit: kept as is
    with opened(modern) as seen:
        assert modern.execute("g.V(vid).values('name')", {"vid": marko}, ctx=ctx) == ["marko"]
    assert seen == [(ctx, True)]  # the door's context reached the single-statement read
    cases = [
        (_ir(("V", marko), ("values", "name")), ["marko"]),
        (_ir(("V", marko), ("out", "knows"), ("id",)), [vertex_id(modern, "vadas"), vertex_id(modern, "josh")]),
        (_ir(("V", marko), ("out",), ("out",), ("count",)), [Long(2)]),
    ]
    for ir, want in cases:
        ctx = ExecutionContext(door=GREMLIN_HTTP, timeout_ms=30000)  # the server's own limit: kept as is
        with opened(modern) as seen:
            got = modern.traverse(ir, ctx=ctx)
        assert sorted(map(str, got)) == sorted(map(str, want))
        assert seen == [(ctx, True)]


def _whole(v: Any) -> tuple[Any, ...]:
    """Everything a serializer reads of a vertex: id, label, and every property with its id,
    value and meta-properties, in order."""
    return (type(v), v.id, v.label, [(type(p.id), p.id, p.key, p.value, dict(p.meta or {})) for p in v.properties()])


def test_a_whole_vertex_by_id_is_one_statement_and_the_general_paths_vertex(modern: Graph) -> None:
    marko = vertex_id(modern, "marko")
    modern.execute("g.V(vid).property(list, 'tags', 'a').property(list, 'tags', 'b').property(set, 'nick', 'm')",
                   {"vid": marko})
    with opened(modern) as seen:
        fused = modern.traverse(_ir(("V", marko)))
        missing = modern.traverse(_ir(("V", "no such vertex")))
    assert [single for _ctx, single in seen] == [True, True]
    assert missing == []
    modern.runs_strategies = False  # `gremlin.strategies=none`: the general V(id), then loaded
    try:
        with opened(modern) as seen:
            general = modern.traverse(_ir(("V", marko)))
    finally:
        modern.runs_strategies = True
    assert [single for _ctx, single in seen] == [False]
    assert [_whole(v) for v in fused] == [_whole(v) for v in general]
    assert [p.value for p in fused[0].properties("tags")] == ["a", "b"]


def test_other_reads_keep_a_read_transaction(modern: Graph) -> None:
    marko = vertex_id(modern, "marko")
    edge = modern.execute("g.V(vid).outE('knows').id()", {"vid": marko})[0]
    with opened(modern) as seen:
        # an edge needs its ends' labels (a second statement); a general traversal
        assert [e.id for e in modern.traverse(_ir(("E", edge)))] == [edge]
        modern.execute("g.V(vid).out().values('name')", {"vid": marko})
    assert seen and all(not single for _ctx, single in seen)


def test_a_non_administrator_reads_through_the_permission_view(modern: Graph) -> None:
    ctx = ExecutionContext(Principal("ann", admin=False), GREMLIN_HTTP)
    s = Session(_SingleGraph(modern), False, begin(ctx))
    compiled = modern.prepared.prepare(_ir(("V", vertex_id(modern, "marko")), ("values", "name")), True)[0]  # type: ignore[union-attr]
    assert compiled.reads_once
    assert s.answer_once(modern.name, compiled) is None  # not in one statement: the view decides
    s.close(None)


class _SpendsThenDeclines(Step):
    """A fused step that runs its one statement and then declines, as a point read does when
    the transaction holds the element already; its general path reads again."""

    name = "spendsThenDeclines"
    reads_once = True

    def __init__(self, vid: Any) -> None:
        super().__init__()
        self.vid = vid
        self.general_raw: list[str] = []

    def answer(self, access: Any, source: Any = None, cancel: Any = None) -> list[Any] | None:
        access.point_vertex(self.vid)  # one statement
        return None

    def process(self, it: Any, ctx: Any) -> Iterator[Any]:
        self.general_raw.append(type(ctx.access.tx.raw).__name__)
        first = ctx.access.point_vertex(self.vid)
        second = ctx.access.point_vertex(self.vid)  # a second statement: fine in a read transaction
        yield ctx.new_traverser(first == second)


def test_a_step_declining_after_its_statement_never_runs_the_general_path_there(modern: Graph) -> None:
    step = _SpendsThenDeclines(vertex_id(modern, "marko"))
    compiled = CompiledTraversal([step])
    compiled.answers = compiled.reads_once = True
    session = Session(_SingleGraph(modern), False, begin(None))
    try:
        assert session.answer_once(modern.name, compiled) is None  # declined; its read is over
        assert step.general_raw == []  # and nothing ran on it after the decline
        results = list(engine.run_compiled(compiled, session.access(modern.name), cancel=session.cancel))
    finally:
        session.close(None)
    assert results == [True]
    assert step.general_raw and "OneStatement" not in step.general_raw  # a normal transaction


def test_the_pinned_schema_never_reloads_inside_the_read(modern: Graph) -> None:
    marko = vertex_id(modern, "marko")
    modern.schema.invalidate()  # the next request loads it: before its read opens
    assert modern.execute("g.V(vid).label()", {"vid": marko}) == ["person"]
    schema = modern.schema.pinned()  # as `Session.answer_once` pins it, before the read opens
    with modern.store.read(begin(None), single=True) as tx:
        access = StoreAccess.for_graph(modern, tx, schema)
        modern.schema.invalidate()  # another thread's schema change, while the read is open
        found = access.point_vertex(marko)  # one statement; the label from the pinned schema
    assert access.one_statement
    assert found is not None and found[1] == "person"


def test_cancel_and_timeout_still_stop_a_single_statement_read(modern: Graph) -> None:
    marko = vertex_id(modern, "marko")
    token = CancelToken()
    token.cancel()
    with pytest.raises(TraversalCancelled):
        modern.traverse(_ir(("V", marko), ("values", "name")), cancel=token)
    with pytest.raises(TraversalCancelled):
        modern.execute("g.V(vid).values('name')", {"vid": marko}, cancel=token)
    # and the next request is answered as usual
    assert modern.execute("g.V(vid).values('name')", {"vid": marko}) == ["marko"]


def test_an_index_read_of_one_value_is_one_statement_and_of_more_declines_first(modern: Graph) -> None:
    with opened(modern) as seen:
        one = modern.execute("g.V().has('person', 'city', c).id()", {"c": "Beijing"})
    assert sorted(map(str, one)) == sorted(map(str, [vertex_id(modern, "marko"), vertex_id(modern, "josh")]))
    assert [single for _ctx, single in seen] == [True]
    with opened(modern) as seen:
        many = modern.traverse(_ir(("V",), ("has", "person", "city", P("within", ["Beijing", "Shanghai"])), ("id",)))
    assert len(many) == 3
    # two values would be two statements: declined before the first, then a read transaction
    assert [single for _ctx, single in seen] == [True, False]


def test_an_access_carries_its_graphs_settings_and_only_a_pinned_one_runs_one_statement(modern: Graph) -> None:
    with modern.store.read(begin(None)) as tx:
        plain = StoreAccess.for_graph(modern, tx)
        pinned = StoreAccess.for_graph(modern, tx, modern.schema.pinned())
    assert (plain.one_statement, pinned.one_statement) == (False, True)
    for access in (plain, pinned):
        assert access.graph_name == modern.name
        assert access.strategies is modern.runs_strategies
        assert access.allow_nulls is modern.allows_nulls
        assert access.services == modern.services
