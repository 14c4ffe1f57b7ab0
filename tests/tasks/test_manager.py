"""TaskManager and schema jobs over real stores: index builds, label removal, cancel/delete
rules, restart recovery, task map shapes."""

from __future__ import annotations

import threading
import time

import orjson
import pytest

from gremlin_engine import GraphConfig, GraphRegistry
from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.schema import indexing
from gremlin_engine.tasks.model import java_hashmap_order, task_json
from storage import IndexQuery

DETAIL_ORDER = ["task_name", "task_progress", "task_create", "task_status", "task_update", "task_result",
                "task_retries", "id", "task_type", "task_callable", "task_input", "task_server"]


def _schema(graph) -> None:
    s = graph.schema
    s.create("propertykey", {"name": "name"})
    s.create("propertykey", {"name": "age", "data_type": "INT"})
    s.create("propertykey", {"name": "city"})
    s.create("propertykey", {"name": "weight", "data_type": "DOUBLE"})
    s.create("vertexlabel", {"name": "person", "properties": ["name", "age", "city"], "primary_keys": ["name"],
                             "nullable_keys": ["age", "city"]})
    s.create("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person",
                           "properties": ["weight"]})


def _people(graph, n: int) -> list[int]:
    person = graph.schema.vertex_label("person")
    cities = ["Beijing", "Shanghai", "Paris"]
    with graph.store.write() as tx:
        return tx.elements.vertices_insert([
            (f"{person.id}:p{i}", person.id, orjson.dumps({"name": f"p{i}", "age": 20 + i % 10, "city": cities[i % 3]}).decode())
            for i in range(n)
        ])


def test_index_build_task_fills_entries_for_existing_data(graph):
    _schema(graph)
    keys = _people(graph, 2500)  # more than one job batch
    il, task_id = graph.schema.create("indexlabel", {"name": "personByCity", "base_type": "VERTEX_LABEL",
                                                     "base_value": "person", "index_type": "SECONDARY",
                                                     "fields": ["city"]})
    done = graph.tasks.wait(task_id)
    assert done["task_status"] == "success" and done["task_type"] == "rebuild_index"
    assert done["task_name"] == f"INDEX_LABEL:{il.id}:personByCity"
    assert done["task_callable"] == "org.apache.hugegraph.job.schema.IndexLabelRebuildJob"
    with graph.store.read() as tx:
        paris = tx.index.read(IndexQuery(il.id), [graph.schema.index_lookup_value(il, ["Paris"])])
    assert sorted(paris) == sorted(k for i, k in enumerate(keys) if i % 3 == 2)
    assert len(paris) == 833
    assert graph.schema.index_label("personByCity").status.value == "CREATED"


def test_range_index_build_answers_range_lookups(graph):
    _schema(graph)
    keys = _people(graph, 100)
    il, task_id = graph.schema.create("indexlabel", {"name": "personByAge", "base_type": "VERTEX_LABEL",
                                                     "base_value": "person", "index_type": "RANGE", "fields": ["age"]})
    graph.tasks.wait(task_id)
    with graph.store.read() as tx:
        old = tx.index.read(IndexQuery(il.id, True, lo_incl=True, hi_incl=True), (28, None))
    assert sorted(old) == sorted(k for i, k in enumerate(keys) if 20 + i % 10 >= 28)
    assert graph.schema.index_entries("vertex", "person", {"name": "x", "age": 31}) == [(il.id, 31)]
    assert indexing.entries_for(il, {"name": "x"}) == []


def test_vertex_label_removal_task_removes_elements_and_indexes(graph):
    _schema(graph)
    s = graph.schema
    s.create("vertexlabel", {"name": "dog", "properties": ["name", "city"], "primary_keys": ["name"]})
    dog = s.vertex_label("dog")
    with graph.store.write() as tx:
        tx.elements.vertices_insert([(f"{dog.id}:d{i}", dog.id, orjson.dumps({"name": f"d{i}", "city": "Rome"}).decode())
                            for i in range(1200)])
    _people(graph, 10)
    il, t = s.create("indexlabel", {"name": "dogByCity", "base_type": "VERTEX_LABEL", "base_value": "dog",
                                    "index_type": "SECONDARY", "fields": ["city"]})
    graph.tasks.wait(t)
    task_id = s.remove("vertexlabel", "dog")
    done = graph.tasks.wait(task_id)
    assert done["task_status"] == "success" and done["task_type"] == "remove_schema"
    assert done["task_name"] == f"VERTEX_LABEL:{dog.id}:dog"
    assert s.vertex_label("dog") is None and s.index_label("dogByCity") is None
    with graph.store.read() as tx:
        assert tx.elements.vertex_count([dog.id]) == 0
        assert tx.elements.vertex_count() == 10
        assert tx.index.index_scan(il.id) == []


def test_vertex_label_still_linked_fails_the_task(graph):
    _schema(graph)
    task_id = graph.schema.remove("vertexlabel", "person")
    done = graph.tasks.wait(task_id)
    assert done["task_status"] == "failed"
    assert done["task_result"] == ("org.apache.hugegraph.HugeException: Not allowed to remove vertex label 'person' "
                                   "because the edge label 'knows' still link with it")
    assert graph.schema.vertex_label("person") is not None


