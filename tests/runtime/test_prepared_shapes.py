"""The prepared-traversal cache's IR door (traversal/prepared.py): ids, has() values and
traverser request maps are slots (traversal/slot_binder.py).

Every test checks answers, and that a shape compiled once serves other literals."""

from __future__ import annotations

import uuid
from typing import Any

from gremlin_engine import traversal as engine
from gremlin_engine.graph import Graph
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal import slot_binder as slots
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.prepared import REFUSED, Prepared, PreparedCache, ir_shape
from tests.runtime.conftest import in_threads
from tests.traversal.gremlin import __, g
from tests.traversal.memory_access import modern
from tests.traversal.memory_access import modern as memory_modern

#: the cache of the memory graphs below (a registry's graphs use the registry's)
CACHE = PreparedCache()


def _entry(ir: TraversalIR, cache: PreparedCache = CACHE) -> Any:
    return cache.get((True, ir_shape(ir, [])))


def test_point_lookups_share_one_template_and_bind_each_id() -> None:
    graph = modern()
    names = {1: "marko", 2: "vadas", 3: "lop", 4: "josh", 99: None}
    for _ in range(2):
        for vid, name in names.items():
            ir = TraversalIR().then("V", vid).then("values", "name")
            assert list(engine.run(ir, graph, cache=CACHE)) == ([name] if name else [])
    entry = _entry(TraversalIR().then("V", 12345).then("values", "name"))
    assert isinstance(entry, Prepared) and entry.bind is not None
    # the template keeps its markers: binding never writes into it
    step = entry.traversal.steps[0]  # the fused point step keeps its V() whole
    assert getattr(step, "source", step).ids == [slots.marker(1, 0)]


def test_bound_copies_are_distinct_objects_and_carry_the_values() -> None:
    ir1 = TraversalIR().then("V", 1, 4).then("out", "knows")
    ir2 = TraversalIR().then("V", 2, 6).then("out", "knows")
    t1, t2 = CACHE.compiled(ir1, True), CACHE.compiled(ir2, True)
    assert t1 is not t2 and t1.steps[0] is not t2.steps[0]
    assert t1.steps[0].ids == [1, 4] and t2.steps[0].ids == [2, 6]
    assert t1.steps[1] is t2.steps[1]  # steps without slots stay shared
    assert repr(t1) == "g.V(1, 4).out('knows')"


def test_has_values_are_slots() -> None:
    graph = modern()
    for _ in range(2):
        for name, age in (("marko", 29), ("josh", 32), ("nobody", None)):
            got = list(engine.run(g.V().has("person", "name", name).values("age").ir, graph, cache=CACHE))
            assert got == ([age] if age else [])
            got = list(engine.run(g.V().has("name", name).out("created").values("name").ir, graph, cache=CACHE))
            assert sorted(got) == {"marko": ["lop"], "josh": ["lop", "ripple"], "nobody": []}[name]
    assert list(engine.run(g.V().has("age", 29).values("name").ir, graph, cache=CACHE)) == ["marko"]
    assert list(engine.run(g.V().has("age", 32).values("name").ir, graph, cache=CACHE)) == ["josh"]


def test_nested_has_values_are_slots_too() -> None:
    graph = modern()
    for name, want in (("josh", ["marko"]), ("vadas", ["marko"]), ("lop", [])):
        ir = g.V().filter(__.out("knows").has("name", name)).values("name").ir
        assert list(engine.run(ir, graph, cache=CACHE)) == want


def test_slot_types_never_share_a_template() -> None:
    """1, 1L, 1i, '1' and a 64-bit int are different shapes: a value keeps its type."""
    keys = set()
    for value in (1, Long(1), Int(1), "1", 2**40, uuid.UUID(int=1)):
        ir = TraversalIR().then("inject", 0).then("V", value)
        keys.add(ir_shape(TraversalIR().then("V", value), []))
        assert CACHE.compiled(ir, True) is CACHE.compiled(ir, True)  # not a slot: mid-traversal V
    assert len(keys) == 6
    graph = modern()
    assert list(engine.run(TraversalIR().then("V", 2**40).then("id"), graph, cache=CACHE)) == []
    assert list(engine.run(TraversalIR().then("V", 4).then("id"), graph, cache=CACHE)) == [4]


