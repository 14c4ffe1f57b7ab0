"""REST batches prepared before the writer is taken (`runtime/batch_prepare.py`).

Every comparison runs the same items on two graphs, the prepared path on for the first and
off for the second (the traversal, as before), and compares the ids or the error (class and
message), the stored rows and what a reader sees, and that a failed batch left nothing. A
spy records whether the prepared path answered, so each case also pins which path it
exercises. Then: a schema change between the two phases, the prepare running while another
call holds the writer, and concurrent batches (the same ids; one invalid batch of four).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api, batch_prepare
from gremlin_engine.traversal.predicates import make_predicate
from tests.runtime.test_batch_column_lane import (
    CASES,
    VCASES,
    _edge,
    _pair,
    _person,
    _rows,
    _vrows,
    same_outcome,
)
from tests.runtime.test_batch_direct_path import _ir
from tests.runtime.test_batch_writes import snapshot
from tests.runtime.together import run_together

#: the edge cases of the column lane the prepared path answers; every other declines (ends
#: whose ids hold `>` or are not strings, a repeated edge) or is refused by the lane
EDGE_ANSWERS = {"doubles", "ints as doubles", "two keys, orders differ", "no properties"}
#: the vertex cases it answers ("existing vertex": the insert conflicts, the upsert path runs)
VERTEX_ANSWERS = {"plain", "escaped names", "keys in other orders", "name only"}


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Per `Prepared.write` call, whether it answered (True) or declined (False)."""
    calls: list[bool] = []
    real = batch_prepare.Prepared.write

    def spy(self: Any, graph: Any, tx: Any, token: Any) -> Any:
        out = real(self, graph, tx, token)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(batch_prepare.Prepared, "write", spy)
    yield calls


def _erun(g: Graph, items: list[Any]) -> tuple[str, Any]:
    try:
        return "ok", g.traverse(_ir(("inject", *[dict(i) for i in items]), ("hgAddEdges", True), ("id",)))
    except Exception as exc:  # compared: same class, same message
        return type(exc).__name__, str(exc)


def _vrun(g: Graph, items: list[Any]) -> tuple[str, Any]:
    try:
        return "ok", g.traverse(_ir(("inject", *[dict(i) for i in items]), ("hgAddVertices",), ("id",)))
    except Exception as exc:
        return type(exc).__name__, str(exc)


def _off(monkeypatch: pytest.MonkeyPatch, run: Any, g: Graph, items: list[Any]) -> tuple[str, Any]:
    with monkeypatch.context() as m:
        m.setattr(batch_prepare, "ENABLED", False)
        return run(g, items)


def _compare(pair: tuple[Graph, Graph], items: list[Any], monkeypatch: pytest.MonkeyPatch, vertices: bool) -> Any:
    run, rows = (_vrun, _vrows) if vertices else (_erun, _rows)
    return same_outcome(pair, rows, lambda g: run(g, items), lambda g: _off(monkeypatch, run, g, items))


