"""`V(id)` alone (a REST GET by id) on the prepared one-statement read (`direct._one_vertex`):
it answers exactly what the general direct path and the pipeline answer (the vertex, its
id's Java type, label, every property value and type, nothing for a missing id), and it
declines (`DECLINED`, so `direct._element` answers) for odd id types, inside a transaction
of this thread, on a memory store and with checkout listeners; it follows schema changes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime import api, direct
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from storage.read_once import DECLINED
from tests.runtime.conftest import counting_checkouts
from tests.runtime.direct_fast_graph import load, loaded_graph


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[Graph]:
    with loaded_graph(tmp_path, evaluation_timeout_ms=30000) as g:
        yield g


def _v(value: Any) -> TraversalIR:
    return TraversalIR((), (Instruction("V", (value,)),))


def _shape(results: list[Any]) -> list[Any]:
    """Everything a REST answer shows of each vertex, with exact types."""
    out = []
    for v in results:
        assert type(v) is Vertex
        props = [(k, [(type(vp.value), vp.value) for vp in vps]) for k, vps in (v._props or {}).items()]
        out.append((type(v.id), v.id, v.label, props))
    return out


def _pipeline(graph: Graph, value: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setattr(direct, "ENABLED", False)
    try:
        return _shape(graph.traverse(_v(value)))
    finally:
        monkeypatch.setattr(direct, "ENABLED", True)


ANSWERED: list[Any] = [1, 2, 6, 99, Long(3), Int(4), 3_000_000_000, Long(3_000_000_000), "t0", "t1", "nope", ""]
DECLINED_IDS: list[Any] = [True, 2.0, uuid.UUID(int=5), Vertex(Long(2), "person")]


@pytest.mark.parametrize("value", ANSWERED, ids=repr)
def test_answers_as_the_general_path_and_the_pipeline(graph: Graph, value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = direct._one_vertex(graph, value)
    assert fast is not DECLINED
    expected = _pipeline(graph, value, monkeypatch)
    assert _shape(fast) == expected
    assert _shape(graph.traverse(_v(value))) == expected
    with graph.store.read() as tx:  # the general direct runner on the same statement
        assert _shape(direct._element(tx, graph, _direct_plan(), [value])) == expected


def _direct_plan() -> Any:
    class _Plan:
        element_kind = "vertex"

    return _Plan()


def test_a_found_vertex_carries_its_properties(graph: Graph) -> None:
    (v,) = graph.traverse(_v(Long(2)))
    assert v.id == Long(2) and type(v.id) is Long and v.label == "person"
    assert [(k, [vp.value for vp in vps]) for k, vps in v._props.items()] == [
        ("name", ["p2"]), ("age", [22]), ("tags", ["x", "t2"])]
    assert type(v._props["age"][0].value) is int
    (t,) = graph.traverse(_v("t1"))
    assert (t.id, t.label, t._props["name"][0].value) == ("t1", "thing", "thing1")
    assert graph.traverse(_v(Long(404))) == []


@pytest.mark.parametrize("value", DECLINED_IDS, ids=repr)
def test_other_id_types_decline_and_answer_as_before(graph: Graph, value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert direct._one_vertex(graph, value) is DECLINED
    assert _shape(graph.traverse(_v(value))) == _pipeline(graph, value, monkeypatch)


def test_inside_a_transaction_it_declines_and_pending_writes_are_seen(graph: Graph) -> None:
    with api.write_access(graph) as a:
        a.add_vertex("person", Long(500), [("name", "fresh")])
        assert direct._one_vertex(graph, 500) is DECLINED
        (v,) = graph.traverse(_v(500))
        assert (v.id, v._props["name"][0].value) == (Long(500), "fresh")
    (v,) = direct._one_vertex(graph, 500)
    assert v._props["name"][0].value == "fresh"


def test_checkout_listeners_see_the_read(graph: Graph) -> None:
    with counting_checkouts(graph) as seen:
        assert direct._one_vertex(graph, 2) is DECLINED
        assert [v.id for v in graph.traverse(_v(2))] == [Long(2)]
        assert seen
    assert [v.id for v in direct._one_vertex(graph, 2)] == [Long(2)]


def test_a_memory_store_declines() -> None:
    registry = GraphRegistry(evaluation_timeout_ms=30000)
    g = registry.open(GraphConfig(name="m", backend="memory", schema_mode="strict"))
    try:
        load(g)
        assert direct._one_vertex(g, 2) is DECLINED
        (v,) = g.traverse(_v(2))
        assert (v.id, v._props["name"][0].value) == (Long(2), "p2")
    finally:
        registry.close_all()


def test_follows_schema_changes_and_clear(graph: Graph) -> None:
    graph.schema.create("vertexlabel", {"name": "late", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]})
    with api.write_access(graph) as a:
        a.add_vertex("late", Long(700), [("name", "l")])
    (v,) = direct._one_vertex(graph, 700)
    assert (v.label, v._props["name"][0].value) == ("late", "l")
    graph.clear()
    assert direct._one_vertex(graph, 700) == []
    load(graph)
    assert [(v.id, v.label) for v in direct._one_vertex(graph, 2)] == [(Long(2), "person")]
