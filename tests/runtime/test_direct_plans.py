"""Direct plans (traversal/direct.py, runtime/direct.py, runtime/direct_scripts.py): every
qualifying shape answers exactly what the ordinary pipeline answers (values and their Java
types, elements with their properties, empty lists for unknown ids), and everything that
must not take the direct route does not.

Each comparison runs the same call twice on the same graph: once with the direct route on
(asserting it was taken) and once with `direct.ENABLED` off, which sends the call through
`Session` + step pipeline as before.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine import traversal as engine
from gremlin_engine.errors import TraversalCancelled
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import api, direct, direct_scripts
from gremlin_engine.runtime.tx_session import open_session
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.ir import TraversalIR
from tests.runtime.conftest import _open, typed, with_schema

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("propertykey", {"name": "age", "data_type": "INT"}),
    ("propertykey", {"name": "score", "data_type": "DOUBLE"}),
    ("propertykey", {"name": "tags", "data_type": "TEXT", "cardinality": "LIST"}),
    ("propertykey", {"name": "weight", "data_type": "DOUBLE"}),
    ("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER",
                     "properties": ["name", "age", "score", "tags"], "nullable_keys": ["age", "score", "tags"]}),
    ("vertexlabel", {"name": "thing", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"]}),
    ("vertexlabel", {"name": "blob", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"]}),
    ("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person",
                   "properties": ["weight"], "nullable_keys": ["weight"]}),
    ("edgelabel", {"name": "likes", "source_label": "person", "target_label": "thing"}),
    ("indexlabel", {"name": "personByName", "base_type": "VERTEX_LABEL", "base_value": "person",
                    "index_type": "SECONDARY", "fields": ["name"]}),
    ("indexlabel", {"name": "thingByName", "base_type": "VERTEX_LABEL", "base_value": "thing",
                    "index_type": "SECONDARY", "fields": ["name"]}),
)

BLOB = uuid.UUID("12345678-1234-5678-1234-567812345678")


def _build(graph: Graph) -> None:
    with_schema(graph, SCHEMA)
    with api.write_access(graph) as a:
        people = [a.add_vertex("person", Long(i), [("name", f"p{i}"), ("age", 20 + i), ("score", i / 2),
                                                   ("tags", "x"), ("tags", f"t{i}")]) for i in range(1, 9)]
        people.append(a.add_vertex("person", Long(3_000_000_000), [("name", "big")]))
        things = [a.add_vertex("thing", f"t{i}", [("name", "shared" if i < 2 else f"thing{i}")]) for i in range(3)]
        a.add_vertex("blob", BLOB, [("name", "blob")])
        for i, v in enumerate(people[:8]):
            for d in (1, 2, 3):
                a.add_edge("knows", v, people[(i + d) % 8], None, [("weight", d / 4)])
            a.add_edge("likes", v, things[i % 3])
        a.add_edge("knows", people[0], people[0], None, [("weight", 1.0)])  # a self-loop
        a.add_edge("knows", people[8], people[0], None, [])


@pytest.fixture
def graph(registry: GraphRegistry, tmp_path: Path) -> Graph:
    g = _open(registry, tmp_path, "hugegraph", "strict")
    _build(g)
    return g


@pytest.fixture
def pipeline(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Runs a callable with the direct route switched off."""

    def run(fn: Any, *args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(direct, "ENABLED", False)
        try:
            return fn(*args, **kwargs)
        finally:
            monkeypatch.setattr(direct, "ENABLED", True)

    return run


def _plan_of(graph: Graph, script: str, bindings: dict[str, Any]) -> Any:
    entry = graph.registry.direct_scripts.get((script, graph.name, ()))  # type: ignore[union-attr]
    if entry is None or not entry.names:
        return None
    return entry.plans.get(direct_scripts._signature(entry.names, bindings))


def _same(graph: Graph, pipeline: Any, script: str, bindings: dict[str, Any], *, direct_route: bool = True) -> list[Any]:
    """The script's answer by both routes (the first call learns, the next ones take the
    direct route when it qualifies); asserts they agree, with Java types."""
    first = graph.execute(script, bindings=bindings)
    fast = graph.execute(script, bindings=bindings)
    plain = pipeline(graph.execute, script, bindings=bindings)
    assert typed(first) == typed(plain)
    assert typed(fast) == typed(plain)
    plan = _plan_of(graph, script, bindings)
    assert (plan is not None) == direct_route, (script, bindings, plan)
    return fast


# ---- the qualifying shapes ---------------------------------------------------------------

@pytest.mark.parametrize("tail", [
    "values('name')", "values()", "values('tags')", "values('name', 'age')", "values('score', 'nope')",
    "id()", "label()",
])
def test_point_shapes(graph: Graph, pipeline: Any, tail: str) -> None:
    script = f"g.V(vid).{tail}"
    for vid in (3, Long(3), Int(3), 3_000_000_000, 999, "3", BLOB):
        _same(graph, pipeline, script, {"vid": vid})
    assert _same(graph, pipeline, script, {"vid": 3})  # found: not a vacuous comparison


def test_point_values_keep_java_types(graph: Graph) -> None:
    assert typed(graph.execute("g.V(vid).values('age')", bindings={"vid": 4})) == [(int, 24)]
    assert typed(graph.execute("g.V(vid).values('age')", bindings={"vid": 4})) == [(int, 24)]
    assert typed(graph.execute("g.V(vid).values('score')", bindings={"vid": 4})) == [(float, 2.0)]
    assert typed(graph.execute("g.V(vid).id()", bindings={"vid": 4})) == [(Long, 4)]
    assert graph.execute("g.V(vid).values('tags')", bindings={"vid": 4}) == ["x", "t4"]
    assert graph.execute("g.V(vid).label()", bindings={"vid": BLOB}) == ["blob"]


@pytest.mark.parametrize("script", [
    "g.V(vid).out('knows').id()", "g.V(vid).out().id()", "g.V(vid).in('knows').id()",
    "g.V(vid).both('knows').id()", "g.V(vid).both().id()", "g.V(vid).out('likes', 'knows').id()",
    "g.V(vid).out('nosuch').id()",
])
def test_hop_ids(graph: Graph, pipeline: Any, script: str) -> None:
    for vid in (1, 2, 3_000_000_000, 77, "t1"):
        _same(graph, pipeline, script, {"vid": vid})
    assert graph.execute("g.V(vid).both('knows').id()", bindings={"vid": 1}).count(Long(1)) == 2  # self-loop twice


@pytest.mark.parametrize("script", [
    "g.V().has('person', 'name', n).id()", "g.V().hasLabel('person').has('name', n).id()",
    "g.V().has('thing', 'name', n).id()", "g.V().has('name', n).id()",
])
def test_index_ids(graph: Graph, pipeline: Any, script: str) -> None:
    for n in ("p3", "shared", "big", "nobody"):
        _same(graph, pipeline, script, {"n": n})
    _same(graph, pipeline, script, {"n": 3})  # a value of another type: matches nothing
    assert graph.execute("g.V().has('thing', 'name', n).id()", bindings={"n": "shared"}) == ["t0", "t1"]


@pytest.mark.parametrize("script", [
    "g.V(vid).out().out().count()", "g.V(vid).out('knows').in('knows').count()",
    "g.V(vid).repeat(out()).times(3).count()", "g.V(vid).both().both().count()",
])
def test_walk_counts(graph: Graph, pipeline: Any, script: str) -> None:
    for vid in (1, 5, 3_000_000_000, 404):
        got = _same(graph, pipeline, script, {"vid": vid})
        assert len(got) == 1 and type(got[0]) is Long
    assert graph.execute("g.V(vid).out().out().count()", bindings={"vid": 404}) == [Long(0)]


def _walk_statements(graph: Graph, script: str, bindings: dict[str, Any]) -> list[str]:
    """The data statements of one direct run of `script` (learnt first)."""
    graph.execute(script, bindings=bindings)
    seen: list[str] = []
    raws = [raw for _c, raw in graph.store._idle]  # the learning run left its connection idle
    assert raws
    for raw in raws:
        raw.set_trace_callback(seen.append)
    try:
        graph.execute(script, bindings=bindings)
    finally:
        for raw in raws:
            raw.set_trace_callback(None)
    return [s for s in seen if "schema_items" not in s and "meta" not in s]


@pytest.mark.parametrize("script", [
    "g.V(vid).out().out().count()", "g.V(vid).both().both().count()", "g.V(vid).both('knows').both('calls').count()",
    "g.V(vid).repeat(both()).times(3).count()", "g.V(vid).in('calls').both('calls', 'knows').count()",
    "g.V(vid).out('calls').out('calls').count()", "g.V(vid).repeat(out()).times(4).count()",
])
def test_walk_counts_equal_the_unfused_walk(graph: Graph, pipeline: Any, script: str) -> None:
    """The one-statement walk (`walk_count_from_id`) against the steps themselves (the walk
    count strategy off): self-loops count twice under `both`, and parallel edges (a label
    with a sort key allows several between one pair) once each."""
    for kind, body in (("propertykey", {"name": "at", "data_type": "INT"}),
                       ("edgelabel", {"name": "calls", "source_label": "person", "target_label": "person",
                                      "frequency": "MULTIPLE", "sort_keys": ["at"], "properties": ["at"]})):
        graph.schema.create(kind, body)
    with api.write_access(graph) as a:
        one, two = Vertex(Long(1), "person"), Vertex(Long(2), "person")
        for at in range(3):
            a.add_edge("calls", one, two, None, [("at", at)])
        a.add_edge("calls", two, two, None, [("at", 9)])
        a.add_edge("calls", one, one, None, [("at", 9)])
    unfused = script.replace("g.V(", "g.withoutStrategies(WalkCountStrategy).V(", 1)
    counts = []
    for vid in (1, 2, 5, 3_000_000_000, 404, "1"):
        got = _same(graph, pipeline, script, {"vid": vid})
        assert typed(got) == typed(graph.execute(unfused, bindings={"vid": vid})), (script, vid)
        counts.append(got[0])
    assert max(counts) > 3 and counts[-2:] == [Long(0), Long(0)]


def test_a_point_walk_count_is_one_statement(tmp_path: Path) -> None:
    """Up to three hops from one id: one statement, no BEGIN (the statement is its own
    snapshot); four hops keep the frontier walk inside a transaction."""
    registry = GraphRegistry(evaluation_timeout_ms=0)
    cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "walk.db"))
    GraphRegistry.init_store(cfg)
    try:
        g = registry.open(cfg)
        _build(g)
        stmts = _walk_statements(g, "g.V(vid).out().out().count()", {"vid": 1})
        assert len(stmts) == 1 and stmts[0].startswith("SELECT count(*) AS c FROM vertices AS s"), stmts
        stmts = _walk_statements(g, "g.V(vid).repeat(both()).times(3).count()", {"vid": 1})
        assert len(stmts) == 1 and stmts[0].count("UNION ALL") == 7, stmts
        stmts = _walk_statements(g, "g.V(vid).repeat(out()).times(4).count()", {"vid": 1})
        assert stmts[0] == "BEGIN" and any(s.startswith("WITH") for s in stmts), stmts
    finally:
        registry.close_all()


