"""Plain HTTP with httpx: HugeGraph's REST interface on hugelite, showing the raw JSON.

    make run                                        # in another terminal
    .venv/bin/python examples/rest_httpx.py [http://127.0.0.1:8080] [hugegraph]

The same flow as `rest_pyhugegraph.py` (schema, vertices, edges, a query by property, a
traverser, a Gremlin script), written against the wire format so that every request and
answer is visible: each call prints `METHOD path -> status` and the JSON body. The graph
must be a strict (HugeGraph-schema) graph. Re-running is safe: existing schema is skipped
(404 -> create) and PRIMARY_KEY vertices and edges are upserts.
"""

from __future__ import annotations

import json
import sys
from typing import Any
from urllib.parse import quote

import httpx


def show(resp: httpx.Response) -> Any:
    """Prints one exchange and returns the decoded body (None for an empty one)."""
    body = resp.json() if resp.content else None
    print(f"{resp.request.method} {resp.request.url.raw_path.decode()} -> {resp.status_code}")
    if body is not None:
        text = json.dumps(body, ensure_ascii=False)
        print("   ", text if len(text) <= 400 else text[:400] + " ...")
    return body


def vid(value: str | int) -> str:
    """Vertex ids in a URL path or query are JSON literals: strings quoted, numbers bare."""
    return quote(json.dumps(value), safe="")


def ensure(http: httpx.Client, kind: str, body: dict[str, Any]) -> None:
    """Creates a schema element unless it exists (what `ifNotExist()` does in the clients)."""
    if http.get(f"schema/{kind}/{body['name']}").status_code == 404:
        resp = http.post(f"schema/{kind}", json=body)
        resp.raise_for_status()
        show(resp)


def main(url: str, graph: str) -> None:
    # every graph-scoped path also works as /graphspaces/DEFAULT/graphs/{graph}/...
    with httpx.Client(base_url=f"{url}/graphs/{graph}/", timeout=30) as http:
        show(http.get(f"{url}/versions"))

        # 1. schema: property keys answer 202 {"property_key", "task_id"}, labels 201
        for name, data_type in [("name", "TEXT"), ("age", "INT"), ("city", "TEXT"),
                                ("lang", "TEXT"), ("weight", "DOUBLE")]:
            ensure(http, "propertykeys", {"name": name, "data_type": data_type, "cardinality": "SINGLE"})
        ensure(http, "vertexlabels", {"name": "person", "id_strategy": "PRIMARY_KEY",
                                      "properties": ["name", "age", "city"], "primary_keys": ["name"],
                                      "nullable_keys": ["age", "city"]})
        ensure(http, "vertexlabels", {"name": "software", "id_strategy": "PRIMARY_KEY",
                                      "properties": ["name", "lang"], "primary_keys": ["name"],
                                      "nullable_keys": ["lang"]})
        for label, target in [("knows", "person"), ("created", "software")]:
            ensure(http, "edgelabels", {"name": label, "source_label": "person", "target_label": target,
                                        "frequency": "SINGLE", "properties": ["weight"],
                                        "nullable_keys": ["weight"]})
        ensure(http, "indexlabels", {"name": "personByCity", "base_type": "VERTEX_LABEL",
                                     "base_value": "person", "index_type": "SECONDARY", "fields": ["city"]})
        ensure(http, "indexlabels", {"name": "personByAge", "base_type": "VERTEX_LABEL",
                                     "base_value": "person", "index_type": "RANGE", "fields": ["age"]})
        show(http.get("schema/vertexlabels"))

        # 2. vertices: one, then a batch (the batch answers the ids, in request order)
        marko = show(http.post("graph/vertices", json={
            "label": "person", "properties": {"name": "marko", "age": 29, "city": "Beijing"}}))
        ids = show(http.post("graph/vertices/batch", json=[
            {"label": "person", "properties": {"name": "vadas", "age": 27, "city": "Hongkong"}},
            {"label": "person", "properties": {"name": "josh", "age": 32, "city": "Beijing"}},
            {"label": "person", "properties": {"name": "peter", "age": 35, "city": "Shanghai"}},
            {"label": "software", "properties": {"name": "lop", "lang": "java"}},
            {"label": "software", "properties": {"name": "ripple", "lang": "java"}},
        ]))
        vadas, josh, peter, lop, ripple = ids

        # 3. edges: one, then a batch; edge ids are HugeGraph's five-part strings
        edge = show(http.post("graph/edges", json={
            "label": "knows", "outV": marko["id"], "inV": vadas, "outVLabel": "person",
            "inVLabel": "person", "properties": {"weight": 0.5}}))
        show(http.post("graph/edges/batch", json=[
            {"label": "knows", "outV": marko["id"], "inV": josh, "outVLabel": "person",
             "inVLabel": "person", "properties": {"weight": 1.0}},
            *({"label": "created", "outV": out, "inV": sw, "outVLabel": "person",
               "inVLabel": "software", "properties": {"weight": w}}
              for out, sw, w in [(marko["id"], lop, 0.4), (josh, ripple, 1.0), (josh, lop, 0.4),
                                 (peter, lop, 0.2)]),
        ]))
        show(http.get(f"graph/edges/{quote(edge['id'], safe='')}"))

        # 4. queries: by id; by an indexed property (a JSON object in `properties`);
        #    a range predicate; a page of two with a cursor (bare `page` asks for the first)
        show(http.get(f"graph/vertices/{vid(josh)}"))
        show(http.get("graph/vertices", params={"label": "person", "properties": '{"city": "Beijing"}'}))
        show(http.get("graph/vertices", params={"label": "person", "properties": '{"age": "P.gt(30)"}'}))
        first = show(http.get("graph/vertices?label=person&limit=2&page"))
        show(http.get("graph/vertices", params={"label": "person", "limit": 2, "page": first["page"]}))
        show(http.get("graph/edges", params={"vertex_id": json.dumps(marko["id"]), "direction": "OUT",
                                             "label": "created"}))
        # a property without an index is refused, with HugeGraph's error body
        show(http.get("graph/edges", params={"label": "knows", "properties": '{"weight": 0.5}'}))

        # 5. traversers: kout (depth 2), shortest path
        show(http.get("traversers/kout", params={"source": json.dumps(marko["id"]), "max_depth": 2}))
        show(http.get("traversers/shortestpath", params={"source": json.dumps(vadas),
                                                         "target": json.dumps(josh), "max_depth": 3}))

        # 6. Gremlin: `g` exists only through aliases (every graph is also `__g_<name>`)
        show(http.post(f"{url}/gremlin", json={
            "gremlin": "g.V().hasLabel('person').order().by('age').values('name')",
            "bindings": {}, "language": "gremlin-groovy", "aliases": {"g": f"__g_{graph}"}}))
        show(http.post(f"{url}/gremlin", json={
            "gremlin": f"__g_{graph}.V(who).out('created').values('name')", "bindings": {"who": josh}}))


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080",
        sys.argv[2] if len(sys.argv) > 2 else "hugegraph",
    )
