"""Light GET k-out / k-neighbor requests (`algorithms/light.py`): they answer, count
(`measure`), fail and stop exactly as the session pipeline does (`direct.ENABLED = False`),
on strict and auto-mode graphs; the parameter memo follows schema changes; and the
requests it does not take are left to the step."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.algorithms import light
from gremlin_engine.algorithms.budget import OverBudget, bounded
from gremlin_engine.errors import HugeliteError
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import direct_algorithms
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from storage.read_once import read_once
from tests.algorithms.conftest import file_graph, load_edges, through_pipeline

N = 30
SCHEMA = (
    ("vertexlabel", {"name": "v", "id_strategy": "CUSTOMIZE_NUMBER"}),
    ("edgelabel", {"name": "e", "source_label": "v", "target_label": "v"}),
)


def _edges() -> list[tuple[int, int]]:
    rnd = random.Random(7)
    edges = [(rnd.randrange(N), rnd.randrange(N)) for _ in range(90)]
    return edges + [(0, 0), (0, 1), (0, 1), (3, 0)]  # a self-loop, parallel edges, a way back


def ir_of(step: str, req: dict[str, Any]) -> TraversalIR:
    return TraversalIR((), (Instruction("inject", (req,)), Instruction(step, ())))


@pytest.fixture(params=["strict", "auto"])
def graph(request: Any, tmp_path: Path) -> Iterator[Graph]:
    with file_graph(tmp_path, request.param, SCHEMA) as g:
        load_edges(g, N, _edges())
        yield g


_pipeline = through_pipeline


def _same(result: dict[str, Any]) -> dict[str, Any]:
    """A result map without the clock reading of its `measure` (the counters stay)."""
    out = dict(result)
    out["measure"] = {k: v for k, v in out["measure"].items() if k != "cost(ns)"}
    return out


def _light(graph: Graph, step: str, req: dict[str, Any]) -> Any:
    """`light.answer` itself (SLOW when it does not take the request)."""
    auto = graph.config.schema_mode == "auto"
    return read_once(graph.store, lambda tx: light.answer(
        tx, graph, step, req, CancelToken(), lambda: direct_algorithms._access(tx, graph).schema, auto),
        snapshot=True)


def for_step(step: str, req: dict[str, Any]) -> dict[str, Any]:
    """`req` as `step` takes it: k-out without a capacity bound, k-neighbor without `nearest`
    (a k-out parameter)."""
    req = dict(req)
    if step == "hg_kout":
        req["capacity"] = -1
    else:
        req.pop("nearest", None)
    return req


GRID = [
    dict(zip(("direction", "max_depth", "count_only", "nearest", "limit", "max_degree"), values, strict=True))
    for values in itertools.product(("OUT", "IN", "BOTH"), (1, 2, 3), (True, False), (True, False),
                                    (-1, 4), (-1, 2))
]


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_answers_and_counters_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    for source, params in itertools.product((0, 3, 17), GRID):
        req = for_step(step, {"source": Long(source), "label": "e", **params})
        got = _light(graph, step, dict(req))
        assert got is not light.SLOW, req
        fast = direct_algorithms.traverse(graph, ir_of(step, dict(req)))
        slow = _pipeline(monkeypatch, lambda req=req: graph.traverse(ir_of(step, dict(req))))
        assert [_same(got)] == [_same(x) for x in fast] == [_same(x) for x in slow], req


def test_answers_a_known_graph(graph: Graph) -> None:
    """Vertex 3's k-out depth 1 worked out from the edge list: its targets in adjacency
    order (one label, no sort keys: by target key, which follows the id here), each once,
    itself left out; every edge counted in `measure`."""
    res = _light(graph, "hg_kout", {"source": Long(3), "max_depth": 1, "direction": "OUT", "label": "e",
                                "max_degree": -1, "capacity": -1, "limit": -1})
    edges = [(u, v) for u, v in _edges() if u == 3]
    want = list(dict.fromkeys(v for _, v in sorted(edges, key=lambda e: e[1]) if v != 3))
    assert res["vertices"] == want and all(type(x) is Long for x in res["vertices"])
    assert res["measure"]["edge_iterations"] == len(edges)
    assert res["measure"]["vertice_iterations"] == 1


@pytest.mark.parametrize(("step", "req"), [
    ("hg_kout", {"source": Long(99), "max_depth": 1}),
    ("hg_kout", {"source": "nope", "max_depth": 1}),
    ("hg_kout", {"source": Long(0), "max_depth": 3, "capacity": 2, "limit": 1, "direction": "OUT"}),
    ("hg_kout", {"source": Long(0), "max_depth": 3, "capacity": 3, "limit": 2, "direction": "BOTH"}),
    ("hg_kout", {"source": Long(0), "max_depth": 0}),
    ("hg_kout", {"source": Long(0), "max_depth": 1, "count_only": "yes"}),
    ("hg_kout", {"source": Long(0), "max_depth": 1, "count_only": True, "with_path": True}),
    ("hg_kout", {"source": Long(0), "max_depth": 1, "direction": "UP"}),
    ("hg_kneighbor", {"source": Long(0), "max_depth": 1, "label": "nolabel"}),
    ("hg_kneighbor", {"source": Long(0), "max_depth": 2, "max_degree": 0}),
    ("hg_kout", {"max_depth": 1}),
])
def test_errors_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str, req: dict[str, Any]) -> None:
    if "label" in req and graph.config.schema_mode == "auto":
        pytest.skip("auto mode knows no label in advance")

    def error(fn: Any) -> tuple[type, str]:
        with pytest.raises(HugeliteError) as info:
            fn()
        return type(info.value), str(info.value)

    for _ in range(2):  # the second time from the memo (a parameter error is never remembered)
        fast = error(lambda: direct_algorithms.traverse(graph, ir_of(step, dict(req))))
        slow = error(lambda: _pipeline(monkeypatch, lambda: graph.traverse(ir_of(step, dict(req)))))
        assert fast == slow


@pytest.mark.parametrize("req", [
    {"source": Long(0), "max_depth": 1, "steps": {"direction": "OUT"}},  # the POST form
    {"source": Long(0), "max_depth": 1, "skip_degree": 5, "max_degree": 5},
    {"source": None, "max_depth": 1},
    {"source": Vertex(Long(0), "v", 1), "max_depth": 1},
    {"source": 1.5, "max_depth": 1},
])
def test_what_it_leaves_to_the_step(graph: Graph, req: dict[str, Any]) -> None:
    assert _light(graph, "hg_kout", req) is light.SLOW


def test_string_sources(graph: Graph) -> None:
    """A string source: one indexed read in strict mode; auto mode's numeric alternates
    ('3' finds vertex 3) are the step's."""
    req = {"source": "3", "max_depth": 1}
    if graph.config.schema_mode == "auto":
        assert _light(graph, "hg_kout", req) is light.SLOW
        assert direct_algorithms.traverse(graph, ir_of("hg_kout", req))[0]["vertices"]
    else:
        with pytest.raises(HugeliteError, match="The source vertex with id '3' does not exist"):
            _light(graph, "hg_kout", req)