def test_literal_ids_take_the_direct_route(graph: Graph, pipeline: Any) -> None:
    for script in ("g.V(3).values('name')", "g.V(3L).out('knows').id()", "g.V().has('person', 'name', 'p2').id()"):
        got = _same(graph, pipeline, script, {})
        assert got


def test_bytecode_and_rest_irs(graph: Graph, pipeline: Any) -> None:
    """`graph.traverse(ir)` (REST handlers, bytecode): the same shapes, plus a bare
    `V(id)` / `E(id)` whose elements come back loaded."""
    for ident in (Long(2), Long(3_000_000_000), Long(99), "t1", BLOB):
        ir = TraversalIR().then("V", ident)
        assert engine.direct_plan(ir) is not None
        fast = graph.traverse(ir)
        plain = pipeline(graph.traverse, ir)
        assert fast == plain
        for a, b in zip(fast, plain, strict=True):
            assert type(a) is Vertex and a.label == b.label and a.loaded
            assert [(p.key, p.value, p.id) for p in a.properties()] == [(p.key, p.value, p.id) for p in b.properties()]
    eid = graph.execute("g.V(1).outE('knows').id()")[0]
    ir = TraversalIR().then("E", eid)
    assert engine.direct_plan(ir) is not None
    fast, plain = graph.traverse(ir), pipeline(graph.traverse, ir)
    assert fast == plain and type(fast[0]) is Edge
    assert (fast[0].out_v, fast[0].in_v, fast[0].label) == (plain[0].out_v, plain[0].in_v, plain[0].label)
    assert dict(fast[0]._props) == dict(plain[0]._props)
    for ir in (TraversalIR().then("V", Long(1)).then("values", "name"),
               TraversalIR().then("V", Long(1)).then("out", "knows").then("id")):
        assert engine.direct_plan(ir) is not None
        assert typed(graph.traverse(ir)) == typed(pipeline(graph.traverse, ir))


