"""The prepared callables of learnt script plans (runtime/direct_fast.py, storage
`read_once.reader`): on a file store a one-binding point, hop or indexed plan gets one, it
answers exactly what `direct.run` and the pipeline answer (values, Java types, empty lists,
errors), and it hands the call back (`SLOW`) in every case `read_once` would not run a bare
statement: this thread inside a transaction, checkout listeners, a closed store, no idle
connection, odd id types, direct plans off; and it follows schema changes and `clear()`."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime import api, direct, direct_fast, direct_scripts
from gremlin_engine.structure.numbers import Int, Long
from storage import read_once, tx_point
from storage.errors import StoreError
from tests.runtime.conftest import counting_checkouts, typed, with_schema
from tests.runtime.direct_fast_graph import learnt_plan, load, loaded_graph

POINT = "g.V(vid).values('name')"
SCRIPTS = {
    "values": POINT,
    "values2": "g.V(vid).values('tags', 'age')",
    "values_all": "g.V(vid).values()",
    "id": "g.V(vid).id()",
    "label": "g.V(vid).label()",
    "out": "g.V(vid).out('knows').id()",
    "both": "g.V(vid).both().id()",
    "in_likes": "g.V(vid).in('likes').id()",
    "none": "g.V(vid).out('nosuch').id()",
}
INDEX = "g.V().has('person', 'name', n).id()"


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[Graph]:
    with loaded_graph(tmp_path, evaluation_timeout_ms=30000) as g:
        yield g


_plan = learnt_plan


def _pipeline(graph: Graph, script: str, bindings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(direct, "ENABLED", False)
    try:
        return graph.execute(script, bindings=bindings)
    finally:
        monkeypatch.setattr(direct, "ENABLED", True)


PROBES: list[Any] = [1, 2, 6, 99, Long(3), Int(4), 3_000_000_000, Long(3_000_000_000), "t0", "nope", ""]


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_point_and_hop_answers_equal_direct_run_and_the_pipeline(graph: Graph, name: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    script = SCRIPTS[name]
    for value in PROBES:
        b = {"vid": value}
        plan = _plan(graph, script, b)
        assert plan.fast is not None, (script, value)
        got = plan.fast(value)
        assert got is not direct_fast.SLOW
        assert typed(got) == typed(direct.run(graph, plan.direct, [value]))
        assert typed(graph.execute(script, bindings=b)) == typed(got)
        assert typed(_pipeline(graph, script, b, monkeypatch)) == typed(got), (script, value)


def test_some_answers_are_the_expected_values(graph: Graph) -> None:
    assert graph.execute(POINT, bindings={"vid": 2}) == ["p2"]
    assert graph.execute(POINT, bindings={"vid": 2}) == ["p2"]
    assert typed(graph.execute(SCRIPTS["values2"], bindings={"vid": 2})) == typed([22, "x", "t2"])  # the row's key order
    assert typed(graph.execute(SCRIPTS["id"], bindings={"vid": 2})) == [(Long, 2)]
    assert graph.execute(SCRIPTS["label"], bindings={"vid": "t1"}) == ["thing"]
    assert graph.execute(SCRIPTS["out"], bindings={"vid": 1}) == [Long(1), Long(2), Long(3)]  # neighbour key order
    assert graph.execute(SCRIPTS["both"], bindings={"vid": 1}).count(Long(1)) == 2
    assert graph.execute(SCRIPTS["in_likes"], bindings={"vid": "t1"}) == [Long(2), Long(4), Long(6)]
    assert graph.execute(SCRIPTS["none"], bindings={"vid": 1}) == []


@pytest.mark.parametrize("value", ["p1", "p3", "nobody", "", 5, Long(7)])
def test_index_answers_equal_direct_run_and_the_pipeline(graph: Graph, value: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    b = {"n": value}
    plan = _plan(graph, INDEX, b)
    assert plan.fast is not None
    got = plan.fast(value)
    assert typed(got) == typed(direct.run(graph, plan.direct, [value]))
    assert typed(graph.execute(INDEX, bindings=b)) == typed(got)
    assert typed(_pipeline(graph, INDEX, b, monkeypatch)) == typed(got)
    if value == "p1":
        assert got == [Long(1), Long(3_000_000_000)]


@pytest.mark.parametrize("value", ["x", "t2", "p2", "", 3])
def test_a_list_valued_key_takes_the_general_test(graph: Graph, value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    script = "g.V().has('person', 'tags', n).id()"
    b = {"n": value}
    plan = _plan(graph, script, b)
    got = plan.fast(value)
    assert typed(got) == typed(direct.run(graph, plan.direct, [value]))
    assert typed(_pipeline(graph, script, b, monkeypatch)) == typed(got)
    if value == "x":
        assert got == [Long(i) for i in range(1, 7)]


@pytest.mark.parametrize("value", [True, 1.0, uuid.UUID(int=1)])
def test_other_id_types_go_back_to_direct_run(graph: Graph, value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for script in (POINT, SCRIPTS["out"]):
        b = {"vid": value}
        graph.execute(script, bindings=b)
        found = direct_scripts.find(graph.registry, graph.name, script, b, None)
        if found is None or found is direct_scripts.LEARN or found.fast is None:
            continue  # no plan for this kind of binding at all
        assert found.fast(value) is direct_fast.SLOW
        assert typed(graph.execute(script, bindings=b)) == typed(_pipeline(graph, script, b, monkeypatch))


def test_inside_a_transaction_of_this_thread_it_declines_and_pending_writes_are_seen(graph: Graph) -> None:
    plan = _plan(graph, POINT, {"vid": 2})
    hop = _plan(graph, SCRIPTS["out"], {"vid": 2})
    with api.write_access(graph) as a:
        fresh = a.add_vertex("person", Long(500), [("name", "fresh")])
        a.add_edge("knows", fresh, next(iter(a.vertices([Long(2)], None, (), None))))
        assert plan.fast(500) is direct_fast.SLOW
        assert hop.fast(500) is direct_fast.SLOW
        assert graph.execute(POINT, bindings={"vid": 500}) == ["fresh"]
        assert graph.execute(SCRIPTS["out"], bindings={"vid": 500}) == [Long(2)]
    assert plan.fast(500) == ["fresh"]
    assert hop.fast(500) == [Long(2)]


def test_checkout_listeners_see_every_read(graph: Graph) -> None:
    """Statement tracing registers a pool checkout listener and is promised a checkout per
    read: the prepared reader then declines and the read goes through the pool."""
    plan = _plan(graph, POINT, {"vid": 2})
    with counting_checkouts(graph) as seen:
        assert plan.fast(2) is direct_fast.SLOW
        assert graph.execute(POINT, bindings={"vid": 2}) == ["p2"]
        assert graph.execute(SCRIPTS["out"], bindings={"vid": 2}) == [Long(3), Long(4)]
        assert len(seen) >= 2
    assert plan.fast(2) == ["p2"]


def test_no_idle_connection_or_closed_store(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = _plan(graph, POINT, {"vid": 2})
    index = _plan(graph, INDEX, {"n": "p2"})
    idle = graph.store._idle
    held = list(idle)
    idle.clear()
    try:
        assert plan.fast(2) is direct_fast.SLOW
        assert graph.execute(POINT, bindings={"vid": 2}) == ["p2"]  # a new checkout answers
    finally:
        idle.extend(held)
    graph.store.close()
    for fast, script, b in ((plan.fast, POINT, {"vid": 2}), (index.fast, INDEX, {"n": "p2"})):
        assert fast(next(iter(b.values()))) is direct_fast.SLOW
        with pytest.raises(Exception) as got:
            graph.execute(script, bindings=b)
        with pytest.raises(Exception) as plain:
            _pipeline(graph, script, b, monkeypatch)
        assert (type(got.value), str(got.value)) == (type(plain.value), str(plain.value))


def test_direct_plans_switched_off(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = _plan(graph, POINT, {"vid": 2})
    monkeypatch.setattr(direct, "ENABLED", False)
    assert plan.fast(2) is direct_fast.SLOW
    assert graph.execute(POINT, bindings={"vid": 2}) == ["p2"]


def test_schema_changes_and_clear_are_followed(graph: Graph) -> None:
    label = SCRIPTS["label"]
    assert graph.execute(label, bindings={"vid": 2}) == ["person"]
    plan = _plan(graph, label, {"vid": 2})
    hop = _plan(graph, SCRIPTS["none"], {"vid": 1})
    assert hop.fast(1) == []
    graph.schema.create("edgelabel", {"name": "nosuch", "source_label": "person", "target_label": "person"})
    with api.write_access(graph) as a:
        one, two = list(a.vertices([Long(1), Long(2)], None, (), None))
        a.add_edge("nosuch", one, two)
    assert hop.fast(1) == [Long(2)]  # the new label's id is in the statement now
    graph.clear()
    with_schema(graph, (("propertykey", {"name": "name", "data_type": "TEXT"}),
                        ("vertexlabel", {"name": "animal", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]})))
    with api.write_access(graph) as a:
        a.add_vertex("animal", Long(2), [("name", "cat")])
    assert plan.fast(2) == ["animal"]
    assert graph.execute(label, bindings={"vid": 2}) == ["animal"]
    assert graph.execute(POINT, bindings={"vid": 2}) == ["cat"]
    assert hop.fast(1) == []


def test_an_undefined_label_id_raises_as_direct_run_does(graph: Graph) -> None:
    plan = _plan(graph, POINT, {"vid": 2})
    with graph.store.write() as tx:
        tx.raw.execute("UPDATE vertices SET label_id = 999 WHERE id = 2")
    with pytest.raises(IllegalArgument) as fast:
        plan.fast(2)
    with pytest.raises(IllegalArgument) as slow:
        direct.run(graph, plan.direct, [2])
    assert str(fast.value) == str(slow.value)


def test_memory_graphs_and_walk_counts_have_no_prepared_callable() -> None:
    registry = GraphRegistry(evaluation_timeout_ms=0)
    try:
        g = registry.open(GraphConfig(name="m", backend="memory"))
        load(g)
        assert _plan(g, POINT, {"vid": 2}).fast is None
    finally:
        registry.close_all()


def test_walks_longer_than_one_chain_have_no_prepared_callable(graph: Graph) -> None:
    """Walk counts of up to three hops have one (tests/runtime/test_direct_fast_walk.py)."""
    assert _plan(graph, "g.V(vid).out().out().out().out().count()", {"vid": 2}).fast is None
    assert _plan(graph, "g.V(vid).out().out().count()", {"vid": 2}).fast is not None


def test_the_reader_translates_driver_errors_and_returns_its_connection(graph: Graph) -> None:
    store = graph.store
    with store.read():
        pass  # leaves one idle connection
    before = len(store._idle)
    bad = read_once.reader(store, "SELECT nosuch FROM vertices WHERE id = ?", one=True)
    with pytest.raises(StoreError) as err:
        bad((1,))
    assert isinstance(err.value.__cause__, sqlite3.Error)
    assert str(err.value).startswith(f"store at {store.display_path}: ")
    assert len(store._idle) == before
    good = read_once.reader(store, tx_point.VERTEX_BY_ID_SQL, one=True)
    assert good((2,))[1] == 2
    assert good((12345,)) is None
    assert len(store._idle) == before
