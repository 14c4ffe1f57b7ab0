"""/gremlin request validation and the error envelope (paths that need no script run)."""

from __future__ import annotations

import httpx


def _check_error(r: httpx.Response, status: int, message: str) -> dict:
    assert r.status_code == status
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["message"] == message
    assert body["status"]["message"] == message
    assert body["result"] == {"data": None, "meta": {}}
    assert isinstance(body["requestId"], str) and len(body["requestId"]) == 36
    assert body["cause"] == f"[{body['exception']}]"
    return body


def test_post_requires_gremlin(http: httpx.Client) -> None:
    body = _check_error(http.post("/gremlin", json={"bindings": {}}), 400, "The gremlin parameter can't be null")
    assert body["exception"] == "java.lang.IllegalArgumentException"
    assert body["status"]["code"] == 499


def test_post_malformed_json(http: httpx.Client) -> None:
    r = http.post("/gremlin", content=b"{nope", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["message"].startswith("Invalid JSON in request body")


def test_post_wrong_types(http: httpx.Client) -> None:
    _check_error(http.post("/gremlin", json={"gremlin": 5}), 400, "The gremlin parameter must be a string")
    _check_error(http.post("/gremlin", json={"gremlin": "1", "bindings": [1]}), 400,
                 "The bindings parameter must be a JSON object")
    _check_error(http.post("/gremlin", json={"gremlin": "1", "aliases": {"g": 1}}), 400,
                 "The aliases parameter must be a JSON object of names")
    _check_error(http.post("/gremlin", json={"gremlin": "1", "language": "sparql"}), 400,
                 "Language 'sparql' is not supported; use one of ['gremlin-groovy', 'gremlin-lang', 'gremlin']")


def test_get_needs_a_query(http: httpx.Client) -> None:
    _check_error(http.get("/gremlin"), 400, "The request query can't be empty")
    _check_error(http.get("/gremlin?gremlin=1&gremlin=2"), 400,
                 "Invalid query param 'gremlin', can only accept one value, but got ['1', '2']")


def test_jobs_gremlin_validation(http: httpx.Client) -> None:
    r = http.post("/graphs/memgraph/jobs/gremlin", json={"gremlin": "g.V()", "aliases": {"g": "x"}})
    assert r.status_code == 400
    assert r.json() == {"exception": "class java.lang.IllegalArgumentException",
                        "message": "There is no need to pass gremlin aliases", "cause": ""}
    r = http.post("/graphs/memgraph/jobs/gremlin", json={"bindings": {}})
    assert r.status_code == 400
    assert r.json()["message"] == "The gremlin parameter can't be null"
    r = http.post("/graphs/nograph/jobs/gremlin", json={"gremlin": "g.V()"})
    assert r.status_code == 404
