"""The `hugelite` command, run as a subprocess."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.backends import sqlite_only
from tests.conftest import run_cli, write_conf


def test_help_on_every_command(tmp_path: Path) -> None:
    top = run_cli("--help", cwd=tmp_path)
    assert top.returncode == 0
    for cmd in ("serve", "init-store", "load", "version"):
        assert cmd in top.stdout
        r = run_cli(cmd, "--help", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "Usage:" in r.stdout
    assert "--if-needed" in run_cli("init-store", "--help", cwd=tmp_path).stdout
    assert "--port" in run_cli("serve", "--help", cwd=tmp_path).stdout


def test_version(tmp_path: Path) -> None:
    r = run_cli("version", cwd=tmp_path)
    assert r.returncode == 0
    assert "HugeGraph core 1.7.0" in r.stdout
    assert "TinkerPop 3.8.2" in r.stdout


@sqlite_only("a store file that does not exist (tests/rest/test_postgres_graphs.py covers a missing database)")
def test_serve_refuses_uninitialised_store(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, {"hugegraph": "backend=sqlite\nstore=data/hg.db\n"})
    r = run_cli("serve", "--conf", str(conf), "--port", "1", cwd=tmp_path)
    assert r.returncode == 2
    assert "cannot start: Graph 'hugegraph'" in r.stderr
    assert "does not exist (uninitialised)" in r.stderr
    assert f"hugelite init-store --conf {conf}" in r.stderr
    assert "Uvicorn running" not in r.stderr


@sqlite_only("a SQLite file of someone else's")
def test_serve_refuses_store_without_tables(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, {"g": "backend=sqlite\nstore=data/g.db\n"})
    (tmp_path / "data").mkdir()
    sqlite3.connect(tmp_path / "data" / "g.db").execute("CREATE TABLE unrelated (x)").connection.commit()
    r = run_cli("serve", "--conf", str(conf), cwd=tmp_path)
    assert r.returncode == 2
    assert "Graph 'g': store" in r.stderr and "is not a hugelite database" in r.stderr
    assert "it was left untouched" in r.stderr


@sqlite_only("a SQLite file of someone else's, compared byte for byte")
def test_init_store_leaves_a_foreign_database_untouched(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, {"g": "backend=sqlite\nstore=data/g.db\n"})
    (tmp_path / "data").mkdir()
    sqlite3.connect(tmp_path / "data" / "g.db").execute("CREATE TABLE unrelated (x)").connection.commit()
    before = (tmp_path / "data" / "g.db").read_bytes()
    r = run_cli("init-store", "--conf", str(conf), cwd=tmp_path)
    assert r.returncode == 2
    assert "Graph 'g': store" in r.stderr and "is not a hugelite database" in r.stderr
    assert "Traceback" not in r.stderr
    assert (tmp_path / "data" / "g.db").read_bytes() == before


@sqlite_only("edits the store file with sqlite3 (test_postgres_graphs.py does it on PostgreSQL)")
def test_serve_refuses_mismatched_store(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, {"hugegraph": "backend=sqlite\nstore=data/hg.db\n"})
    assert run_cli("init-store", "--conf", str(conf), cwd=tmp_path).returncode == 0
    db = sqlite3.connect(tmp_path / "data" / "hg.db")
    db.execute("UPDATE meta SET value = '999' WHERE key = 'store_version'")
    db.commit()
    db.close()
    r = run_cli("serve", "--conf", str(conf), cwd=tmp_path)
    assert r.returncode == 2
    assert "cannot start: Graph 'hugegraph'" in r.stderr
    assert "store version 999" in r.stderr
    r = run_cli("init-store", "--conf", str(conf), cwd=tmp_path)
    assert r.returncode == 2  # init-store never overwrites a store of another version
    assert "store version 999" in r.stderr


@sqlite_only("prints store file paths")
def test_init_store_is_idempotent(tmp_path: Path) -> None:
    conf = write_conf(
        tmp_path,
        {"a": "backend=sqlite\nstore=data/a.db\n", "b": "backend=sqlite\nstore=data/sub/b.db\n", "m": "backend=memory\n"},
    )
    first = run_cli("init-store", "--conf", str(conf), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"a: initialised store {tmp_path / 'data' / 'a.db'}" in first.stdout
    assert f"b: initialised store {tmp_path / 'data' / 'sub' / 'b.db'}" in first.stdout
    assert "m: memory backend, nothing to initialise" in first.stdout
    second = run_cli("init-store", "--conf", str(conf), cwd=tmp_path)
    assert second.returncode == 0
    assert "a: store" in second.stdout and "is already initialised" in second.stdout
    quiet = run_cli("init-store", "--conf", str(conf), "--if-needed", cwd=tmp_path)
    assert quiet.returncode == 0
    assert quiet.stdout == ""


def test_missing_conf_is_a_clear_error(tmp_path: Path) -> None:
    r = run_cli("serve", "--conf", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert r.returncode == 1
    assert "rest-server.properties does not exist" in r.stderr


def test_bad_graph_config_names_the_file(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, {"g": "backend=cassandra\n"})
    r = run_cli("init-store", "--conf", str(conf), cwd=tmp_path)
    assert r.returncode == 1
    assert "g.properties" in r.stderr
    assert "backend must be one of ['sqlite', 'memory', 'postgresql'], but got 'cassandra'" in r.stderr


def test_served_server_reports_startup(server) -> None:
    assert server.startup_s < 30
    assert "hugelite" in server.log() and "serving hugegraph, memgraph" in server.log()


def test_serve_with_a_second_gremlin_port(server_factory) -> None:
    import httpx

    from tests.conftest import free_port

    gport = free_port()
    srv = server_factory.start(graphs={"m": "backend=memory\n"}, server={"gremlinserver.port": str(gport)})
    assert httpx.get(f"http://127.0.0.1:{gport}/versions").json()["versions"]["core"] == "1.7.0"
    assert httpx.get(f"http://127.0.0.1:{gport}/graphs").json() == {"graphs": ["m"]}
    srv.stop()
    # uvicorn re-raises the SIGTERM it handled after a graceful shutdown
    assert srv.process.returncode in (0, -15)
    log = srv.log()
    assert f"Gremlin Server port {gport}" in log
    assert log.count("Finished server process") == 2
    assert "Application shutdown complete" in log


@sqlite_only("serves the file it loaded from a second conf")
def test_load_graphson_into_sqlite_graph(tmp_path: Path) -> None:
    import httpx

    from tests.conftest import ROOT

    modern = ROOT.parent / "shared" / "tinkerpop" / "data" / "tinkerpop-modern-v3.json"
    conf = write_conf(tmp_path, {"modern": "backend=sqlite\nstore=data/modern.db\nschema.mode=auto\n"})
    assert run_cli("init-store", "--conf", str(conf), cwd=tmp_path).returncode == 0
    r = run_cli("load", "modern", str(modern), "--conf", str(conf), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"modern: loaded 6 vertices and 6 edges from {modern} in ")
    missing = run_cli("load", "nope", str(modern), "--conf", str(conf), cwd=tmp_path)
    assert missing.returncode == 1
    assert "Graph 'nope' is not configured" in missing.stderr
    # the data is in the store: serve it and count through /gremlin
    from tests.conftest import ServerFactory

    factory = ServerFactory(tmp_path / "srv")
    srv = factory.start(cwd=tmp_path, graphs={"modern": "backend=sqlite\nstore=data/modern.db\nschema.mode=auto\n"},
                        init=False)
    try:
        r = httpx.post(f"{srv.base_url}/gremlin", json={"gremlin": "g.V().count()", "aliases": {"g": "__g_modern"}})
        assert r.json()["result"]["data"] == [6]
    finally:
        factory.stop_all()