# ---- what must not take the direct route -------------------------------------------------

@pytest.mark.parametrize("script", [
    "g.V(vid).out('knows').path()",
    "g.withSideEffect('a', 1).V(vid).values('name')",
    "g.withoutStrategies(PointLookupStrategy).V(vid).values('name')",
    "g.V(vid).values('name').toSet()",
    "g.V(vid).values('name').next()",
    "g.V(vid).as('a').values('name')",
    "g.V(vid, vid).values('name')",
    "g.V(vid).out('knows').id().limit(1)",
    "g.withBulk(false).V(vid).out().out().count()",
    "g.V(vid).values('name'); g.V(vid).values('name')",
])
def test_other_shapes_keep_the_pipeline(graph: Graph, pipeline: Any, script: str) -> None:
    _same(graph, pipeline, script, {"vid": 2}, direct_route=False)


def test_a_binding_outside_a_slot_is_never_cached_by_shape(graph: Graph, pipeline: Any) -> None:
    script = "g.V(vid).values(key)"
    assert _same(graph, pipeline, script, {"vid": 2, "key": "name"}, direct_route=False) == ["p2"]
    assert _same(graph, pipeline, script, {"vid": 2, "key": "age"}, direct_route=False) == [22]


def test_a_binding_of_another_type_is_its_own_plan(graph: Graph, pipeline: Any) -> None:
    script = "g.V(vid).values('name')"
    assert _same(graph, pipeline, script, {"vid": 2}) == ["p2"]
    assert _same(graph, pipeline, script, {"vid": 2.0}, direct_route=False) == []
    assert _same(graph, pipeline, script, {"vid": True}, direct_route=False) == []
    assert _same(graph, pipeline, script, {"vid": "2"}) == []
    assert _same(graph, pipeline, script, {"vid": 3_000_000_000}) == ["big"]
    entry = graph.registry.direct_scripts[(script, "hugegraph", ())]  # type: ignore[index]
    assert len([p for p in entry.plans.values() if p is not None]) == 3  # int32, str, int64


