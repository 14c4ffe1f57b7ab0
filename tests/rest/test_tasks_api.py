"""Task REST endpoints through httpx against a real uvicorn server (gremlin-and-tasks.md §3)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from hg_elements import finished_task

G = "/graphs/taskgraph"


@pytest.fixture(scope="module")
def task_server(server_factory):
    return server_factory.start(graphs={"taskgraph": "backend=sqlite\nschema.mode=strict\n"})


@pytest.fixture
def client(task_server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=task_server.base_url, timeout=30) as c:
        yield c


def _finished_task(client: httpx.Client) -> int:
    client.post(f"{G}/schema/propertykeys", json={"name": "name", "check_exist": False})
    client.post(f"{G}/schema/vertexlabels", json={"name": "person", "properties": ["name"],
                                                  "primary_keys": ["name"], "check_exist": False})
    r = client.delete(f"{G}/schema/vertexlabels/person")
    task_id = r.json()["task_id"]
    assert finished_task(client, G, task_id)["task_status"] == "success"
    return task_id


def test_get_list_cancel_delete(client):
    task_id = _finished_task(client)
    task = client.get(f"{G}/tasks/{task_id}").json()
    assert list(task) == ["task_name", "task_progress", "task_create", "task_status", "task_update",
                          "task_retries", "id", "task_type", "task_callable", "task_server"]
    assert task["task_status"] == "success" and task["task_type"] == "remove_schema"
    assert isinstance(task["task_create"], int) and task["task_update"] >= task["task_create"]
    listed = client.get(f"{G}/tasks").json()
    assert list(listed) == ["tasks"] and task_id in [t["id"] for t in listed["tasks"]]
    paged = client.get(f"{G}/tasks", params={"limit": 1, "page": ""}).json()
    assert list(paged) == ["tasks", "page"] and len(paged["tasks"]) == 1
    assert client.get(f"{G}/tasks", params={"status": "success"}).json()["tasks"]
    bad = client.get(f"{G}/tasks", params={"status": "nope"})
    assert bad.status_code == 400 and bad.json()["message"].startswith("Status value must be in [UNKNOWN, NEW")
    r = client.put(f"{G}/tasks/{task_id}", params={"action": "cancel"})
    assert r.status_code == 400
    assert r.json()["message"] == f"Can't cancel task '{task_id}' which is completed or cancelling"
    assert client.put(f"{G}/tasks/{task_id}", params={"action": "stop"}).status_code == 415
    assert client.delete(f"{G}/tasks/{task_id}").status_code == 204
    missing = client.get(f"{G}/tasks/{task_id}")
    assert missing.status_code == 404 and missing.json()["message"] == f"Can't find task with id '{task_id}'"
    gone = client.delete(f"{G}/tasks/{task_id}")
    assert gone.status_code == 404 and gone.json()["message"] == f"Can't find task with id '{task_id}'"


def test_gremlin_job_task(client):
    r = client.post(f"{G}/jobs/gremlin", json={"gremlin": "1 + 2", "bindings": {}, "language": "gremlin-groovy"})
    if r.status_code == 400 and "runtime" in r.text:
        pytest.skip("the Gremlin runtime is not available yet")
    assert r.status_code == 201
    task = finished_task(client, G, r.json()["task_id"])
    assert task["task_type"] == "gremlin" and task["task_name"] == "1 + 2"
    assert task["task_callable"] == "org.apache.hugegraph.job.GremlinJob"
    assert task["task_input"] == ('{"gremlin":"1 + 2","aliases":{"taskgraph":"graph"},"bindings":{},'
                                  '"language":"gremlin-groovy"}')
    if task["task_status"] == "failed" and "runtime" in task.get("task_result", ""):
        pytest.skip("the Gremlin runtime is not available yet")
    assert task["task_status"] == "success" and task["task_result"] == "3"
