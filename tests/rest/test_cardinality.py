"""`property(list|set, k, v)` on a key declared SINGLE is a 400 naming the key and its cardinality,
and changes nothing (issue 20: it silently replaced the value)."""

from __future__ import annotations

import httpx
import pytest

SCHEMA = ("graph.schema().propertyKey('name').asText().ifNotExist().create(); "
          "graph.schema().propertyKey('nick').asText().ifNotExist().create(); "
          "graph.schema().propertyKey('tags').asText().valueList().ifNotExist().create(); "
          "graph.schema().vertexLabel('card').properties('name','nick','tags').primaryKeys('name')"
          ".nullableKeys('nick','tags').ifNotExist().create(); 'ok'")


def gremlin(client: httpx.Client, script: str) -> httpx.Response:
    return client.post("/gremlin", json={"gremlin": script, "aliases": {"g": "__g_cardgraph", "graph": "cardgraph"}})


@pytest.fixture(scope="module")
def client(server_factory) -> httpx.Client:
    server = server_factory.start(graphs={"cardgraph": "backend=memory\nschema.mode=strict\n"})
    c = httpx.Client(base_url=server.base_url, timeout=30)
    assert gremlin(c, SCHEMA).status_code == 200
    assert gremlin(c, "g.addV('card').property('name','a').property('nick','first').iterate()").status_code == 200
    return c


@pytest.mark.parametrize("card", ["list", "set"])
def test_adding_a_value_to_a_single_key_is_refused(client: httpx.Client, card: str) -> None:
    refused = gremlin(client, f"g.V().has('card','name','a').property({card},'nick','second')")
    assert refused.status_code == 400
    message = refused.json()["message"]
    assert f"Invalid cardinality '{card}' for property key 'nick', expect 'single'" in message
    created = gremlin(client, f"g.addV('card').property('name','b').property({card},'nick','x')")
    assert created.status_code == 400
    after = gremlin(client, "g.V().hasLabel('card').valueMap('name','nick').by(unfold())")
    assert after.json()["result"]["data"] == [{"name": "a", "nick": "first"}]


def test_single_and_list_keys_take_what_they_declare(client: httpx.Client) -> None:
    assert gremlin(client, "g.V().has('card','name','a').property(single,'nick','again')").status_code == 200
    assert gremlin(client, "g.V().has('card','name','a').property(list,'tags','t1')"
                           ".property(list,'tags','t2')").status_code == 200
    got = gremlin(client, "g.V().has('card','name','a').valueMap('nick','tags')").json()["result"]["data"]
    assert got == [{"nick": ["again"], "tags": ["t1", "t2"]}]