def test_a_binding_named_like_the_source_is_not_planned(graph: Graph, pipeline: Any) -> None:
    with pytest.raises(Exception):  # noqa: B017 - the interpreter's own error, whatever it is
        graph.execute("g.V(vid).values('name')", bindings={"g": 1, "vid": 2})
    assert _plan_of(graph, "g.V(vid).values('name')", {"g": 1, "vid": 2}) is None


def test_pending_writes_of_this_thread_are_seen(graph: Graph) -> None:
    script = "g.V(vid).values('name')"
    assert graph.execute(script, bindings={"vid": 2}) == ["p2"]
    assert graph.execute(script, bindings={"vid": 2}) == ["p2"]  # learnt
    if graph.store.memory:
        return  # a memory store's writer holds the lock every reader waits for
    with api.write_access(graph) as a:
        a.add_vertex("person", Long(500), [("name", "fresh")])
        assert graph.execute(script, bindings={"vid": 500}) == ["fresh"]
        assert graph.traverse(TraversalIR().then("V", Long(500)))[0].value("name") == "fresh"
        assert graph.execute("g.V(vid).out('knows').id()", bindings={"vid": 500}) == []
    assert graph.execute(script, bindings={"vid": 500}) == ["fresh"]


def test_a_session_with_pending_writes_reads_its_own(graph: Graph) -> None:
    if graph.store.memory:
        pytest.skip("a memory store's session holds the lock the outside reader waits for")
    script = "g.V(vid).values('name')"
    graph.execute(script, bindings={"vid": 2})
    session = open_session(graph)
    try:
        session.execute("g.addV('person').property(T.id, 600L).property('name', 'pending')")
        assert session.execute(script, bindings={"vid": 600}) == ["pending"]
        assert graph.execute(script, bindings={"vid": 600}) == []  # not committed: not seen outside
        session.commit()
    finally:
        session.close()
    assert graph.execute(script, bindings={"vid": 600}) == ["pending"]