def test_values_that_are_not_slots_key_the_cache_literally() -> None:
    graph = modern()
    for ids, want in (([1, 2], ["marko", "vadas"]), ([4], ["josh"])):
        ir = TraversalIR().then("V", ids).then("values", "name")  # a list: no slot, no cache
        assert list(engine.run(ir, graph, cache=CACHE)) == want
        assert list(engine.run(ir, graph, cache=CACHE)) == want
    for p_age, want in ((30, ["josh", "peter"]), (33, ["peter"])):
        from gremlin_engine.traversal.predicates import P

        ir = g.V().has("age", P("gt", p_age)).values("name").ir
        assert list(engine.run(ir, graph, cache=CACHE)) == want
        assert CACHE.compiled(ir, True) is CACHE.compiled(ir, True)


def test_a_marker_lookalike_in_the_ir_refuses_the_shape_but_answers_right() -> None:
    graph = modern()
    lookalike = slots.marker("x", 0)
    ir = g.V().has("name", "marko").as_(lookalike).select(lookalike).values("age").ir
    assert list(engine.run(ir, graph, cache=CACHE)) == [29]
    assert _entry(ir) is REFUSED
    ir2 = g.V().has("name", "josh").as_(lookalike).select(lookalike).values("age").ir
    assert list(engine.run(ir2, graph, cache=CACHE)) == [32]


def test_compile_errors_still_raise_for_slotted_shapes() -> None:
    import pytest

    from gremlin_engine.errors import HugeliteError

    with pytest.raises(HugeliteError):
        list(engine.run(TraversalIR().then("V", 1).then("noSuchStep", 2), modern(), cache=CACHE))


def test_one_shape_serves_many_threads_with_different_ids() -> None:
    graph = modern()
    names = {1: "marko", 2: "vadas", 3: "lop", 4: "josh", 5: "ripple", 6: "peter"}
    errors: list[str] = []

    def work(offset: int) -> None:
        for n in range(300):
            vid = (n + offset) % 6 + 1
            got = list(engine.run(TraversalIR().then("V", vid).then("values", "name"), graph, cache=CACHE))
            if got != [names[vid]]:
                errors.append(f"{vid}: {got}")

    in_threads(work, 4)
    assert errors == []


# ---- request maps: inject(<map>).hg_<algorithm>() (the REST traversers) -------------------


def _algorithm(step: str, req: object) -> TraversalIR:
    from gremlin_engine.traversal.ir import Instruction

    return TraversalIR((), (Instruction("inject", (req,)), Instruction(step, ())))


def test_traverser_requests_share_one_template_per_algorithm(modern: Graph) -> None:
    graph = modern  # the runtime conftest's modern graph (memory and file stores)
    cases = [
        ({"source": "1:marko", "max_depth": 1, "direction": "OUT", "label": "knows"}, ["1:vadas", "1:josh"]),
        ({"source": "1:josh", "max_depth": 1, "direction": "OUT"}, ["2:lop", "2:ripple"]),
        ({"source": "1:marko", "max_depth": 2, "direction": "OUT"}, ["2:ripple"]),
        ({"source": "1:peter", "max_depth": 1, "direction": "IN"}, []),
    ]
    for _ in range(2):
        for req, want in cases:
            got = graph.traverse(_algorithm("hg_kout", req))
            assert len(got) == 1 and sorted(got[0]["vertices"]) == sorted(want)
    cache = graph.registry.prepared  # type: ignore[union-attr]
    entry = _entry(_algorithm("hg_kout", {"source": "1:x"}), cache)
    assert isinstance(entry, Prepared) and entry.bind is not None
    held = entry.traversal.steps[0].args[0]
    assert held == {slots.marker({}, 0).popitem()[0]: None}  # the template keeps its marker
    got = graph.traverse(_algorithm("hg_kneighbor", {"source": "1:vadas", "max_depth": 1, "direction": "BOTH"}))
    assert sorted(got[0]["vertices"]) == ["1:marko", "1:vadas"]
    assert isinstance(_entry(_algorithm("hg_kneighbor", {}), cache), Prepared)
    assert _entry(_algorithm("hg_kneighbor", {}), cache) is not entry


