"""Vertex JSON's cardinality answers remembered per schema snapshot (`_element_common._settled`):
one pair per snapshot, reused while it stands; a schema change or `clear()` gives a new one,
so a key created or changed later is answered as the schema now says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gremlin_engine.graph import Graph
from gremlin_engine.runtime import api
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from rest_adapter.resources import _element_common as c
from tests.runtime.point_graph import load, loaded_graph


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[Graph]:
    with loaded_graph(tmp_path, evaluation_timeout_ms=30000) as g:
        with api.write_access(g) as a:
            a.add_vertex("person", Long(50), [("name", "solo"), ("tags", "only")])
        yield g


def _get(graph: Graph, vid: object) -> dict[str, object]:
    (v,) = graph.traverse(TraversalIR((), (Instruction("V", (vid,)),)))
    return c.one_vertex_json(graph, v)


def test_one_valued_list_shows_as_a_list_and_the_memo_is_kept(graph: Graph) -> None:
    expected = {"id": 50, "label": "person", "type": "vertex", "properties": {"name": "solo", "tags": ["only"]}}
    assert _get(graph, Long(50)) == expected
    first = c._settled(graph)
    assert first[1] == {"name": False, "tags": True}
    assert _get(graph, Long(50)) == expected  # the second answer from the memo
    assert c._settled(graph) is first
    (v,) = graph.traverse(TraversalIR((), (Instruction("V", (Long(2),)),)))
    assert c.vertices_json(graph, [v]) == [{"id": 2, "label": "person", "type": "vertex",
                                            "properties": {"name": "p2", "age": 22, "tags": ["x", "t2"]}}]


def test_a_schema_change_gives_a_new_memo(graph: Graph) -> None:
    card, multi = c._settled(graph)
    assert card("later") is None  # not in the schema yet
    graph.schema.create("propertykey", {"name": "later", "data_type": "TEXT", "cardinality": "SET"})
    card2, multi2 = c._settled(graph)
    assert multi2 is not multi and multi2 == {}
    assert str(getattr(card2("later"), "value", card2("later"))).upper() == "SET"
    assert _get(graph, Long(50))["properties"] == {"name": "solo", "tags": ["only"]}


def test_clear_gives_a_new_memo(graph: Graph) -> None:
    _get(graph, Long(50))
    before = c._settled(graph)
    graph.clear()
    load(graph)
    with api.write_access(graph) as a:
        a.add_vertex("person", Long(50), [("name", "solo"), ("tags", "only")])
    assert c._settled(graph) is not before
    assert _get(graph, Long(50))["properties"] == {"name": "solo", "tags": ["only"]}