def test_schema_changes_between_runs(graph: Graph, pipeline: Any) -> None:
    script = "g.V().has('person', 'name', n).id()"
    assert _same(graph, pipeline, script, {"n": "p4"}) == [Long(4)]
    task = graph.schema.remove("indexlabel", "personByName")
    if task:
        assert graph.tasks.wait(task, 30)["task_status"] == "success"
    # no index now: the direct plan declines and the general path answers (strict mode
    # refuses an unindexed property query the same way on both routes)
    fast_err = plain_err = None
    try:
        fast = graph.execute(script, bindings={"n": "p4"})
    except Exception as exc:
        fast, fast_err = None, (type(exc), str(exc))
    try:
        plain = graph.execute(script, bindings={"n": "p4"})
    except Exception as exc:
        plain, plain_err = None, (type(exc), str(exc))
    assert (fast, fast_err) == (plain, plain_err)
    _el, task = graph.schema.create("indexlabel", {"name": "personByName2", "base_type": "VERTEX_LABEL",
                                                   "base_value": "person", "index_type": "SECONDARY",
                                                   "fields": ["name"]})
    if task:
        assert graph.tasks.wait(task, 30)["task_status"] == "success"
    assert _same(graph, pipeline, script, {"n": "p4"}) == [Long(4)]
    # a new edge label is seen at once by hop plans
    _el, _t = graph.schema.create("edgelabel", {"name": "admires", "source_label": "person", "target_label": "person"})
    with api.write_access(graph) as a:
        a.add_edge("admires", Vertex(Long(1), "person"), Vertex(Long(2), "person"))
    assert _same(graph, pipeline, "g.V(vid).out('admires').id()", {"vid": 1}) == [Long(2)]


def test_cancel_and_timeout_before_the_read(graph: Graph) -> None:
    script = "g.V(vid).values('name')"
    graph.execute(script, bindings={"vid": 2})
    token = CancelToken()
    token.cancel()
    with pytest.raises(TraversalCancelled):
        graph.execute(script, bindings={"vid": 2}, cancel=token)
    with pytest.raises(TraversalCancelled):
        graph.traverse(TraversalIR().then("V", Long(2)), cancel=token)
    with pytest.raises(TraversalCancelled):
        graph.execute("g.V(vid).out().out().count()", bindings={"vid": 2}, cancel=token)
    assert graph.execute(script, bindings={"vid": 2}, timeout_ms=5000) == ["p2"]


