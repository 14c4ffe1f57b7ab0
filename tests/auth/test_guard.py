"""Permissions inside the engine, in process: the elements each principal gets back or
changes, through the engine's entry points with contexts built directly."""

from __future__ import annotations

from typing import Any

import pytest

from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.context import EMBEDDED, GREMLIN_HTTP, REST, ExecutionContext
from gremlin_engine.errors import Forbidden
from gremlin_engine.graph import Graph
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from tests.auth.conftest import BEIJING_READER, BEIJING_WRITER, NO_GREMLIN, NOBODY, user


def script(graph: Graph, text: str, who: Principal, door: str = GREMLIN_HTTP) -> Any:
    return graph.execute(text, ctx=ExecutionContext(who, door))


def ir(*steps: tuple[Any, ...]) -> TraversalIR:
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps))


def rest(graph: Graph, who: Principal, *steps: tuple[Any, ...], strict: bool = False) -> list[Any]:
    return graph.traverse(ir(*steps), ctx=ExecutionContext(who, REST, strict_reads=strict))


def names(graph: Graph) -> set[str]:
    return set(graph.execute("g.V().values('name')"))


def test_lists_drop_what_may_not_be_read(modern: Graph) -> None:
    assert sorted(script(modern, "g.V().values('name')", BEIJING_READER)) == ["josh", "marko"]
    assert script(modern, "g.V().count()", BEIJING_READER) == [2]
    assert script(modern, "g.V().hasLabel('software').count()", BEIJING_READER) == [0]
    assert sorted(script(modern, "g.V().has('age', gt(28)).values('name')", BEIJING_READER)) == ["josh", "marko"]
    # edges are read by their own resource (every edge here), their ends by theirs
    assert script(modern, "g.E().count()", BEIJING_READER) == [6]
    assert script(modern, "g.V().has('name', 'marko').out('knows').values('name')", BEIJING_READER) == ["josh"]
    assert script(modern, "g.V().has('name', 'marko').out().count()", BEIJING_READER) == [1]
    assert script(modern, "g.E().hasLabel('knows').inV().values('name')", BEIJING_READER) == ["josh"]
    # the administrator sees everything
    assert script(modern, "g.V().count()", ANONYMOUS_ADMIN) == [6]


def test_pushed_down_grant_equals_filtering_afterwards(modern: Graph) -> None:
    """The one-resource grant joins the query (label + city = Beijing); the answer is what
    the administrator's answer filtered by the same rule would be, for many query shapes."""
    queries = [
        "g.V()", "g.V().hasLabel('person')", "g.V().hasLabel('software')", "g.V().has('age', gt(28))",
        "g.V().has('city', 'Beijing')", "g.V().has('city', 'Shanghai')", "g.V().limit(1)",
        "g.V().has('person', 'name', 'vadas')", "g.V().has('person', 'name', 'josh')",
    ]
    for q in queries:
        admin = script(modern, q, ANONYMOUS_ADMIN)
        modern_props = {v.id: script(modern, f"g.V('{v.id}').valueMap()", ANONYMOUS_ADMIN)[0] for v in admin}
        expected = [v.id for v in admin if v.label == "person" and modern_props[v.id].get("city") == ["Beijing"]]
        got = [v.id for v in script(modern, q, BEIJING_READER)]
        if q.endswith("limit(1)"):
            assert len(got) == 1 and got[0] in expected, q
        else:
            assert sorted(got) == sorted(expected), q
        assert script(modern, q + ".count()", BEIJING_READER) == [len(expected) if "limit" not in q else 1], q


def test_a_conditioned_grant_over_an_or_is_filtered_afterwards(modern: Graph) -> None:
    """Two resources (OR) cannot be one query: the rows are filtered as they come."""
    who = user("two", {"hugegraph": {"READ": [
        {"type": "VERTEX", "label": "person", "properties": {"age": "P.lt(30)"}},
        {"type": "VERTEX", "label": "software", "properties": {"lang": "java"}},
    ], "EXECUTE": [{"type": "GREMLIN"}]}})
    assert sorted(script(modern, "g.V().values('name')", who)) == ["lop", "marko", "ripple", "vadas"]
    assert script(modern, "g.V().count()", who) == [4]


