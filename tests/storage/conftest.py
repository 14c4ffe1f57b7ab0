"""Fixtures for the storage tests: real stores. On SQLite by default (in memory and in files
under tmp_path); on PostgreSQL when ``HUGELITE_TEST_PG_URL`` names a server (any database
of it, e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``): then `store` is a
fresh database of that server per test, created with `storage.ensure_database` under a
unique name and dropped afterwards (`tests/postgres_cluster.py` starts a throw-away server)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from storage import Store, drop_database, ensure_database, open_store

PG_URL = os.environ.get("HUGELITE_TEST_PG_URL")

#: a test of SQLite's own machinery (plans, trace callbacks, sqlite_master, its limits)
sqlite_only = pytest.mark.skipif(bool(PG_URL), reason="SQLite's own machinery")


def fresh_pg_url() -> str:
    """The URL of a new, empty database on the test server."""
    assert PG_URL is not None
    url = make_url(PG_URL).set(database=f"hl_test_{uuid.uuid4().hex[:12]}")
    text = url.render_as_string(hide_password=False)
    ensure_database(text)
    return text


def drop_pg(url: str) -> None:
    drop_database(url)


@pytest.fixture(params=["postgresql"] if PG_URL else ["memory", "file"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An initialised store of each backend."""
    location: str | Path | None = None
    if request.param == "postgresql":
        location = fresh_pg_url()
    elif request.param == "file":
        location = tmp_path / "graph.db"
    s = open_store(location)
    s.initialise()
    yield s
    s.close()
    if request.param == "postgresql":
        drop_pg(str(location))


@pytest.fixture
def file_store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(tmp_path / "graph.db")
    s.initialise()
    yield s
    s.close()


@pytest.fixture
def memory_store() -> Iterator[Store]:
    s = open_store(":memory:")
    s.initialise()
    yield s
    s.close()
