"""Vertex writes and reads over REST against a real uvicorn server (spec: Vertices;
rest-reference.md §5; ids-and-formats.md): create, batch create, upserts, ids of every id
strategy, append/eliminate by cardinality, batch update strategies, delete, LOADING mode,
batch limits and the 400/404 answers for bad input, with whole-batch rollback."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
from hg_elements import build_schema, error, person, vpath

G = "/graphs/vgraph"
GS = "/graphspaces/DEFAULT/graphs/vgraph"
V = f"{G}/graph/vertices"


@pytest.fixture(scope="module")
def vserver(server_factory):
    return server_factory.start(
        graphs={"vgraph": "backend=sqlite\nschema.mode=strict\n", "small": "backend=memory\nschema.mode=strict\n"},
        server={"batch.max_vertices_per_batch": "4"},
    )


@pytest.fixture
def client(vserver) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=vserver.base_url, timeout=30) as c:
        build_schema(c, G)
        yield c


def get(client: httpx.Client, vid) -> dict:
    r = client.get(vpath(G, vid))
    assert r.status_code == 200, r.text
    return r.json()


def count(client: httpx.Client, label: str) -> int:
    return len(client.get(V, params={"label": label, "limit": -1}).json()["vertices"])


# ---- create -------------------------------------------------------------------------------


def test_create_primary_key_vertex_shape(client):
    r = client.post(V, json=person("marko", age=29, city="Beijing", tags=["a", "b", "a"], scores=[3, 3]))
    assert r.status_code == 201
    body = r.json()
    assert list(body) == ["id", "label", "type", "properties"]
    assert body == {"id": "1:marko", "label": "person", "type": "vertex",
                    "properties": {"name": "marko", "age": 29, "city": "Beijing", "tags": ["a", "b"], "scores": [3, 3]}}
    assert list(body["properties"]) == ["name", "age", "city", "tags", "scores"]  # property-key id order
    assert get(client, "1:marko") == body
    assert client.get(vpath(GS, "1:marko")).json() == body  # graphspace path family


def test_property_order_follows_key_ids_not_body(client):
    r = client.post(V, json={"label": "person", "properties": {"nick": "m", "city": "X", "name": "m"}})
    assert list(r.json()["properties"]) == ["name", "city", "nick"]


def test_ids_of_every_strategy(client):
    assert client.post(V, json={"label": "software", "properties": {"name": "lop", "lang": "java"}}).json()["id"] == "2:lop!java"
    assert client.post(V, json={"label": "person", "properties": {"name": "a:b!c"}}).json()["id"] == "1:a`:b`!c"
    assert client.post(V, json={"label": "user", "id": "u1", "properties": {"name": "x"}}).json()["id"] == "u1"
    assert client.post(V, json={"label": "user", "id": "123", "properties": {}}).json()["id"] == "123"
    assert client.post(V, json={"label": "item", "id": 1001, "properties": {"name": "i"}}).json()["id"] == 1001
    u = str(uuid.uuid4())
    assert client.post(V, json={"label": "thing", "id": u, "properties": {}}).json()["id"] == u
    auto = client.post(V, json={"label": "auto", "properties": {"name": "a"}}).json()["id"]
    assert isinstance(auto, int)
    # JSON-literal ids in paths: quoted strings, bare numbers, U"uuid"
    assert get(client, "123")["label"] == "user"
    assert client.get(f"{V}/1001").json()["properties"] == {"name": "i"}
    assert client.get(f'{V}/U"{u}"').json()["id"] == u
    assert client.get(f"{V}/{auto}").json()["properties"] == {"name": "a"}
    assert client.get(f"{V}/123").status_code == 404  # number 123 is not the string id "123"


def test_customized_id_rules(client):
    m = error(client.post(V, json={"label": "person", "id": "x", "properties": {"name": "x"}}), 400)
    assert m == "Can't customize vertex id when id strategy is 'PRIMARY_KEY' for vertex label 'person'"
    m = error(client.post(V, json={"label": "user", "properties": {"name": "x"}}), 400)
    assert m == "Must customize vertex string id when id strategy is 'CUSTOMIZE_STRING' for vertex label 'user'"
    m = error(client.post(V, json={"label": "item", "id": "7", "properties": {}}), 400)
    assert m == "Must customize vertex number id when id strategy is 'CUSTOMIZE_NUMBER' for vertex label 'item'"
    m = error(client.post(V, json={"label": "auto", "id": 5, "properties": {}}), 400)
    assert "Can't customize vertex id when id strategy is 'AUTOMATIC'" in m
    m = error(client.post(V, json={"label": "thing", "id": "not-a-uuid", "properties": {}}), 400)
    assert "UUID" in m


def test_post_is_an_upsert(client):
    client.post(V, json=person("josh", age=32, city="Ripple"))
    r = client.post(V, json=person("josh", age=33))
    assert r.status_code == 201
    assert get(client, "1:josh")["properties"] == {"name": "josh", "age": 33}
    assert count(client, "person") == 1
    client.post(V, json={"label": "user", "id": "u", "properties": {"name": "one"}})
    client.post(V, json={"label": "user", "id": "u", "properties": {"name": "two"}})
    assert get(client, "u")["properties"] == {"name": "two"}


@pytest.mark.parametrize(("body", "message"), [
    ({"label": "nope", "properties": {}}, "Undefined vertex label: 'nope'"),
    ({"properties": {"name": "x"}}, "Undefined vertex label: 'vertex'"),
    ({"label": "person", "properties": {"name": "x", "zzz": 1}}, "Undefined property key: 'zzz'"),
    ({"label": "person", "properties": {"name": "x", "lang": "c"}}, "Invalid property 'lang' for vertex label 'person'"),
    ({"label": "person", "properties": {"name": "x", "age": "29"}},
     "Invalid property value '29' for key 'age', expect a value of type Integer, actual type String"),
    ({"label": "person", "properties": {"age": 3}},
     "The primary keys: [name] of vertex label 'person' must be set when using 'PRIMARY_KEY' id strategy"),
    ({"label": "software", "properties": {"name": "lop", "lang": "java", "price": None}}, "price"),
    ({"label": "person"}, "The properties of vertex can't be null"),
    ({"label": "person", "properties": {"name": "x"}, "bogus": 1}, 'Unrecognized field "bogus"'),
    ({"label": "person", "properties": {"name": "x", "born": "yesterday"}}, "Expected date format is"),
])
def test_create_errors(client, body, message):
    assert message in error(client.post(V, json=body), 400)


def test_missing_non_nullable_key_and_loading_mode(client):
    m = error(client.post(V, json={"label": "software", "properties": {"name": "lop", "price": 3}}), 400)
    assert m == "The primary keys: [name, lang] of vertex label 'software' must be set when using 'PRIMARY_KEY' id strategy"
    client.post(f"{G}/schema/propertykeys", json={"name": "must", "data_type": "INT"})
    client.post(f"{G}/schema/vertexlabels", json={"name": "strict", "id_strategy": "CUSTOMIZE_STRING",
                                                   "properties": ["must", "name"], "nullable_keys": ["name"]})
    body = {"label": "strict", "id": "s1", "properties": {"name": "n"}}
    m = error(client.post(V, json=body), 400)
    assert m == "All non-null property keys [must, name] of vertex label 'strict' must be set, missed keys [must]" or (
        "missed keys [must]" in m)
    # LOADING mode skips required-property checks during bulk import (not primary keys)
    assert client.put(f"{G}/mode", json="LOADING").json() == {"mode": "LOADING"}
    try:
        assert client.post(f"{V}/batch", json=[body]).json() == ["s1"]
        assert "primary keys" in error(client.post(V, json={"label": "software", "properties": {"name": "z"}}), 400)
    finally:
        client.put(f"{G}/mode", json="NONE")
    assert get(client, "s1")["properties"] == {"name": "n"}
    assert "missed keys [must]" in error(client.post(V, json=body), 400)


# ---- batch create -------------------------------------------------------------------------


def test_batch_create_returns_ids_in_order(client):
    body = [person("a", age=1), {"label": "user", "id": "u9", "properties": {}}, {"label": "item", "id": 7, "properties": {}}]
    r = client.post(f"{V}/batch", json=body)
    assert r.status_code == 201
    assert r.json() == ["1:a", "u9", 7]
    assert get(client, "1:a")["properties"] == {"name": "a", "age": 1}


def test_batch_limits_configurable(client):
    assert error(client.post(f"{V}/batch", json=[]), 400) == "The number of vertices can't be 0"
    many = [person(f"p{i}") for i in range(5)]
    assert error(client.post(f"{V}/batch", json=many), 400) == "Too many vertices for one time post, the maximum number is '4'"
    assert client.post(f"{V}/batch", json=many[:4]).status_code == 201
    assert error(client.post(f"{V}/batch", json=[person("q"), None]), 400) == "The batch body can't contain null record"


def test_batch_rolls_back_whole(client):
    r = client.post(f"{V}/batch", json=[person("ok1"), person("ok2"), person("bad", age="x")])
    assert "Invalid property value 'x' for key 'age'" in error(r, 400)
    assert client.get(vpath(G, "1:ok1")).status_code == 404
    assert count(client, "person") == 0


def test_gzip_request_body(client):
    import gzip

    import orjson

    raw = gzip.compress(orjson.dumps([person("gz")]))
    r = client.post(f"{V}/batch", content=raw, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})
    assert r.json() == ["1:gz"]


# ---- get / delete ----------------------------------------------------------------------------


def test_get_errors(client):
    assert error(client.get(f"{V}/1:marko"), 400) == "The vertex id must be formatted as Number/String/UUID, but got '1:marko'"
    assert error(client.get(vpath(G, "1:nobody")), 404) == "Vertex '1:nobody' does not exist"
    assert error(client.get(f"{V}/999"), 404) == "Vertex '999' does not exist"


def test_delete(client):
    client.post(V, json=person("d1"))
    client.post(V, json=person("d2"))
    client.post(f"{G}/graph/edges", json={"label": "knows", "outV": "1:d1", "inV": "1:d2", "properties": {"date": "x"}})
    r = client.delete(vpath(G, "1:d1"))
    assert r.status_code == 204 and r.content == b""
    assert client.get(vpath(G, "1:d1")).status_code == 404
    assert client.get(f"{G}/graph/edges", params={"vertex_id": '"1:d2"'}).json() == {"edges": []}
    assert error(client.delete(vpath(G, "1:d1")), 400) == "No such vertex with id: '1:d1'"
    # with a label: a label with index labels looks the vertex up, one without deletes blindly
    assert error(client.delete(vpath(G, "1:d1"), params={"label": "person"}), 400) == "No such vertex with id: '1:d1'"
    assert client.delete(vpath(G, "zz"), params={"label": "user"}).status_code == 204
    assert error(client.delete(vpath(G, "1:d2"), params={"label": "nope"}), 400) == "Undefined vertex label: 'nope'"
    assert client.delete(vpath(G, "1:d2"), params={"label": "person"}).status_code == 204
    assert count(client, "person") == 0


# ---- append / eliminate ------------------------------------------------------------------


def test_append_by_cardinality(client):
    client.post(V, json=person("m", age=1, tags=["a"], scores=[1]))
    r = client.put(f"{vpath(G, '1:m')}?action=append", json={"properties": {"age": 2, "tags": ["a", "b"], "scores": [1, 2], "city": "C"}})
    assert r.status_code == 200
    assert r.json()["properties"] == {"name": "m", "age": 2, "city": "C", "tags": ["a", "b"], "scores": [1, 1, 2]}
    assert get(client, "1:m") == r.json()
    r = client.put(f"{vpath(G, '1:m')}?action=append", json={"label": "person", "properties": {"tags": "c"}})
    assert r.json()["properties"]["tags"] == ["a", "b", "c"]


def test_eliminate_removes_whole_property(client):
    client.post(V, json=person("e", age=1, tags=["a", "b"], scores=[1, 2], city="C"))
    r = client.put(f"{vpath(G, '1:e')}?action=eliminate", json={"properties": {"tags": ["a"], "scores": [], "age": 0}})
    assert r.status_code == 200
    assert r.json()["properties"] == {"name": "e", "city": "C"}
    assert get(client, "1:e")["properties"] == {"name": "e", "city": "C"}


def test_append_eliminate_errors(client):
    client.post(V, json=person("x", age=1))
    client.post(V, json={"label": "software", "properties": {"name": "lop", "lang": "java"}})
    url = vpath(G, "1:x")
    assert error(client.put(f"{url}?action=append", json={"properties": {"name": "y"}}), 400) == "Can't update primary key: 'name'"
    assert error(client.put(f"{url}?action=eliminate", json={"properties": {"name": ""}}), 400) == "Can't remove primary key 'name'"
    m = error(client.put(f"{vpath(G, '2:lop!java')}?action=eliminate", json={"properties": {"lang": ""}}), 400)
    assert m in ("Can't remove primary key 'lang'",)
    m = error(client.put(f"{url}?action=append", json={"properties": {"lang": "c"}}), 400)
    assert m == "Can't update property for vertex '1:x' because there is no property key 'lang' in its vertex label"
    assert "to null" in error(client.put(f"{url}?action=append", json={"properties": {"age": None}}), 400)
    assert error(client.put(f"{vpath(G, '1:nobody')}?action=append", json={"properties": {"age": 1}}), 404) == "Vertex '1:nobody' does not exist"
    r = client.put(f"{url}?action=remove", json={"properties": {"age": 1}})
    assert error(r, 415) == "Not support action 'remove'"
    assert "unmatched" in error(client.put(f"{url}?action=append", json={"label": "software", "properties": {"age": 1}}), 400)
    assert get(client, "1:x")["properties"] == {"name": "x", "age": 1}


def test_eliminate_non_nullable_refused(client):
    client.post(f"{G}/schema/propertykeys", json={"name": "must", "data_type": "INT"})
    client.post(f"{G}/schema/vertexlabels", json={"name": "strict", "id_strategy": "CUSTOMIZE_STRING", "properties": ["must"]})
    client.post(V, json={"label": "strict", "id": "s", "properties": {"must": 3}})
    m = error(client.put(f"{vpath(G, 's')}?action=eliminate", json={"properties": {"must": 3}}), 400)
    assert m == "Can't remove non-null vertex property 'p[must->3]'"


# ---- batch update strategies -------------------------------------------------------------


def put_batch(client, vertices, strategies, **extra):
    return client.put(f"{V}/batch", json={"vertices": vertices, "update_strategies": strategies, **extra})


@pytest.mark.parametrize(("old", "new", "strategy", "key", "expect"), [
    ({"age": 10}, {"age": 5}, "SUM", "age", 15),
    ({"age": 10}, {"age": 5}, "BIGGER", "age", 10),
    ({"age": 10}, {"age": 50}, "BIGGER", "age", 50),
    ({"age": 10}, {"age": 5}, "SMALLER", "age", 5),
    ({"born": "2020-01-01"}, {"born": "2021-06-01"}, "BIGGER", "born", "2021-06-01 00:00:00.000"),
    ({"born": "2020-01-01"}, {"born": "2021-06-01"}, "SMALLER", "born", "2020-01-01 00:00:00.000"),
    ({"tags": ["a", "b"]}, {"tags": ["b", "c"]}, "UNION", "tags", ["a", "b", "c"]),
    ({"tags": ["a", "b"]}, {"tags": ["b", "c"]}, "INTERSECTION", "tags", ["b"]),
    ({"scores": [1, 2]}, {"scores": [2, 3]}, "APPEND", "scores", [1, 2, 2, 3]),
    ({"scores": [1, 2, 2, 3]}, {"scores": [2]}, "ELIMINATE", "scores", [1, 3]),
    ({"tags": ["a", "b"]}, {"tags": ["a"]}, "ELIMINATE", "tags", ["b"]),
    ({"city": "A"}, {"city": "B"}, "OVERRIDE", "city", "B"),
    ({"city": "A"}, {}, "OVERRIDE", "city", "A"),
    ({"city": "A"}, {"city": None}, "OVERRIDE", "city", "A"),
    ({"age": 3}, {}, "SUM", "age", 3),
])
def test_update_strategies(client, old, new, strategy, key, expect):
    client.post(V, json=person("s", **old))
    r = put_batch(client, [person("s", **new)], {key: strategy})
    assert r.status_code == 200, r.text
    body = r.json()
    assert list(body) == ["vertices"]
    assert body["vertices"][0]["id"] == "1:s"
    assert body["vertices"][0]["properties"][key] == expect
    assert get(client, "1:s")["properties"][key] == expect


def test_no_strategy_overwrites_even_with_null(client):
    client.post(V, json=person("n", age=1, city="A", nick="k"))
    r = put_batch(client, [person("n", city=None, age=2)], {"age": "SUM"})
    assert r.json()["vertices"][0]["properties"] == {"name": "n", "age": 3}
    assert get(client, "1:n")["properties"] == {"name": "n", "age": 3}


def test_batch_update_creates_merges_duplicates_and_customized_ids(client):
    r = put_batch(client, [person("new1", age=1), person("new1", age=2), person("new2", age=5)], {"age": "SUM"})
    assert [(v["id"], v["properties"]["age"]) for v in r.json()["vertices"]] == [("1:new1", 3), ("1:new2", 5)]
    client.post(V, json={"label": "user", "id": "cu", "properties": {"name": "a"}})
    r = put_batch(client, [{"label": "user", "id": "cu", "type": "vertex", "properties": {"name": "b"}}], {"name": "OVERRIDE"})
    assert r.json()["vertices"][0] == {"id": "cu", "label": "user", "type": "vertex", "properties": {"name": "b"}}


def test_batch_update_errors_and_rollback(client):
    assert error(put_batch(client, [person("a")], {}), 400) == "Parameter 'update_strategies' can't be empty"
    m = error(put_batch(client, [person("a")], {"age": "SUM"}, create_if_not_exist=False), 400)
    assert m == "Parameter 'create_if_not_exist' dose not support false now"
    m = error(put_batch(client, [{"label": "auto", "properties": {"name": "a"}}], {"name": "OVERRIDE"}), 400)
    assert m == "Automatic Id strategy is not supported now"
    assert "Invalid update strategy 'MAX'" in error(put_batch(client, [person("a")], {"age": "MAX"}), 400)
    client.post(V, json=person("t", city="A"))
    m = error(put_batch(client, [person("t", city="B")], {"city": "SUM"}), 400)
    assert m == "Property type must be Number for strategy SUM, but got type String, String"
    # a bad second vertex rolls back the first
    r = put_batch(client, [person("t", city="C"), person("u", age="x")], {"city": "OVERRIDE"})
    assert error(r, 400).startswith("Invalid property value 'x' for key 'age'")
    assert get(client, "1:t")["properties"] == {"name": "t", "city": "A"}
    assert client.get(vpath(G, "1:u")).status_code == 404
    many = [person(f"m{i}") for i in range(5)]
    assert "maximum number is '4'" in error(put_batch(client, many, {"age": "SUM"}), 400)
