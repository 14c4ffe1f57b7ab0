"""No 5xx for bad input, and no Python internals in messages (issue 16 item 7).

Before, each of these was a 500 (`Python int too large to convert to SQLite INTEGER`,
`unhashable type: 'list'`, `embedded null byte`) or a message naming
`sys.set_int_max_str_digits`, and schema names with control characters were accepted.
"""

from __future__ import annotations

import httpx
import pytest

from tests.hostile.conftest import Watch, gremlin

BIG = "9" * 30
INTERNALS = ("unhashable", "sys.", "Python", "Traceback", "sqlite3", "embedded null byte", "OverflowError")


def _hugegraph_error(answer: httpx.Response, status: int, java: str, *words: str) -> dict[str, str]:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert list(body)[:3] == ["exception", "message", "cause"]
    assert body["exception"].removeprefix("class ") == java
    for word in words:
        assert word in body["message"], body["message"]
    for internal in INTERNALS:
        assert internal not in body["message"]
    return body


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", f"/graphs/hugegraph/tasks/{BIG}"), ("DELETE", f"/graphs/hugegraph/tasks/{BIG}"),
     ("PUT", f"/graphs/hugegraph/tasks/{BIG}?action=cancel"), ("GET", "/graphs/hugegraph/tasks/-" + BIG)],
)
def test_a_task_id_beyond_64_bits_is_not_found(client: httpx.Client, watch: Watch, method: str, path: str) -> None:
    with watch:
        answer = client.request(method, path)
    watch.assert_held()
    _hugegraph_error(answer, 404, "org.apache.hugegraph.exception.NotFoundException", "Can't find task with id")


def test_task_ids_beyond_64_bits_in_a_list_are_a_400(client: httpx.Client) -> None:
    answer = client.get("/graphs/hugegraph/tasks", params={"ids": [BIG, "1"]})
    _hugegraph_error(answer, 400, "java.lang.IllegalArgumentException", "Invalid task ids", "64-bit integer")


@pytest.mark.parametrize("side", ["source_label", "target_label"])
@pytest.mark.parametrize("value", [["person"], {"person": 1}, 7])
def test_an_edge_label_end_that_is_not_a_name_is_a_400(client: httpx.Client, side: str, value: object) -> None:
    assert client.post("/graphs/hugegraph/schema/vertexlabels", json={"name": "person7"}).status_code in (201, 400)
    body = {"name": "bad_el", "source_label": "person7", "target_label": "person7", side: value}
    answer = client.post("/graphs/hugegraph/schema/edgelabels", json=body)
    _hugegraph_error(answer, 400, "java.lang.IllegalArgumentException",
                     f"The {side} must be the name of a vertex label (a string)")
    assert client.get("/graphs/hugegraph/schema/edgelabels/bad_el").status_code == 404


@pytest.mark.parametrize("path", ["a\\u0000b.json", "tinkerpop-modern-v3.json\\u0000.txt", "x\\ny.json"])
def test_a_control_character_in_a_gio_path_is_a_400(client: httpx.Client, watch: Watch, path: str) -> None:
    with watch:
        answer = gremlin(client, f"g.io('{path}').read().iterate()")
    watch.assert_held()
    _hugegraph_error(answer, 400, "java.lang.IllegalArgumentException", "g.io(): a file name has no control characters")


@pytest.mark.parametrize("path", ["out.json", "../out.json", "/tmp/out.xml"])
def test_gio_write_without_an_export_folder_is_a_403(client: httpx.Client, watch: Watch, path: str) -> None:
    with watch:
        answer = gremlin(client, f"g.io('{path}').write().iterate()")
    watch.assert_held()
    assert answer.status_code == 403, answer.text
    assert "none is configured" in answer.text


@pytest.mark.parametrize(
    ("path", "body"),
    [("propertykeys", {"name": "bad\u0001name", "data_type": "TEXT", "cardinality": "SINGLE"}),
     ("vertexlabels", {"name": "bad\nlabel"}),
     ("vertexlabels", {"name": "nul\u0000"}),
     ("edgelabels", {"name": "del\u007f", "source_label": "person7", "target_label": "person7"}),
     ("indexlabels", {"name": "c\u0085x", "base_type": "VERTEX_LABEL", "base_value": "person7",
                      "index_type": "SECONDARY", "fields": ["name"]})],
)
def test_schema_names_with_control_characters_are_refused(client: httpx.Client, path: str, body: dict) -> None:
    before = client.get(f"/graphs/hugegraph/schema/{path}").json()
    answer = client.post(f"/graphs/hugegraph/schema/{path}", json=body)
    _hugegraph_error(answer, 400, "java.lang.IllegalArgumentException", "Illegal schema name", "control character")
    assert client.get(f"/graphs/hugegraph/schema/{path}").json() == before


def test_schema_names_with_control_characters_are_refused_in_scripts(client: httpx.Client) -> None:
    answer = gremlin(client, "graph.schema().propertyKey('k\\u0007').asText().create()", graph="hugegraph")
    _hugegraph_error(answer, 400, "java.lang.IllegalArgumentException", "control character")


def test_an_integer_literal_past_the_bound_names_the_bound(client: httpx.Client) -> None:
    answer = gremlin(client, "g.inject(" + "9" * 5000 + ")")
    _hugegraph_error(answer, 400, "groovy.lang.MissingMethodException",
                     "integer literal is too large (5,000 digits, MAX_BIGINT_BITS is 14,000)")


def test_a_biginteger_too_long_to_write_is_a_limit_error_not_a_500(client: httpx.Client) -> None:
    """Python writes at most 4,300 digits; a traversal's BigInteger stops below that."""
    script = "g.withSack(10n).inject(1).repeat(sack(mult).by(constant(" + "1" + "0" * 30 + "n))).times(200).sack()"
    answer = gremlin(client, script)
    _hugegraph_error(answer, 400, "org.apache.hugegraph.exception.LimitExceedException", "MAX_BIG_INTEGER_BITS is 14,000")
    answer = gremlin(client, "g.withSack(10n).inject(1).repeat(sack(mult).by(constant(" + "1" + "0" * 30 + "n))).times(100).sack()")
    assert answer.status_code == 200
    assert answer.json()["result"]["data"] == [10 ** 3001]
