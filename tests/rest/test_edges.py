"""Edge endpoints over REST against a real server (spec: Edges; rest-reference.md §6):
create/batch with check_vertex, HugeGraph 1.5's five-part edge ids, upserts,
append/eliminate, batch update strategies, queries by vertex/direction/label/properties
with offset/limit and paging, the five edge-query rules, delete and the error answers."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from hg_elements import build_schema, epath, error, person

G = "/graphs/egraph"
GS = "/graphspaces/DEFAULT/graphs/egraph"
E = f"{G}/graph/edges"
V = f"{G}/graph/vertices"


@pytest.fixture(scope="module")
def eserver(server_factory):
    return server_factory.start(graphs={"egraph": "backend=sqlite\nschema.mode=strict\n"},
                                server={"batch.max_edges_per_batch": "3"})


@pytest.fixture
def client(eserver) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=eserver.base_url, timeout=30) as c:
        build_schema(c, G)
        people = [person(n) for n in ("marko", "josh", "vadas", "peter")]
        assert c.post(f"{V}/batch", json=people).status_code == 201
        assert c.post(V, json={"label": "software", "properties": {"name": "lop", "lang": "java"}}).status_code == 201
        yield c


def knows(out: str, inv: str, date: str, **props) -> dict:
    return {"label": "knows", "outV": f"1:{out}", "inV": f"1:{inv}", "outVLabel": "person", "inVLabel": "person",
            "properties": {"date": date, **props}}


def created(out: str, weight: float, **props) -> dict:
    return {"label": "created", "outV": f"1:{out}", "inV": "2:lop!java", "outVLabel": "person", "inVLabel": "software",
            "properties": {"weight": weight, **props}}


def ids(r: httpx.Response) -> list[str]:
    assert r.status_code == 200, r.text
    return [e["id"] for e in r.json()["edges"]]


# ---- create ----------------------------------------------------------------------------------


def test_create_shape_and_five_part_id(client):
    r = client.post(E, json=created("marko", 0.4, date="20171210"))
    assert r.status_code == 201
    body = r.json()
    assert list(body) == ["id", "label", "type", "outV", "outVLabel", "inV", "inVLabel", "properties"]
    assert body == {"id": "S1:marko>2>2>>S2:lop!java", "label": "created", "type": "edge", "outV": "1:marko",
                    "outVLabel": "person", "inV": "2:lop!java", "inVLabel": "software",
                    "properties": {"weight": 0.4, "date": "20171210"}}
    r = client.post(E, json=knows("marko", "vadas", "20160110", weight=0.5))
    assert r.json()["id"] == "S1:marko>1>1>20160110>S1:vadas"
    assert client.get(epath(G, "S1:marko>1>1>20160110>S1:vadas")).json() == r.json()
    assert client.get(epath(GS, "S1:marko>1>1>20160110>S1:vadas")).json() == r.json()
    # labels are optional on a single create
    r = client.post(E, json={"label": "knows", "outV": "1:josh", "inV": "1:peter", "properties": {"date": "d"}})
    assert r.json()["outVLabel"] == "person"


def test_numeric_and_uuid_end_ids(client):
    client.post(f"{G}/schema/edgelabels", json={"name": "owns", "source_label": "item", "target_label": "thing"})
    client.post(V, json={"label": "item", "id": 123456, "properties": {}})
    u = "835e1153-9281-4957-8691-cf79258e90eb"
    client.post(V, json={"label": "thing", "id": u, "properties": {}})
    r = client.post(E, json={"label": "owns", "outV": 123456, "inV": u, "outVLabel": "item", "inVLabel": "thing"})
    assert r.status_code == 201, r.text
    assert r.json()["id"] == f"L123456>3>3>>U{u}" and r.json()["outV"] == 123456 and r.json()["inV"] == u


def test_same_edge_twice_is_an_upsert(client):
    client.post(E, json=knows("marko", "josh", "d1", weight=1.0, note="a"))
    client.post(E, json=knows("marko", "josh", "d1", weight=2.0))
    client.post(E, json=knows("marko", "josh", "d2"))  # another sort value: another edge (MULTIPLE)
    r = client.get(E, params={"vertex_id": '"1:marko"', "direction": "OUT", "label": "knows"})
    assert [(e["properties"]["date"], e["properties"].get("weight")) for e in r.json()["edges"]] == [("d1", 2.0), ("d2", None)]


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"outV": "1:marko", "inV": "1:josh"}, 400, "Expect the label of edge"),
    ({"label": "knows", "inV": "1:josh"}, 400, "Expect source vertex id"),
    ({"label": "knows", "outV": "1:josh"}, 400, "Expect target vertex id"),
    ({"label": "knows", "outV": "1:marko", "inV": "1:josh", "outVLabel": "person", "properties": {"date": "x"}}, 400,
     "The both source and target vertex label are either passed in, or not passed in"),
    ({"label": "knows", "outV": "1:marko", "inV": "1:nobody", "properties": {"date": "x"}}, 400, "Invalid vertex id '1:nobody'"),
    ({"label": "knows", "outV": "1:marko", "inV": "1:josh", "properties": {}}, 400,
     "The sort key(s) must be set for the edge with label: 'knows'"),
    ({"label": "nope", "outV": "1:marko", "inV": "1:josh"}, 400, "Undefined edge label: 'nope'"),
    ({"label": "created", "outV": "1:marko", "inV": "1:josh"}, 400, "Undefined link of edge label 'created': 'person' -> 'person'"),
    ({"label": "created", "outV": "1:marko", "inV": "2:lop!java", "outVLabel": "software", "inVLabel": "software"}, 400,
     "The label of vertex '1:marko' is unmatched, users expect label 'software', actual label stored is 'person'"),
    ({"label": "created", "outV": "1:marko", "inV": "2:lop!java", "properties": {"weight": "heavy"}}, 400,
     "Invalid property value 'heavy' for key 'weight'"),
    ({"label": "created", "outV": "1:marko", "inV": "2:lop!java", "properties": {"age": 1}}, 400,
     "Invalid property 'age' for edge label 'created'"),
])
def test_create_errors(client, body, status, message):
    assert message in error(client.post(E, json=body), status)


def test_batch_create_check_vertex_and_rollback(client):
    r = client.post(f"{E}/batch", params={"check_vertex": "true"}, json=[knows("marko", "vadas", "x"), created("josh", 0.5)])
    assert r.status_code == 201
    assert r.json() == ["S1:marko>1>1>x>S1:vadas", "S1:josh>2>2>>S2:lop!java"]
    bad = [knows("peter", "vadas", "y"), knows("peter", "ghost", "y")]
    assert error(client.post(f"{E}/batch", json=bad), 400) == "Invalid vertex id '1:ghost'"
    assert client.get(epath(G, "S1:peter>1>1>y>S1:vadas")).status_code == 404  # whole batch rolled back
    m = error(client.post(f"{E}/batch", params={"check_vertex": "false"}, json=[knows("peter", "ghost", "y")]), 400)
    assert m == "Invalid vertex id '1:ghost'"  # dangling edges cannot be stored, even unchecked
    nolabel = [{"label": "knows", "outV": "1:marko", "inV": "1:josh", "properties": {"date": "z"}}]
    assert error(client.post(f"{E}/batch", json=nolabel), 400) == "Expect source vertex label"
    assert error(client.post(f"{E}/batch", json=[]), 400) == "The number of edges can't be 0"
    many = [knows("marko", "josh", str(i)) for i in range(4)]
    assert error(client.post(f"{E}/batch", json=many), 400) == "Too many edges for one time post, the maximum number is '3'"


# ---- get / update / delete ---------------------------------------------------------------------


def test_get_errors(client):
    m = error(client.get(epath(G, "S1:marko>2>>S2:lop")), 404)
    assert m == "Edge id must be formatted as 5~6 parts, but got 4 parts: 'S1:marko>2>>S2:lop'"
    assert error(client.get(epath(G, "S1:marko>2>2>>S2:nothing")), 404) == "Edge 'S1:marko>2>2>>S2:nothing' does not exist"


def test_append_and_eliminate(client):
    eid = client.post(E, json=created("marko", 0.4, tags=["a"])).json()["id"]
    r = client.put(f"{epath(G, eid)}?action=append", json={"properties": {"weight": 0.9, "tags": ["a", "b"], "date": "d"}})
    assert r.status_code == 200
    assert r.json()["properties"] == {"weight": 0.9, "tags": ["a", "b"], "date": "d"}
    r = client.put(f"{epath(G, eid)}?action=eliminate", json={"properties": {"tags": [], "date": ""}})
    assert r.json()["properties"] == {"weight": 0.9}
    assert client.get(epath(G, eid)).json()["properties"] == {"weight": 0.9}
    kid = client.post(E, json=knows("marko", "josh", "d", weight=1.0)).json()["id"]
    assert error(client.put(f"{epath(G, kid)}?action=append", json={"properties": {"date": "e"}}), 400) == "Can't update sort key: 'date'"
    m = error(client.put(f"{epath(G, kid)}?action=append", json={"properties": {"age": 3}}), 400)
    assert m == f"Can't update property for edge '{kid}' because there is no property key 'age' in its edge label"
    m = error(client.put(f"{epath(G, kid)}?action=append", json={"id": "S1:x>1>1>>S1:y", "properties": {"weight": 3}}), 400)
    assert m == f"The ids are different between url and request body ('{kid}' != 'S1:x>1>1>>S1:y')"
    assert error(client.put(f"{epath(G, 'S1:marko>1>1>q>S1:josh')}?action=append", json={"properties": {"weight": 1}}), 404) \
        == "Edge 'S1:marko>1>1>q>S1:josh' does not exist"


def test_delete(client):
    eid = client.post(E, json=created("marko", 0.4)).json()["id"]
    assert client.delete(epath(G, eid)).status_code == 204
    assert client.get(epath(G, eid)).status_code == 404
    assert error(client.delete(epath(G, eid)), 400) == f"No such edge with id: '{eid}'"
    assert "5~6 parts" in error(client.delete(epath(G, "garbage")), 400)
    kid = client.post(E, json=knows("marko", "josh", "d")).json()["id"]
    assert error(client.delete(epath(G, kid), params={"label": "nope"}), 400) == "Undefined edge label: 'nope'"
    assert client.delete(epath(G, kid), params={"label": "knows"}).status_code == 204
    assert client.get(V, params={"label": "person"}).status_code == 200


# ---- batch update ------------------------------------------------------------------------------


def test_batch_update_strategies(client):
    client.post(E, json=created("marko", 0.5, tags=["a"]))
    body = {"edges": [created("marko", 0.25, tags=["b"]), created("josh", 1.0)],
            "update_strategies": {"weight": "SUM", "tags": "UNION"}, "check_vertex": False, "create_if_not_exist": True}
    r = client.put(f"{E}/batch", json=body)
    assert r.status_code == 200
    edges = r.json()["edges"]
    assert [(e["id"], e["properties"]) for e in edges] == [
        ("S1:marko>2>2>>S2:lop!java", {"weight": 0.75, "tags": ["a", "b"]}),
        ("S1:josh>2>2>>S2:lop!java", {"weight": 1.0})]
    body = {"edges": [created("marko", 0.1)], "update_strategies": {"weight": "BIGGER"}}
    assert client.put(f"{E}/batch", json=body).json()["edges"][0]["properties"] == {"weight": 0.75}
    body = {"edges": [{**created("marko", 0.1), "id": "S1:marko>2>2>>S2:other"}], "update_strategies": {"weight": "SUM"}}
    assert "The ids are different between server and request body" in error(client.put(f"{E}/batch", json=body), 400)
    body = {"edges": [created("marko", 0.1)], "update_strategies": {}}
    assert error(client.put(f"{E}/batch", json=body), 400) == "Parameter 'update_strategies' can't be empty"
    assert client.get(epath(G, "S1:marko>2>2>>S2:lop!java")).json()["properties"]["weight"] == 0.75


# ---- queries -------------------------------------------------------------------------------------


@pytest.fixture
def graph_edges(client) -> httpx.Client:
    body = [knows("marko", "vadas", "1", weight=0.5, note="n1"), knows("marko", "josh", "2", weight=1.0, note="n2"),
            knows("josh", "marko", "3", note="n1")]
    assert client.post(f"{E}/batch", json=body).status_code == 201
    assert client.post(f"{E}/batch", json=[created("marko", 0.4), created("josh", 0.8), created("peter", 0.2)]).status_code == 201
    return client


def test_query_by_vertex(graph_edges):
    c = graph_edges
    out = ids(c.get(E, params={"vertex_id": '"1:marko"', "direction": "OUT"}))
    assert out == ["S1:marko>1>1>1>S1:vadas", "S1:marko>1>1>2>S1:josh", "S1:marko>2>2>>S2:lop!java"]
    assert ids(c.get(E, params={"vertex_id": '"1:marko"', "direction": "IN"})) == ["S1:josh>1>1>3>S1:marko"]
    assert len(ids(c.get(E, params={"vertex_id": '"1:marko"'}))) == 4  # BOTH by default
    assert ids(c.get(E, params={"vertex_id": '"1:marko"', "direction": "OUT", "label": "created"})) == ["S1:marko>2>2>>S2:lop!java"]
    props = json.dumps({"weight": "P.gt(0.45)"})
    assert ids(c.get(E, params={"vertex_id": '"1:marko"', "direction": "OUT", "label": "knows", "properties": props})) == [
        "S1:marko>1>1>1>S1:vadas", "S1:marko>1>1>2>S1:josh"]
    assert ids(c.get(E, params={"vertex_id": '"1:marko"', "direction": "OUT", "offset": 1, "limit": 1})) == ["S1:marko>1>1>2>S1:josh"]
    assert error(c.get(E, params={"vertex_id": '"1:marko"', "direction": "UP"}), 400) == "Direction value must be in [OUT, IN, BOTH], but got 'UP'"
    assert c.get(E, params={"vertex_id": '"1:ghost"'}).json() == {"edges": []}
    assert "formatted as Number/String/UUID" in error(c.get(E, params={"vertex_id": "1:marko"}), 400)


def test_query_without_vertex(graph_edges):
    c = graph_edges
    assert len(ids(c.get(E))) == 6
    assert len(ids(c.get(E, params={"label": "created"}))) == 3
    assert ids(c.get(E, params={"label": "created", "properties": json.dumps({"weight": "P.between(0.3,0.9)"})})) == [
        "S1:marko>2>2>>S2:lop!java", "S1:josh>2>2>>S2:lop!java"]
    assert ids(c.get(E, params={"label": "knows", "properties": json.dumps({"note": "n1"})})) == [
        "S1:marko>1>1>1>S1:vadas", "S1:josh>1>1>3>S1:marko"]
    assert len(ids(c.get(E, params={"label": "knows", "offset": 1, "limit": 5}))) == 2
    # rule 4: without vertex_id and page, direction is ignored
    assert len(ids(c.get(E, params={"label": "knows", "direction": "IN"}))) == 3
    m = error(c.get(E, params={"label": "knows", "properties": json.dumps({"weight": 1.0})}), 400)
    assert m == "Don't accept query based on properties [weight] that are not indexed in label 'knows'"


def test_query_paging(graph_edges):
    c = graph_edges
    body = c.get(f"{E}?label=knows&page&limit=2").json()
    assert list(body) == ["edges", "page"] and len(body["edges"]) == 2 and body["page"] is not None
    rest = c.get(E, params={"label": "knows", "page": body["page"], "limit": 2}).json()
    assert len(rest["edges"]) == 1 and rest["page"] is None
    assert {e["id"] for e in body["edges"] + rest["edges"]} == {e for e in ids(c.get(E, params={"label": "knows"}))}
    one = c.get(E, params={"label": "knows", "properties": json.dumps({"note": "n1"}), "page": "", "limit": 5}).json()
    assert len(one["edges"]) == 2 and one["page"] is None


@pytest.mark.parametrize(("params", "message"), [
    ({"vertex_id": '"1:marko"', "page": "abc"},
     "Edge query rule 1 violated: a 'page' cursor is not allowed together with 'vertex_id'"),
    ({"page": "", "offset": 2}, "Edge query rule 3 violated: 'offset' must be absent or 0 when paging without 'vertex_id'"),
    ({"page": "", "direction": "OUT"}, "Edge query rule 3 violated: 'direction' is not allowed when paging without 'vertex_id'"),
    ({"label": "knows", "page": "", "properties": json.dumps({"note": "n1", "weight": 1.0})},
     "Edge query rule 3 violated: 'properties' may hold at most one pair when paging without 'vertex_id'"),
])
def test_edge_query_rules(graph_edges, params, message):
    assert error(graph_edges.get(E, params=params), 400) == message


def test_offset_zero_with_page_is_allowed(graph_edges):
    r = graph_edges.get(E, params={"label": "created", "page": "", "offset": 0, "limit": 10})
    assert len(r.json()["edges"]) == 3 and r.json()["page"] is None
