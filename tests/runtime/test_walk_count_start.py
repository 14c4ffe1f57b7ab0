"""The pipeline's walk count from one root `V(id)` (strategies/walk_count.py `start`): it asks
`walk_count_from_id` (one join-chain statement) before running the start step. Every count
is compared with the steps themselves (`withoutStrategies(WalkCountStrategy)`): ids of every type, missing ids, self-loops,
parallel edges, more hops than one statement takes, auto mode, a template bound with
other ids, pending writes of the same script, cancel.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine import traversal as engine
from gremlin_engine.errors import TraversalCancelled
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import api
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.strategies.walk_count import WalkCountStep
from tests.runtime.conftest import typed, with_schema

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("propertykey", {"name": "at", "data_type": "INT"}),
    ("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]}),
    ("vertexlabel", {"name": "thing", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"]}),
    ("vertexlabel", {"name": "blob", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"]}),
    ("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person"}),
    ("edgelabel", {"name": "likes", "source_label": "person", "target_label": "thing"}),
    ("edgelabel", {"name": "owns", "source_label": "thing", "target_label": "blob"}),
    ("edgelabel", {"name": "calls", "source_label": "person", "target_label": "person",
                   "frequency": "MULTIPLE", "sort_keys": ["at"], "properties": ["at"]}),
)

BLOB = uuid.UUID("12345678-1234-5678-1234-567812345678")
IDS: list[Any] = [1, 2, 5, Long(3), Int(4), 3_000_000_000, 404, "t1", "t9", "1", BLOB, uuid.UUID(int=1)]


def _build(graph: Graph) -> None:
    with_schema(graph, SCHEMA)
    with api.write_access(graph) as a:
        people = [a.add_vertex("person", Long(i), [("name", f"p{i}")]) for i in range(1, 7)]
        people.append(a.add_vertex("person", Long(3_000_000_000), [("name", "big")]))
        things = [a.add_vertex("thing", f"t{i}", [("name", f"t{i}")]) for i in range(3)]
        blob = a.add_vertex("blob", BLOB, [("name", "blob")])
        for i, v in enumerate(people[:6]):
            for d in (1, 2):
                a.add_edge("knows", v, people[(i + d) % 6])
            a.add_edge("likes", v, things[i % 3])
        a.add_edge("knows", people[0], people[0])  # a self-loop
        a.add_edge("knows", people[6], people[0])
        for t in things:
            a.add_edge("owns", t, blob)
        for at in range(3):  # parallel edges
            a.add_edge("calls", people[0], people[1], None, [("at", at)])


def _graph(tmp_path: Path, backend: str, mode: str = "strict") -> tuple[GraphRegistry, Graph]:
    registry = GraphRegistry(evaluation_timeout_ms=0)
    if backend == "file":
        cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "walks.db"), schema_mode=mode)
        GraphRegistry.init_store(cfg)
    else:
        cfg = GraphConfig(name="hugegraph", backend="memory", schema_mode=mode)
    g = registry.open(cfg)
    _build(g)
    return registry, g


@pytest.fixture(params=["file", "memory"])
def graph(request: Any, tmp_path: Path) -> Iterator[Graph]:
    registry, g = _graph(tmp_path, request.param)
    try:
        yield g
    finally:
        registry.close_all()


def _unfused(script: str) -> str:
    return script.replace("g.V(", "g.withoutStrategies(WalkCountStrategy).V(", 1)


WALKS = [
    "g.V(vid).out().out().count()", "g.V(vid).both().both().count()", "g.V(vid).out('knows').in('knows').count()",
    "g.V(vid).repeat(both()).times(3).count()", "g.V(vid).out('calls').both('calls', 'knows').count()",
    "g.V(vid).out('likes').out('owns').count()", "g.V(vid).repeat(out()).times(4).count()",
    "g.V(vid).out().out().count().is(gt(2))", "g.V(vid).out('nosuch').out().count()",
]


@pytest.mark.parametrize("script", WALKS)
def test_counts_equal_the_steps(graph: Graph, script: str) -> None:
    counts = []
    for vid in IDS:
        got = graph.execute(script, bindings={"vid": vid})
        assert typed(got) == typed(graph.execute(_unfused(script), bindings={"vid": vid})), (script, vid)
        counts.extend(got)
    if "is(" not in script and "nosuch" not in script:
        assert max(counts) > 0


def test_literal_ids_and_bytecode(graph: Graph) -> None:
    for vid in ("1", "3L", "'t1'", "3000000000", "404"):
        script = f"g.V({vid}).out().out().count()"
        assert typed(graph.execute(script)) == typed(graph.execute(_unfused(script))), script
    for vid in (Long(1), Long(2), Long(404), "t0"):
        ir = TraversalIR().then("V", vid).then("out").then("out").then("count")
        plain = TraversalIR().with_source("withoutStrategies", "WalkCountStrategy").then("V", vid).then("out")
        assert typed(graph.traverse(ir)) == typed(graph.traverse(plain.then("out").then("count"))), vid


def test_the_start_is_remembered_only_for_one_plain_id() -> None:
    def walk(ir: TraversalIR) -> Any:
        steps = engine.compile_traversal(ir).steps
        found = [s for s in steps if type(s) is WalkCountStep]
        assert len(found) == 1, steps
        return found[0], steps

    # the start is folded into the walk count, which then is the traversal's first step
    step, steps = walk(TraversalIR().then("V", Long(1)).then("out").then("out").then("count"))
    assert steps == [step] and step.start.ids == [Long(1)]
    step, steps = walk(TraversalIR().then("V", "x").then("out").then("out").then("count").then("is", 2))
    assert steps[0] is step and step.start.ids == ["x"]
    for ir in (TraversalIR().then("V", 1, 2).then("out").then("out").then("count"),
               TraversalIR().then("V", 1.5).then("out").then("out").then("count"),
               TraversalIR().then("V", 1).then("hasLabel", "person").then("out").then("out").then("count"),
               TraversalIR().then("V").then("has", "name", "x").then("out").then("out").then("count")):
        step, _steps = walk(ir)
        assert step.start is None, ir
    # four hops: remembered, and `walk_count_from_id` declines at run time (the steps count)
    step, steps = walk(TraversalIR().then("V", 1).then("out").then("in").then("out").then("out").then("count"))
    assert steps == [step] and step.start.ids == [1] and len(step.hops) == 4
    step, _steps = walk(TraversalIR().then("V").then("hasLabel", "person").then("out").then("out").then("count"))
    assert step.start is None and step.source is not None


def test_a_bound_template_walks_from_its_own_id(graph: Graph) -> None:
    """The shape cache binds each run's id into a copy of `V(id)`: the walk count's `start`
    must be that copy, not the template's marker."""
    expected = {vid: graph.execute(_unfused("g.V(vid).out().out().count()"), bindings={"vid": vid}) for vid in IDS}
    assert len({tuple(v) for v in expected.values()}) > 2
    for _round in range(2):
        for vid in IDS:
            ir = TraversalIR().then("V", vid).then("out").then("out").then("count")
            assert typed(graph.traverse(ir)) == typed(expected[vid]), vid


