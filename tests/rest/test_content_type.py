"""A body declared as anything but JSON is a 415, as HugeGraph's JSON-only resources answer it
(issue 20); a body without a Content-Type is read as JSON."""

from __future__ import annotations

import httpx
import pytest

KEY = b'{"name": "ctype_probe", "data_type": "TEXT", "cardinality": "SINGLE"}'


@pytest.mark.parametrize("declared", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_a_body_that_is_not_json_is_415_and_changes_nothing(http: httpx.Client, declared: str) -> None:
    answer = http.post("/graphs/memgraph/schema/propertykeys", content=KEY, headers={"Content-Type": declared})
    assert answer.status_code == 415
    body = answer.json()
    assert body["exception"].endswith("NotSupportedException")
    assert f"declared as '{declared}'" in body["message"] and "application/json" in body["message"]
    assert http.get("/graphs/memgraph/schema/propertykeys/ctype_probe").status_code == 404
    script = http.post("/gremlin", content=b'{"gremlin": "1+1"}', headers={"Content-Type": declared})
    assert script.status_code == 415


def test_json_with_a_charset_or_without_a_type_is_read(http: httpx.Client) -> None:
    with_charset = http.post("/gremlin", content=b'{"gremlin": "1+1"}',
                             headers={"Content-Type": "application/json; charset=UTF-8"})
    assert with_charset.status_code == 200 and with_charset.json()["result"]["data"] == [2]
    untyped = http.post("/gremlin", content=b'{"gremlin": "2+2"}')
    assert untyped.status_code == 200 and untyped.json()["result"]["data"] == [4]
