"""hugegraph-python 1.7.1's task calls on ids that do not exist (issue 20): HugeGraph 1.7 answers
404 `Can't find task with id '<id>'`, which the client raises as its `NotFoundError`."""

from __future__ import annotations

import pytest

pyhugegraph = pytest.importorskip("pyhugegraph")
from pyhugegraph.client import PyHugeClient  # noqa: E402
from pyhugegraph.utils.exceptions import NotFoundError  # noqa: E402


@pytest.fixture(scope="module")
def client(server_factory) -> PyHugeClient:
    server = server_factory.start(graphs={"pytasks": "backend=memory\nschema.mode=strict\n"})
    return PyHugeClient(server.base_url, graph="pytasks", user="admin", pwd="admin")


@pytest.mark.parametrize("call", ["get_task", "delete_task", "cancel_task"])
def test_an_unknown_task_is_not_found(client: PyHugeClient, call: str) -> None:
    with pytest.raises(NotFoundError, match=r"find task with id \\?'424242"):  # the body, as bytes
        getattr(client.task(), call)(424242)


def test_a_known_task_is_deleted_then_not_found(client: PyHugeClient) -> None:
    client.schema().propertyKey("name").asText().ifNotExist().create()
    client.schema().propertyKey("city").asText().ifNotExist().create()
    client.schema().vertexLabel("person").properties("name", "city").primaryKeys("name") \
        .nullableKeys("city").ifNotExist().create()
    made = client.schema().indexLabel("personByCity").onV("person").by("city").secondary().ifNotExist().create()
    assert made
    tasks = client.task().list_tasks()["tasks"]
    assert tasks, "an index label is built by a task"
    task_id = tasks[0]["id"]
    for _ in range(100):
        if client.task().get_task(task_id)["task_status"] in ("success", "failed", "cancelled"):
            break
    client.task().delete_task(task_id)
    with pytest.raises(NotFoundError):
        client.task().delete_task(task_id)