def test_pending_writes_of_the_same_script_are_counted(graph: Graph) -> None:
    """A count after writes in the same script sees them (the walk reads the writer's own
    transaction): it equals the count the steps give once they are committed."""
    count = "g.V(vid).out().out().count()"
    before = graph.execute(count, bindings={"vid": 5})
    script = f"g.V(5).addE('knows').to(V(5)).iterate(); g.V(1).addE('calls').to(V(3)).property('at', 7).iterate(); {count}"
    got = graph.execute(script, bindings={"vid": 5})
    after = graph.execute(_unfused(count), bindings={"vid": 5})
    assert typed(got) == typed(after) and got != before


def test_auto_mode_counts_through_the_steps(tmp_path: Path) -> None:
    registry, g = _graph(tmp_path, "file", "auto")
    try:
        for script in WALKS[:4]:
            for vid in (1, "1", Long(2), 404, "t1"):
                assert typed(g.execute(script, bindings={"vid": vid})) == typed(
                    g.execute(_unfused(script), bindings={"vid": vid})), (script, vid)
    finally:
        registry.close_all()


def test_cancel_and_timeout(graph: Graph) -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(TraversalCancelled):
        graph.execute("g.V(vid).out().out().count()", bindings={"vid": 1}, cancel=token)
    assert graph.execute("g.V(vid).out().out().count()", bindings={"vid": 1}, timeout_ms=5000) == \
        graph.execute(_unfused("g.V(vid).out().out().count()"), bindings={"vid": 1})


def test_vertex_elements_as_ids(graph: Graph) -> None:
    v = Vertex(Long(2), "person")
    ir = TraversalIR().then("V", v).then("out").then("out").then("count")
    plain = TraversalIR().with_source("withoutStrategies", "WalkCountStrategy").then("V", v).then("out").then("out")
    plain = plain.then("count")
    assert typed(graph.traverse(ir)) == typed(graph.traverse(plain))
