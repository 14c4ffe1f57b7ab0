"""Meta, schema catalogue, graph variables, tasks and clear()."""

from __future__ import annotations

import pytest

from storage import IndexQuery, SchemaRow, StoreConflict, StoreError
from tests.storage.conftest import sqlite_only


def test_meta(store) -> None:
    with store.write() as tx:
        assert tx.schema.meta_get("nope") is None
        tx.schema.meta_set("mode", "NONE")
        tx.schema.meta_set("mode", "LOADING")
        assert tx.schema.meta_get("mode") == "LOADING"


def test_schema_crud_and_ids(store) -> None:
    with store.write() as tx:
        assert [tx.schema.schema_next_id("propertykey") for _ in range(3)] == [1, 2, 3]
        assert tx.schema.schema_next_id("vertexlabel") == 1  # counters are per kind
        tx.schema.schema_put("propertykey", 1, "name", '{"data_type":"TEXT"}')
        tx.schema.schema_put("propertykey", 2, "age", '{"data_type":"INT"}')
        tx.schema.schema_put("vertexlabel", 1, "person", "{}")
        assert tx.schema.schema_get("propertykey", "age") == SchemaRow(2, "age", '{"data_type":"INT"}')
        assert tx.schema.schema_get_id("propertykey", 1) == SchemaRow(1, "name", '{"data_type":"TEXT"}')
        assert tx.schema.schema_get("vertexlabel", "age") is None
        assert tx.schema.schema_get_id("edgelabel", 1) is None
        # upsert by id (rename allowed), names unique per kind
        tx.schema.schema_put("propertykey", 2, "years", '{"data_type":"LONG"}')
        assert tx.schema.schema_get("propertykey", "age") is None
        assert [r.name for r in tx.schema.schema_list("propertykey")] == ["name", "years"]
        with pytest.raises(StoreConflict):
            tx.schema.schema_put("propertykey", 3, "name", "{}")
        tx.schema.schema_put("edgelabel", 7, "name", "{}")  # same name, other kind: fine
        assert tx.schema.schema_next_id("edgelabel") == 8  # an explicit id moves the counter on
        assert tx.schema.schema_delete("propertykey", 1) is True
        assert tx.schema.schema_delete("propertykey", 1) is False
        assert tx.schema.schema_next_id("propertykey") == 4  # deleted ids are not handed out again
        with pytest.raises(StoreError, match="unknown schema kind"):
            tx.schema.schema_list("vertexlabels")


def test_variables(store) -> None:
    with store.write() as tx:
        assert tx.records.var_get("x") is None
        tx.records.var_put("x", '{"type":"int","value":1}')
        tx.records.var_put("b", b"\x00\x01")
        tx.records.var_put("x", '"two"')
        assert tx.records.var_get("x") == '"two"'
        assert tx.records.var_list() == {"b": b"\x00\x01", "x": '"two"'}
        assert tx.records.var_delete("x") is True
        assert tx.records.var_delete("x") is False
        assert tx.records.var_list() == {"b": b"\x00\x01"}


def test_tasks(store) -> None:
    with store.write() as tx:
        t1 = tx.records.task_insert({"type": "gremlin", "name": "count", "status": "new", "progress": 0,
                             "create_ms": 1000, "update_ms": 1000, "retries": 0,
                             "input": '{"gremlin":"g.V().count()"}', "dependencies": []})
        t2 = tx.records.task_insert({"type": "rebuild_index", "status": "running", "dependencies": [t1]})
        t3 = tx.records.task_insert({"type": "gremlin", "status": "success", "result": "[6]"})
        assert (t1, t2, t3) == (t1, t1 + 1, t1 + 2)
        assert tx.records.task_update(t1, {"status": "success", "progress": 100, "update_ms": 2000}) is True
        assert tx.records.task_update(999, {"status": "failed"}) is False
        with pytest.raises(StoreError, match="unknown task fields"):
            tx.records.task_insert({"colour": "red"})
    with store.read() as tx:
        got = tx.records.task_get(t1)
        assert got is not None
        assert (got["id"], got["status"], got["progress"], got["update_ms"], got["name"]) == (
            t1, "success", 100, 2000, "count")
        assert got["input"] == '{"gremlin":"g.V().count()"}'
        assert got["dependencies"] == []
        assert tx.records.task_get(t2)["dependencies"] == [t1]
        assert tx.records.task_get(12345) is None
        assert [t["id"] for t in tx.records.task_list()] == [t1, t2, t3]
        assert [t["id"] for t in tx.records.task_list(status="success")] == [t1, t3]
        assert [t["id"] for t in tx.records.task_list(status=["running", "new"])] == [t2]
        assert [t["id"] for t in tx.records.task_list(limit=2)] == [t1, t2]
        assert [t["id"] for t in tx.records.task_list(after_id=t1, limit=1)] == [t2]
    with store.write() as tx:
        assert tx.records.task_delete(t2) is True
        assert tx.records.task_delete(t2) is False
        t4 = tx.records.task_insert({"type": "x"})
        assert t4 > t3  # ids are not reused


def test_clear_keeps_tasks_and_meta(store) -> None:
    with store.write() as tx:
        a, b = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None)])
        tx.elements.edge_insert("ab", 1, a, b)
        tx.index.index_add(1, "x", a)
        tx.schema.schema_put("vertexlabel", tx.schema.schema_next_id("vertexlabel"), "person", "{}")
        tx.records.var_put("v", "1")
        t = tx.records.task_insert({"type": "gremlin"})
        tx.schema.meta_set("mode", "NONE")
        tx.clear()
    with store.read() as tx:
        assert (tx.elements.vertex_count(), tx.elements.edge_count()) == (0, 0)
        assert tx.index.index_scan(1) == []
        assert tx.schema.schema_list("vertexlabel") == []
        assert tx.records.var_list() == {}
        assert tx.records.task_get(t) is not None
        assert tx.schema.meta_get("mode") == "NONE"
    with store.write() as tx:
        assert tx.schema.schema_next_id("vertexlabel") == 1  # schema ids start again
        assert tx.elements.vertex_insert("a", 1) > b  # element keys do not


@sqlite_only  # reads sqlite_master
def test_clear_keeps_indexes_triggers_and_cascades(store) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("old", 1)
        tx.clear()
        a, b = tx.elements.vertices_insert([("a", 1, None), ("b", 2, None)])
        tx.elements.edge_insert("ab", 1, a, b)
        tx.index.index_add(1, "x", a)
        tx.elements.vertices_delete([a])
        assert tx.elements.edge_count() == 0
        assert tx.index.index_scan(1) == []
        names = {r[0] for r in tx.core.all("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')")}
        assert {"ix_vertices_label", "ix_edges_out", "ix_edges_in", "ix_edges_label", "ix_index_entries_elem",
                "tr_vertices_index_cleanup", "tr_edges_index_cleanup"} <= names


def test_clear_rolls_back(store) -> None:
    with store.write() as tx:
        a = tx.elements.vertex_insert("a", 1)
        tx.index.index_add(1, "x", a)
        tx.schema.schema_put("vertexlabel", 1, "person", "{}")
    with pytest.raises(RuntimeError), store.write() as tx:
        tx.clear()
        raise RuntimeError("undo")
    with store.read() as tx:
        assert [r.id for r in tx.elements.vertices_scan()] == ["a"]
        assert tx.index.read(IndexQuery(1), ["x"]) == [a]
        assert tx.schema.schema_get("vertexlabel", "person") is not None
