"""The column lane of batch edge writes must equal the element-by-element plan path.

`BatchWritesMixin._add_edge_columns` prepares a one-label edge batch column by column
(`EdgePlan.prepare_columns`) and writes it without a tuple per element. Every test runs the
same REST-shaped items twice, on two graphs: once as they come (the lane where it applies)
and once with the lane switched off (the per-element `prepare_row` path that was there
before), and compares the ids, the store (values, Java types, the stored text and its SQL
type), the error messages and the rollback. A spy records whether the lane answered, so
each case also pins which path it is meant to exercise.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import batch_prepare, batch_writes
from gremlin_engine.runtime.batch_writes import BatchWritesMixin
from tests.runtime.test_batch_direct_path import _graph, _ir
from tests.runtime.test_batch_writes import snapshot

_LANE = BatchWritesMixin._add_edge_columns


@pytest.fixture(autouse=True)
def _no_prepared_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests pin the lanes themselves: the prepared path that answers such batches
    before them (`runtime/batch_prepare.py`, compared with them in test_batch_prepare.py)
    is switched off."""
    monkeypatch.setattr(batch_prepare, "ENABLED", False)


@pytest.fixture
def lane_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Records, per call of the lane, whether it answered (True) or declined (False)."""
    calls: list[bool] = []

    def spy(self: Any, specs: Any) -> Any:
        made = _LANE(self, specs)
        calls.append(made is not None)
        return made

    monkeypatch.setattr(BatchWritesMixin, "_add_edge_columns", spy)
    yield calls


def _schema(g: Graph) -> Graph:
    s = g.schema
    s.create("propertykey", {"name": "level", "data_type": "INT"})
    s.create("edgelabel", {"name": "ranks", "source_label": "person", "target_label": "person",
                           "properties": ["level", "ok", "weight", "date"],
                           "nullable_keys": ["level", "ok", "weight", "date"]})
    s.create("edgelabel", {"name": "owns", "source_label": "person", "target_label": "item",
                           "properties": ["weight"], "nullable_keys": ["weight"]})
    g.traverse(_ir(("inject", *[{"label": "person", "properties": {"name": n}}
                                for n in ("ann", "bob", "c>d", "e:f!g")]), ("hgAddVertices",)))
    g.traverse(_ir(("inject", {"label": "item", "properties": {"name": "i1"}}), ("hgAddVertices",)))
    return g


def _pair(registry: GraphRegistry, tmp_path: Path) -> tuple[Graph, Graph]:
    return _schema(_graph(registry, tmp_path, "lane")), _schema(_graph(registry, tmp_path, "rows"))


def _rows(g: Graph) -> list[tuple[Any, ...]]:
    """The edge rows as stored: id, label, ends, sort values, the text and its SQL type."""
    with g.store.read() as tx:
        return tx.raw.execute(
            "SELECT id, label_id, out_key, in_key, sort_values, props, typeof(props) FROM edges ORDER BY key"
        ).fetchall()


def _edge(label: str, out_v: str, in_v: str, props: Any, out_label: str = "person",
          in_label: str = "person") -> dict[str, Any]:
    return {"label": label, "outV": out_v, "inV": in_v, "outVLabel": out_label, "inVLabel": in_label,
            "properties": props}


def _run(g: Graph, items: list[Any]) -> tuple[str, Any]:
    try:
        return "ok", g.traverse(_ir(("inject", *items), ("hgAddEdges", True), ("id",)))
    except Exception as exc:  # compared below: same class, same message
        return type(exc).__name__, str(exc)


def _item_id(g: Graph) -> Any:
    return g.traverse(_ir(("V",), ("hasLabel", "item"), ("id",)))[0]


def _compare(pair: tuple[Graph, Graph], items: list[Any], monkeypatch: pytest.MonkeyPatch) -> tuple[str, Any]:
    g1, g2 = pair
    item = _item_id(g1)
    assert item == _item_id(g2)
    items = [{**i, "inV": item} if i["inV"] == "ITEM" else i for i in items]

    def row_path(g: Graph) -> tuple[str, Any]:
        with monkeypatch.context() as m:
            m.setattr(BatchWritesMixin, "_add_edge_columns", lambda self, specs: None)
            return _run(g, [dict(i) for i in items])

    return same_outcome(pair, _rows, lambda g: _run(g, [dict(i) for i in items]), row_path)


def same_outcome(pair: tuple[Graph, Graph], rows: Any, first: Any, second: Any) -> tuple[str, Any]:
    """Runs `first` on the pair's first graph and `second` on the other (the two paths of
    one batch), and asserts they end alike: the same answer (ids, or error class and
    message), the same stored rows and reader's view, and nothing left by a failure."""
    g1, g2 = pair
    before = rows(g1)
    r1 = first(g1)
    r2 = second(g2)
    assert r1 == r2
    assert rows(g1) == rows(g2)
    assert snapshot(g1) == snapshot(g2)
    if r1[0] != "ok":
        assert rows(g1) == before  # all or nothing
    return r1  # type: ignore[no-any-return]


