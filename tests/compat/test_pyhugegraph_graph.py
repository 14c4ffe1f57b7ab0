"""hugegraph-python 1.7.1 (pyhugegraph), unchanged, drives the vertex and edge flows
against a real server. `/versions` says 1.7, so the client uses the graphspace path form
(`/graphspaces/DEFAULT/graphs/{g}/graph/...`) and sends a bare `page` on every query."""

from __future__ import annotations

import pytest

pyhugegraph = pytest.importorskip("pyhugegraph")
from pyhugegraph.client import PyHugeClient  # noqa: E402
from pyhugegraph.utils.exceptions import NotFoundError, ServerError  # noqa: E402


@pytest.fixture(scope="module")
def client(server_factory) -> PyHugeClient:
    srv = server_factory.start(graphs={"pygraph": "backend=sqlite\nschema.mode=strict\n"})
    c = PyHugeClient(srv.base_url, graph="pygraph", user="admin", pwd="admin")
    assert c.cfg.gs_supported and c.cfg.graphspace == "DEFAULT"  # graphspace path form
    schema = c.schema()
    schema.propertyKey("name").asText().ifNotExist().create()
    schema.propertyKey("age").asInt().ifNotExist().create()
    schema.propertyKey("city").asText().ifNotExist().create()
    schema.propertyKey("tags").asText().valueSet().ifNotExist().create()
    schema.propertyKey("weight").asDouble().ifNotExist().create()
    schema.propertyKey("date").asText().ifNotExist().create()
    schema.vertexLabel("person").properties("name", "age", "city", "tags").primaryKeys("name") \
        .nullableKeys("age", "city", "tags").ifNotExist().create()
    schema.vertexLabel("software").properties("name").primaryKeys("name").ifNotExist().create()
    schema.vertexLabel("item").properties("name").useCustomizeNumberId().nullableKeys("name").ifNotExist().create()
    schema.edgeLabel("knows").sourceLabel("person").targetLabel("person").multiTimes().properties("date", "weight") \
        .sortKeys("date").nullableKeys("weight").ifNotExist().create()
    schema.edgeLabel("created").sourceLabel("person").targetLabel("software").properties("weight") \
        .nullableKeys("weight").ifNotExist().create()
    schema.indexLabel("personByCity").onV("person").by("city").secondary().ifNotExist().create()
    schema.indexLabel("personByAge").onV("person").by("age").range().ifNotExist().create()
    schema.indexLabel("createdByWeight").onE("created").by("weight").range().ifNotExist().create()
    return c


def test_vertex_flow(client):
    g = client.graph()
    marko = g.addVertex("person", {"name": "marko", "age": 29, "city": "Beijing", "tags": ["a"]})
    assert (marko.id, marko.label, marko.type) == ("1:marko", "person", "vertex")
    assert marko.properties == {"name": "marko", "age": 29, "city": "Beijing", "tags": ["a"]}
    batch = g.addVertices([("person", {"name": "josh", "age": 32, "city": "Beijing"}),
                           ("person", {"name": "vadas", "age": 27, "city": "Hongkong"}),
                           ("software", {"name": "lop"})])
    assert [v.id for v in batch] == ["1:josh", "1:vadas", "2:lop"]
    item = g.addVertex("item", {"name": "n"}, id=1001)
    assert item.id == 1001 and g.getVertexById(1001).properties == {"name": "n"}

    assert g.getVertexById("1:josh").properties == {"name": "josh", "age": 32, "city": "Beijing"}
    appended = g.appendVertex("1:marko", {"age": 30, "tags": ["b"]})
    assert appended.properties == {"name": "marko", "age": 30, "city": "Beijing", "tags": ["a", "b"]}
    eliminated = g.eliminateVertex("1:marko", {"tags": []})
    assert eliminated.properties == {"name": "marko", "age": 30, "city": "Beijing"}

    page1, token = g.getVertexByPage("person", 2)
    assert [v.id for v in page1] == ["1:marko", "1:josh"] and token
    page2, token2 = g.getVertexByPage("person", 2, page=token)
    assert [v.id for v in page2] == ["1:vadas"] and token2 is None
    found = g.getVertexByCondition("person", properties={"city": "Beijing"})
    assert sorted(v.id for v in found) == ["1:josh", "1:marko"]
    older, _ = g.getVertexByConditionWithPage("person", limit=10, properties={"age": "P.gt(29)"})
    assert sorted(v.properties["name"] for v in older) == ["josh", "marko"]

    with pytest.raises(NotFoundError):
        g.getVertexById("1:nobody")
    with pytest.raises(ServerError, match="Undefined vertex label: 'nope'"):
        g.addVertex("nope", {"name": "x"})
    with pytest.raises(ServerError, match="Can't update primary key: 'name'"):
        g.appendVertex("1:marko", {"name": "other"})

    g.removeVertexById(1001)
    with pytest.raises(NotFoundError):
        g.getVertexById(1001)


