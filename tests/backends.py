"""Which backend the suites' stored graphs live on: SQLite files (`make test`) or PostgreSQL
databases (`make test-postgres`, issue 24).

The switch is two environment variables, set by `tests/run_postgres.py` around a throw-away
cluster (`tests/postgres_cluster.py`):

* ``HUGELITE_TEST_BACKEND=postgresql``;
* ``HUGELITE_TEST_PG_URL``: a SQLAlchemy URL of the cluster's maintenance database
  (``postgresql+psycopg://postgres@127.0.0.1:PORT/postgres``).

With them, every graph the fixtures would keep in a SQLite file is kept in a PostgreSQL
database of its own instead: `stored_graph_text` rewrites a `backend=sqlite` graph file
(what `write_conf` writes for every server the suites start, `DEFAULT_GRAPHS` included),
and `stored_graph_config` makes an in-process graph's `GraphConfig` (the storage tests'
own fixtures read ``HUGELITE_TEST_PG_URL`` themselves, `tests/storage/conftest.py`). Each
gets a database of its own (a server restarted in its folder finds its own again), so
servers and tests never share one; `init-store` (or `registry.create`) creates it, which is
the path users take.

Tests about SQLite files themselves (WAL, paths, snapshots, migrations of old layouts,
crash trials of a file) carry `sqlite_only("why")`, and are skipped on PostgreSQL saying so.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from pathlib import Path
from typing import Any

import pytest

BACKEND_ENV = "HUGELITE_TEST_BACKEND"
URL_ENV = "HUGELITE_TEST_PG_URL"
ON_POSTGRES = os.environ.get(BACKEND_ENV, "sqlite").strip().lower() == "postgresql"

#: what `GET /graphs/{g}` says of a graph the suites keep in a store
STORED_BACKEND = "postgresql" if ON_POSTGRES else "sqlite"

_names = itertools.count(1)


def sqlite_only(reason: str) -> pytest.MarkDecorator:
    """Skip on PostgreSQL: the test is about SQLite files (`reason` says how)."""
    return pytest.mark.skipif(ON_POSTGRES, reason=f"SQLite only: {reason}")


def postgres_only(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not ON_POSTGRES, reason=f"PostgreSQL only ({BACKEND_ENV}=postgresql): {reason}")


def server_url() -> str:
    """The cluster's URL without a database (``postgresql+psycopg://postgres@host:port``)."""
    from sqlalchemy.engine import URL, make_url

    url = make_url(os.environ[URL_ENV])
    bare = URL.create(url.drivername, username=url.username, password=url.password, host=url.host, port=url.port)
    return str(bare.render_as_string(hide_password=False))


def database_url(database: str) -> str:
    return f"{server_url()}/{database}"


def new_database_name(hint: str = "g", place: str | None = None) -> str:
    """A database name no other test of this run uses (PostgreSQL's 63-byte limit kept).
    With `place` (a server's folder and the store it names), the same place always gets the
    same database, as the same store path is the same SQLite file: a server restarted on its
    folder finds its data again."""
    tail = "".join(c for c in hint.lower() if c.isalnum() or c == "_")[:30] or "g"
    if place is not None:
        return f"t{hashlib.sha1(place.encode()).hexdigest()[:16]}_{tail}"
    return f"t{os.getpid()}_{next(_names)}_{tail}"


def stored_graph_text(text: str, hint: str = "g", memory_too: bool = False, place: Path | None = None) -> str:
    """A graph file's text as the suites should write it: unchanged on SQLite; on PostgreSQL a
    `backend=sqlite` graph (or one naming no backend; with `memory_too`, a memory graph as
    well) becomes `backend=postgresql` on the cluster, in a new database (its `store` line
    is replaced), every other key kept. `place`: the folder the server runs in (see
    `new_database_name`)."""
    if not ON_POSTGRES:
        return text
    from rest_adapter.settings import parse_properties

    props = parse_properties(text)
    backend = (props.get("backend") or "sqlite").strip().lower()
    if backend != "sqlite" and not (memory_too and backend == "memory"):
        return text
    store = props.pop("store", None) or hint
    props["backend"] = "postgresql"
    props["sqlalchemy.url"] = server_url()
    props["store"] = new_database_name(hint, None if place is None else f"{place.resolve()}|{store}")
    return "".join(f"{k}={v}\n" for k, v in props.items())


def stored_graph_config(name: str, tmp_path: Path, schema_mode: str = "strict", **extra: Any) -> Any:
    """An in-process graph's config: a SQLite file under `tmp_path`, or a new PostgreSQL
    database. Initialise it with `GraphRegistry.init_store` (or open it with `create`)."""
    from gremlin_engine.graph import GraphConfig

    if ON_POSTGRES:
        props = {"sqlalchemy.url": server_url(), **{k: str(v) for k, v in extra.items()}}
        return GraphConfig(name=name, backend="postgresql", store=new_database_name(name),
                           schema_mode=schema_mode, extra=props)
    return GraphConfig(name=name, backend="sqlite", store=str(tmp_path / f"{name}.db"), schema_mode=schema_mode,
                       extra={k: str(v) for k, v in extra.items()})


#: why a test comparing AUTOMATIC ids of two write paths runs on SQLite only: an AUTOMATIC id
#: is the row key, and a PostgreSQL sequence also spends the keys of rows an upsert's
#: conflict discarded, so the one-at-a-time and the batch paths number such vertices with
#: different gaps (both increasing, as HugeGraph's snowflake ids are; docs/limitations.md)
AUTOMATIC_ID_GAPS = ("AUTOMATIC ids are row keys, and PostgreSQL's sequences leave gaps where a "
                     "conflicting upsert spent a key: the two write paths number vertices differently")