def test_graphs_without_strategies_or_in_auto_mode_keep_the_pipeline(tmp_path: Path) -> None:
    registry = GraphRegistry(evaluation_timeout_ms=0)
    try:
        plain = registry.open(GraphConfig(name="plain", backend="memory", extra={"gremlin.strategies": "none"}))
        auto = registry.open(GraphConfig(name="tinker", backend="memory", schema_mode="auto"))
        for g in (plain, auto):
            assert not direct.usable(g)
        auto.execute("g.addV('person').property(T.id, 1).property('name', 'a')")
        for _ in range(2):
            assert auto.execute("g.V(vid).values('name')", bindings={"vid": 1}) == ["a"]
            assert auto.execute("g.V(vid).values('name')", bindings={"vid": "1"}) == ["a"]  # auto finds Long 1
    finally:
        registry.close_all()


def test_the_script_table_is_emptied_when_graphs_change(graph: Graph, tmp_path: Path) -> None:
    registry = graph.registry
    assert registry is not None
    graph.execute("g.V(vid).values('name')", bindings={"vid": 2})
    assert registry.direct_scripts
    other = registry.open(GraphConfig(name="other", backend="memory"))
    assert registry.direct_scripts == {}
    graph.execute("g.V(vid).values('name')", bindings={"vid": 2})
    registry.drop(other.name)
    assert registry.direct_scripts == {}


def test_aliases_are_part_of_the_key(graph: Graph, pipeline: Any) -> None:
    registry = graph.registry
    assert registry is not None
    script = "x.V(vid).values('name')"
    for _ in range(2):
        got = registry.execute(script, {"vid": 2}, {"x": "__g_hugegraph"}, graph="hugegraph")
        assert got == ["p2"]
    with pytest.raises(Exception):  # noqa: B017 - `x` is unbound without the alias
        registry.execute(script, {"vid": 2}, None, graph="hugegraph")


def test_storage_errors_are_translated(graph: Graph, pipeline: Any) -> None:
    script = "g.V(vid).values('name')"
    graph.execute(script, bindings={"vid": 2})
    assert _plan_of(graph, script, {"vid": 2}) is not None
    graph.store.close()
    with pytest.raises(Exception) as fast:
        graph.execute(script, bindings={"vid": 2})
    with pytest.raises(Exception) as plain:
        pipeline(graph.execute, script, bindings={"vid": 2})
    assert (type(fast.value), str(fast.value)) == (type(plain.value), str(plain.value))


def test_the_inline_signature_class_is_slot_class() -> None:
    from gremlin_engine.traversal.slots import slot_class

    for v in (0, 1, -1, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1,
              Int(5), Long(5), Long(2**40), True, False, 1.0, "x", "", BLOB, None, [1], (1,), {"a": 1}):
        assert direct_scripts._class_of(v) == slot_class(v), v


def test_the_element_key_is_the_shape_key() -> None:
    for ident in (Long(1), 1, 2**40, "1:marko", "S1:a>2>>S1:b", BLOB, Int(3)):
        for name in ("V", "E"):
            ir = TraversalIR().then(name, ident)
            values: list[Any] = []
            assert engine._element_key(ir, True) == (True, engine._shape_ir(ir, values)), ir
            assert values == [ident]
    for ir in (TraversalIR().then("V"), TraversalIR().then("V", 1, 2), TraversalIR().then("V", 1.5),
               TraversalIR().then("V", 1).then("id"), TraversalIR().then("V", {"a": 1}),
               TraversalIR(anonymous=True).then("V", 1)):
        assert engine._element_key(ir, True) is None, ir


def test_the_equality_retest_is_props_match_raw() -> None:
    import orjson

    from gremlin_engine.runtime.reads import _props_match_raw
    from gremlin_engine.traversal.predicates import P

    docs = [None, b"", b"{}", orjson.dumps({"name": "a"}), orjson.dumps({"name": ["a", "b"]}),
            orjson.dumps({"name": "b"}), orjson.dumps({"name": 1}), orjson.dumps({"name": {"@v": "a"}}),
            orjson.dumps({"other": "a"}), orjson.dumps({"name": []}), orjson.dumps({"name": 2.5})]
    for raw in docs:
        for value in ("a", "b", 1, Long(1), 2.5, "", None):
            p = P("eq", value)
            assert direct._holds(raw, "name", p, value) == _props_match_raw([("name", p)], raw), (raw, value)