CASES: dict[str, tuple[list[dict[str, Any]], bool]] = {
    # name: (items, whether the lane answers)
    "doubles": ([_edge("knows", "1:ann", "1:bob", {"weight": 0.5}),
                 _edge("knows", "1:bob", "1:ann", {"weight": 1e300})], True),
    "ints as doubles": ([_edge("knows", "1:ann", "1:bob", {"weight": 1}),
                         _edge("knows", "1:bob", "1:ann", {"weight": 2.5})], True),
    "two keys, orders differ": ([_edge("knows", "1:ann", "1:bob", {"date": "d1", "weight": 0.5}),
                                 _edge("knows", "1:bob", "1:ann", {"weight": 2, "date": "d2"})], True),
    "no properties": ([_edge("knows", "1:ann", "1:bob", {}), _edge("knows", "1:bob", "1:ann", {})], True),
    "int, bool, text, double": ([_edge("ranks", "1:ann", "1:bob", {"level": 3, "ok": True, "weight": 1.5,
                                                                    "date": "x"}),
                                 _edge("ranks", "1:ann", "1:c>d", {"level": -(2**31), "ok": False,
                                                                   "weight": 0.0, "date": ""})], True),
    "escaped end ids": ([_edge("knows", "1:c>d", "1:e`:f`!g", {"weight": 0.5}),
                         _edge("knows", "1:e`:f`!g", "1:c>d", {"weight": 0.25})], True),
    "numeric end id": ([_edge("owns", "1:ann", "ITEM", {"weight": 0.5}, in_label="item")], True),
    "repeated edge": ([_edge("knows", "1:ann", "1:bob", {"weight": 0.5}),
                       _edge("knows", "1:ann", "1:bob", {"weight": 0.75})], True),
    "nan": ([_edge("knows", "1:ann", "1:bob", {"weight": float("nan")})], False),
    "huge int as double": ([_edge("knows", "1:ann", "1:bob", {"weight": 10**400})], False),
    "int out of range": ([_edge("ranks", "1:ann", "1:bob", {"level": 2**31})], False),
    "bool as double": ([_edge("knows", "1:ann", "1:bob", {"weight": True})], False),
    "text as double": ([_edge("knows", "1:ann", "1:bob", {"weight": "0.5"})], False),
    "null value": ([_edge("knows", "1:ann", "1:bob", {"weight": None})], False),
    "unknown key": ([_edge("knows", "1:ann", "1:bob", {"nope": 1})], False),
    "other key sets": ([_edge("knows", "1:ann", "1:bob", {"weight": 0.5}),
                        _edge("knows", "1:bob", "1:ann", {"date": "d"})], False),
    "other key counts": ([_edge("knows", "1:ann", "1:bob", {"weight": 0.5}),
                          _edge("knows", "1:bob", "1:ann", {"weight": 0.5, "date": "d"})], False),
    "required key missing": ([_edge("created", "1:ann", "2:lop", {}, in_label="software")], False),
    "link not allowed": ([_edge("knows", "1:ann", "2:lop", {"weight": 0.5}, in_label="software")], False),
    "non-raw key": ([_edge("met", "1:ann", "1:bob", {"date": "d", "weight": 0.5})], False),
    "two labels": ([_edge("knows", "1:ann", "1:bob", {"weight": 0.5}),
                    _edge("ranks", "1:ann", "1:bob", {"level": 1})], False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lane_equals_rows(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          lane_calls: list[bool], case: str) -> None:
    items, lane = CASES[case]
    pair = _pair(registry, tmp_path)
    lane_calls.clear()
    _compare(pair, items, monkeypatch)
    assert lane_calls == [lane]


def test_lane_ids_text_and_types(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 lane_calls: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    status, ids = _compare(pair, CASES["int, bool, text, double"][0] + CASES["escaped end ids"][0], monkeypatch)
    assert status == "ok" and lane_calls == [False]  # two labels: the row path
    lane_calls.clear()
    status, ids = _compare(pair, CASES["ints as doubles"][0], monkeypatch)
    assert status == "ok" and lane_calls == [True]
    assert ids == ["S1:ann>1>1>>S1:bob", "S1:bob>1>1>>S1:ann"]
    rows = _rows(pair[0])
    assert [(r[5], r[6]) for r in rows[-2:]] == [('{"weight":1.0}', "text"), ('{"weight":2.5}', "text")]


def test_lane_upserts_existing_edges(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     lane_calls: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    _compare(pair, CASES["doubles"][0], monkeypatch)
    lane_calls.clear()
    count = len(_rows(pair[0]))
    again = [_edge("knows", "1:ann", "1:bob", {"weight": 0.125}), _edge("knows", "1:ann", "1:c>d", {"weight": 1.0})]
    status, ids = _compare(pair, again, monkeypatch)
    assert status == "ok" and lane_calls == [True]
    assert ids == ["S1:ann>1>1>>S1:bob", "S1:ann>1>1>>S1:c`>d"]
    assert len(_rows(pair[0])) == count + 1  # one upserted, one new


def test_lane_in_loading_mode_needs_only_sort_keys(registry: GraphRegistry, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch, lane_calls: list[bool]) -> None:
    pair = _pair(registry, tmp_path)
    for g in pair:
        g.set_mode("LOADING")
    items = [_edge("created", "1:ann", "2:lop", {}, in_label="software")]  # weight is required, not in LOADING
    status, _ids = _compare(pair, items, monkeypatch)
    assert status == "ok" and lane_calls == [True]


def test_lane_values_are_new_dicts(registry: GraphRegistry, tmp_path: Path) -> None:
    g = _pair(registry, tmp_path)[0]
    props = {"weight": 0.5}
    edges = g.traverse(_ir(("inject", _edge("knows", "1:ann", "1:bob", props)), ("hgAddEdges", True)))
    assert edges[0]._props == {"weight": 0.5} and edges[0]._props is not props


def test_lane_module_flag_is_the_class_method() -> None:
    assert batch_writes.BatchWritesMixin._add_edge_columns is _LANE


# ---- vertices ---------------------------------------------------------------------------------

_VLANE = BatchWritesMixin._add_vertex_columns


def _vrows(g: Graph) -> list[tuple[Any, ...]]:
    with g.store.read() as tx:
        return tx.raw.execute("SELECT id, label_id, props, typeof(props) FROM vertices ORDER BY key").fetchall()


def _vrun(g: Graph, items: list[Any]) -> tuple[str, Any]:
    try:
        return "ok", g.traverse(_ir(("inject", *items), ("hgAddVertices",), ("id",)))
    except Exception as exc:
        return type(exc).__name__, str(exc)


def _vcompare(pair: tuple[Graph, Graph], items: list[Any], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Runs `items` on both graphs (lane, then rows); returns whether the lane answered."""
    g1, g2 = pair
    calls: list[bool] = []

    def spy(self: Any, specs: Any) -> Any:
        made = _VLANE(self, specs)
        calls.append(made is not None)
        return made

    before = _vrows(g1)
    with monkeypatch.context() as m:
        m.setattr(BatchWritesMixin, "_add_vertex_columns", spy)
        r1 = _vrun(g1, [dict(i) for i in items])
    with monkeypatch.context() as m:
        m.setattr(BatchWritesMixin, "_add_vertex_columns", lambda self, specs: None)
        r2 = _vrun(g2, [dict(i) for i in items])
    assert r1 == r2
    assert _vrows(g1) == _vrows(g2)
    assert snapshot(g1) == snapshot(g2)
    if r1[0] != "ok":
        assert _vrows(g1) == before
    return calls


def _person(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"label": "person", "properties": props, **extra}


VCASES: dict[str, tuple[list[dict[str, Any]], bool]] = {
    "plain": ([_person({"name": "zed", "age": 3, "city": "Beijing"}),
               _person({"name": "yan", "age": 40, "city": "Paris"})], True),
    "escaped names": ([_person({"name": "a!b:c", "age": 1}), _person({"name": "d:e", "age": 2}),
                       _person({"name": "f!", "age": 3})], True),
    "keys in other orders": ([_person({"age": 3, "name": "p1", "city": "x"}),
                              _person({"city": "y", "name": "p2", "age": 4})], True),
    "name only": ([_person({"name": "solo"})], True),
    "existing vertex": ([_person({"name": "marko", "age": 99}), _person({"name": "new1", "age": 1})], True),
    "repeated name": ([_person({"name": "twice", "age": 1}), _person({"name": "twice", "age": 2})], True),
    "empty name": ([_person({"name": "", "age": 1})], False),
    "low first char": ([_person({"name": "\u0001x", "age": 1})], False),
    "bool age": ([_person({"name": "b", "age": True})], False),
    "big age": ([_person({"name": "b", "age": 2**31})], False),
    "text age": ([_person({"name": "b", "age": "3"})], False),
    "null city": ([_person({"name": "b", "city": None})], False),
    "other key sets": ([_person({"name": "a", "age": 1}), _person({"name": "b", "city": "x"})], False),
    "list key": ([_person({"name": "a", "tags": ["x"]})], False),
    "id given": ([_person({"name": "a"}, id="x")], False),
    "required key missing": ([{"label": "software", "properties": {"name": "s"}}], False),
    "customized ids": ([{"label": "tag", "id": "t9", "properties": {"name": "n"}}], False),
    "two labels": ([_person({"name": "a"}), {"label": "software", "properties": {"name": "s", "lang": "c"}}], False),
}


@pytest.mark.parametrize("case", sorted(VCASES))
def test_vertex_lane_equals_rows(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 case: str) -> None:
    items, lane = VCASES[case]
    assert _vcompare(_pair(registry, tmp_path), items, monkeypatch) == [lane]


def test_vertex_lane_ids_text_and_index(registry: GraphRegistry, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pair = _pair(registry, tmp_path)
    items = [_person({"city": "Beijing", "age": 7, "name": "a!b:c"}), _person({"name": "q", "age": 8, "city": "x"})]
    assert _vcompare(pair, items, monkeypatch) == [True]
    rows = _vrows(pair[0])[-2:]
    assert rows == [("1:a`!b`:c", 1, '{"name":"a!b:c","age":7,"city":"Beijing"}', "text"),
                    ("1:q", 1, '{"name":"q","age":8,"city":"x"}', "text")]
    assert "1:a`!b`:c" in snapshot(pair[0])["by_city"]


def test_vertex_lane_in_loading_mode(registry: GraphRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pair = _pair(registry, tmp_path)
    for g in pair:
        g.set_mode("LOADING")
    items = [{"label": "software", "properties": {"name": "s1"}}]  # lang is required, not in LOADING
    assert _vcompare(pair, items, monkeypatch) == [True]
