"""`GET /graphs/{g}/graph/vertices` against a real server: label, property conditions
(exact values and every `P.` predicate, ANDed, an index required), limit/offset, paging
cursors (bare `page` = first page, `page: null` at the end) and gzip for large lists."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from hg_elements import build_schema, error, person

G = "/graphs/qgraph"
V = f"{G}/graph/vertices"

PEOPLE = [("a", 20, "X"), ("b", 25, "Y"), ("c", 30, "X"), ("d", 35, "Y"), ("e", 40, "X")]


@pytest.fixture(scope="module")
def qclient(server_factory) -> Iterator[httpx.Client]:
    srv = server_factory.start(graphs={"qgraph": "backend=sqlite\nschema.mode=strict\n"})
    with httpx.Client(base_url=srv.base_url, timeout=30) as c:
        build_schema(c, G)
        body = [person(n, age=a, city=city, born=f"20{a}-01-01") for n, a, city in PEOPLE]
        assert c.post(f"{V}/batch", json=body).status_code == 201
        assert c.post(f"{V}/batch", json=[{"label": "software", "properties": {"name": "lop", "lang": "java"}},
                                          {"label": "user", "id": "u1", "properties": {"name": "a"}}]).status_code == 201
        yield c


def names(r: httpx.Response) -> list[str]:
    assert r.status_code == 200, r.text
    return [v["properties"]["name"] for v in r.json()["vertices"]]


def query(client, **params):
    if "properties" in params and not isinstance(params["properties"], str):
        params["properties"] = json.dumps(params["properties"])
    return client.get(V, params=params)


def test_list_by_label_limit_offset(qclient):
    assert names(query(qclient, label="person")) == ["a", "b", "c", "d", "e"]
    assert names(query(qclient, label="person", limit=2)) == ["a", "b"]
    assert names(query(qclient, label="person", offset=3, limit=10)) == ["d", "e"]
    assert names(query(qclient, label="person", offset=3, limit=-1)) == ["d", "e"]
    assert len(query(qclient).json()["vertices"]) == 7
    assert list(query(qclient, label="user").json()) == ["vertices"]  # no page key without paging
    assert query(qclient, label="user").json()["vertices"] == [
        {"id": "u1", "label": "user", "type": "vertex", "properties": {"name": "a"}}]


@pytest.mark.parametrize(("props", "expect"), [
    ({"city": "X"}, ["a", "c", "e"]),
    ({"age": 30}, ["c"]),
    ({"age": "P.eq(30)"}, ["c"]),
    ({"age": "P.neq(30)"}, ["a", "b", "d", "e"]),
    ({"age": "P.gt(30)"}, ["d", "e"]),
    ({"age": "P.gte(30)"}, ["c", "d", "e"]),
    ({"age": "P.lt(30)"}, ["a", "b"]),
    ({"age": "P.lte(30)"}, ["a", "b", "c"]),
    ({"age": "P.between(25,35)"}, ["b", "c"]),
    ({"age": "P.inside(25,35)"}, ["c"]),
    ({"age": "P.outside(25,35)"}, ["a", "e"]),
    ({"age": "P.within(20,40,99)"}, ["a", "e"]),
    ({"city": "P.within(\"Y\")"}, ["b", "d"]),
    ({"city": "X", "age": "P.gt(25)"}, ["c", "e"]),
    ({"born": "P.gt(\"2030-06-01\")"}, ["d", "e"]),
    ({"name": "c"}, ["c"]),  # the primary key answers an exact match
])
def test_property_conditions(qclient, props, expect):
    assert sorted(names(query(qclient, label="person", properties=props))) == expect


def test_property_conditions_need_an_index(qclient):
    m = error(query(qclient, label="person", properties={"nick": "x"}), 400)
    assert m == "Don't accept query based on properties [nick] that are not indexed in label 'person'"
    m = error(query(qclient, label="person", properties={"city": "P.gt(\"X\")"}), 400)
    assert m == ("Don't accept query based on properties [city] that are not indexed in label 'person', "
                 "may not match range condition")
    m = error(query(qclient, label="software", properties={"name": "lop"}), 400)  # only part of the primary key
    assert "not indexed in label 'software'" in m
    assert sorted(names(query(qclient, properties={"city": "Y"}))) == ["b", "d"]  # no label: any label's index
    assert error(query(qclient, label="nope"), 400) == "Undefined vertex label: 'nope'"
    assert error(query(qclient, label="nolabelix"), 400) == "Don't accept query by label 'nolabelix', label index is disabled"
    assert error(query(qclient, label="person", properties={"zzz": 1}), 400) == "Undefined property key: 'zzz'"


def test_bad_query_parameters(qclient):
    assert error(query(qclient, properties="null"), 400) == "Invalid request with properties: null"
    assert error(query(qclient, properties="[1]"), 400) == "Invalid request with properties: [1]"
    assert error(query(qclient, label="person", properties={"age": "P.gt(x"}), 400) == "Invalid predicate: P.gt(x"
    assert "Not support predicate 'foo'" in error(query(qclient, label="person", properties={"age": "P.foo(1)"}), 400)
    m = error(query(qclient, label="person", properties={"age": "P.gt(\"old\")"}), 400)
    assert "Invalid property value 'old' for key 'age'" in m
    assert error(query(qclient, limit=-5), 400) == "Not a legal range: [0, -5]"
    assert "must be an integer" in error(query(qclient, limit="ten"), 400)


def test_paging_walks_every_vertex_once(qclient):
    r = qclient.get(f"{V}?label=person&page&limit=2")  # a bare `page`, as hugegraph-python sends it
    body = r.json()
    assert list(body) == ["vertices", "page"]
    seen = [v["properties"]["name"] for v in body["vertices"]]
    pages = 1
    while body["page"] is not None:
        body = query(qclient, label="person", page=body["page"], limit=2).json()
        seen += [v["properties"]["name"] for v in body["vertices"]]
        pages += 1
    assert seen == ["a", "b", "c", "d", "e"] and pages == 3
    body = query(qclient, label="person", page="", limit=5).json()
    assert len(body["vertices"]) == 5 and body["page"] is None
    paged = query(qclient, label="person", properties={"city": "X"}, page="", limit=2).json()
    assert [v["properties"]["name"] for v in paged["vertices"]] == ["a", "c"]
    rest = query(qclient, label="person", properties={"city": "X"}, page=paged["page"], limit=2).json()
    assert [v["properties"]["name"] for v in rest["vertices"]] == ["e"] and rest["page"] is None


def test_paging_errors(qclient):
    m = error(query(qclient, label="person", page="", offset=1, limit=2), 400)
    assert m == "Not support querying vertices based on paging and offset together"
    assert error(query(qclient, label="person", page="", limit=0), 400) == "Can't set limit=0 when using paging"
    assert error(query(qclient, label="person", page="bogus!!", limit=2), 400) == "Invalid page: 'bogus!!'"


def test_lists_are_gzipped_when_accepted(qclient):
    items = [{"label": "item", "id": i, "properties": {"name": "x" * 600}} for i in range(30)]  # ~19 KB listed
    assert qclient.post(f"{V}/batch", json=items).status_code == 201
    try:
        r = qclient.get(V, params={"label": "item", "limit": 100}, headers={"Accept-Encoding": "gzip"})
        assert r.headers.get("content-encoding") == "gzip"
        assert [v["id"] for v in r.json()["vertices"]] == list(range(30))
        small = qclient.get(V, params={"label": "user"}, headers={"Accept-Encoding": "gzip"})
        assert small.headers.get("content-encoding") == "gzip"  # lists at any size, as HugeGraph
        plain = qclient.get(V, params={"label": "user"}, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
    finally:
        for i in range(30):
            assert qclient.delete(f"{V}/{i}").status_code == 204