def test_a_single_element_request_is_403_not_empty(modern: Graph) -> None:
    vadas, marko = "1:vadas", "1:marko"
    assert [v.id for v in rest(modern, BEIJING_READER, ("V", marko), strict=True)] == [marko]
    with pytest.raises(Forbidden, match=r"Permission denied: read Resource\{graph=hugegraph,type=VERTEX,operated=1:vadas\}"):
        rest(modern, BEIJING_READER, ("V", vadas), strict=True)
    with pytest.raises(Forbidden):
        rest(modern, NOBODY, ("V", marko), strict=True)
    # a missing element stays a plain miss; inside a traversal a forbidden one is left out
    assert rest(modern, BEIJING_READER, ("V", "1:nobody"), strict=True) == []
    assert rest(modern, BEIJING_READER, ("V", vadas)) == []


def test_gremlin_needs_execute_on_gremlin_but_rest_does_not(modern: Graph) -> None:
    with pytest.raises(Forbidden, match=r"Permission denied: execute Resource\{graph=hugegraph,type=GREMLIN"):
        script(modern, "g.V().count()", NO_GREMLIN)
    with pytest.raises(Forbidden):  # bytecode through a Gremlin door is a script too
        modern.traverse(ir(("V",), ("count",)), ctx=ExecutionContext(NO_GREMLIN, EMBEDDED))
    assert rest(modern, NO_GREMLIN, ("V",), ("count",)) == [6]


def test_writes_are_checked_on_the_element_as_it_ends_up(modern: Graph) -> None:
    before = names(modern)
    with pytest.raises(Forbidden, match="Permission denied: write"):
        script(modern, "g.addV('person').property('name', 'ann').property('city', 'Shanghai')", BEIJING_WRITER)
    assert names(modern) == before  # rolled back: nothing changed
    script(modern, "g.addV('person').property('name', 'bo').property('city', 'Beijing')", BEIJING_WRITER)
    assert names(modern) == before | {"bo"}
    # moving a vertex out of the grant is a write of the element as it ends up
    with pytest.raises(Forbidden):
        script(modern, "g.V().has('person', 'name', 'bo').property('city', 'Shanghai')", BEIJING_WRITER)
    assert modern.execute("g.V().has('person', 'name', 'bo').values('city')") == ["Beijing"]
    # a vertex outside the grant cannot be changed
    with pytest.raises(Forbidden):
        script(modern, "g.V().has('person', 'name', 'vadas').property('age', 1)", BEIJING_WRITER)
    assert modern.execute("g.V().has('person', 'name', 'vadas').values('age')") == [27]
    # no WRITE on software, nor on edges
    with pytest.raises(Forbidden):
        script(modern, "g.addV('software').property('name', 'x').property('lang', 'c')", BEIJING_WRITER)
    with pytest.raises(Forbidden):
        script(modern, "g.V('1:marko').addE('knows').to(V('1:josh'))", BEIJING_WRITER)
    assert modern.execute("g.E().count()") == [6]


def test_deletes_need_delete(modern: Graph) -> None:
    with pytest.raises(Forbidden, match="Permission denied: delete"):
        script(modern, "g.V().has('person', 'name', 'vadas').drop()", BEIJING_WRITER)
    with pytest.raises(Forbidden):
        script(modern, "g.E().limit(1).drop()", BEIJING_WRITER)
    assert modern.execute("g.V().count()") == [6] and modern.execute("g.E().count()") == [6]
    script(modern, "g.addV('person').property('name', 'bo').property('city', 'Beijing')", BEIJING_WRITER)
    script(modern, "g.V().has('person', 'name', 'bo').drop()", BEIJING_WRITER)
    assert "bo" not in names(modern)
    # what a reader cannot see, it cannot drop: dropping everything drops what it sees
    reader_writer = user("rw", {"hugegraph": {"READ": [{"type": "VERTEX", "label": "software"}],
                                               "DELETE": [{"type": "VERTEX"}, {"type": "EDGE"}],
                                               "EXECUTE": [{"type": "GREMLIN"}]}})
    script(modern, "g.V().drop()", reader_writer)
    assert sorted(names(modern)) == ["josh", "marko", "peter", "vadas"]


