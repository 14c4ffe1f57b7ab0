"""Schema REST endpoints through httpx against a real uvicorn server: every family, both
path layouts, exact shapes and status codes (rest-reference.md §4)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from hg_elements import finished_task

G = "/graphs/schemagraph"
GS = "/graphspaces/DEFAULT/graphs/schemagraph"


@pytest.fixture(scope="module")
def schema_server(server_factory):
    return server_factory.start(graphs={"schemagraph": "backend=sqlite\nschema.mode=strict\n"})


@pytest.fixture
def client(schema_server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=schema_server.base_url, timeout=30) as c:
        c.delete(f"{G}/clear", params={"confirm_message": "I'm sure to delete all data"})
        yield c


def wait_task(client: httpx.Client, task_id: int, prefix: str = G) -> dict:
    return finished_task(client, prefix, task_id)


def make_keys(client: httpx.Client) -> None:
    for body in ({"name": "name", "data_type": "TEXT"}, {"name": "age", "data_type": "INT"},
                 {"name": "city"}, {"name": "weight", "data_type": "DOUBLE"}, {"name": "date", "data_type": "DATE"}):
        assert client.post(f"{G}/schema/propertykeys", json=body).status_code == 202


def test_property_keys(client):
    r = client.post(f"{G}/schema/propertykeys", json={"name": "age", "data_type": "INT", "cardinality": "SINGLE"})
    assert r.status_code == 202
    body = r.json()
    assert list(body) == ["property_key", "task_id"] and body["task_id"] == 0
    pk = body["property_key"]
    assert {k: v for k, v in pk.items() if k != "user_data"} == {
        "id": 1, "name": "age", "data_type": "INT", "cardinality": "SINGLE", "aggregate_type": "NONE",
        "write_type": "OLTP", "properties": [], "status": "CREATED"}
    assert list(pk["user_data"]) == ["~create_time"]
    dup = client.post(f"{G}/schema/propertykeys", json={"name": "age", "data_type": "INT"})
    assert dup.status_code == 400
    assert dup.json() == {"exception": "class org.apache.hugegraph.exception.ExistedException",
                          "message": "The property key 'age' has existed", "cause": ""}
    assert client.get(f"{GS}/schema/propertykeys/age").json() == pk
    missing = client.get(f"{G}/schema/propertykeys/nope")
    assert missing.status_code == 404
    assert missing.json()["message"] == "property key with name 'nope' does not exist"
    r = client.put(f"{G}/schema/propertykeys/age/?action=append", json={"name": "age", "user_data": {"min": 0}})
    assert r.status_code == 202 and r.json()["property_key"]["user_data"]["min"] == 0
    r = client.put(f"{G}/schema/propertykeys/age?action=eliminate", json={"name": "age", "user_data": {"min": 0}})
    assert r.status_code == 202 and "min" not in r.json()["property_key"]["user_data"]
    assert client.put(f"{G}/schema/propertykeys/age?action=bad", json={"name": "age"}).status_code == 415
    no_action = client.put(f"{G}/schema/propertykeys/age", json={"name": "age"})
    assert no_action.status_code == 400 and no_action.json()["message"] == "The action param can't be empty"
    assert client.get(f"{G}/schema/propertykeys").json() == {"propertykeys": [client.get(f"{G}/schema/propertykeys/age").json()]}
    assert client.get(f"{G}/schema/propertykeys", params={"names": "nope"}).status_code == 404
    r = client.delete(f"{G}/schema/propertykeys/age")
    assert r.status_code == 202 and r.json() == {"task_id": 0}
    assert client.get(f"{G}/schema/propertykeys/age").status_code == 404


def test_vertex_labels(client):
    make_keys(client)
    r = client.post(f"{G}/schema/vertexlabels", json={
        "name": "person", "id_strategy": "PRIMARY_KEY", "properties": ["name", "age", "city"],
        "primary_keys": ["name"], "nullable_keys": ["city"]})
    assert r.status_code == 201
    vl = r.json()
    assert list(vl) == ["id", "name", "id_strategy", "primary_keys", "nullable_keys", "index_labels",
                        "properties", "status", "ttl", "enable_label_index", "user_data"]
    assert vl["primary_keys"] == ["name"] and vl["properties"] == ["name", "age", "city"] and vl["ttl"] == 0
    bad = client.post(f"{G}/schema/vertexlabels", json={"name": "bad", "properties": ["nope"]})
    assert bad.status_code == 400 and bad.json()["message"] == "Undefined property key: 'nope'"
    r = client.put(f"{G}/schema/vertexlabels/person?action=append", json={
        "name": "person", "properties": ["weight"], "nullable_keys": ["weight"], "user_data": {"x": "y"}})
    assert r.status_code == 200 and r.json()["properties"] == ["name", "age", "city", "weight"]
    assert client.put(f"{G}/schema/vertexlabels/ghost?action=append", json={"name": "ghost"}).json()["message"] == \
        "Can't update vertex label 'ghost' since it doesn't exist"
    r = client.put(f"{G}/schema/vertexlabels/person/?action=eliminate", json={"name": "person", "user_data": {"x": ""}})
    assert r.status_code == 200 and "x" not in r.json()["user_data"]
    assert client.get(f"{G}/schema/vertexlabels").json()["vertexlabels"][0]["name"] == "person"
    r = client.delete(f"{G}/schema/vertexlabels/person")
    assert r.status_code == 202 and list(r.json()) == ["task_id"]
    task = wait_task(client, r.json()["task_id"])
    assert task["task_status"] == "success" and task["task_type"] == "remove_schema"
    assert client.get(f"{G}/schema/vertexlabels/person").status_code == 404
    assert client.delete(f"{G}/schema/vertexlabels/person").status_code == 404


def test_edge_and_index_labels_and_whole_schema(client):
    make_keys(client)
    client.post(f"{G}/schema/vertexlabels", json={"name": "person", "properties": ["name", "age"], "primary_keys": ["name"],
                                                  "nullable_keys": ["age"]})
    client.post(f"{G}/schema/vertexlabels", json={"name": "software", "properties": ["name"], "primary_keys": ["name"]})
    r = client.post(f"{G}/schema/edgelabels", json={"name": "created", "source_label": "person",
                                                    "target_label": "software", "frequency": "SINGLE",
                                                    "properties": ["weight", "date"], "nullable_keys": ["date"]})
    assert r.status_code == 201
    el = r.json()
    assert el["edgelabel_type"] == "NORMAL" and el["links"] == [{"person": "software"}]
    assert el["source_label"] == "person" and el["target_label"] == "software" and el["sort_keys"] == []
    r = client.post(f"{G}/schema/indexlabels", json={"name": "personByAge", "base_type": "VERTEX_LABEL",
                                                     "base_value": "person", "index_type": "RANGE", "fields": ["age"]})
    assert r.status_code == 202
    body = r.json()
    assert list(body) == ["index_label", "task_id"] and body["task_id"] > 0
    assert body["index_label"]["index_type"] == "RANGE"
    assert wait_task(client, body["task_id"])["task_name"] == f"INDEX_LABEL:{body['index_label']['id']}:personByAge"
    il = client.get(f"{G}/schema/indexlabels/personByAge").json()
    assert il == {**body["index_label"], "status": "CREATED"}
    assert list(il) == ["id", "name", "base_type", "base_value", "index_type", "fields", "status", "user_data"]
    whole = client.get(f"{G}/schema").json()
    assert list(whole) == ["propertykeys", "vertexlabels", "edgelabels", "indexlabels"]
    assert whole["indexlabels"][0]["index_type"] == "RANGE_INT"
    assert whole["vertexlabels"][0]["index_labels"] == ["personByAge"]
    put = client.put(f"{G}/schema/indexlabels/personByAge?action=append",
                     json={"name": "personByAge", "base_type": "VERTEX_LABEL"})
    assert put.status_code == 400
    r = client.put(f"{G}/jobs/rebuild/indexlabels/personByAge")
    assert r.status_code == 202 and wait_task(client, r.json()["task_id"])["task_type"] == "rebuild_index"
    r = client.put(f"{GS}/jobs/rebuild/vertexlabels/person")
    assert r.status_code == 202 and wait_task(client, r.json()["task_id"], GS)["task_status"] == "success"
    assert client.put(f"{G}/jobs/rebuild/indexlabels/ghost").status_code == 404
    r = client.delete(f"{G}/schema/indexlabels/personByAge")
    assert r.status_code == 202 and wait_task(client, r.json()["task_id"])["task_status"] == "success"
    assert client.get(f"{G}/schema/vertexlabels/person").json()["index_labels"] == []
    r = client.delete(f"{G}/schema/vertexlabels/software")
    failed = wait_task(client, r.json()["task_id"])
    assert failed["task_status"] == "failed" and "still link with it" in failed["task_result"]
    r = client.delete(f"{G}/schema/edgelabels/created")
    assert wait_task(client, r.json()["task_id"])["task_status"] == "success"


def test_schema_create_throughput(client, record_property):
    """Measures schema-create requests per second over REST (reported, loosely bounded)."""
    n = 200
    started = time.perf_counter()
    for i in range(n):
        assert client.post(f"{G}/schema/propertykeys", json={"name": f"k{i}", "data_type": "INT"}).status_code == 202
    rate = n / (time.perf_counter() - started)
    record_property("schema_creates_per_second", round(rate))
    print(f"\nschema creates per second over REST: {rate:.0f}")
    assert rate > 20
