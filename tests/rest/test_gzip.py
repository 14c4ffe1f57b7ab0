"""Gzip negotiation: large 2xx bodies (at least `GZIP_MINIMUM_SIZE`, 16 KiB) compress when
the client accepts gzip, small ones and errors never do."""

from __future__ import annotations

import gzip

import httpx
import pytest


@pytest.fixture
def big_variable(http: httpx.Client):
    http.put("/graphs/memgraph/variables/big", json={"data": ["x" * 50] * 400})
    yield
    http.delete("/graphs/memgraph/variables/big")


def test_large_body_is_gzipped_when_accepted(server_url: str, big_variable: None) -> None:
    with httpx.Client(base_url=server_url) as c:
        r = c.get("/graphs/memgraph/variables/big", headers={"Accept-Encoding": "gzip"})
        assert r.headers["content-encoding"] == "gzip"
        assert r.json() == {"big": ["x" * 50] * 400}  # httpx decodes it
        raw = c.build_request("GET", "/graphs/memgraph/variables/big", headers={"Accept-Encoding": "gzip"})
        resp = c.send(raw, stream=True)
        body = b"".join(resp.iter_raw())
        resp.close()
        assert int(resp.headers["content-length"]) == len(body) < 20_000 // 4
        assert gzip.decompress(body).startswith(b'{"big":["xxxx')


def test_not_gzipped_without_accept_encoding(server_url: str, big_variable: None) -> None:
    with httpx.Client(base_url=server_url, headers={"Accept-Encoding": "identity"}) as c:
        r = c.get("/graphs/memgraph/variables/big")
        assert "content-encoding" not in r.headers
        assert len(r.content) > 20_000


def test_small_body_not_gzipped(http: httpx.Client) -> None:
    r = http.get("/versions", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers


def test_q_zero_refuses_gzip(server_url: str, big_variable: None) -> None:
    with httpx.Client(base_url=server_url) as c:
        r = c.get("/graphs/memgraph/variables/big", headers={"Accept-Encoding": "gzip;q=0"})
        assert "content-encoding" not in r.headers


def test_vertex_and_edge_lists_are_gzipped_at_any_size(server_url: str) -> None:
    """HugeGraph compresses its vertex and edge lists whatever their length (issue 20)."""
    with httpx.Client(base_url=server_url, timeout=30) as c:
        for path in ("/graphs/memgraph/graph/vertices", "/graphs/memgraph/graph/edges"):
            raw = c.build_request("GET", path, params={"limit": 1}, headers={"Accept-Encoding": "gzip"})
            answer = c.send(raw, stream=True)
            body = b"".join(answer.iter_raw())  # the bytes as sent, not decoded by httpx
            assert answer.status_code == 200
            assert answer.headers["content-encoding"] == "gzip", path
            decoded = gzip.decompress(body)
            assert decoded.startswith(b'{"vertices":' if "vertices" in path else b'{"edges":')
            plain = c.get(path, params={"limit": 1}, headers={"Accept-Encoding": "identity"})
            assert "content-encoding" not in plain.headers
        error = c.get("/graphs/memgraph/graph/vertices", params={"limit": -5}, headers={"Accept-Encoding": "gzip"})
        assert error.status_code == 400 and "content-encoding" not in error.headers
