"""The five auth families over REST with their rules: fields, ids, timestamps, statuses,
both layouts, who may read and change what, granting no more than one holds."""

from __future__ import annotations

import re
import uuid

import httpx

from tests.conftest import RunningServer

STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$")
V17 = "/graphspaces/DEFAULT/auth"
V15 = "/graphs/hugegraph/auth"


def _n(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def _user(admin: httpx.Client, password: str = "pw-1234") -> dict:
    r = admin.post(f"{V17}/users", json={"user_name": _n("u"), "user_password": password})
    assert r.status_code == 201, r.text
    return r.json()


def _as(server: RunningServer, user: dict, password: str = "pw-1234") -> httpx.Client:
    return httpx.Client(base_url=server.base_url, auth=(user["user_name"], password), timeout=30)


def _grant(admin: httpx.Client, user: dict, permission: str, resources: list[dict], graph: str = "hugegraph") -> None:
    group = admin.post("/auth/groups", json={"group_name": _n("g")}).json()
    target = admin.post(f"{V17}/targets", json={"target_name": _n("t"), "target_graph": graph,
                                                "target_url": "127.0.0.1:8080", "target_resources": resources}).json()
    assert admin.post(f"{V17}/belongs", json={"user": user["id"], "group": group["id"]}).status_code == 201
    r = admin.post(f"{V17}/accesses", json={"group": group["id"], "target": target["id"],
                                            "access_permission": permission})
    assert r.status_code == 201, r.text


def test_fields_ids_timestamps_and_statuses_at_the_15_layout(admin: httpx.Client) -> None:
    name = _n("boss")
    r = admin.post(f"{V15}/users", json={"user_name": name, "user_password": "pw", "user_phone": "1",
                                         "id": "ignored", "user_creator": "ignored"})
    assert r.status_code == 201
    user = r.json()
    assert user["id"] == f"-63:{name}" and user["user_creator"] == "admin"
    assert STAMP.match(user["user_create"]) and STAMP.match(user["user_update"])
    assert admin.get(f"{V15}/users/{user['id']}").json() == {"users": [user]}
    group = admin.post(f"{V15}/groups", json={"group_name": _n("g"), "group_description": "d"}).json()
    assert set(group) == {"id", "group_name", "group_description", "group_creator", "group_create", "group_update"}
    target = admin.post(f"{V15}/targets", json={"target_name": _n("t"), "target_graph": "hugegraph",
                                                "target_url": "h:1", "target_resources": [{"type": "EDGE"}]}).json()
    assert target["target_resources"] == [{"type": "EDGE", "label": "*", "properties": None}]
    belong = admin.post(f"{V15}/belongs", json={"user": user["id"], "group": group["id"]}).json()
    access = admin.post(f"{V15}/accesses", json={"group": group["id"], "target": target["id"],
                                                 "access_permission": "WRITE"}).json()
    assert access["id"] == f"S{group['id']}>-88>12>S{target['id']}"
    r = admin.get(f"{V15}/belongs", params={"user": user["id"]})
    assert [b["id"] for b in r.json()["belongs"]] == [belong["id"]]
    r = admin.get(f"{V15}/belongs", params={"user": user["id"], "group": group["id"]})
    assert (r.status_code, r.json()["message"]) == (400, "Can't pass both user and group at the same time")
    assert admin.get(f"{V15}/users/{user['id']}/role").json() == {
        "roles": {"hugegraph": {"WRITE": [{"type": "EDGE", "label": "*", "properties": None}]}}}
    assert admin.delete(f"{V15}/groups/{group['id']}").status_code == 204
    # the group's belongs and accesses went with it
    assert admin.get(f"{V15}/belongs/{belong['id']}").status_code == 404
    assert admin.get(f"{V15}/users/{user['id']}/role").json() == {"roles": {}}
    assert admin.get("/graphs/nosuchgraph/auth/users").status_code == 404


def test_errors(admin: httpx.Client) -> None:
    user = _user(admin)
    r = admin.post(f"{V17}/users", json={"user_name": user["user_name"], "user_password": "x"})
    assert (r.status_code, r.json()["message"]) == (400, f"Can't save user '{user['id']}' that already exists")
    r = admin.post(f"{V17}/users", json={"user_name": "nopw"})
    assert (r.status_code, r.json()["message"]) == (400, "The password of user can't be null")
    r = admin.post(f"{V17}/users", json={"user_name": "admin", "user_password": "x"})
    assert (r.status_code, r.json()["message"]) == (400, "Invalid user name 'admin'")
    r = admin.put(f"{V17}/users/-63:nobody", json={"user_phone": "1"})
    assert (r.status_code, r.json()["message"]) == (400, "Invalid user id: -63:nobody")
    r = admin.delete(f"{V17}/targets/-77:nothing")
    assert (r.status_code, r.json()["message"]) == (400, "Invalid target id: -77:nothing")
    r = admin.post(f"{V17}/belongs", json={"user": user["id"], "group": "-69:nothing"})
    assert (r.status_code, r.json()["message"]) == (400, "Not exists group '-69:nothing'")
    r = admin.post(f"{V17}/targets", json={"target_name": _n("t"), "target_graph": "hugegraph", "target_url": "h",
                                           "target_resources": [{"type": "VERTICES"}]})
    assert r.status_code == 400 and "Invalid resource type 'VERTICES'" in r.json()["message"]
    group = admin.post("/auth/groups", json={"group_name": _n("g")}).json()
    belong = admin.post(f"{V17}/belongs", json={"user": user["id"], "group": group["id"]}).json()
    other = _user(admin)
    r = admin.put(f"{V17}/belongs/{belong['id']}", json={"user": other["id"], "belong_description": "x"})
    assert r.status_code == 400 and "can't be changed" in r.json()["message"]
    assert admin.get(f"{V17}/belongs/{belong['id']}").json()["user"] == user["id"]  # nothing changed
    r = admin.put(f"/auth/groups/{group['id']}", json={"group_name": "renamed"})
    assert r.status_code == 400 and "can't be changed" in r.json()["message"]


def test_who_may_read_and_change_what(auth_server: RunningServer, admin: httpx.Client) -> None:
    plain = _user(admin)
    with _as(auth_server, plain) as me:
        # no grants: authenticated (not 401), but refused (403)
        r = me.post("/auth/groups", json={"group_name": _n("g")})
        assert r.status_code == 403
        assert r.json()["exception"] == "class jakarta.ws.rs.ForbiddenException"
        assert r.json()["message"].startswith("Permission denied: write")
        # one's own record, yes; admin's or anyone else's, no
        assert me.get(f"{V17}/users/{plain['id']}").status_code == 200
        assert me.get(f"{V17}/users/-63:admin").status_code == 403
        assert [u["id"] for u in me.get(f"{V17}/users").json()["users"]] == [plain["id"]]
        # one may change one's own password, and log in with it
        assert me.put(f"{V17}/users/{plain['id']}", json={"user_password": "new-pw-1"}).status_code == 200
    with _as(auth_server, plain, "new-pw-1") as me:
        assert me.get(f"{V17}/users/{plain['id']}/role").json() == {"roles": {}}


def test_granting_needs_a_containing_role(auth_server: RunningServer, admin: httpx.Client) -> None:
    manager = _user(admin)
    _grant(admin, manager, "WRITE", [{"type": "USER_GROUP"}])
    _grant(admin, manager, "READ", [{"type": "USER_GROUP"}])
    _grant(admin, manager, "READ", [{"type": "VERTEX", "label": "person"}])
    reader = admin.post("/auth/groups", json={"group_name": _n("readers")}).json()
    writer = admin.post("/auth/groups", json={"group_name": _n("writers")}).json()
    for group, permission in ((reader, "READ"), (writer, "WRITE")):
        target = admin.post(f"{V17}/targets", json={
            "target_name": _n("t"), "target_graph": "hugegraph", "target_url": "h",
            "target_resources": [{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}]}).json()
        admin.post(f"{V17}/accesses", json={"group": group["id"], "target": target["id"],
                                            "access_permission": permission})
    with _as(auth_server, manager) as me:
        newbie = me.post(f"{V17}/users", json={"user_name": _n("n"), "user_password": "pw"}).json()
        assert newbie["user_creator"] == manager["user_name"]
        # READ on Beijing persons is inside the manager's READ on persons: granted
        r = me.post(f"{V17}/belongs", json={"user": newbie["id"], "group": reader["id"]})
        assert r.status_code == 201, r.text
        # WRITE on them is not the manager's to give
        r = me.post(f"{V17}/belongs", json={"user": newbie["id"], "group": writer["id"]})
        assert r.status_code == 403
        # and targets and accesses need GRANT, which the manager lacks
        assert me.get(f"{V17}/targets").json() == {"targets": []}
    assert admin.get(f"{V17}/users/{newbie['id']}/role").json()["roles"] == {
        "hugegraph": {"READ": [{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}]}}


def test_groups_at_both_17_paths_are_the_same_groups(admin: httpx.Client) -> None:
    group = admin.post(f"{V17}/groups", json={"group_name": _n("g")}).json()
    assert admin.get(f"/auth/groups/{group['id']}").json() == group


def test_metrics_are_for_the_administrator_and_metrics_readers(auth_server: RunningServer,
                                                                admin: httpx.Client) -> None:
    """HugeGraph's MetricsAPI: `admin` or READ on METRICS; the server's figures span every
    graph and user, so anyone else is refused rather than shown a filtered part."""
    assert admin.get("/metrics", params={"type": "json"}).status_code == 200
    reader, plain = _user(admin), _user(admin)
    _grant(admin, reader, "READ", [{"type": "METRICS"}])
    _grant(admin, plain, "READ", [{"type": "ALL"}])  # ALL is the graph's resources: not METRICS
    with _as(auth_server, reader) as me:
        assert me.get("/metrics", params={"type": "json"}).json()["counters"]["hugelite.requests.total"]["count"] > 0
        assert me.get("/metrics/backend").status_code == 200
    with _as(auth_server, plain) as me:
        for path in ("/metrics", "/metrics/system", "/metrics/backend", "/metrics/statistics", "/metrics/timers"):
            r = me.get(path)
            assert (r.status_code, r.json()["message"]) == (403, "User not authorized."), path
            assert r.json()["exception"] == "class jakarta.ws.rs.ForbiddenException"
