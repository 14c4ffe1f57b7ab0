"""The traverser requests' direct plan at the engine level: which IRs get one
(`traversal.direct_plan`), where it runs (`Graph.traverse` on strict graphs,
`direct_algorithms.traverse` on any), and that it answers, fails, stops and cancels as the
session pipeline does (`direct.ENABLED = False`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine import traversal as engine
from gremlin_engine.algorithms.budget import OverBudget, bounded
from gremlin_engine.errors import HugeliteError, TraversalCancelled, TraversalTimeout
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import direct_algorithms
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from tests.algorithms.conftest import load_edges, through_pipeline

EDGES = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (1, 4), (4, 5), (0, 0)]
SCHEMA = (
    ("propertykey", {"name": "weight", "data_type": "DOUBLE", "cardinality": "SINGLE"}),
    ("vertexlabel", {"name": "v", "id_strategy": "CUSTOMIZE_NUMBER"}),
    ("edgelabel", {"name": "e", "source_label": "v", "target_label": "v", "properties": ["weight"]}),
)


def ir_of(step: str, *reqs: Any, tail: tuple[Instruction, ...] = ()) -> TraversalIR:
    return TraversalIR((), (Instruction("inject", reqs), Instruction(step, ()), *tail))


@pytest.fixture(params=["strict", "auto", "strategies-none"])
def graph(request: Any, tmp_path: Path) -> Iterator[Graph]:
    mode = "auto" if request.param == "auto" else "strict"
    extra = {"gremlin.strategies": "none"} if request.param == "strategies-none" else {}
    store = str(tmp_path / "g.db")
    GraphRegistry.init_store(GraphConfig(name="g", backend="sqlite", store=store, schema_mode=mode))
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    g = reg.open(GraphConfig(name="g", backend="sqlite", store=store, schema_mode=mode, extra=extra))
    if mode == "strict":
        for kind, body in SCHEMA:
            g.schema.create(kind, body)
    load_edges(g, 6, EDGES, weights={e: 0.25 * (1 + i % 3) for i, e in enumerate(EDGES)})
    try:
        yield g
    finally:
        reg.close_all()


_pipeline = through_pipeline


def _plain(result: list[Any]) -> Any:
    out = dict(result[0])
    measure = out.get("measure")
    if isinstance(measure, dict):
        out["measure"] = {k: v for k, v in measure.items() if k != "cost(ns)"}
    return out


def test_the_shapes_that_get_a_plan() -> None:
    found = engine.direct_plan(ir_of("hg_kout", {"source": 1, "max_depth": 1}))
    assert found is not None
    plan, values = found
    assert (plan.kind, plan.algorithm.name, plan.snapshot) == ("algorithm", "hg_kout", True)
    assert values == [{"source": 1, "max_depth": 1}]
    again = engine.direct_plan(ir_of("hg_kout", {"source": 2, "max_depth": 2, "label": "x"}))
    assert again is not None and again[0] is plan  # one cached template for every request
    assert engine.direct_plan(ir_of("hg_shortestpath", {"source": 1}))[0].algorithm.name == "hg_shortestpath"  # type: ignore[index]
    # not a request shape: two maps, a step after the algorithm, a non-map, a plain step
    assert engine.direct_plan(ir_of("hg_kout", {"source": 1}, {"source": 2})) is None
    assert engine.direct_plan(ir_of("hg_kout", {"source": 1}, tail=(Instruction("count", ()),))) is None
    assert engine.direct_plan(ir_of("hg_kout", [1])) is None
    assert engine.direct_plan(TraversalIR((), (Instruction("inject", ({"a": 1},)), Instruction("select", ("a",))))) is None


REQUESTS = [
    ("hg_kout", {"source": Long(0), "max_depth": 1}),
    ("hg_kout", {"source": Long(0), "max_depth": 2, "direction": "OUT", "count_only": True}),
    ("hg_kneighbor", {"source": Long(1), "max_depth": 2, "limit": 3}),
    ("hg_kout", {"source": Long(0), "max_depth": 2, "steps": {"direction": "OUT"}, "with_path": True,
                 "with_vertex": True, "with_edge": True}),
    ("hg_kneighbor", {"source": Long(0), "max_depth": 2, "with_vertex": True,
                      "steps": {"direction": "BOTH", "edge_steps": [{"label": "e", "properties": {"weight": "P.gt(0.1)"}}]}}),
    ("hg_shortestpath", {"source": Long(0), "target": Long(5), "max_depth": 5}),
    ("hg_count", {"source": Long(0), "steps": [{"direction": "OUT"}, {"direction": "OUT"}]}),
]


@pytest.mark.parametrize(("step", "req"), REQUESTS)
def test_answers_alike(graph: Graph, runs: list[str], monkeypatch: pytest.MonkeyPatch, step: str,
                       req: dict[str, Any]) -> None:
    fast = direct_algorithms.traverse(graph, ir_of(step, req))
    assert runs == ([] if graph.config.extra else [step])
    slow = _pipeline(monkeypatch, lambda: graph.traverse(ir_of(step, req)))
    assert _plain(fast) == _plain(slow)
    for v in fast[0].get("vertices", []):
        if isinstance(v, Vertex):
            assert v.loaded  # loaded before the read ended, as the pipeline leaves them


def test_graph_traverse_takes_it_on_strict_graphs_only(graph: Graph, runs: list[str]) -> None:
    """`Graph.traverse` (Gremlin bytecode) reaches it through `direct.run`, which keeps
    every direct plan off auto-mode graphs; the REST handlers' `traverse` does not."""
    out = graph.traverse(ir_of("hg_kout", {"source": Long(0), "max_depth": 1}))
    assert sorted(out[0]["vertices"]) == [1, 2]
    strict = graph.config.schema_mode == "strict" and not graph.config.extra
    assert runs == (["hg_kout"] if strict else [])


