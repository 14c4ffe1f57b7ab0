"""Shared set-up for the vertex and edge REST tests: one schema, created through the REST
schema endpoints of a real server, on a freshly cleared strict graph.

Labels (vertex label ids in creation order, which the ids below depend on):

1. person    PRIMARY_KEY [name]; name, age, city, tags (SET), scores (LIST), born (DATE), nick
2. software  PRIMARY_KEY [name, lang]; name, lang, price (lang non-nullable)
3. user      CUSTOMIZE_STRING; name
4. item      CUSTOMIZE_NUMBER; name
5. thing     CUSTOMIZE_UUID; name
6. auto      AUTOMATIC; name
7. nolabelix PRIMARY_KEY [name], label index disabled

Edge labels: 1 knows person->person (MULTIPLE, sort key date; weight, note), 2 created
person->software (weight, tags SET). Index labels: personByCity (SECONDARY city),
personByAge (RANGE age), personByBorn (RANGE born), createdByWeight (RANGE weight),
knowsByNote (SECONDARY note).
"""

from __future__ import annotations

import time
import urllib.parse
from typing import Any

import httpx

CONFIRM = {"confirm_message": "I'm sure to delete all data"}

KEYS = [
    ("name", "TEXT", "SINGLE"), ("age", "INT", "SINGLE"), ("city", "TEXT", "SINGLE"),
    ("tags", "TEXT", "SET"), ("scores", "INT", "LIST"), ("born", "DATE", "SINGLE"),
    ("nick", "TEXT", "SINGLE"), ("lang", "TEXT", "SINGLE"), ("price", "INT", "SINGLE"),
    ("date", "TEXT", "SINGLE"), ("weight", "DOUBLE", "SINGLE"), ("note", "TEXT", "SINGLE"),
]

VERTEX_LABELS = [
    {"name": "person", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"],
     "properties": ["name", "age", "city", "tags", "scores", "born", "nick"],
     "nullable_keys": ["age", "city", "tags", "scores", "born", "nick"]},
    {"name": "software", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name", "lang"],
     "properties": ["name", "lang", "price"], "nullable_keys": ["price"]},
    {"name": "user", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"], "nullable_keys": ["name"]},
    {"name": "item", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"], "nullable_keys": ["name"]},
    {"name": "thing", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"], "nullable_keys": ["name"]},
    {"name": "auto", "id_strategy": "AUTOMATIC", "properties": ["name", "age"], "nullable_keys": ["name", "age"]},
    {"name": "nolabelix", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"], "properties": ["name"],
     "enable_label_index": False},
]

EDGE_LABELS = [
    {"name": "knows", "source_label": "person", "target_label": "person", "frequency": "MULTIPLE",
     "sort_keys": ["date"], "properties": ["date", "weight", "note"], "nullable_keys": ["weight", "note"]},
    {"name": "created", "source_label": "person", "target_label": "software",
     "properties": ["weight", "tags", "date"], "nullable_keys": ["weight", "tags", "date"]},
]

INDEX_LABELS = [
    {"name": "personByCity", "base_type": "VERTEX_LABEL", "base_value": "person", "index_type": "SECONDARY",
     "fields": ["city"]},
    {"name": "personByAge", "base_type": "VERTEX_LABEL", "base_value": "person", "index_type": "RANGE",
     "fields": ["age"]},
    {"name": "personByBorn", "base_type": "VERTEX_LABEL", "base_value": "person", "index_type": "RANGE",
     "fields": ["born"]},
    {"name": "createdByWeight", "base_type": "EDGE_LABEL", "base_value": "created", "index_type": "RANGE",
     "fields": ["weight"]},
    {"name": "knowsByNote", "base_type": "EDGE_LABEL", "base_value": "knows", "index_type": "SECONDARY",
     "fields": ["note"]},
]


def finished_task(client: httpx.Client, prefix: str, task_id: int) -> dict[str, Any]:
    """The task's REST view once it has finished (success, failed or cancelled), polled every
    20 ms; a task still running after 30 s fails the test."""
    deadline = time.monotonic() + 30
    while True:
        task = client.get(f"{prefix}/tasks/{task_id}").json()
        if task["task_status"] in ("success", "failed", "cancelled"):
            return task
        assert time.monotonic() < deadline, task
        time.sleep(0.02)


def wait_task(client: httpx.Client, prefix: str, task_id: int) -> None:
    task = finished_task(client, prefix, task_id)
    assert task["task_status"] == "success", task


def build_schema(client: httpx.Client, prefix: str) -> None:
    """Clears the graph and creates the schema above."""
    assert client.delete(f"{prefix}/clear", params=CONFIRM).status_code == 204
    for name, dt, card in KEYS:
        r = client.post(f"{prefix}/schema/propertykeys", json={"name": name, "data_type": dt, "cardinality": card})
        assert r.status_code == 202, r.text
    for body in VERTEX_LABELS:
        r = client.post(f"{prefix}/schema/vertexlabels", json=body)
        assert r.status_code == 201, r.text
    for body in EDGE_LABELS:
        r = client.post(f"{prefix}/schema/edgelabels", json=body)
        assert r.status_code == 201, r.text
    for body in INDEX_LABELS:
        r = client.post(f"{prefix}/schema/indexlabels", json=body)
        assert r.status_code == 202, r.text
        wait_task(client, prefix, r.json()["task_id"])


def vpath(prefix: str, vid: Any) -> str:
    """`.../graph/vertices/<JSON literal id, percent-encoded>`."""
    import json

    return f"{prefix}/graph/vertices/{urllib.parse.quote(json.dumps(vid), safe='')}"


def epath(prefix: str, eid: str) -> str:
    return f"{prefix}/graph/edges/{urllib.parse.quote(eid, safe='')}"


def person(name: str, **props: Any) -> dict[str, Any]:
    return {"label": "person", "properties": {"name": name, **props}}


def error(r: httpx.Response, status: int) -> str:
    """Asserts an error status and HugeGraph's body shape; returns the message."""
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert list(body) == ["exception", "message", "cause"], body
    assert body["exception"].startswith("class ")
    return body["message"]
