"""Graph management endpoints through the real server, on both path families."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.backends import ON_POSTGRES, STORED_BACKEND

PREFIXES = ["/graphs", "/graphspaces/DEFAULT/graphs"]
CLEAR = "I'm sure to delete all data"
DROP = "I'm sure to drop the graph"


@pytest.fixture
def scratch(http: httpx.Client) -> Iterator[str]:
    """A memory graph created for one test and dropped afterwards."""
    name = "scratch_" + uuid.uuid4().hex[:8]
    r = http.post(f"/graphs/{name}", json={"backend": "memory", "schema.mode": "auto"})
    assert r.status_code == 201, r.text
    yield name
    http.delete(f"/graphs/{name}", params={"confirm_message": DROP})


def test_list_graphs_both_families(http: httpx.Client) -> None:
    for prefix in PREFIXES:
        r = http.get(prefix)
        assert r.status_code == 200
        assert set(r.json()["graphs"]) >= {"hugegraph", "memgraph"}
        assert http.get(prefix + "/").json() == r.json()


@pytest.mark.parametrize("prefix", PREFIXES)
def test_graph_info(http: httpx.Client, prefix: str) -> None:
    assert http.get(f"{prefix}/hugegraph").json() == {"name": "hugegraph", "backend": STORED_BACKEND}
    assert http.get(f"{prefix}/memgraph/").json() == {"name": "memgraph", "backend": "memory"}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_conf_is_the_properties_text(http: httpx.Client, server, prefix: str) -> None:
    r = http.get(f"{prefix}/hugegraph/conf")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text == (server.conf / "graphs" / "hugegraph.properties").read_text()
    if not ON_POSTGRES:
        assert r.text == "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=strict\n"


def test_mode_get_put_round_trip(http: httpx.Client, scratch: str) -> None:
    for prefix in PREFIXES:
        assert http.get(f"{prefix}/{scratch}/mode").json() == {"mode": "NONE"}
    for mode in ("RESTORING", "MERGING", "LOADING", "NONE"):
        r = http.put(f"/graphs/{scratch}/mode", json=mode)
        assert r.status_code == 200
        assert r.json() == {"mode": mode}
        assert http.get(f"/graphspaces/DEFAULT/graphs/{scratch}/mode").json() == {"mode": mode}


def test_mode_errors(http: httpx.Client, scratch: str) -> None:
    r = http.put(f"/graphs/{scratch}/mode", content=b"null", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["message"] == "Graph mode can't be null"
    r = http.put(f"/graphs/{scratch}/mode", json="FAST")
    assert r.status_code == 400
    assert r.json()["message"] == "Graph mode must be one of ['NONE', 'RESTORING', 'MERGING', 'LOADING'], but got 'FAST'"
    r = http.put(f"/graphs/{scratch}/mode", json={"mode": "NONE"})
    assert r.status_code == 400


def test_graph_read_mode(http: httpx.Client, scratch: str) -> None:
    assert http.get(f"/graphs/{scratch}/graph_read_mode").json() == {"graph_read_mode": "OLTP_ONLY"}
    for mode in ("ALL", "OLAP_ONLY", "OLTP_ONLY"):
        r = http.put(f"/graphspaces/DEFAULT/graphs/{scratch}/graph_read_mode", json=mode)
        assert r.status_code == 200
        assert r.json() == {"graph_read_mode": mode}
    r = http.put(f"/graphs/{scratch}/graph_read_mode", content=b"null", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["message"] == "Graph-read-mode can't be null"


def test_mode_persists_in_sqlite_store(server_factory) -> None:
    srv = server_factory.start(graphs={"persist": "backend=sqlite\nstore=data/persist.db\n"})
    assert httpx.put(f"{srv.base_url}/graphs/persist/mode", json="RESTORING").json() == {"mode": "RESTORING"}
    srv.stop()
    again = server_factory.start(cwd=srv.cwd, graphs={"persist": "backend=sqlite\nstore=data/persist.db\n"})
    assert httpx.get(f"{again.base_url}/graphs/persist/mode").json() == {"mode": "RESTORING"}
    again.stop()


def test_clear_needs_the_exact_message(http: httpx.Client, scratch: str) -> None:
    http.put(f"/graphs/{scratch}/variables/v", json={"data": 1})
    for params in ({}, {"confirm_message": "yes"}, {"confirm_message": CLEAR.lower()}):
        r = http.delete(f"/graphs/{scratch}/clear", params=params)
        assert r.status_code == 400
        assert r.json() == {
            "exception": "class java.lang.IllegalArgumentException",
            "message": f"Please take the message: {CLEAR}",
            "cause": "",
        }
    assert http.get(f"/graphs/{scratch}/variables").json() == {"v": 1}
    r = http.delete(f"/graphspaces/DEFAULT/graphs/{scratch}/clear", params={"confirm_message": CLEAR})
    assert r.status_code == 204
    assert r.content == b""
    assert http.get(f"/graphs/{scratch}/variables").json() == {}


def test_create_memory_graph_from_text_and_drop(http: httpx.Client, server) -> None:
    name = "txt_" + uuid.uuid4().hex[:6]
    r = http.post(f"/graphs/{name}", content="backend=memory\nschema.mode=auto\n",
                  headers={"Content-Type": "text/plain"})
    assert r.status_code == 200
    assert r.json() == {"name": name, "backend": "memory"}
    assert name in http.get("/graphs").json()["graphs"]
    assert not (server.conf / "graphs" / f"{name}.properties").exists()  # memory graphs leave no file
    r = http.post(f"/graphs/{name}", content="backend=memory\n", headers={"Content-Type": "text/plain"})
    assert r.status_code == 400
    assert r.json()["message"] == f"The graph '{name}' has existed"
    r = http.delete(f"/graphs/{name}", params={"confirm_message": "no"})
    assert r.status_code == 400
    assert r.json()["message"] == f"Please take the message: {DROP}"
    r = http.delete(f"/graphs/{name}", params={"confirm_message": DROP})
    assert r.status_code == 204
    assert name not in http.get("/graphs").json()["graphs"]
    assert http.get(f"/graphs/{name}").status_code == 404


def test_create_sqlite_graph_writes_conf_and_survives_restart(server_factory) -> None:
    srv = server_factory.start(graphs={"base": "backend=memory\n"})
    r = httpx.post(f"{srv.base_url}/graphs/made", json={"backend": "sqlite", "store": "data/made.db"})
    assert r.status_code == 201
    assert r.json() == {"name": "made", "backend": "sqlite"}
    conf_file = srv.conf / "graphs" / "made.properties"
    assert "store=data/made.db" in conf_file.read_text()
    assert (srv.cwd / "data" / "made.db").exists()
    httpx.put(f"{srv.base_url}/graphs/made/variables/k", json={"data": "kept"})
    srv.stop()
    again = server_factory.start(cwd=srv.cwd, graphs={"base": "backend=memory\n"}, init=False)
    assert httpx.get(f"{again.base_url}/graphs").json() == {"graphs": ["base", "made"]}
    assert httpx.get(f"{again.base_url}/graphs/made/variables/k").json() == {"k": "kept"}
    r = httpx.delete(f"{again.base_url}/graphs/made", params={"confirm_message": DROP})
    assert r.status_code == 204
    assert not conf_file.exists()
    assert not (srv.cwd / "data" / "made.db").exists()
    again.stop()


def test_create_graph_errors(http: httpx.Client) -> None:
    r = http.post("/graphs/9bad", json={"backend": "memory"})
    assert r.status_code == 400
    assert r.json()["message"].startswith("Invalid graph name '9bad'")
    r = http.post("/graphs/okname", json={"backend": "rocksdb"})
    assert r.status_code == 400
    assert r.json()["message"] == "Graph 'okname': backend must be one of ['sqlite', 'memory', 'postgresql'], but got 'rocksdb'"
    r = http.post("/graphs/okname", json={"backend": {"nested": 1}})
    assert r.status_code == 400
    assert "okname" not in http.get("/graphs").json()["graphs"]


def test_clone_graph_config(http: httpx.Client) -> None:
    r = http.post("/graphs/cloned", params={"clone_graph_name": "memgraph"})
    assert r.status_code == 200
    assert r.json() == {"name": "cloned", "backend": "memory"}
    assert "schema.mode=auto" in http.get("/graphs/cloned/conf").text
    assert http.delete("/graphs/cloned", params={"confirm_message": DROP}).status_code == 204
