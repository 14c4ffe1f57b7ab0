"""PostgreSQL-backed graphs through the configuration and the graph doors (issue 24).

The configuration checks need no server and run in every suite: a bad or missing key stops
`init-store` and `serve` with a message naming the file and the key. The rest runs under
`make test-postgres` (a real cluster, `tests/backends.py`): `init-store` creates the
database, `/conf` never shows a password, a graph is created, cleared and dropped over REST,
and a store written by another store version is refused exactly as a SQLite one is.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.backends import URL_ENV, new_database_name, postgres_only, server_url
from tests.conftest import run_cli, write_conf

SECRET = "s3cret-pw"  # the cluster trusts loopback, so any password logs in: it must never be shown


def _jdbc_graph(database: str, **extra: str) -> str:
    """A graph file in HugeGraph's form for its old PostgreSQL backend."""
    url = make_url(server_url())
    lines = ["backend=postgresql", f"store={database}", f"jdbc.url=jdbc:postgresql://{url.host}:{url.port}/",
             f"jdbc.username={url.username}", f"jdbc.password={SECRET}", "schema.mode=strict"]
    lines += [f"{k}={v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


def _databases() -> set[str]:
    import os

    url = make_url(os.environ[URL_ENV])
    with psycopg.connect(host=url.host, port=url.port, user=url.username, dbname="postgres") as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


@pytest.mark.parametrize(("text", "message"), [
    ("backend=postgresql\n", "backend=postgresql needs jdbc.url"),
    ("backend=postgresql\njdbc.url=jdbc:postgresql://127.0.0.1:5432/\n", "needs jdbc.username"),
    ("backend=postgresql\njdbc.url=jdbc:mysql://127.0.0.1:3306/\njdbc.username=u\n",
     "jdbc.url must start with jdbc:postgresql://"),
    ("backend=postgresql\njdbc.url=jdbc:postgresql://127.0.0.1:5432/db\njdbc.username=u\n",
     "jdbc.url names the database 'db', but the database is the graph's store"),
    ("backend=postgresql\nstore=no-dash\njdbc.url=jdbc:postgresql://127.0.0.1/\njdbc.username=u\n",
     "store must name a PostgreSQL database"),
    ("backend=postgresql\nsqlalchemy.url=postgresql+psycopg2://u:pw@h/db\n", "its driver is 'postgresql+psycopg2'"),
    ("backend=postgresql\nsqlalchemy.url=postgresql://u:pw@h/\njdbc.url=jdbc:postgresql://h/\n", "not both"),
    ("backend=postgresql\njdbc.url=jdbc:postgresql://h/?loggerLevel=OFF\njdbc.username=u\n",
     "jdbc.url option loggerLevel"),
    ("backend=postgresql\njdbc.url=jdbc:postgresql://h/\njdbc.username=u\njdbc.ssl_mode=maybe\n", "jdbc.ssl_mode"),
])
def test_bad_postgresql_keys_stop_the_server_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    conf = write_conf(tmp_path, {"pg": text})
    for command in ("init-store", "serve"):
        done = run_cli(command, "--conf", str(conf), cwd=tmp_path)
        assert done.returncode != 0
        assert "pg.properties" in done.stderr and message in done.stderr, done.stderr
        assert "pw@" not in done.stderr  # a password in a URL is never echoed


@postgres_only("a real cluster")
def test_init_store_creates_the_database_and_conf_hides_the_password(server_factory) -> None:
    database = new_database_name("jdbc")
    assert database not in _databases()
    srv = server_factory.start(graphs={"pg": _jdbc_graph(database)})
    assert database in _databases()
    again = run_cli("init-store", "--conf", str(srv.conf), "--if-needed", cwd=srv.cwd)
    assert again.returncode == 0 and again.stdout == ""
    told = run_cli("init-store", "--conf", str(srv.conf), cwd=srv.cwd)
    assert "pg: store postgresql+psycopg://postgres:***@" in told.stdout and "is already initialised" in told.stdout
    with httpx.Client(base_url=srv.base_url, timeout=30) as http:
        assert http.get("/graphs/pg").json() == {"name": "pg", "backend": "postgresql"}
        conf = http.get("/graphs/pg/conf").text
        assert "jdbc.password=******" in conf and SECRET not in conf
        assert http.post("/graphs/pg/schema/propertykeys", json={"name": "name", "data_type": "TEXT"}).status_code == 202
        metrics = http.get("/metrics").text
    assert SECRET not in metrics
    srv.stop()
    assert SECRET not in srv.log() and SECRET not in told.stdout


@postgres_only("a real cluster")
def test_create_clear_and_drop_a_postgresql_graph_over_rest(server) -> None:
    with httpx.Client(base_url=server.base_url, timeout=60) as http:
        made = http.post("/graphs/pgmade?clone_graph_name=hugegraph", json={})
        assert made.status_code == 201, made.text
        assert made.json() == {"name": "pgmade", "backend": "postgresql"}
        assert "pgmade" in _databases()  # the clone's store: a database named after it
        assert http.post("/graphs/pgmade/schema/propertykeys", json={"name": "age", "data_type": "INT"}).status_code == 202
        cleared = http.delete("/graphs/pgmade/clear", params={"confirm_message": "I'm sure to delete all data"})
        assert cleared.status_code == 204
        assert http.get("/graphs/pgmade/schema/propertykeys").json() == {"propertykeys": []}
        dropped = http.delete("/graphs/pgmade", params={"confirm_message": "I'm sure to drop the graph"})
        assert dropped.status_code == 204
    assert "pgmade" not in _databases()  # hugelite created it, so the drop removed it


@postgres_only("a real cluster")
def test_rest_may_not_point_a_new_graph_at_another_server(http: httpx.Client) -> None:
    r = http.post("/graphs/elsewhere", json={"backend": "postgresql", "jdbc.url": "jdbc:postgresql://10.1.2.3:5432/",
                                               "jdbc.username": "postgres"})
    assert r.status_code == 400
    assert "none of the served graphs uses" in r.json()["message"]
    assert "elsewhere" not in http.get("/graphs").json()["graphs"]


@postgres_only("a real cluster")
def test_a_database_made_by_someone_else_stays_when_its_graph_is_dropped(server) -> None:
    database = new_database_name("adopted")
    with psycopg.connect(make_url(server_url()).set(database="postgres").render_as_string(hide_password=False)
                         .replace("postgresql+psycopg", "postgresql"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    with httpx.Client(base_url=server.base_url, timeout=60) as http:
        made = http.post("/graphs/adopted?clone_graph_name=hugegraph", json={"store": database})
        assert made.status_code == 201, made.text
        assert http.delete("/graphs/adopted", params={"confirm_message": "I'm sure to drop the graph"}).status_code == 204
    assert database in _databases()


@postgres_only("a real cluster")
def test_a_store_of_another_version_is_refused_as_on_sqlite(tmp_path: Path) -> None:
    database = new_database_name("version")
    conf = write_conf(tmp_path, {"pg": _jdbc_graph(database)})
    assert run_cli("init-store", "--conf", str(conf), cwd=tmp_path).returncode == 0
    url = make_url(server_url()).set(database=database).render_as_string(hide_password=False)
    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'store_version'")
    served = run_cli("serve", "--conf", str(conf), "--port", "0", cwd=tmp_path)
    assert served.returncode == 2
    assert "cannot start" in served.stderr and "99" in served.stderr
    assert SECRET not in served.stderr

