"""Depth-1 light requests in one statement (`algorithms/light_once.py`, storage's
`source_adjacency`): the same answers, orders, counters, budgets and errors as the general
light path (`light.answer`, four statements) and the step pipeline, on the same graphs;
and one statement per request, without BEGIN/ROLLBACK."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.algorithms import light, light_once
from gremlin_engine.algorithms.budget import OverBudget, bounded
from gremlin_engine.errors import HugeliteError
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import direct_algorithms
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Long
from storage.errors import StoreError
from storage.read_once import read_once
from tests.algorithms.conftest import file_graph, load_edges, through_pipeline
from tests.algorithms.test_light_requests import _light, _same, ir_of

N = 12
#: (from, to, label): a self-loop, parallel edges, a way back, two labels, a hub (vertex 5)
EDGES = [(0, 1, "e"), (0, 1, "e"), (0, 0, "e"), (0, 2, "f"), (0, 7, "e"), (0, 3, "f"), (3, 0, "e"),
         (1, 2, "e"), (2, 0, "f")] + [(5, t, "e") for t in (9, 1, 4, 11, 6, 8, 2, 10, 3, 7)] + [(5, 5, "f")]

@contextmanager
def traced(graph: Graph) -> Iterator[list[str]]:
    """The SQL text of every statement the graph's idle pooled connections run meanwhile."""
    seen: list[str] = []
    raws = [raw for _, raw in graph.store._idle]
    assert raws
    for raw in raws:
        raw.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        for raw in raws:
            raw.set_trace_callback(None)



@pytest.fixture(params=["strict", "auto"])
def graph(request: Any, tmp_path: Path) -> Iterator[Graph]:
    schema = [("vertexlabel", {"name": "v", "id_strategy": "CUSTOMIZE_NUMBER"})] + [
        ("edgelabel", {"name": name, "source_label": "v", "target_label": "v"}) for name in ("e", "f")]
    with file_graph(tmp_path, request.param, schema) as g:
        load_edges(g, N, EDGES)
        yield g


def _once(graph: Graph, step: str, req: dict[str, Any]) -> Any:
    """`light_once` itself: SLOW when `prepare` or `answer` declines."""
    prepared = light_once.prepare(graph, step, req, graph.config.schema_mode == "auto")
    if prepared is light.SLOW:
        return light.SLOW
    return read_once(graph.store, light_once.answer, prepared, req, CancelToken(),
                     snapshot=light_once.snapshot(prepared))


GRID = [dict(zip(("max_depth", "direction", "label", "count_only", "limit", "max_degree", "capacity", "nearest"), v,
                 strict=True))
        for v in itertools.product((1, 2), ("OUT", "IN"), ("e", "f", None), (True, False), (-1, 1, 2, 4), (-1, 1, 2),
                                   (-1, 2, 3, 40), (True, False))
        if v[0] == 2 or v[7]]  # `nearest` matters from depth 2 on


def _req(step: str, source: int, params: dict[str, Any]) -> dict[str, Any]:
    req = {"source": Long(source), **{k: v for k, v in params.items() if v is not None}}
    if step == "hg_kneighbor":
        req.pop("capacity", None)
        req.pop("nearest", None)
    elif req["capacity"] != -1 and req["limit"] == -1:
        req["limit"] = req["capacity"] - 1  # k-out refuses a limit above its capacity
    return req


def _far_declined(graph: Graph, step: str, req: dict[str, Any]) -> bool:
    """Whether `req` is a depth-2 listing (no per-vertex limit) whose one-statement read
    `tx.source_far_ids` declines: its source's first layer repeats an end. (The label ids
    are the memo's, which the general run just filled.)"""
    if req["max_depth"] != 2 or req["count_only"] or req["max_degree"] != -1:
        return False
    lids = light.memo_settled(graph, step, req)[3]

    def read(tx: Any) -> Any:
        return tx.source_far_ids(int(req["source"]), req["direction"], lids, None, None)

    return read_once(graph.store, read) is False


def _outcome(fn: Any) -> Any:
    """What `fn()` gives, its `measure` clock left out, or its error (type and message)."""
    try:
        got = fn()
    except HugeliteError as exc:
        return type(exc), str(exc)
    return got if got is light.SLOW else _same(got)


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_answers_and_counters_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    taken = 0
    for source, params in itertools.product((0, 3, 5, 11), GRID):
        req = _req(step, source, params)
        graph._light_memo = None  # the grid is more than the memo keeps: this request's alone
        general = _outcome(lambda req=req: _light(graph, step, dict(req)))  # also what fills the memo
        once = _outcome(lambda req=req: _once(graph, step, dict(req)))
        if once is light.SLOW:  # a listing of in-neighbours (their ids are not in the index), a
            # k-neighbor of limit 1 (the source alone: `reach` reads nothing), a parameter error,
            # a depth-2 listing whose first layer repeats an end (`tx.source_far_ids` declines)
            assert (params["direction"] == "IN" and not params["count_only"]) or (
                step == "hg_kneighbor" and req["limit"] == 1) or "less than limit" in str(general) or (
                _far_declined(graph, step, req)), req
            continue
        taken += 1
        slow = _outcome(lambda req=req: through_pipeline(
            monkeypatch, lambda: graph.traverse(ir_of(step, dict(req))))[0])
        assert once == general == slow, req
    assert taken > len(GRID)


