"""Light k-out / k-neighbor with direction OUT read the answer's ids from the covering
out-adjacency index (`tx.adjacent_key_ids`): the answers (ids, their order and Java types,
for number and string ids), counters, errors and bounded-run outcomes are exactly those of
the joined read (`vertex_ids_of`, forced here by declaring no side covered) and of the step
pipeline; and an OUT answer makes no `vertices` probe for what the index gave."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.algorithms import light
from gremlin_engine.algorithms.budget import OverBudget, bounded
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime import direct_algorithms
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Long
from storage.tx_adjacency import AdjacencyMixin
from tests.algorithms.conftest import through_pipeline
from tests.algorithms.test_light_requests import _light, _same, for_step, ir_of

N = 40


def _edges() -> list[tuple[int, int]]:
    rnd = random.Random(11)
    edges = [(rnd.randrange(N), rnd.randrange(N)) for _ in range(160)]
    return edges + [(0, 0), (0, 1), (0, 1), (3, 0), (1, 2), (2, 3)]


def _vid(kind: str, i: int) -> Any:
    return Long(i) if kind == "number" else f"v{i:02d}"


@pytest.fixture(params=["number", "string"])
def graph(request: Any, tmp_path: Path) -> Iterator[Graph]:
    kind = request.param
    store = str(tmp_path / "g.db")
    cfg = GraphConfig(name="g", backend="sqlite", store=store, schema_mode="strict")
    GraphRegistry.init_store(cfg)
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    g = reg.open(cfg)
    strategy = "CUSTOMIZE_NUMBER" if kind == "number" else "CUSTOMIZE_STRING"
    g.schema.create("vertexlabel", {"name": "v", "id_strategy": strategy})
    g.schema.create("edgelabel", {"name": "e", "source_label": "v", "target_label": "v"})
    g.schema.create("edgelabel", {"name": "f", "source_label": "v", "target_label": "v"})
    with g.store.write() as tx:
        a = StoreAccess.for_graph(g, tx)
        order = list(range(N))
        random.Random(3).shuffle(order)  # keys not in id order
        vs = {i: a.add_vertex("v", id=_vid(kind, i)) for i in order}
        for n, (u, v) in enumerate(_edges()):
            a.add_edge("e" if n % 5 else "f", vs[u], vs[v])
    g.test_kind = kind  # type: ignore[attr-defined]
    try:
        yield g
    finally:
        reg.close_all()


def _joined(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str, req: dict[str, Any]) -> Any:
    """The answer with every id read by `vertex_ids_of`, as before layout v3's index read."""
    with monkeypatch.context() as m:
        m.setattr(light._Nodes, "_covered", lambda self, direction: False)
        return _light(graph, step, req)


def _typed(res: dict[str, Any]) -> Any:
    return [(x, type(x)) for x in res.get("vertices", [])], _same(res)


GRID = [
    dict(zip(("direction", "max_depth", "nearest", "limit", "max_degree", "label"), values, strict=True))
    for values in itertools.product(("OUT", "IN", "BOTH"), (1, 2, 3), (True, False), (-1, 3),
                                    (-1, 2), (None, "e"))
]


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_same_answers_as_the_joined_read(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    kind = graph.test_kind  # type: ignore[attr-defined]
    answered = 0
    for source, params in itertools.product((0, 3, 17), GRID):
        req = for_step(step, {"source": _vid(kind, source), **{k: v for k, v in params.items() if v is not None}})
        got = _light(graph, step, dict(req))
        assert got is not light.SLOW, req
        joined = _joined(graph, monkeypatch, step, dict(req))
        slow = through_pipeline(monkeypatch, lambda req=req: graph.traverse(ir_of(step, dict(req))))
        assert _typed(got) == _typed(joined) == _typed(slow[0]), req
        want = Long if kind == "number" else str
        assert all(type(x) is want for x in got["vertices"])
        answered += len(got["vertices"])
    assert answered > 500


def test_an_out_answer_probes_no_vertex(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    """k-out depth 2 and k-neighbor depth 2 OUT take every id from the index; IN still
    probes `vertices` for what it reached (spied, the real read runs)."""
    asked: list[int] = []
    real = AdjacencyMixin.vertex_ids_of

    def spy(self: Any, keys: Any) -> Any:
        asked.extend(keys)
        return real(self, keys)

    monkeypatch.setattr(AdjacencyMixin, "vertex_ids_of", spy)
    src = _vid(graph.test_kind, 0)  # type: ignore[attr-defined]
    for step in ("hg_kout", "hg_kneighbor"):
        res = _light(graph, step, {"source": src, "max_depth": 2, "direction": "OUT", "label": "e"})
        assert len(res["vertices"]) > 3 and asked == []
    res = _light(graph, "hg_kneighbor", {"source": src, "max_depth": 2, "direction": "IN", "label": "e"})
    assert len(asked) == len(res["vertices"]) - 1  # all but the source, whose id is the request's


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_bounded_runs_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """A bounded OUT run: too few rows stop it (nothing answered), enough give the
    unbounded answer; a per-vertex limit fits by its own bound."""
    src = _vid(graph.test_kind, 0)  # type: ignore[attr-defined]
    for extra in ({"max_degree": -1}, {"max_degree": 2}):
        req = {"source": src, "max_depth": 2, "direction": "OUT", **extra}
        with bounded(3), pytest.raises(OverBudget):
            direct_algorithms.traverse(graph, ir_of(step, dict(req)))
        with bounded(3), pytest.raises(OverBudget):
            through_pipeline(monkeypatch, lambda req=req: graph.traverse(ir_of(step, dict(req))))
        with bounded(10_000):
            fast = direct_algorithms.traverse(graph, ir_of(step, dict(req)))
        plain = _joined(graph, monkeypatch, step, dict(req))
        assert [_typed(x) for x in fast] == [_typed(plain)]