def test_edge_flow(client):
    g = client.graph()
    g.addVertices([("person", {"name": "a"}), ("person", {"name": "b"}), ("software", {"name": "s"})])
    e = g.addEdge("knows", "1:a", "1:b", {"date": "20160110", "weight": 0.5})
    assert e.id == "S1:a>1>1>20160110>S1:b"
    assert (e.label, e.outV, e.outVLabel, e.inV, e.inVLabel) == ("knows", "1:a", "person", "1:b", "person")
    assert e.properties == {"date": "20160110", "weight": 0.5}
    made = g.addEdges([("created", "1:a", "2:s", "person", "software", {"weight": 0.4}),
                       ("created", "1:b", "2:s", "person", "software", {"weight": 0.9})])
    assert [x.id for x in made] == ["S1:a>2>2>>S2:s", "S1:b>2>2>>S2:s"]

    assert g.getEdgeById("S1:a>2>2>>S2:s").properties == {"weight": 0.4}
    assert g.appendEdge("S1:a>2>2>>S2:s", {"weight": 0.7}).properties == {"weight": 0.7}
    assert g.eliminateEdge("S1:a>2>2>>S2:s", {"weight": 0}).properties == {}

    edges, token = g.getEdgeByPage(label="created", limit=1)
    assert [x.id for x in edges] == ["S1:a>2>2>>S2:s"] and token
    edges2, token2 = g.getEdgeByPage(label="created", limit=1, page=token)
    assert [x.id for x in edges2] == ["S1:b>2>2>>S2:s"] and token2 is None
    heavy, _ = g.getEdgeByPage(label="created", limit=5, properties={"weight": "P.gt(0.5)"})
    assert [x.id for x in heavy] == ["S1:b>2>2>>S2:s"]
    # the client always sends a bare `page`: from a vertex it is the first (and only) page
    out_a, out_token = g.getEdgeByPage(vertex_id="1:a", direction="OUT", limit=5)
    assert sorted(x.id for x in out_a) == ["S1:a>1>1>20160110>S1:b", "S1:a>2>2>>S2:s"]
    assert out_token is None
    in_s, _ = g.getEdgeByPage(vertex_id="2:s", direction="IN", limit=5)
    assert sorted(x.id for x in in_s) == ["S1:a>2>2>>S2:s", "S1:b>2>2>>S2:s"]
    both_b, _ = g.getEdgeByPage(vertex_id="1:b", direction="BOTH", limit=5)
    assert sorted(x.id for x in both_b) == ["S1:a>1>1>20160110>S1:b", "S1:b>2>2>>S2:s"]
    first, _ = g.getEdgeByPage(vertex_id="1:b", direction="BOTH", limit=1)
    assert len(first) == 1
    # a real cursor from a vertex stays refused (the spec's edge-query rule 1)
    with pytest.raises(ServerError, match="Edge query rule 1"):
        g.getEdgeByPage(vertex_id="1:a", direction="OUT", limit=5, page=token)

    g.removeEdgeById("S1:a>1>1>20160110>S1:b")
    with pytest.raises(NotFoundError):
        g.getEdgeById("S1:a>1>1>20160110>S1:b")
    with pytest.raises(ServerError, match="Invalid vertex id '1:ghost'"):
        g.addEdge("knows", "1:a", "1:ghost", {"date": "x"})