def test_rest_batch_writes_are_checked(modern: Graph) -> None:
    items = [{"label": "person", "properties": {"name": "cy", "city": "Beijing"}},
             {"label": "person", "properties": {"name": "di", "city": "Paris"}}]
    with pytest.raises(Forbidden):
        rest(modern, BEIJING_WRITER, ("inject", *items), ("hgAddVertices",), ("id",))
    assert not {"cy", "di"} & names(modern)  # all or nothing
    rest(modern, BEIJING_WRITER, ("inject", items[0]), ("hgAddVertices",), ("id",))
    assert "cy" in names(modern)


def test_traversers_see_only_what_may_be_read(modern: Graph) -> None:
    req = {"source": "1:marko", "max_depth": 1, "direction": "OUT"}
    admin = rest(modern, ANONYMOUS_ADMIN, ("inject", req), ("hg_kout",))[0]
    assert sorted(admin["vertices"]) == ["1:josh", "1:vadas", "2:lop"]
    got = rest(modern, BEIJING_READER, ("inject", req), ("hg_kout",))[0]
    assert sorted(got["vertices"]) == ["1:josh"]
    with pytest.raises(Exception, match="does not exist"):  # an unreadable source is no source
        rest(modern, BEIJING_READER, ("inject", {**req, "source": "1:vadas"}), ("hg_kout",))


def test_administrator_only_operations(modern: Graph) -> None:
    ctx = ExecutionContext(BEIJING_WRITER, REST)
    for call in (lambda: modern.clear(ctx=ctx), lambda: modern.set_mode("LOADING", ctx=ctx),
                 lambda: modern.set_read_mode("ALL", ctx=ctx), lambda: modern.mode_of("mode", ctx=ctx),
                 lambda: modern.mode_of("read_mode", ctx=ctx), lambda: modern.config_text(ctx=ctx),
                 lambda: modern.registry.drop("hugegraph", ctx=ctx)):
        with pytest.raises(Forbidden, match="needs the administrator"):
            call()
    assert modern.mode == "NONE" and modern.execute("g.V().count()") == [6]
    admin = ExecutionContext(ANONYMOUS_ADMIN, REST)
    assert modern.mode_of("mode", ctx=admin) == "NONE"
    modern.clear(ctx=admin)
    assert modern.execute("g.V().count()") == [0]


def test_tasks_need_task_permissions(modern: Graph) -> None:
    tasks = modern.tasks
    with pytest.raises(Forbidden, match="type=TASK"):
        tasks.submit_gremlin("g.V().count()", ctx=ExecutionContext(BEIJING_READER, REST))
    with pytest.raises(Forbidden, match="type=GREMLIN"):
        tasks.submit_gremlin("g.V().count()", ctx=ExecutionContext(NO_GREMLIN, REST))
    with pytest.raises(Forbidden, match="type=TASK"):
        tasks.list(ctx=ExecutionContext(BEIJING_READER, REST))
    jobs = user("jobs", {"hugegraph": {"READ": [BEIJING_READER.role["hugegraph"]["READ"][0], {"type": "TASK"}],  # type: ignore[index]
                                        "WRITE": [{"type": "TASK"}], "EXECUTE": [{"type": "GREMLIN"}]}})
    task_id = tasks.submit_gremlin("g.V().values('name')", ctx=ExecutionContext(jobs, REST))
    done = tasks.wait(task_id, 30)
    assert done["task_status"] == "success"
    # the job ran as its submitter: two Beijing people
    assert sorted(__import__("json").loads(tasks.get(task_id, ctx=ExecutionContext(jobs, REST))["task_result"])) == [
        "josh", "marko"]
    assert [t["id"] for t in tasks.list(ctx=ExecutionContext(jobs, REST))[0]] == [task_id]