def _error(fn: Any) -> tuple[type, str]:
    with pytest.raises(HugeliteError) as info:
        fn()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(("step", "req"), [
    ("hg_kout", {"source": Long(99), "max_depth": 1}),
    ("hg_kout", {"source": Long(0), "max_depth": 3, "capacity": 2, "limit": 1, "direction": "OUT"}),
    ("hg_kout", {"source": Long(0), "max_depth": 0}),
    ("hg_kneighbor", {"source": Long(0), "max_depth": 1, "label": "nolabel"}),
    ("hg_kout", {"max_depth": 1}),
])
def test_errors_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str, req: dict[str, Any]) -> None:
    if "label" in req and graph.config.schema_mode == "auto":
        pytest.skip("auto mode knows no label in advance")
    fast = _error(lambda: direct_algorithms.traverse(graph, ir_of(step, req)))
    slow = _error(lambda: _pipeline(monkeypatch, lambda: graph.traverse(ir_of(step, req))))
    assert fast == slow


def test_over_budget_alike(graph: Graph, runs: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    req = {"source": Long(0), "max_depth": 2, "direction": "OUT", "max_degree": -1}
    with bounded(2), pytest.raises(OverBudget):
        direct_algorithms.traverse(graph, ir_of("hg_kout", req))
    with bounded(2), pytest.raises(OverBudget):
        _pipeline(monkeypatch, lambda: graph.traverse(ir_of("hg_kout", req)))
    with bounded(100):  # within it: both answer
        fast = direct_algorithms.traverse(graph, ir_of("hg_kout", req))
    with bounded(100):
        slow = _pipeline(monkeypatch, lambda: graph.traverse(ir_of("hg_kout", req)))
    assert _plain(fast) == _plain(slow)
    assert sorted(fast[0]["vertices"]) == [3, 4]


def test_cancel_and_timeout_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    req = {"source": Long(0), "max_depth": 2}
    token = CancelToken()
    token.cancel()
    for call in (lambda: direct_algorithms.traverse(graph, ir_of("hg_kout", req), cancel=token),
                 lambda: _pipeline(monkeypatch, lambda: graph.traverse(ir_of("hg_kout", req), cancel=token))):
        with pytest.raises(TraversalCancelled):
            call()
    for call in (lambda: direct_algorithms.traverse(graph, ir_of("hg_kout", req), timeout_ms=1e-6),
                 lambda: _pipeline(monkeypatch, lambda: graph.traverse(ir_of("hg_kout", req), timeout_ms=1e-6))):
        with pytest.raises(TraversalTimeout):
            call()


class _CancelOnCheck(CancelToken):
    """Cancelled from the walker's first check on (a request cancelled mid-run)."""

    __slots__ = ("checks",)

    def __init__(self) -> None:
        super().__init__(None)
        self.checks = 0

    def check(self) -> None:
        self.checks += 1
        if self.checks > 1:
            self.cancel()
        super().check()


def test_a_cancel_during_the_walk_stops_it(graph: Graph) -> None:
    if graph.config.extra:
        pytest.skip("no direct plan there")
    token = _CancelOnCheck()
    with pytest.raises(TraversalCancelled):
        direct_algorithms.traverse(graph, ir_of("hg_kout", {"source": Long(0), "max_depth": 3}), cancel=token)
    assert token.checks >= 2  # the walker's own check stopped it, not the one before the read