def test_a_known_answer(graph: Graph) -> None:
    """Vertex 0 over 'e', worked out by hand: 1 (a parallel pair: one edge in strict mode,
    whose edge ids are HugeGraph's, two in auto mode), itself, 7: the ids once each, in
    adjacency order, the source left out; every edge read counted."""
    req = {"source": Long(0), "max_depth": 1, "direction": "OUT", "label": "e", "max_degree": -1, "capacity": -1,
           "limit": -1}
    general = _light(graph, "hg_kout", dict(req))
    got = _once(graph, "hg_kout", dict(req))
    assert got["vertices"] == [1, 7] and all(type(x) is Long for x in got["vertices"])
    edges = 3 if graph.config.schema_mode == "strict" else 4
    assert {k: v for k, v in got["measure"].items() if k != "cost(ns)"} == {"edge_iterations": edges,
                                                                            "vertice_iterations": 1}
    assert _same(got) == _same(general)
    # a parameter set not remembered yet goes the general way first
    assert light_once.prepare(graph, "hg_kout", {**req, "count_only": True},
                              graph.config.schema_mode == "auto") is light.SLOW


def test_missing_source_alike(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    for step in ("hg_kout", "hg_kneighbor"):
        req = {"source": Long(0), "max_depth": 1, "direction": "OUT", "max_degree": 2}
        _light(graph, step, dict(req))
        req["source"] = Long(99)
        with pytest.raises(HugeliteError) as once:
            _once(graph, step, dict(req))
        with pytest.raises(HugeliteError) as slow:
            through_pipeline(monkeypatch, lambda req=req, step=step: graph.traverse(ir_of(step, dict(req))))
        assert (type(once.value), str(once.value)) == (type(slow.value), str(slow.value))
        assert "The source vertex with id '99L' does not exist" in str(once.value)  # as the pipeline words it


def test_budget_alike(graph: Graph) -> None:
    """A bounded run: the hub's 11 edges do not fit in 10 rows (OverBudget, both ways); in
    11 they do, and both leave the same rows unspent; at depth 2 the second layer's rows
    count too."""
    for step, depth, count_only, max_degree in itertools.product(
            ("hg_kout", "hg_kneighbor"), (1, 2), (True, False), (-1, 1, 8, 20)):
        req = {"source": Long(5), "max_depth": depth, "direction": "OUT", "max_degree": max_degree, "limit": -1,
               "count_only": count_only}
        if step == "hg_kout":
            req["capacity"] = -1
        _light(graph, step, dict(req))
        for rows in (7, 10, 11, 12, 14, 30):
            outcomes = []
            for fn in (_light, _once):
                with bounded(rows) as budget:
                    try:
                        got = _same(fn(graph, step, dict(req)))
                    except OverBudget:
                        got = "over"
                outcomes.append((got, budget.left))
            assert outcomes[0] == outcomes[1], (req, rows)


def test_one_statement_without_a_transaction(graph: Graph) -> None:
    """Through the REST handlers' entry (`direct_algorithms.traverse`): the first request
    of a parameter set takes the general path (BEGIN, lookup, read, ROLLBACK), every later
    one a single SELECT."""
    with traced(graph) as seen:
        for source in (0, 5, 0):
            for step in ("hg_kout", "hg_kneighbor"):
                req = {"source": Long(source), "max_depth": 1, "direction": "OUT", "label": "e", "max_degree": -1,
                       "limit": -1}
                if step == "hg_kout":
                    req["capacity"] = -1
                direct_algorithms.traverse(graph, ir_of(step, req))
    statements = [s.split()[0] for s in seen]
    assert statements[:8] == ["BEGIN", "SELECT", "SELECT", "ROLLBACK"] * 2
    assert statements[8:] == ["SELECT"] * 4
    assert all(s.startswith("SELECT v.key, (SELECT") for s in seen[8:])


def test_depth_two_reads_the_source_and_its_layer_in_one_statement(graph: Graph) -> None:
    """Depth 2 with no per-vertex limit: the general path's first request takes a snapshot
    around three statements; then both layers come from ONE statement (`tx.source_far_ids`:
    the source, its first layer with ids, the second layer's ids), no BEGIN/ROLLBACK."""
    got = []
    with traced(graph) as seen:
        for _ in range(2):
            req = {"source": Long(5), "max_depth": 2, "direction": "OUT", "max_degree": -1, "limit": -1,
                   "capacity": -1}
            got.append(_same(direct_algorithms.traverse(graph, ir_of("hg_kout", req))[0]))
    statements = [s.split()[0] for s in seen]
    assert statements == ["BEGIN", "SELECT", "SELECT", "SELECT", "ROLLBACK", "SELECT"]
    assert seen[5].startswith("SELECT v.key, (SELECT json_array(") and seen[5].count("json_group_array") == 3
    assert got[0] == got[1]


def test_depth_two_listing_over_parallel_edges_goes_the_general_way(graph: Graph) -> None:
    """Vertex 0's first layer over every label repeats an end in auto mode (the parallel
    pair 0 -> 1): `tx.source_far_ids` declines it (its range would be read twice) and the
    request is answered by the general path, with the same answer as the pipeline's; in
    strict mode the pair is one edge and the one statement answers."""
    req = {"source": Long(0), "max_depth": 2, "direction": "OUT", "max_degree": -1, "limit": -1, "capacity": -1}
    general = _same(_light(graph, "hg_kout", dict(req)))
    declined = read_once(graph.store, lambda tx: tx.source_far_ids(0, "OUT", None, None, None)) is False
    assert declined == (graph.config.schema_mode == "auto")
    once = _once(graph, "hg_kout", dict(req))
    assert (once is light.SLOW) == declined
    assert _same(direct_algorithms.traverse(graph, ir_of("hg_kout", dict(req)))[0]) == general


def test_what_it_declines(graph: Graph) -> None:
    base = {"source": Long(0), "max_depth": 1, "direction": "OUT", "max_degree": -1, "limit": -1}
    for req in (base, {**base, "max_depth": 3}, {**base, "direction": "BOTH"}, {**base, "label": "e"}):
        _light(graph, "hg_kneighbor", dict(req))
    auto = graph.config.schema_mode == "auto"
    assert light_once.prepare(graph, "hg_kneighbor", dict(base), auto) is not light.SLOW
    for req in ({**base, "max_depth": 3}, {**base, "direction": "BOTH"}, {**base, "steps": {}},
                {**base, "source": 1.5}, {**base, "limit": 1}, {**base, "label": "e", "max_degree": 3}):
        assert light_once.prepare(graph, "hg_kneighbor", dict(req), auto) is light.SLOW, req


def test_far_ids_read_as_the_id_lists_read(graph: Graph) -> None:
    """`tx.adjacent_far_ids` (a listing's last layer, deduplicated by id): the ids of
    `adjacent_key_id_lists`, in its order, for one label, none, several, and a row cap."""
    both = tx_label_ids(graph)
    labels = [None, *([lid] for lid in both), both]
    with graph.store.read() as tx:
        keys = [tx.vertex_key(i) for i in (0, 5, 3, 1, 0)]
        for lids, cap in itertools.product(labels, (None, 3, 100)):
            want = tx.adjacent_key_id_lists(keys, "out", lids, None, cap)[1]
            assert tx.adjacent_far_ids(keys, "out", lids, cap) == want, (lids, cap)
        with pytest.raises(StoreError):
            tx.adjacent_far_ids(keys, "in")


def tx_label_ids(graph: Graph) -> list[int]:
    with graph.store.read() as tx:
        access = StoreAccess.for_graph(graph, tx)
        return sorted(access.schema.edge_label_ids(["e", "f"]))


def test_string_ids_listed_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A strict graph of string ids: the second layer deduplicated by id answers as the
    general path and the pipeline do (the source and the first layer left out by id)."""
    store = str(tmp_path / "s.db")
    GraphRegistry.init_store(GraphConfig(name="s", backend="sqlite", store=store))
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    try:
        g = reg.open(GraphConfig(name="s", backend="sqlite", store=store))
        g.schema.create("vertexlabel", {"name": "v", "id_strategy": "CUSTOMIZE_STRING"})
        g.schema.create("edgelabel", {"name": "e", "source_label": "v", "target_label": "v"})
        with g.store.write() as tx:
            a = StoreAccess.for_graph(g, tx)
            vs = [a.add_vertex("v", id=f"v{i}") for i in range(N)]
            for u, v, label in EDGES:
                if label == "e":
                    a.add_edge("e", vs[u], vs[v])
        for step, source, nearest in itertools.product(("hg_kout", "hg_kneighbor"), ("v0", "v3", "v5"), (True, False)):
            req = {"source": source, "max_depth": 2, "direction": "OUT", "label": "e", "max_degree": -1, "limit": -1}
            if step == "hg_kout":
                req.update(capacity=-1, nearest=nearest)
            general = _light(g, step, dict(req))
            once = _once(g, step, dict(req))
            slow = through_pipeline(monkeypatch, lambda req=req, step=step: g.traverse(ir_of(step, dict(req))))
            assert _same(once) == _same(general) == _same(slow[0]), req
    finally:
        reg.close_all()


def test_depth_two_count_of_whole_layers_in_one_statement(graph: Graph) -> None:
    """A depth-2 count that cuts no layer (no limit, capacity or per-vertex limit): both
    layers by ONE statement (`tx.source_two_layers`), no BEGIN/ROLLBACK, the same counts as
    the general path, a way back to the source (0 -f-> 3 -e-> 0) and a self-loop left out."""
    got = []
    with traced(graph) as seen:
        for step in ("hg_kout", "hg_kneighbor"):
            for _ in range(2):
                req = {"source": Long(0), "max_depth": 2, "direction": "OUT", "max_degree": -1, "limit": -1,
                       "count_only": True}
                if step == "hg_kout":
                    req["capacity"] = -1
                got.append(direct_algorithms.traverse(graph, ir_of(step, req))[0]["vertices_size"])
    statements = [s.split()[0] for s in seen]
    # auto mode holds the parallel pair 0 -> 1 as two edges: the first layer repeats an end,
    # so a second statement reads it with the DISTINCT (each end's range counted once)
    again = ["SELECT"] if graph.config.schema_mode == "auto" else []
    assert statements == (["BEGIN", "SELECT", "SELECT", "SELECT", "ROLLBACK", "SELECT", *again]) * 2
    assert seen[5].startswith("SELECT v.key, (SELECT") and seen[5].count("json_group_array") == 2
    assert "DISTINCT" not in seen[5] and all("DISTINCT" in s for s in seen[6:6 + len(again)])
    # layer 1 of 0: {1, 7, 2, 3} (0 itself left out); layer 2: 1 -> 2, 3 -> 0, 2 -> 0: nothing
    # nearer than before (k-out is `nearest` by default), k-neighbor counts the source too
    assert got == [0, 0, 5, 5]


def test_request_entry_without_an_ir(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    """`direct_algorithms.request` (the REST handlers' entry): None until `traverse` has
    learnt the step's plan, or when direct plans are off; then the same answers and errors
    as `traverse` without an IR."""
    monkeypatch.setattr(direct_algorithms, "_PLANS", {})
    req = {"source": Long(0), "max_depth": 2, "direction": "OUT", "max_degree": -1, "limit": -1, "count_only": True}
    assert direct_algorithms.request(graph, "hg_kneighbor", dict(req)) is None
    want = direct_algorithms.traverse(graph, ir_of("hg_kneighbor", dict(req)))
    got = direct_algorithms.request(graph, "hg_kneighbor", dict(req))
    assert got is not None and _same(got[0]) == _same(want[0]) and got[0]["vertices_size"] == 5
    listing = {**req, "count_only": False, "max_depth": 1}
    assert _same(direct_algorithms.request(graph, "hg_kneighbor", dict(listing))[0]) == _same(
        direct_algorithms.traverse(graph, ir_of("hg_kneighbor", dict(listing)))[0])
    with pytest.raises(HugeliteError) as err:
        direct_algorithms.request(graph, "hg_kneighbor", {**req, "source": Long(99)})
    assert "The source vertex with id '99L' does not exist" in str(err.value)
    monkeypatch.setattr(direct_algorithms.direct, "ENABLED", False)
    assert direct_algorithms.request(graph, "hg_kneighbor", dict(req)) is None


def test_two_layers_statement_walks_the_adjacency_index(graph: Graph) -> None:
    """`_source_two_sql`'s plan: the id index for the source, the adjacency index (covering)
    for both layers, no scan of the edge table."""
    from storage.adjacency_sql import _source_two_sql

    def plan(tx: Any, direction: str, distinct: bool, with_ids: bool) -> list[str]:
        sql = _source_two_sql(direction, (1,), distinct, with_ids)
        return [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + sql, (-1, 0, -1))]

    for direction, index, distinct, with_ids in (("out", "ix_edges_out", True, False), ("in", "ix_edges_in", True, False),
                                                 ("out", "ix_edges_out", False, False),
                                                 ("in", "ix_edges_in", False, False),
                                                 ("out", "ix_edges_out", False, True)):
        steps = read_once(graph.store, plan, direction, distinct, with_ids)
        assert any(s.startswith("USE TEMP B-TREE FOR DISTINCT") for s in steps) == distinct, steps
        searches = [s for s in steps if s.startswith("SEARCH e ") or s.startswith("SEARCH g ")]
        assert len(searches) == 3 and all(f"COVERING INDEX {index}" in s for s in searches), steps
        assert not any(s.startswith(("SCAN e", "SCAN g")) for s in steps), steps