def test_a_per_vertex_limit_counts_what_may_be_read(modern: Graph) -> None:
    # marko's out-edges lead to vadas (hidden), josh, lop (hidden): the first readable is josh
    assert script(modern, "g.V().has('name', 'marko').local(out().limit(1)).values('name')", BEIJING_READER) == ["josh"]
    # every edge may be read: the first is marko->vadas, and its hidden end is left out after
    assert script(modern, "g.V().has('name', 'marko').local(outE().limit(1)).inV().values('name')",
                  BEIJING_READER) == []


def test_the_embedded_door(modern: Graph) -> None:
    from gremlin_python.process.anonymous_traversal import traversal

    from gremlin_engine.embedded import EmbeddedConnection

    with EmbeddedConnection(modern, principal=BEIJING_READER) as conn:
        g = traversal().with_(conn)
        assert sorted(g.V().values("name").to_list()) == ["josh", "marko"]
        assert g.V("1:marko").out().values("name").to_list() == ["josh"]
    with EmbeddedConnection(modern, principal=NO_GREMLIN) as conn, pytest.raises(Forbidden):
        traversal().with_(conn).V().count().next()
    with EmbeddedConnection(modern) as conn:  # no principal: the administrator
        assert traversal().with_(conn).V().count().next() == 6


def test_schema_permissions(modern: Graph) -> None:
    """Schema elements are resources too: READ filters listings and refuses a named one,
    WRITE and DELETE guard changes, through the schema service and through a script."""
    who = user("schema", {"hugegraph": {
        "READ": [{"type": "VERTEX_LABEL", "label": "person"}, {"type": "PROPERTY_KEY"}],
        "WRITE": [{"type": "PROPERTY_KEY", "label": "x*"}],
        "EXECUTE": [{"type": "GREMLIN"}],
    }})
    ctx = ExecutionContext(who, REST)
    assert [e.name for e in modern.schema.get_many("vertexlabel", ctx=ctx)] == ["person"]
    assert [e["name"] for e in modern.schema.schema_json(ctx=ctx)["vertexlabels"]] == ["person"]
    assert modern.schema.schema_json(ctx=ctx)["edgelabels"] == []
    assert len(modern.schema.schema_json(ctx=ctx)["propertykeys"]) == len(modern.schema.property_keys())
    with pytest.raises(Forbidden, match="type=VERTEX_LABEL,operated=software"):
        modern.schema.get("vertexlabel", "software", ctx=ctx)
    modern.schema.create("propertykey", {"name": "xp", "data_type": "TEXT"}, ctx=ctx)
    with pytest.raises(Forbidden, match="Permission denied: write"):
        modern.schema.create("propertykey", {"name": "other", "data_type": "TEXT"}, ctx=ctx)
    with pytest.raises(Forbidden, match="Permission denied: delete"):
        modern.schema.remove("propertykey", "xp", ctx=ctx)
    # a script's schema DSL is checked from the context its transaction carries
    with pytest.raises(Forbidden):
        script(modern, "graph.schema().propertyKey('other').asText().create()", who)
    script(modern, "graph.schema().propertyKey('xq').asText().create()", who)
    assert modern.schema.property_key("other") is None and modern.schema.property_key("xq") is not None


def test_variable_permissions(modern: Graph) -> None:
    reader = ExecutionContext(user("vr", {"hugegraph": {"READ": [{"type": "VAR"}]}}), REST)
    modern.variables.set("k", 1)
    assert modern.variables.get("k", ctx=reader) == 1 and modern.variables.list(ctx=reader) == {"k": 1}
    with pytest.raises(Forbidden, match="type=VAR"):
        modern.variables.set("k", 2, ctx=reader)
    with pytest.raises(Forbidden, match="type=VAR"):
        modern.variables.remove("k", ctx=reader)
    with pytest.raises(Forbidden):
        modern.variables.list(ctx=ExecutionContext(BEIJING_READER, REST))
    assert modern.variables.get("k") == 1
