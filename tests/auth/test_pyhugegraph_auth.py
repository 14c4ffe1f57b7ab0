"""hugegraph-python 1.7.1 against a server with auth on, with HTTP Basic credentials: its
`client.auth()` (users, groups, targets, belongs, accesses) and its other calls, unchanged."""

from __future__ import annotations

import re
import uuid

import pytest
from pyhugegraph.client import PyHugeClient
from pyhugegraph.utils.exceptions import NotAuthorizedError, NotFoundError

from tests.auth.conftest import ADMIN_PASSWORD
from tests.conftest import RunningServer


@pytest.fixture
def client(auth_server: RunningServer) -> PyHugeClient:
    return PyHugeClient(url=auth_server.base_url, graph="hugegraph", user="admin", pwd=ADMIN_PASSWORD)


def _name(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:6]}"


def test_users(client: PyHugeClient) -> None:
    auth = client.auth()
    assert auth.list_users()["users"][0]["user_creator"] == "system"  # the bootstrap admin first
    name = _name("boss")
    user = auth.create_user(name, "b0ss-pw", user_phone="123", user_email="a@b.c")
    assert user["id"] == f"-63:{name}" and user["user_creator"] == "admin"
    assert user["user_password"].startswith("$2") and "b0ss-pw" not in user["user_password"]
    assert user["user_email"] == "a@b.c" and user["user_phone"] == "123"
    assert auth.get_user(user["id"])["users"][0]["user_name"] == name
    changed = auth.modify_user(user["id"], user_email="new@b.c")
    assert changed["user_email"] == "new@b.c" and changed["user_phone"] == "123"
    assert name in {u["user_name"] for u in auth.list_users(limit=1000)["users"]}
    assert len(auth.list_users(limit=1)["users"]) == 1
    auth.delete_user(user["id"])
    with pytest.raises(NotFoundError, match=r"Can\\+'t find user with id \\+'" + re.escape(user["id"])):
        auth.get_user(user["id"])


def test_groups_targets_belongs_accesses(client: PyHugeClient) -> None:
    auth = client.auth()
    user = auth.create_user(_name("u"), "pw-u")
    group = auth.create_group(_name("g"), group_description="readers")
    assert group["id"].startswith("-69:") and group["group_description"] == "readers"
    assert auth.modify_group(group["id"], group_description="beijing readers")["group_description"] == \
        "beijing readers"
    assert group["id"] in {g["id"] for g in auth.list_groups(limit=-1)["groups"]}
    resources = [{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}]
    target = auth.create_target(_name("t"), "hugegraph", "127.0.0.1:8080", resources)
    assert target["target_resources"][0]["properties"]["city"] == "Beijing"
    assert auth.get_target(target["id"])["target_resources"] == resources
    widened = auth.update_target(target["id"], target["target_name"], "hugegraph", "127.0.0.1:8080",
                                 [{"type": "VERTEX"}])
    assert widened["target_resources"] == [{"type": "VERTEX", "label": "*", "properties": None}]
    assert target["id"] in {t["id"] for t in auth.list_targets()["targets"]}

    belong = auth.create_belong(user["id"], group["id"])
    assert belong["id"] == f"S{user['id']}>-82>>S{group['id']}"
    assert auth.update_belong(belong["id"], "member")["belong_description"] == "member"
    assert auth.get_belong(belong["id"])["user"] == user["id"]
    assert belong["id"] in {b["id"] for b in auth.list_belongs()["belongs"]}

    access = auth.grant_accesses(group["id"], target["id"], "READ")
    assert access["access_permission"] == "READ"
    assert access["id"] == f"S{group['id']}>-88>11>S{target['id']}"
    assert auth.modify_accesses(access["id"], "read it")["access_description"] == "read it"
    assert auth.get_accesses(access["id"])["target"] == target["id"]
    assert access["id"] in {a["id"] for a in auth.list_accesses()["accesses"]}

    auth.revoke_accesses(access["id"])
    auth.delete_belong(belong["id"])
    auth.delete_target(target["id"])
    auth.delete_group(group["id"])
    with pytest.raises(NotFoundError):
        auth.get_group(group["id"])


def test_other_calls_unchanged_with_basic_credentials(client: PyHugeClient) -> None:
    schema = client.schema()
    schema.propertyKey("pyauth_name").asText().ifNotExist().create()
    schema.vertexLabel("pyauth_person").properties("pyauth_name").primaryKeys("pyauth_name").ifNotExist().create()
    v = client.graph().addVertex("pyauth_person", {"pyauth_name": "marko"})
    assert client.graph().getVertexById(v.id).properties == {"pyauth_name": "marko"}
    assert client.gremlin().exec("g.V().hasLabel('pyauth_person').count()")["data"] == [1]
    assert "hugegraph" in client.graphs().get_all_graphs()


def test_wrong_password_is_not_authorized(auth_server: RunningServer) -> None:
    client = PyHugeClient(url=auth_server.base_url, graph="hugegraph", user="admin", pwd="wrong")
    with pytest.raises(NotAuthorizedError):
        client.graphs().get_all_graphs()
