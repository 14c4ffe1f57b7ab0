"""The batch write steps' output read by `id()` directly, and `inject()`'s cached children.

`hgAddVertices().id()` / `hgAddEdges(check).id()` skip the element traverser when nothing
records it; these tests pin that every other reader (paths, `as()` labels, other steps,
no `id()` at all) still sees exactly what `t.split(element)` gives.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.graph import Graph
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.steps.source import InjectStep


def _ir(*steps: tuple[Any, ...], anonymous: bool = False) -> TraversalIR:
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps), anonymous)  # type: ignore[arg-type]


def _people(*names: str) -> list[dict[str, Any]]:
    return [{"label": "person", "properties": {"name": n, "age": 20 + i}} for i, n in enumerate(names)]


def test_vertex_ids_equal_element_ids(strict_graph: Graph) -> None:
    items = _people("a1", "a2", "a3")
    ids = strict_graph.traverse(_ir(("inject", *items), ("hgAddVertices",), ("id",)))
    assert [str(i) for i in ids] == ["1:a1", "1:a2", "1:a3"]
    again = strict_graph.traverse(_ir(("inject", *_people("b1", "b2")), ("hgAddVertices",)))
    assert all(isinstance(v, Vertex) for v in again)
    assert [str(v.id) for v in again] == ["1:b1", "1:b2"]
    ages = strict_graph.traverse(_ir(("V", *ids), ("values", "age")))
    assert sorted(ages) == [20, 21, 22]


def test_vertex_ids_with_paths(strict_graph: Graph) -> None:
    """path() tracks paths: the element must stay in the path between the item and its id."""
    items = _people("p1", "p2")
    paths = strict_graph.traverse(_ir(("inject", *items), ("hgAddVertices",), ("id",), ("path",)))
    assert len(paths) == 2
    for item, p in zip(items, paths, strict=True):
        objs = list(p.objects)
        assert len(objs) == 3
        assert objs[0] == item
        assert isinstance(objs[1], Vertex) and objs[1].label == "person"
        assert objs[2] == objs[1].id and str(objs[2]) == f"1:{item['properties']['name']}"


def test_labelled_write_step_keeps_the_element(strict_graph: Graph) -> None:
    items = _people("l1", "l2")
    ir = _ir(("inject", *items), ("hgAddVertices",), ("as", "v"), ("id",), ("as", "i"), ("select", "v", "i"))
    rows = strict_graph.traverse(ir)
    assert [str(r["i"]) for r in rows] == ["1:l1", "1:l2"]
    assert [r["v"].id for r in rows] == [r["i"] for r in rows]
    assert all(isinstance(r["v"], Vertex) for r in rows)


def test_other_readers_of_the_write_step(strict_graph: Graph) -> None:
    items = _people("o1", "o2", "o3")
    assert strict_graph.traverse(_ir(("inject", *items), ("hgAddVertices",), ("label",))) == ["person"] * 3
    assert strict_graph.traverse(_ir(("inject", *_people("o4")), ("hgAddVertices",), ("id",), ("count",))) == [1]


def test_edge_ids_equal_element_ids(modern: Graph) -> None:
    item = {"label": "knows", "outV": "1:marko", "inV": "1:peter", "outVLabel": "person", "inVLabel": "person",
            "properties": {"weight": 0.7}}
    ids = modern.traverse(_ir(("inject", item), ("hgAddEdges", True), ("id",)))
    edges = modern.traverse(_ir(("E", *ids)))
    assert len(ids) == 1 and len(edges) == 1
    e = edges[0]
    assert isinstance(e, Edge) and e.id == ids[0]
    assert (str(e.out_v.id), str(e.in_v.id), e.label) == ("1:marko", "1:peter", "knows")
    paths = modern.traverse(_ir(("inject", item), ("hgAddEdges", True), ("id",), ("path",)))
    objs = list(paths[0].objects)
    assert objs[0] == item and objs[1].id == ids[0] and objs[2] == ids[0]


def test_inject_children_found_once_and_copied() -> None:
    child = CompiledTraversal([], anonymous=True)
    step = InjectStep(1, child, {"a": 2}, child)
    first = step.children()
    assert first == [child, child]
    first.append(child)  # callers may extend the list they get
    assert step.children() == [child, child]
    step.args = (child,)  # a replaced argument tuple is scanned again
    assert step.children() == [child]
    assert InjectStep(*range(500)).children() == []
