"""`hugelite load --url`: the same mapping over REST into a running server gives the same graph."""

from __future__ import annotations

from pathlib import Path

from gremlin_engine import GraphRegistry
from gremlin_engine.io.load_job import LoadOptions, run_load
from gremlin_engine.io.mapping import read_mapping
from gremlin_engine.io.sink import GraphWriter
from tests.conftest import ServerFactory, run_cli
from tests.io.loader_data import SCHEMA, graph_dump, open_store, write_fixture

GRAPH = "backend=sqlite\nstore=data/rest.db\nschema.mode=strict\n"


def test_rest_load_gives_the_in_process_graph(tmp_path: Path) -> None:
    struct = write_fixture(tmp_path / "in")
    people = tmp_path / "in" / "people.csv"
    people.write_text(people.read_text() + "bob,old,,,1\n")  # one parse error, and its edge refused
    factory = ServerFactory(tmp_path / "srv")
    srv = factory.start(graphs={"rest": GRAPH})
    try:
        r = run_cli("load", "--url", srv.base_url, "--graph", "rest", "--struct", str(struct),
                    "--schema", str(tmp_path / "in" / "schema.groovy"), "--max-parse-errors", "5",
                    "--progress-file", str(tmp_path / "rest.progress"), cwd=tmp_path)
        assert r.returncode == 1, r.stderr  # rejected records: exit 1 after the summary
        assert "vertices inserted 11, failed 0; edges inserted 9, failed 1" in r.stdout, r.stdout
        assert "records read 22, parsed 21" in r.stdout
        import httpx

        assert httpx.get(f"{srv.base_url}/graphs/rest/mode").json() == {"mode": "NONE"}
        refused = (tmp_path / "in" / "people.csv.insert-error").read_text()
        assert "HTTP 4" in refused and "bob,old,,,1" in refused
    finally:
        srv.stop()
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        remote = open_store(reg, srv.cwd / "data" / "rest.db", name="rest")
        local = open_store(reg, tmp_path / "local.db")
        run_load(GraphWriter(local), read_mapping(struct),
                 LoadOptions(schema_script=SCHEMA, max_parse_errors=5))
        assert graph_dump(remote) == graph_dump(local)
        assert remote.schema.schema_json() == local.schema.schema_json() or _same_schema(remote, local)
    finally:
        reg.close_all()


def _same_schema(a, b) -> bool:
    def strip(doc):
        return {k: [{f: v for f, v in e.items() if f != "user_data"} for e in doc[k]] for k in doc}

    return strip(a.schema.schema_json()) == strip(b.schema.schema_json())


AUTH = {"auth.authenticator": "org.apache.hugegraph.auth.ConfigAuthenticator", "auth.admin_token": "s3cret"}


def test_rest_load_with_credentials(tmp_path: Path) -> None:
    """--user/--password against a server with auth configured."""
    struct = write_fixture(tmp_path / "in")
    factory = ServerFactory(tmp_path / "srv")
    srv = factory.start(graphs={"rest": GRAPH}, server=AUTH)
    args = ["load", "--url", srv.base_url, "--graph", "rest", "--struct", str(struct),
            "--schema", str(tmp_path / "in" / "schema.groovy"), "--progress-file", str(tmp_path / "p")]
    try:
        # the credentials go as HTTP basic auth (the server checks them on its WebSocket today)
        r = run_cli(*args, "--user", "admin", "--password", "s3cret", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "vertices inserted 11, failed 0; edges inserted 9, failed 0" in r.stdout
    finally:
        srv.stop()
