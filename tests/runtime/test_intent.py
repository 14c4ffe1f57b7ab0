"""Read or write decided up front: the HugeGraph write steps open a writer at once."""

from __future__ import annotations

from gremlin_engine.runtime import intent
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.registry import REGISTRY
from gremlin_engine.traversal.steps import hugegraph


def _ir(*steps: tuple[object, ...], anonymous: bool = False) -> TraversalIR:
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps), anonymous)  # type: ignore[arg-type]


def test_declared_mutating_steps_are_writers() -> None:
    declared = {n for n, spec in REGISTRY.items() if getattr(spec.factory, "mutating", False)}
    assert {"hgAddVertices", "hgAddEdges", "hgUpsert", "hgAppend", "hgEliminate"} <= declared
    assert declared <= intent.MUTATING
    assert hugegraph.MUTATING <= intent.MUTATING


def test_rest_write_traversals_are_writers() -> None:
    item = {"label": "person", "properties": {"name": "a"}}
    assert intent.ir_may_write(_ir(("inject", item, item), ("hgAddVertices",), ("id",)))
    assert intent.ir_may_write(_ir(("V", "1:a"), ("hgAppend", {"age": 1}, None)))
    assert intent.ir_may_write(_ir(("V",), ("sideEffect", _ir(("drop",), anonymous=True)), ("count",)))
    assert not intent.ir_may_write(_ir(("V", "1:a"), ("hgPage", None, 10)))


def test_inject_data_is_not_scanned() -> None:
    """inject() arguments are values: a traversal among them is data, never run."""
    assert not intent.ir_may_write(_ir(("inject", {"x": _ir(("addV",), anonymous=True)}), ("count",)))
    assert intent.ir_may_write(_ir(("V",), ("map", [_ir(("addV",), anonymous=True)])))


def test_remembered_answers_match_the_scan() -> None:
    """The prepared-traversal cache keeps the scan's answer per text and per shape: first
    call and later ones (other slot values) give the scan's answer."""
    from gremlin_engine.runtime import intent
    from gremlin_engine.syntax import parse
    from gremlin_engine.traversal.ir import TraversalIR
    from gremlin_engine.traversal.prepared import PreparedCache

    cache = PreparedCache()
    for text, expected in (("g.V(1).values('name')", False), ("g.addV('person')", True)):
        tree = parse(text)
        for _ in range(2):
            assert cache.remembered(("writes", text), lambda t=tree: intent.script_may_write(t)) is expected
    for _ in range(2):
        for vid in (1, 2):
            read = TraversalIR().then("V", vid).then("out", "knows")
            write = TraversalIR().then("V", vid).then("drop")
            assert cache.prepare(read, True, intent.ir_may_write)[1] is False
            assert cache.prepare(write, True, intent.ir_may_write)[1] is True
    unhashable = TraversalIR().then("V", [1, 2]).then("drop")
    assert cache.prepare(unhashable, True, intent.ir_may_write)[1] is True