def _item(g: Graph) -> Any:
    return g.traverse(_ir(("V",), ("hasLabel", "item"), ("id",)))[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_edge_batches_equal_the_traversal(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          answered: list[bool], case: str) -> None:
    pair = _pair(registry, tmp_path)
    item = _item(pair[0])
    items = [{**i, "inV": item} if i["inV"] == "ITEM" else i for i in CASES[case][0]]
    _compare(pair, items, monkeypatch, vertices=False)
    assert any(answered) == (case in EDGE_ANSWERS)


@pytest.mark.parametrize("case", sorted(VCASES))
def test_vertex_batches_equal_the_traversal(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            answered: list[bool], case: str) -> None:
    _compare(_pair(registry, tmp_path), VCASES[case][0], monkeypatch, vertices=True)
    assert any(answered) == (case in VERTEX_ANSWERS)


def test_prepared_ids_rows_and_index_entries(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             answered: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    people = [_person({"name": "zed", "age": 3, "city": "Beijing"}), _person({"city": "Paris", "name": "q:r!", "age": 50})]
    assert _compare(pair, people, monkeypatch, vertices=True) == ("ok", ["1:zed", "1:q`:r`!"])
    assert _vrows(pair[0])[-2:] == [("1:zed", 1, '{"name":"zed","age":3,"city":"Beijing"}', "text"),
                                   ("1:q`:r`!", 1, '{"name":"q:r!","age":50,"city":"Paris"}', "text")]
    seen = snapshot(pair[0])
    assert "1:zed" in seen["by_city"] and {"1:zed", "1:q`:r`!"} <= set(seen["by_age"])  # vertex index entries
    edges = [_edge("knows", "1:zed", "1:q`:r`!", {"date": "d", "weight": 0.5}), _edge("knows", "1:ann", "1:zed", {"weight": 2, "date": "e"})]
    assert _compare(pair, edges, monkeypatch, vertices=False) == ("ok", ["S1:zed>1>1>>S1:q`:r`!", "S1:ann>1>1>>S1:zed"])
    ann, zed, q = (_key(pair[0], v) for v in ("1:ann", "1:zed", "1:q`:r`!"))
    assert _rows(pair[0])[-2:] == [
        ("S1:zed>1>1>>S1:q`:r`!", 1, zed, q, "", '{"weight":0.5,"date":"d"}', "text"),
        ("S1:ann>1>1>>S1:zed", 1, ann, zed, "", '{"weight":2.0,"date":"e"}', "text"),
    ]
    assert {"S1:zed>1>1>>S1:q`:r`!", "S1:ann>1>1>>S1:zed"} <= set(snapshot(pair[0])["by_weight"])  # edge index entries
    assert answered == [True, True]


def _key(g: Graph, vid: str) -> int:
    with g.store.read() as tx:
        return tx.vertex_key(vid)  # type: ignore[no-any-return]


def test_missing_and_mislabelled_ends_take_the_traversal(registry: GraphRegistry, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch, answered: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    missing = [_edge("knows", "1:ann", "1:bob", {"weight": 0.5}), _edge("knows", "1:ann", "1:nobody", {"weight": 0.5})]
    assert _compare(pair, missing, monkeypatch, vertices=False) == ("IllegalArgument", "Invalid vertex id '1:nobody'")
    mislabelled = [_edge("owns", "1:ann", "1:bob", {"weight": 0.5}, in_label="item")]
    status, _message = _compare(pair, mislabelled, monkeypatch, vertices=False)
    assert status == "IllegalArgument"
    assert answered == [False, False]  # both looked up under the writer, then declined


def test_existing_edges_are_upserted_by_the_traversal(registry: GraphRegistry, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch, answered: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    _compare(pair, CASES["doubles"][0], monkeypatch, vertices=False)
    count = len(_rows(pair[0]))
    again = [_edge("knows", "1:ann", "1:bob", {"weight": 0.125}), _edge("knows", "1:bob", "1:e`:f`!g", {"weight": 1.0})]
    assert _compare(pair, again, monkeypatch, vertices=False)[0] == "ok"
    assert len(_rows(pair[0])) == count + 1
    assert answered == [True, False]  # the second conflicted: nothing left, the traversal upserted


def test_loading_mode_is_prepared_alike(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        answered: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    for g in pair:
        g.set_mode("LOADING")
    software = [{"label": "software", "properties": {"name": "s1"}}]  # lang is required, but not in LOADING
    assert _compare(pair, software, monkeypatch, vertices=True) == ("ok", ["2:s1"])
    plain = [_person({"name": "l1", "age": 1})]
    assert _compare(pair, plain, monkeypatch, vertices=True) == ("ok", ["1:l1"])
    assert answered == [True]  # the first declines in prepare (a required key missing): the traversal decides


def test_prepare_declines_other_shapes(modern: Graph) -> None:
    people = [_person({"name": "x"})]
    assert batch_prepare.prepare(modern, _ir(("inject", *people), ("hgAddVertices",), ("id",))) is not None
    for ir in (
        _ir(("inject", *people), ("hgAddVertices",)),  # elements, not ids
        _ir(("inject", *people), ("hgAddVertices",), ("id",), ("count",)),
        _ir(("inject", *people, 3), ("hgAddVertices",), ("id",)),  # not all maps
        _ir(("inject", *people), ("hgAddEdges", "yes"), ("id",)),
        _ir(("inject",), ("hgAddVertices",), ("id",)),
        _ir(("inject", {"label": "person", "properties": [("name", "x")]}), ("hgAddVertices",), ("id",)),
    ):
        assert batch_prepare.prepare(modern, ir) is None


def test_auto_mode_is_not_prepared(auto_graph: Graph) -> None:
    ir = _ir(("inject", _person({"name": "x"})), ("hgAddVertices",), ("id",))
    assert batch_prepare.prepare(auto_graph, ir) is None
    assert len(auto_graph.traverse(ir)) == 1


# ---- a schema change between the two phases -----------------------------------------------------


def _between(monkeypatch: pytest.MonkeyPatch, change: Any) -> list[Any]:
    """Makes `change()` run after each prepare, before its write; returns what was prepared."""
    real = batch_prepare.prepare
    prepared: list[Any] = []

    def prepare_then_change(graph: Any, ir: Any) -> Any:
        found = real(graph, ir)
        prepared.append(found)
        change()
        return found

    monkeypatch.setattr(batch_prepare, "prepare", prepare_then_change)
    return prepared


def test_a_new_index_label_between_prepare_and_write_is_written(
    registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answered: list[bool]
) -> None:
    g = _pair(registry, tmp_path)[0]

    def add_index() -> None:
        g.schema.create("indexlabel", {"name": "knowsByDate", "base_type": "EDGE_LABEL", "base_value": "knows",
                                       "index_type": "SECONDARY", "fields": ["date"], "rebuild": False})

    prepared = _between(monkeypatch, add_index)
    items = [_edge("knows", "1:ann", "1:bob", {"date": "d1", "weight": 0.5})]
    assert _erun(g, items) == ("ok", ["S1:ann>1>1>>S1:bob"])
    assert isinstance(prepared[0], batch_prepare.PreparedEdges)
    assert [[value for _i, value in entries] for entries in prepared[0].index] == [[0.5]]  # weight's only: no date index then
    assert answered == [False]  # the snapshot had changed: the traversal wrote it, with the new index
    with api.read_access(g) as a:
        found = [e.id for e in a.edges(labels=["knows"], conditions=[("date", make_predicate("P", "eq", ("d1",)))])]
    assert found == ["S1:ann>1>1>>S1:bob"]


def test_a_label_removed_between_prepare_and_write_fails_as_before(
    registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answered: list[bool]
) -> None:
    g1, g2 = _pair(registry, tmp_path)
    for g in (g1, g2):
        g.schema.create("edgelabel", {"name": "likes", "source_label": "person", "target_label": "person",
                                      "properties": ["weight"], "nullable_keys": ["weight"]})

    def remove(g: Graph) -> None:
        task = g.schema.remove("edgelabel", "likes")
        assert g.tasks.wait(task, 30)["task_status"] == "success"

    items = [_edge("likes", "1:ann", "1:bob", {"weight": 0.5})]
    before = _rows(g1)
    prepared = _between(monkeypatch, lambda: remove(g1))
    r1 = _erun(g1, items)
    assert isinstance(prepared[0], batch_prepare.PreparedEdges) and answered == [False]
    monkeypatch.setattr(batch_prepare, "prepare", lambda graph, ir: None)
    remove(g2)
    assert r1 == _erun(g2, items) and r1[0] == "IllegalArgument"  # the reference path's own error
    assert _rows(g1) == before


def test_a_stale_prepared_batch_never_writes(strict_graph: Graph) -> None:
    ir = _ir(("inject", _person({"name": "late"})), ("hgAddVertices",), ("id",))
    prepared = batch_prepare.prepare(strict_graph, ir)
    assert prepared is not None
    strict_graph.schema.create("propertykey", {"name": "extra", "data_type": "TEXT"})
    with api.write_access(strict_graph) as access:
        assert prepared.write(strict_graph, access.tx, _NoLimit()) is None
        assert access.tx.vertices_by_ids(["1:late"]) == []


class _NoLimit:
    def check(self) -> None:
        pass


# ---- concurrency ----------------------------------------------------------------------------------


def test_prepare_runs_while_another_call_holds_the_writer(
    registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _pair(registry, tmp_path)[0]
    real = batch_prepare.prepare
    done = threading.Event()

    def spy(graph: Any, ir: Any) -> Any:
        found = real(graph, ir)
        done.set()
        return found

    monkeypatch.setattr(batch_prepare, "prepare", spy)
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(_vrun(g, [_person({"name": "w1"})])))
    with g.store.write():
        worker.start()
        assert done.wait(10)  # prepared although the writer is held here
        assert not result  # the write itself waits
    worker.join(10)
    assert result == [("ok", ["1:w1"])]


def test_concurrent_batches_over_the_same_ids(registry: GraphRegistry, tmp_path: Path) -> None:
    g = _pair(registry, tmp_path)[0]
    for rnd in range(4):
        a = [_person({"name": f"s{rnd}-{i}", "age": 1}) for i in range(0, 60)]
        b = [_person({"name": f"s{rnd}-{i}", "age": 2}) for i in range(30, 90)]
        assert [r[0] for r in run_together([lambda a=a: _vrun(g, a), lambda b=b: _vrun(g, b)])] == ["ok", "ok"]
        with api.read_access(g) as acc:
            found = {v.id: v for v in acc.vertices(ids=[f"1:s{rnd}-{i}" for i in range(90)])}
            acc.load(list(found.values()))
            ages = [found[f"1:s{rnd}-{i}"]._props["age"][0].value for i in range(90)]
        assert len(found) == 90
        assert ages[:30] == [1] * 30 and ages[60:] == [2] * 30
        assert len(set(ages[30:60])) == 1  # the batch that committed last holds every shared vertex
        ea = [_edge("knows", f"1:s{rnd}-{i}", f"1:s{rnd}-{i + 1}", {"weight": 1.0}) for i in range(0, 40)]
        eb = [_edge("knows", f"1:s{rnd}-{i}", f"1:s{rnd}-{i + 1}", {"weight": 2.0}) for i in range(20, 60)]
        assert [r[0] for r in run_together([lambda ea=ea: _erun(g, ea), lambda eb=eb: _erun(g, eb)])] == ["ok", "ok"]
        weights = {e[0]: e[4] for e in snapshot(g)["edges"] if e[0].startswith(f"S1:s{rnd}-")}
        assert len(weights) == 60
        shared = {str(w) for eid, w in weights.items() if int(eid.split("-")[1].split(">")[0]) in range(20, 40)}
        assert len(shared) == 1


def test_an_invalid_batch_of_four_concurrent_rolls_back_alone(registry: GraphRegistry, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    g1, g2 = _pair(registry, tmp_path)
    people = [_person({"name": f"c{i}"}) for i in range(100)]
    for g in (g1, g2):
        assert _vrun(g, people)[0] == "ok"
    batches = [[_edge("knows", f"1:c{i}", f"1:c{(i + k + 1) % 100}", {"weight": float(k)}) for i in range(100)]
               for k in range(4)]
    batches[2][57] = _edge("knows", "1:c57", "1:c3", {"weight": "heavy"})
    before = {e[0] for e in snapshot(g1)["edges"]}
    results = run_together([lambda b=b: _erun(g1, b) for b in batches])
    expected_error = _off(monkeypatch, _erun, g2, batches[2])
    assert expected_error[0] == "IllegalArgument" and results[2] == expected_error
    assert [r[0] for n, r in enumerate(results) if n != 2] == ["ok"] * 3
    written = {e[0] for e in snapshot(g1)["edges"]} - before
    assert written == {eid for n in (0, 1, 3) for eid in results[n][1]}
    assert len(written) == 300


def test_a_failing_prepared_write_runs_the_traversal(strict_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver error inside the prepared write (not a conflict) rolls its transaction back
    and the request runs its traversal, which answers as it always did."""
    with api.write_access(strict_graph) as a:
        a.add_vertex("person", properties=[("name", "ann")])
        a.add_vertex("person", properties=[("name", "bob")])
    real = batch_prepare.prepare
    spoilt: list[Any] = []

    def spoil(graph: Any, ir: Any) -> Any:
        found = real(graph, ir)
        assert isinstance(found, batch_prepare.PreparedEdges)
        found.texts = [found.texts[0], object()]  # unbindable: the second row's insert raises
        spoilt.append(found)
        return found

    monkeypatch.setattr(batch_prepare, "prepare", spoil)
    items = [_edge("knows", "1:ann", "1:bob", {"weight": 0.5}), _edge("knows", "1:bob", "1:ann", {"weight": 0.5})]
    assert strict_graph.traverse(_ir(("inject", *items), ("hgAddEdges", True), ("id",))) == [
        "S1:ann>1>1>>S1:bob", "S1:bob>1>1>>S1:ann"]
    assert len(spoilt) == 1
    rows = _rows(strict_graph)
    assert [(r[0], r[5]) for r in rows] == [("S1:ann>1>1>>S1:bob", '{"weight":0.5}'), ("S1:bob>1>1>>S1:ann", '{"weight":0.5}')]
