"""`direct_algorithms`' shortcuts around a traverser request's direct plan: the per-step-name
plan memo (`_plan`) gives exactly `traversal.direct_plan`'s answer, and `_plain` tells a
result map with no element in it (no `load_results` walk) from one holding elements."""

from __future__ import annotations

from gremlin_engine import traversal as engine
from gremlin_engine.runtime import direct_algorithms
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR


def ir_of(step: str, *args: object, tail: tuple[Instruction, ...] = ()) -> TraversalIR:
    return TraversalIR((), (Instruction("inject", args), Instruction(step, ()), *tail))


def test_the_memo_answers_as_direct_plan() -> None:
    for req in ({"source": Long(1), "max_depth": 1}, {"source": "x", "max_depth": 3, "label": "knows"}):
        ir = ir_of("hg_kneighbor", req)
        want = engine.direct_plan(ir)
        first, second = direct_algorithms._plan(ir), direct_algorithms._plan(ir)
        assert want is not None and first is not None and second is not None
        assert first[0] is want[0] and second[0] is want[0]
        assert first[1] == second[1] == [req]
        assert second[1][0] is req  # the request map itself is the slot value
    assert direct_algorithms._PLANS["hg_kneighbor"] is want[0]


def test_other_shapes_go_to_direct_plan() -> None:
    # two maps, a non-map, a step after the algorithm: no plan, memo or not
    assert direct_algorithms._plan(ir_of("hg_kout", {"source": 1}, {"source": 2})) is None
    assert direct_algorithms._plan(ir_of("hg_kout", [1])) is None
    assert direct_algorithms._plan(ir_of("hg_kout", {"source": 1}, tail=(Instruction("count", ()),))) is None
    # an unknown step: direct_plan finds nothing, and the memo keeps nothing for it
    assert direct_algorithms._plan(ir_of("hg_nosuchstep", {"source": 1})) is None
    assert "hg_nosuchstep" not in direct_algorithms._PLANS
    # a plain step after inject(map): not an algorithm, never memoised
    ir = TraversalIR((), (Instruction("inject", ({"a": 1},)), Instruction("unfold", ())))
    assert direct_algorithms._plan(ir) == engine.direct_plan(ir)
    assert "unfold" not in direct_algorithms._PLANS


def test_plain_results() -> None:
    v = Vertex(Long(1), "person", 1)
    assert direct_algorithms._plain({"vertices_size": 3, "measure": {"edge_iterations": 1, "cost(ns)": 9}})
    assert direct_algorithms._plain({"size": 0.5, "name": None, "ok": True, "measure": {}})
    assert not direct_algorithms._plain({"path": []})  # any list: left to the general walk
    assert not direct_algorithms._plain({"vertices": [Long(1), Long(2)]})  # a list: the general walk decides
    assert not direct_algorithms._plain({"vertex": v})
    assert not direct_algorithms._plain({"measure": {"x": v}})
    assert not direct_algorithms._plain([{"a": 1}])
