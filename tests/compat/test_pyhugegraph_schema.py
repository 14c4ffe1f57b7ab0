"""hugegraph-python 1.7.1 (pyhugegraph) creates and reads a whole schema against a real
server: property keys of several types, vertex labels with each id strategy, edge labels,
index labels of each type, ifNotExist (which relies on 404), append/eliminate, removal."""

from __future__ import annotations

import time

import httpx
import pytest

pyhugegraph = pytest.importorskip("pyhugegraph")
from pyhugegraph.client import PyHugeClient  # noqa: E402


@pytest.fixture(scope="module")
def hg_server(server_factory):
    return server_factory.start(graphs={"pyschema": "backend=sqlite\nschema.mode=strict\n"})


@pytest.fixture(scope="module")
def client(hg_server) -> PyHugeClient:
    return PyHugeClient(hg_server.base_url, graph="pyschema", user="admin", pwd="admin")


def _wait_tasks(client: PyHugeClient) -> None:
    deadline = time.monotonic() + 30
    while any(t["task_status"] not in ("success", "failed", "cancelled") for t in client.task().list_tasks()["tasks"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_whole_schema_roundtrip(client, hg_server):
    schema = client.schema()
    schema.propertyKey("name").asText().ifNotExist().create()
    schema.propertyKey("age").asInt().ifNotExist().create()
    schema.propertyKey("score").asDouble().ifNotExist().create()
    schema.propertyKey("born").asDate().ifNotExist().create()
    schema.propertyKey("tags").asText().valueSet().ifNotExist().create()
    schema.propertyKey("visits").asLong().valueList().ifNotExist().create()
    schema.propertyKey("active").asBool().ifNotExist().create()
    # ifNotExist on an existing key skips the POST (GET answers 2xx)
    assert "already exists" in schema.propertyKey("name").asText().ifNotExist().create()

    schema.vertexLabel("person").properties("name", "age", "born", "tags").primaryKeys("name") \
        .nullableKeys("age", "born", "tags").ifNotExist().create()
    schema.vertexLabel("auto").properties("name").useAutomaticId().ifNotExist().create()
    schema.vertexLabel("cs").properties("name").useCustomizeStringId().ifNotExist().create()
    schema.vertexLabel("cn").properties("name").useCustomizeNumberId().ifNotExist().create()
    # pyhugegraph 1.7.1 has no useCustomizeUuidId(): create that one over plain REST
    r = httpx.post(f"{hg_server.base_url}/graphs/pyschema/schema/vertexlabels",
                   json={"name": "cu", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"]})
    assert r.status_code == 201
    schema.vertexLabel("software").properties("name", "score").primaryKeys("name").nullableKeys("score") \
        .ifNotExist().create()
    schema.edgeLabel("created").sourceLabel("person").targetLabel("software").properties("score", "born") \
        .nullableKeys("born").ifNotExist().create()
    schema.edgeLabel("knows").sourceLabel("person").targetLabel("person").multiTimes().properties("born") \
        .sortKeys("born").ifNotExist().create()

    schema.indexLabel("personByAge").onV("person").by("age").range().ifNotExist().create()
    schema.indexLabel("personByBorn").onV("person").by("born").secondary().ifNotExist().create()
    schema.indexLabel("softwareByName").onV("software").by("name", "score").unique().ifNotExist().create()
    schema.indexLabel("createdByScore").onE("created").by("score").shard().ifNotExist().create()
    schema.propertyKey("description").asText().ifNotExist().create()
    schema.vertexLabel("software").properties("description").nullableKeys("description").append()
    schema.indexLabel("softwareByDescription").onV("software").by("description").search().ifNotExist().create()
    _wait_tasks(client)

    pk = schema.getPropertyKey("age")
    assert pk.name == "age" and pk.dataType == "INT" and pk.cardinality == "SINGLE"
    keys = {p.name: (p.dataType, p.cardinality) for p in schema.getPropertyKeys()}
    assert keys == {"name": ("TEXT", "SINGLE"), "age": ("INT", "SINGLE"), "score": ("DOUBLE", "SINGLE"),
                    "born": ("DATE", "SINGLE"), "tags": ("TEXT", "SET"), "visits": ("LONG", "LIST"),
                    "active": ("BOOLEAN", "SINGLE"), "description": ("TEXT", "SINGLE")}
    strategies = {vl.name: vl.idStrategy for vl in schema.getVertexLabels()}
    assert strategies == {"person": "PRIMARY_KEY", "auto": "AUTOMATIC", "cs": "CUSTOMIZE_STRING",
                          "cn": "CUSTOMIZE_NUMBER", "cu": "CUSTOMIZE_UUID", "software": "PRIMARY_KEY"}
    person = schema.getVertexLabel("person")
    assert person.primaryKeys == ["name"] and person.properties == ["name", "age", "born", "tags"]
    assert sorted(person.indexLabels) == ["personByAge", "personByBorn"]
    knows = schema.getEdgeLabel("knows")
    assert knows.frequency == "MULTIPLE" and knows.sortKeys == ["born"] and knows.sourceLabel == "person"
    assert "person--created-->software" in schema.getRelations()
    types = {il.name: il.indexType for il in schema.getIndexLabels()}
    assert types == {"personByAge": "RANGE", "personByBorn": "SECONDARY", "softwareByName": "UNIQUE",
                     "createdByScore": "SHARD", "softwareByDescription": "SEARCH"}
    whole = schema.getSchema()
    assert {il["name"]: il["index_type"] for il in whole["indexlabels"]}["personByAge"] == "RANGE_INT"
    assert all(il["status"] == "CREATED" for il in whole["indexlabels"])

    schema.propertyKey("age").userdata("min", 0).append()
    assert schema.getPropertyKey("age").userdata["min"] == 0
    schema.propertyKey("age").userdata("min", 0).eliminate()
    assert "min" not in schema.getPropertyKey("age").userdata

    schema.indexLabel("personByBorn").remove()
    schema.edgeLabel("knows").remove()
    schema.vertexLabel("auto").remove()
    _wait_tasks(client)
    assert "personByBorn" not in {il.name for il in schema.getIndexLabels()}
    assert "auto" not in {vl.name for vl in schema.getVertexLabels()}
    assert "knows" not in {el.name for el in schema.getEdgeLabels()}
    assert schema.getVertexLabel("person").indexLabels == ["personByAge"]