def test_the_memo_follows_the_schema(tmp_path: Path) -> None:
    store = str(tmp_path / "s.db")
    GraphRegistry.init_store(GraphConfig(name="s", backend="sqlite", store=store))
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    try:
        g = reg.open(GraphConfig(name="s", backend="sqlite", store=store))
        for kind, body in SCHEMA:
            g.schema.create(kind, body)
        load_edges(g, 3, [(0, 1), (1, 2)])
        req = {"source": Long(0), "max_depth": 1, "label": "f", "count_only": True}
        with pytest.raises(HugeliteError, match="Undefined edge label: 'f'"):
            _light(g, "hg_kout", dict(req))
        g.schema.create("edgelabel", {"name": "f", "source_label": "v", "target_label": "v"})
        assert _light(g, "hg_kout", dict(req))["vertices_size"] == 0  # checked again: 'f' exists now
        req["label"] = "e"
        assert _light(g, "hg_kout", dict(req))["vertices_size"] == 1
        snap, memo = g._light_memo
        assert snap is g.schema._snap and len(memo) == 2
    finally:
        reg.close_all()


def test_over_budget_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    req = {"source": Long(0), "max_depth": 3, "direction": "BOTH", "max_degree": -1, "count_only": True}
    for step in ("hg_kout", "hg_kneighbor"):
        with bounded(5), pytest.raises(OverBudget):
            direct_algorithms.traverse(graph, ir_of(step, dict(req)))
        with bounded(5), pytest.raises(OverBudget):
            _pipeline(monkeypatch, lambda step=step: graph.traverse(ir_of(step, dict(req))))
        with bounded(1000):
            fast = direct_algorithms.traverse(graph, ir_of(step, dict(req)))
        with bounded(1000):
            slow = _pipeline(monkeypatch, lambda step=step: graph.traverse(ir_of(step, dict(req))))
        assert [_same(x) for x in fast] == [_same(x) for x in slow]


