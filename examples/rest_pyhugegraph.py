"""hugegraph-python (pyhugegraph 1.7.1) against hugelite: schema, vertices, edges, queries.

    make run                                              # in another terminal
    .venv/bin/python examples/rest_pyhugegraph.py [http://127.0.0.1:8080] [hugegraph]

The official HugeGraph Python client, unchanged. hugelite answers `/versions` with core
1.7, so the client uses its graphspace URL layout (`/graphspaces/DEFAULT/graphs/{graph}/...`),
which hugelite serves beside the classic `/graphs/{graph}/...`. The graph must be a strict
(HugeGraph-schema) graph; every step is idempotent (`ifNotExist()`, primary-key upserts), so
the script can run again on the same graph.
"""

from __future__ import annotations

import sys

from pyhugegraph.client import PyHugeClient


def main(url: str, graph: str) -> None:
    # hugelite has no REST auth yet: any user/password is accepted
    client = PyHugeClient(url, graph=graph, user="admin", pwd="admin")
    print("graphspace layout:", client.cfg.gs_supported)

    # 1. schema: property keys, vertex labels (ids from primary keys), edge labels, indexes
    schema = client.schema()
    schema.propertyKey("name").asText().ifNotExist().create()
    schema.propertyKey("age").asInt().ifNotExist().create()
    schema.propertyKey("city").asText().ifNotExist().create()
    schema.propertyKey("lang").asText().ifNotExist().create()
    schema.propertyKey("weight").asDouble().ifNotExist().create()
    schema.vertexLabel("person").properties("name", "age", "city").primaryKeys("name") \
        .nullableKeys("age", "city").ifNotExist().create()
    schema.vertexLabel("software").properties("name", "lang").primaryKeys("name") \
        .nullableKeys("lang").ifNotExist().create()
    schema.edgeLabel("knows").sourceLabel("person").targetLabel("person") \
        .properties("weight").nullableKeys("weight").ifNotExist().create()
    schema.edgeLabel("created").sourceLabel("person").targetLabel("software") \
        .properties("weight").nullableKeys("weight").ifNotExist().create()
    # a query by property needs an index label, as in HugeGraph
    schema.indexLabel("personByCity").onV("person").by("city").secondary().ifNotExist().create()
    schema.indexLabel("personByAge").onV("person").by("age").range().ifNotExist().create()
    print("vertex labels:", sorted(v.name for v in schema.getVertexLabels()))

    # 2. vertices: one at a time, then a batch; PRIMARY_KEY ids are "<label id>:<name>"
    g = client.graph()
    marko = g.addVertex("person", {"name": "marko", "age": 29, "city": "Beijing"})
    print("added:", marko.id, marko.properties)
    others = g.addVertices([
        ("person", {"name": "vadas", "age": 27, "city": "Hongkong"}),
        ("person", {"name": "josh", "age": 32, "city": "Beijing"}),
        ("person", {"name": "peter", "age": 35, "city": "Shanghai"}),
        ("software", {"name": "lop", "lang": "java"}),
        ("software", {"name": "ripple", "lang": "java"}),
    ])
    # the batch endpoint answers ids only, in request order
    vadas, josh, peter, lop, ripple = (v.id for v in others)
    print("batch ids:", [v.id for v in others])

    # 3. edges: ids are HugeGraph 1.5+'s five-part form, e.g. "S1:marko>1>1>>S1:vadas"
    knows = g.addEdge("knows", marko.id, vadas, {"weight": 0.5})
    g.addEdge("knows", marko.id, josh, {"weight": 1.0})
    g.addEdge("created", marko.id, lop, {"weight": 0.4})
    g.addEdge("created", josh, ripple, {"weight": 1.0})
    g.addEdge("created", josh, lop, {"weight": 0.4})
    g.addEdge("created", peter, lop, {"weight": 0.2})
    print("edge:", knows.id, knows.properties)

    # 4. queries: by id, by an indexed property, by a range predicate
    print("by id:", g.getVertexById(josh).properties)
    in_beijing = g.getVertexByCondition("person", properties={"city": "Beijing"})
    print("city=Beijing:", sorted(v.properties["name"] for v in in_beijing))
    older, _page = g.getVertexByConditionWithPage("person", limit=10, properties={"age": "P.gt(30)"})
    print("age>30:", sorted(v.properties["name"] for v in older))

    # 5. traversers: neighbours at depth 2 (kout) and a shortest path
    trav = client.traverser()
    print("kout depth 2 from marko:", sorted(trav.k_out(marko.id, 2)["vertices"]))
    print("shortest path vadas -> josh:", trav.shortest_path(vadas, josh, 3)["path"])

    # 6. Gremlin: the client binds g and graph through aliases
    result = client.gremlin().exec("g.V().hasLabel('person').order().by('age').values('name')")
    print("gremlin:", result["data"])
    count = client.gremlin().exec("g.E().hasLabel('created').count()")
    print("created edges:", count["data"][0])


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080",
        sys.argv[2] if len(sys.argv) > 2 else "hugegraph",
    )