def test_edge_label_removal_task(graph):
    _schema(graph)
    keys = _people(graph, 3)
    knows = graph.schema.edge_label("knows")
    with graph.store.write() as tx:
        for a, b in ((0, 1), (1, 2)):
            tx.elements.edge_insert(f"e{a}{b}", knows.id, keys[a], keys[b], "", orjson.dumps({"weight": 0.5}).decode())
    done = graph.tasks.wait(graph.schema.remove("edgelabel", "knows"))
    assert done["task_status"] == "success"
    with graph.store.read() as tx:
        assert tx.elements.edge_count() == 0 and tx.elements.vertex_count() == 3
    assert graph.schema.edge_label("knows") is None


def _slow_task(graph, started: threading.Event, seconds: float = 5.0) -> int:
    def job(ctx):
        started.set()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ctx.check()
            time.sleep(0.005)
        return "done"

    return graph.tasks.submit("gremlin", "slow", "org.apache.hugegraph.job.GremlinJob", {"gremlin": "slow"}, job)


def test_cancel_running_task_and_rules(graph):
    started = threading.Event()
    task_id = _slow_task(graph, started)
    assert started.wait(5)
    with pytest.raises(IllegalArgument, match=f"Can't delete incomplete task '{task_id}' in status running"):
        graph.tasks.delete(task_id)
    answer = graph.tasks.cancel(task_id)
    assert answer["task_status"] in ("cancelling", "cancelled") and answer["id"] == task_id
    done = graph.tasks.wait(task_id)
    assert done["task_status"] == "cancelled"
    with pytest.raises(IllegalArgument, match=f"Can't cancel task '{task_id}' which is completed or cancelling"):
        graph.tasks.cancel(task_id)
    graph.tasks.delete(task_id)
    with pytest.raises(NotFound, match=f"Can't find task with id '{task_id}'"):
        graph.tasks.get(task_id)
    with pytest.raises(NotFound, match=f"Can't find task with id '{task_id}'"):
        graph.tasks.delete(task_id)


def test_force_delete_incomplete_task(graph):
    started = threading.Event()
    task_id = _slow_task(graph, started)
    assert started.wait(5)
    graph.tasks.delete(task_id, force=True)
    with pytest.raises(NotFound):
        graph.tasks.get(task_id)


def test_task_result_and_list_paging(graph):
    ids = [graph.tasks.submit("gremlin", f"t{i}", "c", None, lambda ctx, i=i: [i, "x"]) for i in range(5)]
    for i in ids:
        assert graph.tasks.wait(i)["task_result"] == orjson.dumps([ids.index(i), "x"]).decode()
    first, page = graph.tasks.list(limit=2, page="")
    assert [t["id"] for t in first] == ids[:2] and page == str(ids[1])
    second, page2 = graph.tasks.list(limit=2, page=page)
    assert [t["id"] for t in second] == ids[2:4]
    assert list(first[0]) == ["task_name", "task_progress", "task_create", "task_status", "task_update",
                              "task_retries", "id", "task_type", "task_server"]
    assert [t["id"] for t in graph.tasks.list(status="SUCCESS", limit=-1)[0]] == ids
    with pytest.raises(IllegalArgument, match="Status value must be in"):
        graph.tasks.list(status="bogus")
    assert [t["id"] for t in graph.tasks.list(ids=[ids[3], 999])[0]] == [ids[3]]


def test_task_map_field_order():
    rec = {"id": 3, "type": "gremlin", "name": "g.V().count()", "status": "success", "progress": 0,
           "create_ms": 1, "update_ms": 2, "retries": 0, "callable": "c", "input": "{}", "result": "[6]",
           "server": "server-1", "dependencies": []}
    assert list(task_json(rec)) == DETAIL_ORDER
    deps = java_hashmap_order(["id", "task_type", "task_name", "task_callable", "task_status", "task_progress",
                               "task_create", "task_retries", "task_update", "task_dependencies", "task_input",
                               "task_result", "task_server"])
    assert deps == ["task_name", "task_status", "task_update", "task_retries", "task_dependencies", "task_callable",
                    "task_progress", "task_create", "task_result", "id", "task_type", "task_input", "task_server"]


def test_restart_marks_running_task_failed(tmp_path):
    cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "g.db"))
    GraphRegistry.init_store(cfg)
    reg = GraphRegistry()
    graph = reg.open(cfg)
    with graph.store.write() as tx:
        running = tx.records.task_insert({"type": "gremlin", "name": "x", "status": "running", "progress": 0,
                                  "create_ms": 1, "retries": 0, "callable": "c", "server": "server-1"})
        cancelling = tx.records.task_insert({"type": "gremlin", "name": "y", "status": "cancelling", "progress": 0,
                                     "create_ms": 1, "retries": 0, "callable": "c"})
    reg.close_all()
    reg2 = GraphRegistry()
    try:
        graph2 = reg2.open(cfg)
        got = graph2.tasks.get(running)
        assert got["task_status"] == "failed"
        assert got["task_result"].startswith("org.apache.hugegraph.HugeException:")
        assert graph2.tasks.get(cancelling)["task_status"] == "cancelled"
    finally:
        reg2.close_all()