def test_a_cancelled_token_stops_it(graph: Graph) -> None:
    token = CancelToken()
    token.cancel()
    req = {"source": Long(0), "max_depth": 2}
    with pytest.raises(HugeliteError):
        read_once(graph.store, lambda tx: light.answer(
            tx, graph, "hg_kout", req, token, lambda: direct_algorithms._access(tx, graph).schema,
            graph.config.schema_mode == "auto"), snapshot=True)


def test_string_and_uuid_ids_come_back_typed_as_the_step_gives_them(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`_Nodes.ids` reads (key, id) pairs (`tx.vertex_ids_of`): ints become Long, strings
    stay, UUID bytes become UUIDs, as the step's `Vertex` ids are."""
    import uuid

    from gremlin_engine.runtime.access import StoreAccess

    store = str(tmp_path / "ids.db")
    GraphRegistry.init_store(GraphConfig(name="ids", backend="sqlite", store=store, schema_mode="auto"))
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    try:
        g = reg.open(GraphConfig(name="ids", backend="sqlite", store=store, schema_mode="auto"))
        ids: list[Any] = [Long(1), "b", uuid.UUID(int=7), "d", Long(5)]
        with g.store.write() as tx:
            a = StoreAccess.for_graph(g, tx)
            vs = [a.add_vertex("v", id=i) for i in ids]
            for j in (1, 2, 3, 4, 2):
                a.add_edge("e", vs[0], vs[j])
            a.add_edge("e", vs[2], vs[3])
        for depth, step in ((1, "hg_kout"), (2, "hg_kneighbor"), (2, "hg_kout")):
            req = {"source": Long(1), "max_depth": depth, "direction": "BOTH"}
            got = _light(g, step, dict(req))
            slow = _pipeline(monkeypatch, lambda req=req, step=step: g.traverse(ir_of(step, dict(req))))
            assert _same(got) == _same(slow[0])
            assert [type(x) for x in got["vertices"]] == [type(x) for x in slow[0]["vertices"]]
        assert _light(g, "hg_kout", {"source": Long(1), "max_depth": 1})["vertices"] == ["b", uuid.UUID(int=7), "d",
                                                                                          Long(5)]
        with g.store.read() as tx:
            keys = [tx.vertex_key(x) for x in (1, "b", uuid.UUID(int=7).bytes, "zz")]
            assert keys[3] is None and None not in keys[:3]
            assert tx.vertex_ids_of([keys[1], 99999, keys[0], keys[1]]) == {keys[1]: "b", keys[0]: 1}
            assert tx.vertex_ids_of([]) == {}
    finally:
        reg.close_all()
