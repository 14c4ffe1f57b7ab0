"""gremlinpython over WebSocket: a remote traversal source and scripts against hugelite.

    make run                                   # in another terminal: the server on port 8080
    .venv/bin/python examples/websocket_gremlinpython.py [ws://127.0.0.1:8080/gremlin] [GRAPH]

hugelite speaks the Gremlin Server protocol on `/gremlin` (the REST port, or
`gremlinserver.port` when set). `DriverRemoteConnection(url, "g")` reaches the default graph
`hugegraph`; name another graph (`"modern"`) or its source (`"__g_modern"`) instead of `"g"`.
GraphBinary is gremlinpython's default serializer; GraphSON 3.0 and 2.0 work too.

The example declares a `person` label of its own (automatic ids, a `tag` key), which would
conflict with the REST examples' `person` (ExistedException), so it works in a graph of its
own, GRAPH (default `wsdemo`), which it makes first when the server lacks it: a memory graph,
gone when the server stops, made over REST as any client would:

    curl -X POST http://127.0.0.1:8080/graphs/wsdemo -H 'Content-Type: application/json' \
      -d '{"backend": "memory", "schema.mode": "strict"}'
"""

from __future__ import annotations

import sys
import uuid

import httpx
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.serializer import GraphSONSerializersV3d0
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Order, P

URL = sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8080/gremlin"
#: the graph every request names, by its name ("g" would be the server's default graph)
GRAPH = sys.argv[2] if len(sys.argv) > 2 else "wsdemo"


SCHEMA = """
schema = graph.schema()
schema.propertyKey('name').asText().ifNotExist().create()
schema.propertyKey('age').asInt().ifNotExist().create()
schema.propertyKey('tag').asText().ifNotExist().create()
schema.vertexLabel('person').properties('name', 'age', 'tag').nullableKeys('age', 'tag')
      .useAutomaticId().ifNotExist().create()
schema.indexLabel('personByTag').onV('person').by('tag').secondary().ifNotExist().create()
schema.indexLabel('personByAge').onV('person').by('age').range().ifNotExist().create()
schema.edgeLabel('knows').sourceLabel('person').targetLabel('person').ifNotExist().create()
"""


def ensure_graph() -> None:
    """Makes GRAPH (a strict memory graph) over REST when the server does not have it yet."""
    if GRAPH == "g":
        return
    rest = URL.replace("ws://", "http://", 1).replace("wss://", "https://", 1).rsplit("/gremlin", 1)[0]
    if GRAPH not in httpx.get(f"{rest}/graphs", timeout=30).json()["graphs"]:
        made = httpx.post(f"{rest}/graphs/{GRAPH}", json={"backend": "memory", "schema.mode": "strict"}, timeout=30)
        made.raise_for_status()


def main() -> None:
    ensure_graph()
    tag = f"example-{uuid.uuid4().hex[:6]}"  # keeps reruns from mixing with earlier data
    schema = Client(URL, GRAPH)  # HugeGraph graphs are schema-first: declare labels, keys, indexes
    try:
        # a script's `graph` is the default graph unless the request aliases it, as `g` is
        aliases = {"g": GRAPH} if GRAPH == "g" else {"g": GRAPH, "graph": GRAPH}
        schema.submit(SCHEMA, request_options={"aliases": aliases}).all().result()
    finally:
        schema.close()

    conn = DriverRemoteConnection(URL, GRAPH)
    try:
        g = traversal().with_(conn)
        for name, age in [("alice", 31), ("bob", 27), ("carol", 45)]:
            g.add_v("person").property("name", name).property("age", age).property("tag", tag).iterate()
        g.V().has("tag", tag).has("name", "alice").add_e("knows") \
            .to(__.V().has("tag", tag).has("name", "bob")).iterate()

        people = g.V().has("tag", tag)
        print("over 30:", people.has("age", P.gt(30)).order().by("age", Order.desc).values("name").to_list())
        print("alice knows:", g.V().has("tag", tag).has("name", "alice").out("knows").values("name").to_list())
        print("with a 5 s limit:", g.with_("evaluationTimeout", 5000).V().has("tag", tag).count().next())
    finally:
        conn.close()

    client = Client(URL, GRAPH, message_serializer=GraphSONSerializersV3d0())
    try:
        ages = client.submit("g.V().has('tag', t).values('age').sum()", {"t": tag}).all().result()
        print("script with bindings (GraphSON 3):", ages)
        client.submit("g.V().has('tag', t).drop()", {"t": tag}).all().result()
    finally:
        client.close()


if __name__ == "__main__":
    main()
