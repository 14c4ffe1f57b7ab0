"""A real server with authentication on, the modern graph of the door tests, and users made
through HugeGraph's auth REST API (each grant through a group, a target and an access of its
own), for the door tests (test_doors.py, test_door_matrix.py)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.wire.server import ROOT, free_port, write_conf

ADMIN_PASSWORD = "matrix-admin-pw"
G = "/graphs/hugegraph"
AUTH = f"{G}/auth"
BEIJING = {"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}

SCHEMA = (
    "s = graph.schema(); s.propertyKey('name').asText().ifNotExist().create(); "
    "s.propertyKey('city').asText().ifNotExist().create(); s.propertyKey('weight').asDouble().ifNotExist().create(); "
    "s.vertexLabel('person').properties('name', 'city').primaryKeys('name').nullableKeys('city').ifNotExist().create(); "
    "s.vertexLabel('software').properties('name').primaryKeys('name').ifNotExist().create(); "
    "s.edgeLabel('knows').sourceLabel('person').targetLabel('person').properties('weight').nullableKeys('weight')"
    ".ifNotExist().create(); "
    "s.edgeLabel('created').sourceLabel('person').targetLabel('software').ifNotExist().create(); "
    "marko = graph.addVertex(T.label, 'person', 'name', 'marko', 'city', 'Beijing'); "
    "vadas = graph.addVertex(T.label, 'person', 'name', 'vadas', 'city', 'Hongkong'); "
    "josh = graph.addVertex(T.label, 'person', 'name', 'josh', 'city', 'Beijing'); "
    "lop = graph.addVertex(T.label, 'software', 'name', 'lop'); "
    "marko.addEdge('knows', vadas, 'weight', 0.5); marko.addEdge('knows', josh, 'weight', 1.0); "
    "marko.addEdge('created', lop); 'ok'"
)


def _cli(conf: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rest_adapter", *args, "--conf", str(conf)], cwd=str(conf),
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)


class AuthServer:
    def __init__(self, conf: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/gremlin"
        self.log = conf / "server.log"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rest_adapter", "serve", "--conf", str(conf), "--port", str(port),
             "--log-level", "warning"], cwd=str(conf), env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log.read_text())
            try:
                httpx.get(self.base + "/versions", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def call(self, method: str, path: str, who: str = "admin", **kw: Any) -> httpx.Response:
        password = ADMIN_PASSWORD if who == "admin" else f"{who}-pw"
        return httpx.request(method, self.base + path, auth=(who, password), timeout=30, **kw)


def _made(r: httpx.Response) -> Any:
    assert r.status_code == 201, r.text
    return r.json()["id"]



def start_with_users(tmp_path_factory: pytest.TempPathFactory,
                     grants: dict[str, list[tuple[str, list[dict[str, Any]]]]]) -> Iterator[AuthServer]:
    """A module's server: `init-store --admin-password`, the schema and data of SCHEMA, and a
    user `<name>` (password `<name>-pw`) per entry of `grants`."""
    port = free_port()
    conf = write_conf(tmp_path_factory.mktemp("matrix"), port,
                      graphs={"hugegraph": "backend=sqlite\nstore=hugegraph.db\nschema.mode=strict\n"},
                      extra="auth.authenticator=org.apache.hugegraph.auth.StandardAuthenticator\n"
                            "auth.graph_store=hugegraph\n",
                      init=False)  # its own init-store below names the administrator's password
    init = _cli(conf, "init-store", "--admin-password", ADMIN_PASSWORD)
    if init.returncode != 0 and "admin-password" in init.stderr:  # a tree without auth: the probe below says so
        init = _cli(conf, "init-store")
    assert init.returncode == 0, init.stderr
    srv = AuthServer(conf, port)
    try:
        probe = srv.call("GET", f"{AUTH}/users")
        if probe.status_code == 404:
            pytest.skip("the server answers 404 for /auth paths: the authenticating layer is not in this tree")
        r = srv.call("POST", "/gremlin", json={"gremlin": SCHEMA, "aliases": {"g": "__g_hugegraph",
                                                                             "graph": "hugegraph"}})
        assert r.status_code == 200, r.text
        for name, granted in grants.items():
            uid = _made(srv.call("POST", f"{AUTH}/users", json={"user_name": name, "user_password": f"{name}-pw"}))
            if not granted:
                continue
            gid = _made(srv.call("POST", f"{AUTH}/groups", json={"group_name": f"g-{name}"}))
            _made(srv.call("POST", f"{AUTH}/belongs", json={"user": uid, "group": gid}))
            for i, (perm, resources) in enumerate(granted):
                tid = _made(srv.call("POST", f"{AUTH}/targets", json={
                    "target_name": f"t-{name}-{i}", "target_graph": "hugegraph",
                    "target_url": srv.base.removeprefix("http://"), "target_resources": resources}))
                _made(srv.call("POST", f"{AUTH}/accesses", json={"group": gid, "target": tid,
                                                                  "access_permission": perm}))
        yield srv
    finally:
        srv.stop()