def test_a_bound_traversal_holds_the_callers_map_itself() -> None:
    req1, req2 = {"source": 1, "max_depth": 1}, {"source": 2, "max_depth": 3, "label": "x"}
    t1, t2 = CACHE.compiled(_algorithm("hg_kout", req1), True), CACHE.compiled(_algorithm("hg_kout", req2), True)
    assert t1.steps[0].args[0] is req1 and t2.steps[0].args[0] is req2
    assert t1.steps[1] is t2.steps[1]  # the algorithm step has no slot: shared
    assert repr(t2) == "g.inject({'source': 2, 'max_depth': 3, 'label': 'x'}).hg_kout()"


def test_engine_errors_of_a_slotted_request_are_the_requests_own(modern: Graph) -> None:
    import pytest

    from gremlin_engine.errors import IllegalArgument

    graph = modern
    for depth in (0, -2):
        with pytest.raises(IllegalArgument, match=f"max_depth parameter must be > 0, but got {depth}"):
            graph.traverse(_algorithm("hg_kout", {"source": "1:marko", "max_depth": depth}))
    got = graph.traverse(_algorithm("hg_kout", {"source": "1:marko", "max_depth": 1, "label": "created"}))
    assert got[0]["vertices"] == ["2:lop"]


def test_maps_outside_the_request_shape_are_never_slots() -> None:
    """Two maps, a map under a later step, a dict mid-traversal, a dict as an id or a has()
    value: no slot, no shared template (a dict is not a cache key)."""
    from gremlin_engine.traversal.ir import Instruction

    req = {"source": 1}
    shapes = [
        TraversalIR((), (Instruction("inject", (req, {"source": 2})), Instruction("hg_kout", ()))),
        TraversalIR((), (Instruction("inject", (req,)), Instruction("hg_kout", ()), Instruction("count", ()))),
        TraversalIR((), (Instruction("inject", (req,)), Instruction("select", ("source",)))),
        TraversalIR((), (Instruction("V", (req,)), Instruction("id", ()))),
        TraversalIR((), (Instruction("inject", (1,)), Instruction("V", ()), Instruction("has", ("name", req)))),
        TraversalIR((), (Instruction("inject", (0,)), Instruction("inject", (req,)), Instruction("hg_kout", ()))),
    ]
    for ir in shapes:
        assert all(slots.slot_kind(ir, i, ins.name, ins.args) is None for i, ins in enumerate(ir.steps)), ir
        assert CACHE.compiled(ir, True) is not CACHE.compiled(ir, True)
    bad = TraversalIR((), (Instruction("inject", (req,)), Instruction("hg_kout", (1,))))
    assert slots.slot_kind(bad, 0, "inject", (req,)) is None
    graph = memory_modern()
    ir = TraversalIR((), (Instruction("inject", ({"a": 1}, {"a": 2})), Instruction("select", ("a",))))
    assert list(engine.run(ir, graph, cache=CACHE)) == [1, 2]


def test_a_copied_request_map_refuses_the_shape() -> None:
    """The marker is found by identity: a copy of it in the steps (made by a step or a
    strategy) is text derived from a slot, and the shape is refused."""
    import pytest

    from gremlin_engine.traversal.executor import CompiledTraversal
    from gremlin_engine.traversal.steps.source import InjectStep

    mark = slots.marker({"source": 1}, 0)
    same = InjectStep(mark)
    assert slots.make_plan(CompiledTraversal([same]), [mark]) is not None
    copied = InjectStep(dict(mark))
    with pytest.raises(slots.Unslottable):
        slots.make_plan(CompiledTraversal([copied]), [mark])


def test_many_threads_run_different_requests_on_one_template(modern: Graph) -> None:
    graph = modern
    want = {"1:marko": ["1:josh", "1:vadas", "2:lop"], "1:josh": ["2:lop", "2:ripple"], "1:peter": ["2:lop"],
            "1:vadas": []}
    errors: list[str] = []

    def work(offset: int) -> None:
        names = sorted(want)
        for n in range(60):
            src = names[(n + offset) % len(names)]
            got = graph.traverse(_algorithm("hg_kout", {"source": src, "max_depth": 1, "direction": "OUT"}))
            if sorted(got[0]["vertices"]) != want[src]:
                errors.append(f"{src}: {got}")

    in_threads(work, 4)
    assert errors == []
