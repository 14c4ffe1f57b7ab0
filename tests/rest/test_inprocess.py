"""The same app in-process (no sockets): the fixtures other test areas use for fast tests."""

from __future__ import annotations

import asyncio

import httpx


def test_app_client_serves_both_families(app_client) -> None:
    assert app_client.get("/graphs").json() == {"graphs": ["hugegraph", "memgraph"]}
    assert app_client.get("/graphspaces/DEFAULT/graphs/hugegraph/").json() == {
        "name": "hugegraph",
        "backend": "memory",
    }
    r = app_client.put("/graphs/hugegraph/variables/a/", json={"data": [1]})
    assert r.status_code == 200 and r.json() == {"a": [1]}
    assert app_client.get("/graphspaces/DEFAULT/graphs/hugegraph/variables").json() == {"a": [1]}


def test_asgi_transport(asgi_transport: httpx.ASGITransport) -> None:
    async def go() -> None:
        async with httpx.AsyncClient(transport=asgi_transport, base_url="http://hugelite") as c:
            r = await c.get("/versions")
            assert r.json()["versions"]["core"] == "1.7.0"
            r = await c.post("/graphs/fresh", json={"backend": "memory"})
            assert r.status_code == 201
            assert (await c.get("/graphs")).json() == {"graphs": ["hugegraph", "memgraph", "fresh"]}
            r = await c.delete("/graphs/fresh", params={"confirm_message": "I'm sure to drop the graph"})
            assert r.status_code == 204

    asyncio.run(go())


def test_error_table_rows() -> None:
    from gremlin_engine import errors as E
    from rest_adapter.errors import classify, error_body, gremlin_status

    assert classify(E.NotFound("x")) == (404, 597)
    assert classify(E.TraversalTimeout("t")) == (400, 598)
    assert classify(E.Forbidden("no")) == (403, 401)
    assert classify(E.GremlinSyntaxError("bad", 1, 2)) == (400, 597)
    assert classify(ZeroDivisionError("boom")) == (500, 500)
    assert error_body(ZeroDivisionError("boom")) == {  # a bug: Python's text stays in the log
        "exception": "class java.lang.RuntimeException",
        "message": "Internal server error; the server log has the details",
        "cause": "",
    }
    # /gremlin follows HugeGraph's proxy: NotFound is a 400 there, Forbidden a 403
    assert gremlin_status(E.NotFound("x")) == (400, 597)
    assert gremlin_status(E.Forbidden("no")) == (403, 401)
    assert gremlin_status(E.UnsupportedSyntax("System.exit")) == (400, 597)
    wrapped = E.IllegalArgument("outer")
    wrapped.__cause__ = E.NotFound("inner")
    assert error_body(wrapped)["cause"] == "org.apache.hugegraph.exception.NotFoundException: inner"
