"""/versions, /apis/version and / against a real uvicorn process."""

from __future__ import annotations

import httpx

EXPECTED = {"versions": {"version": "v1", "core": "1.7.0", "gremlin": "3.8.2", "api": "0.71.0.0"}}


def test_versions_exact_body(http: httpx.Client) -> None:
    r = http.get("/versions")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.json() == EXPECTED


def test_versions_trailing_slash_and_basic_auth_ignored(http: httpx.Client) -> None:
    r = http.get("/versions/", auth=("admin", "whatever"))
    assert r.status_code == 200
    assert r.json() == EXPECTED


def test_versions_answers_within_client_probe_timeout(server_url: str) -> None:
    # hugegraph-python probes /versions with a 0.5 s total timeout
    r = httpx.get(f"{server_url}/versions", timeout=0.5)
    assert r.json()["versions"]["core"] == "1.7.0"


def test_apis_version(http: httpx.Client) -> None:
    r = http.get("/apis/version")
    assert r.status_code == 200
    assert r.json() == {"version": "v1", "core": "1.7.0", "gremlin": "3.8.2", "api": "0.71.0.0"}


def test_root_profile(http: httpx.Client) -> None:
    body = http.get("/").json()
    assert body["service"] == "hugegraph"
    assert body["version"] == "1.7.0"
    assert "gremlin" in body["apis"]


def test_versions_rejects_post(http: httpx.Client) -> None:
    r = http.post("/versions", json={})
    assert r.status_code == 405
    assert r.json() == {
        "exception": "class jakarta.ws.rs.NotAllowedException",
        "message": "HTTP 405 Method Not Allowed",
        "cause": "",
    }
