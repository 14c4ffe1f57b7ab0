"""Auth records in the store: they survive a restart, no password is stored in clear, the
bootstrap admin; and the WebSocket door knows the same users (SASL, Basic, a token)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sqlite3
import subprocess
import sys
import uuid

import aiohttp
import httpx
import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.protocol import GremlinServerError

from rest_adapter.settings import Settings, SettingsError
from tests.auth.conftest import ADMIN_PASSWORD, GRAPHS, STANDARD, start_auth_server
from tests.backends import sqlite_only
from tests.conftest import ROOT, RunningServer, ServerFactory, run_cli, write_conf
from tests.hostile.test_login import _sasl


@sqlite_only("reads the auth records' rows straight from the SQLite file")
def test_records_survive_a_restart_and_no_password_is_stored_in_clear(server_factory: ServerFactory) -> None:
    server = start_auth_server(server_factory)
    with httpx.Client(base_url=server.base_url, auth=("admin", ADMIN_PASSWORD), timeout=30) as admin:
        user = admin.post("/graphspaces/DEFAULT/auth/users",
                          json={"user_name": "keeper", "user_password": "clear-text-pw"}).json()
        assert "clear-text-pw" not in str(admin.get("/graphspaces/DEFAULT/auth/users").json())
    server.stop()
    db = server.cwd / "data" / "hugegraph.db"
    with sqlite3.connect(db) as conn:  # the committed rows, WAL included
        dump = "\n".join(conn.iterdump())
    assert "keeper" in dump
    assert "clear-text-pw" not in dump and ADMIN_PASSWORD not in dump
    again = server_factory.start(graphs=GRAPHS, server=STANDARD, cwd=server.cwd, init=False)
    try:
        with httpx.Client(base_url=again.base_url, auth=("keeper", "clear-text-pw"), timeout=30) as keeper:
            assert keeper.get(f"/graphspaces/DEFAULT/auth/users/{user['id']}").json()["users"][0]["id"] == user["id"]
    finally:
        again.stop()


def test_bootstrap_admin(tmp_path) -> None:
    conf = write_conf(tmp_path, GRAPHS, STANDARD)
    env = {k: v for k, v in os.environ.items() if k != "HUGELITE_ADMIN_PASSWORD"}
    done = subprocess.run([sys.executable, "-m", "rest_adapter", "init-store", "--conf", str(conf)], cwd=tmp_path,
                          capture_output=True, text=True, env={**env, "PYTHONPATH": str(ROOT)},
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2  # no password, no terminal: no built-in default either
    assert "--admin-password or HUGELITE_ADMIN_PASSWORD" in done.stderr
    done = run_cli("init-store", "--conf", str(conf), "--admin-password", "first-pw", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "created the user 'admin'" in done.stdout
    # a second run keeps the admin and its password
    done = run_cli("init-store", "--conf", str(conf), "--admin-password", "other-pw", cwd=tmp_path)
    assert done.returncode == 0 and "created the user" not in done.stdout
    listed = run_cli("users", "list", "--conf", str(conf), cwd=tmp_path)
    assert '"user_name": "admin"' in listed.stdout and '"user_creator": "system"' in listed.stdout
    assert "user_password" not in listed.stdout
    assert run_cli("users", "add", "carol", "--password", "c-pw", "--conf", str(conf), cwd=tmp_path).returncode == 0
    granted = run_cli("users", "grant", "carol", "READ", "--graph", "hugegraph", "--type", "VERTEX",
                      "--label", "person", "--properties", '{"city": "Beijing"}', "--conf", str(conf), cwd=tmp_path)
    assert granted.returncode == 0, granted.stderr
    assert '"READ": [{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}]' in granted.stdout
    assert run_cli("users", "passwd", "admin", "--password", "third-pw", "--conf", str(conf),
                   cwd=tmp_path).returncode == 0


@pytest.fixture
def ws_url(auth_server: RunningServer) -> str:
    return auth_server.base_url.replace("http", "ws") + "/gremlin"


def test_websocket_knows_the_same_users(auth_server: RunningServer, ws_url: str) -> None:
    with httpx.Client(base_url=auth_server.base_url, auth=("admin", ADMIN_PASSWORD), timeout=30) as admin:
        admin.post("/graphspaces/DEFAULT/auth/users", json={"user_name": "wsuser", "user_password": "ws-pw"})
        token = admin.post("/auth/login", json={"user_name": "wsuser", "user_password": "ws-pw"}).json()["token"]
    client = Client(ws_url, "g", username="wsuser", password="ws-pw")
    try:  # authenticated, but a user with no grants may not run Gremlin (EXECUTE on GREMLIN)
        with pytest.raises(GremlinServerError) as denied:
            client.submit("g.inject(1)").all().result()
        assert denied.value.status_code == 401 and "Permission denied: execute" in str(denied.value)
    finally:
        client.close()
    bad = Client(ws_url, "g", username="wsuser", password="nope")
    try:
        with pytest.raises(GremlinServerError) as err:
            bad.submit("g.inject(1)").all().result()
        assert err.value.status_code == 401 and "Permission denied" not in str(err.value)
    finally:
        bad.close()
    assert _sasl(auth_server, "", token)["status"]["code"] == 204  # a token as the password, no user
    assert _sasl(auth_server, "", "not.a.token")["status"]["code"] == 401


def _eval_with_upgrade_header(url: str, authorization: str) -> int:
    """The status of one `eval` on a WebSocket whose upgrade request carries `authorization`."""
    request = {"requestId": str(uuid.uuid4()), "op": "eval", "processor": "", "args": {"gremlin": "1 + 1"}}
    mime = b"application/vnd.gremlin-v3.0+json"
    frame = bytes([len(mime)]) + mime + json.dumps(request).encode()

    async def send() -> int:
        async with aiohttp.ClientSession() as session, session.ws_connect(
                url, headers={"Authorization": authorization}) as ws:
            await ws.send_bytes(frame)
            return int(json.loads((await ws.receive(timeout=30)).data)["status"]["code"])

    return asyncio.run(send())


def test_websocket_basic_on_the_upgrade(auth_server: RunningServer, ws_url: str) -> None:
    right = "Basic " + base64.b64encode(f"admin:{ADMIN_PASSWORD}".encode()).decode()
    wrong = "Basic " + base64.b64encode(b"admin:wrong").decode()
    assert _eval_with_upgrade_header(ws_url, right) == 200
    assert _eval_with_upgrade_header(ws_url, wrong) == 407  # asked for SASL, as without a header


def test_the_graph_store_must_be_served(tmp_path) -> None:
    conf = write_conf(tmp_path, GRAPHS, {**STANDARD, "auth.graph_store": "nosuch"})
    with pytest.raises(SettingsError, match="auth.graph_store names the graph 'nosuch'"):
        Settings.load(conf)


def test_a_memory_graph_store_gets_its_admin_at_start(server_factory: ServerFactory) -> None:
    server = start_auth_server(server_factory, **{"auth.graph_store": "memgraph"})
    try:
        r = httpx.get(f"{server.base_url}/graphspaces/DEFAULT/auth/users", auth=("admin", ADMIN_PASSWORD))
        assert [u["user_name"] for u in r.json()["users"]] == ["admin"]
    finally:
        server.stop()


def test_a_session_belongs_to_the_user_who_opened_it(auth_server: RunningServer, ws_url: str) -> None:
    """Its transaction keeps the permission view of its first request, so another user may
    neither run requests in it nor close it; its owner goes on."""
    with httpx.Client(base_url=auth_server.base_url, auth=("admin", ADMIN_PASSWORD), timeout=30) as admin:
        for name in ("sess_a", "sess_b"):
            user = admin.post("/graphspaces/DEFAULT/auth/users", json={"user_name": name, "user_password": "s-pw"})
            group = admin.post("/auth/groups", json={"group_name": f"{name}_g"}).json()
            target = admin.post("/graphspaces/DEFAULT/auth/targets", json={
                "target_name": f"{name}_t", "target_graph": "hugegraph", "target_url": "h",
                "target_resources": [{"type": "GREMLIN"}, {"type": "VERTEX"}]}).json()
            admin.post("/graphspaces/DEFAULT/auth/belongs", json={"user": user.json()["id"], "group": group["id"]})
            for permission in ("EXECUTE", "READ"):
                r = admin.post("/graphspaces/DEFAULT/auth/accesses", json={
                    "group": group["id"], "target": target["id"], "access_permission": permission})
                assert r.status_code == 201, r.text
    sid = str(uuid.uuid4())
    owner = Client(ws_url, "g", username="sess_a", password="s-pw", session=sid)
    other = Client(ws_url, "g", username="sess_b", password="s-pw", session=sid)
    try:
        assert owner.submit("g.inject(7)").all().result() == [7]
        with pytest.raises(GremlinServerError) as refused:
            other.submit("g.inject(7)").all().result()
        assert refused.value.status_code == 401 and "belongs to another user" in str(refused.value)
        assert owner.submit("1 + 1").all().result() == [2]
    finally:
        other.close()  # its close of the session is refused too: the session stays the owner's
        assert owner.submit("2 + 2").all().result() == [4]
        owner.close()
