"""The compiled-traversal cache by shape: ids and has() values are slots (traversal/slots.py).

Every test checks answers, and that a shape compiled once serves other literals."""

from __future__ import annotations

import threading
import uuid

from gremlin_engine import traversal as engine
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal import slots
from gremlin_engine.traversal.ir import TraversalIR
from tests.traversal.gremlin import __, g
from tests.traversal.memory_access import modern


def _entry(ir: TraversalIR) -> object:
    return engine._cache[(True, engine._shape_ir(ir, []))]


def test_point_lookups_share_one_template_and_bind_each_id() -> None:
    graph = modern()
    names = {1: "marko", 2: "vadas", 3: "lop", 4: "josh", 99: None}
    for _ in range(2):
        for vid, name in names.items():
            ir = TraversalIR().then("V", vid).then("values", "name")
            assert list(engine.run(ir, graph)) == ([name] if name else [])
    entry = _entry(TraversalIR().then("V", 12345).then("values", "name"))
    assert isinstance(entry, engine._Template)
    # the template keeps its markers: binding never writes into it
    step = entry.traversal.steps[0]  # the fused point step keeps its V() whole
    assert getattr(step, "source", step).ids == [slots.marker(1, 0)]


def test_bound_copies_are_distinct_objects_and_carry_the_values() -> None:
    ir1 = TraversalIR().then("V", 1, 4).then("out", "knows")
    ir2 = TraversalIR().then("V", 2, 6).then("out", "knows")
    t1, t2 = engine._compiled(ir1, True), engine._compiled(ir2, True)
    assert t1 is not t2 and t1.steps[0] is not t2.steps[0]
    assert t1.steps[0].ids == [1, 4] and t2.steps[0].ids == [2, 6]
    assert t1.steps[1] is t2.steps[1]  # steps without slots stay shared
    assert repr(t1) == "g.V(1, 4).out('knows')"


def test_has_values_are_slots() -> None:
    graph = modern()
    for _ in range(2):
        for name, age in (("marko", 29), ("josh", 32), ("nobody", None)):
            got = list(engine.run(g.V().has("person", "name", name).values("age").ir, graph))
            assert got == ([age] if age else [])
            got = list(engine.run(g.V().has("name", name).out("created").values("name").ir, graph))
            assert sorted(got) == {"marko": ["lop"], "josh": ["lop", "ripple"], "nobody": []}[name]
    assert list(engine.run(g.V().has("age", 29).values("name").ir, graph)) == ["marko"]
    assert list(engine.run(g.V().has("age", 32).values("name").ir, graph)) == ["josh"]


def test_nested_has_values_are_slots_too() -> None:
    graph = modern()
    for name, want in (("josh", ["marko"]), ("vadas", ["marko"]), ("lop", [])):
        ir = g.V().filter(__.out("knows").has("name", name)).values("name").ir
        assert list(engine.run(ir, graph)) == want


def test_slot_types_never_share_a_template() -> None:
    """1, 1L, 1i, '1' and a 64-bit int are different shapes: a value keeps its type."""
    keys = set()
    for value in (1, Long(1), Int(1), "1", 2**40, uuid.UUID(int=1)):
        ir = TraversalIR().then("inject", 0).then("V", value)
        keys.add(engine._shape_ir(TraversalIR().then("V", value), []))
        assert engine._compiled(ir, True) is engine._compiled(ir, True)  # not a slot: mid-traversal V
    assert len(keys) == 6
    graph = modern()
    assert list(engine.run(TraversalIR().then("V", 2**40).then("id"), graph)) == []
    assert list(engine.run(TraversalIR().then("V", 4).then("id"), graph)) == [4]


def test_values_that_are_not_slots_key_the_cache_literally() -> None:
    graph = modern()
    for ids, want in (([1, 2], ["marko", "vadas"]), ([4], ["josh"])):
        ir = TraversalIR().then("V", ids).then("values", "name")  # a list: no slot, no cache
        assert list(engine.run(ir, graph)) == want
        assert list(engine.run(ir, graph)) == want
    for p_age, want in ((30, ["josh", "peter"]), (33, ["peter"])):
        from gremlin_engine.traversal.predicates import P

        ir = g.V().has("age", P("gt", p_age)).values("name").ir
        assert list(engine.run(ir, graph)) == want
        assert engine._compiled(ir, True) is engine._compiled(ir, True)


def test_a_marker_lookalike_in_the_ir_refuses_the_shape_but_answers_right() -> None:
    graph = modern()
    lookalike = slots.marker("x", 0)
    ir = g.V().has("name", "marko").as_(lookalike).select(lookalike).values("age").ir
    assert list(engine.run(ir, graph)) == [29]
    assert _entry(ir) is engine._REFUSED
    ir2 = g.V().has("name", "josh").as_(lookalike).select(lookalike).values("age").ir
    assert list(engine.run(ir2, graph)) == [32]


def test_compile_errors_still_raise_for_slotted_shapes() -> None:
    import pytest

    from gremlin_engine.errors import HugeliteError

    with pytest.raises(HugeliteError):
        list(engine.run(TraversalIR().then("V", 1).then("noSuchStep", 2), modern()))


def test_one_shape_serves_many_threads_with_different_ids() -> None:
    graph = modern()
    names = {1: "marko", 2: "vadas", 3: "lop", 4: "josh", 5: "ripple", 6: "peter"}
    errors: list[str] = []

    def work(offset: int) -> None:
        for n in range(300):
            vid = (n + offset) % 6 + 1
            got = list(engine.run(TraversalIR().then("V", vid).then("values", "name"), graph))
            if got != [names[vid]]:
                errors.append(f"{vid}: {got}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
