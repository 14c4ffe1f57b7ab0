"""Error bodies and statuses that every resource shares (through the real server)."""

from __future__ import annotations

import httpx
import pytest

NOT_FOUND = {"exception": "class jakarta.ws.rs.NotFoundException", "message": "HTTP 404 Not Found", "cause": ""}


@pytest.mark.parametrize("path", ["/nothing", "/graphs/hugegraph/nothing", "/graphspaces/OTHER/graphs/hugegraph"])
def test_unknown_route_is_404_not_found(http: httpx.Client, path: str) -> None:
    r = http.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json"
    assert r.json() == NOT_FOUND


@pytest.mark.parametrize("prefix", ["/graphs", "/graphspaces/DEFAULT/graphs"])
def test_unknown_graph_is_404_with_hugegraph_exception(http: httpx.Client, prefix: str) -> None:
    for suffix in ("", "/conf", "/mode", "/variables"):
        r = http.get(f"{prefix}/nograph{suffix}")
        assert r.status_code == 404, suffix
        assert r.json() == {
            "exception": "class org.apache.hugegraph.exception.NotFoundException",
            "message": "Graph 'nograph' does not exist",
            "cause": "",
        }


def test_wrong_method_is_405(http: httpx.Client) -> None:
    r = http.patch("/graphs/hugegraph/mode", json="NONE")
    assert r.status_code == 405
    assert r.json()["message"] == "HTTP 405 Method Not Allowed"


def test_malformed_json_is_400(http: httpx.Client) -> None:
    r = http.put(
        "/graphs/hugegraph/variables/x", content=b'{"data": ', headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400
    body = r.json()
    assert body["exception"] == "class java.lang.IllegalArgumentException"
    assert body["message"].startswith("Invalid JSON in request body")
    assert body["cause"] == ""


def test_wrong_json_type_is_400(http: httpx.Client) -> None:
    r = http.put("/graphs/hugegraph/variables/x", json=[1, 2])
    assert r.status_code == 400
    assert r.json()["message"] == "The request body must be a JSON object, but got array"


def test_error_bodies_are_never_gzipped(http: httpx.Client) -> None:
    r = http.get("/graphs/" + "x" * 3000, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 404
    assert "content-encoding" not in r.headers
    assert len(r.content) > 1024  # big enough that a 2xx body would have been compressed
