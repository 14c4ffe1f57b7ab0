"""Graph variables through the real server."""

from __future__ import annotations

import httpx
import pytest


@pytest.mark.parametrize("prefix", ["/graphs/memgraph", "/graphspaces/DEFAULT/graphs/hugegraph"])
def test_variables_crud(http: httpx.Client, prefix: str) -> None:
    values = {"num": 42, "text": "marko", "list": [1, "two", 3.5], "obj": {"a": {"b": [True, None]}}}
    for key, value in values.items():
        r = http.put(f"{prefix}/variables/{key}", json={"data": value})
        assert r.status_code == 200
        assert r.json() == {key: value}
    for key, value in values.items():
        assert http.get(f"{prefix}/variables/{key}").json() == {key: value}
    listed = http.get(f"{prefix}/variables").json()
    assert {k: listed[k] for k in values} == values
    r = http.put(f"{prefix}/variables/num", json={"data": 43})
    assert r.json() == {"num": 43}
    for key in values:
        r = http.delete(f"{prefix}/variables/{key}")
        assert r.status_code == 204
        assert r.content == b""
    r = http.get(f"{prefix}/variables/num")
    assert r.status_code == 404
    assert r.json() == {
        "exception": "class org.apache.hugegraph.exception.NotFoundException",
        "message": "Variable 'num' does not exist",
        "cause": "",
    }
    assert not set(values) & set(http.get(f"{prefix}/variables").json())


def test_variable_value_required(http: httpx.Client) -> None:
    for body in ({}, {"data": None}, {"other": 1}):
        r = http.put("/graphs/memgraph/variables/x", json=body)
        assert r.status_code == 400
        assert r.json()["message"] == "The variable value can't be empty"


def test_variables_persist_in_sqlite(server_factory) -> None:
    srv = server_factory.start(graphs={"v": "backend=sqlite\nstore=data/v.db\n"})
    httpx.put(f"{srv.base_url}/graphs/v/variables/answer", json={"data": {"x": [1, 2]}})
    srv.stop()
    again = server_factory.start(cwd=srv.cwd, graphs={"v": "backend=sqlite\nstore=data/v.db\n"})
    assert httpx.get(f"{again.base_url}/graphs/v/variables").json() == {"answer": {"x": [1, 2]}}
    again.stop()
