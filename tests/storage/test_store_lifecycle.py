"""initialise / check_ready / version checks / size / close."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import (
    STORE_VERSION,
    StoreClosed,
    StoreError,
    StoreNotInitialised,
    StoreVersionMismatch,
    open_store,
)


def test_uninitialised_file_store_names_path_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "g.db"
    s = open_store(path)
    assert s.is_initialised() is False
    with pytest.raises(StoreNotInitialised) as err:
        s.check_ready()
    assert str(err.value) == f"store at {path} is not initialised: run `hugelite init-store`"
    assert not path.exists(), "checking a store must not create its file"
    s.close()


def test_uninitialised_memory_store() -> None:
    s = open_store(None)
    with pytest.raises(StoreNotInitialised, match="store at :memory: is not initialised"):
        s.check_ready()
    s.close()


def test_initialise_creates_parent_dirs_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "g.db"
    s = open_store(path)
    s.initialise()
    with s.write() as tx:
        tx.elements.vertex_insert("x", 1, "{}")
    s.initialise()  # again: keeps data
    s.check_ready()
    assert s.is_initialised() is True
    with s.read() as tx:
        assert tx.schema.meta_get("store_version") == STORE_VERSION
        assert tx.elements.vertex_count() == 1
    s.close()
    # a new Store object on the same file sees it ready
    s2 = open_store(str(path))
    s2.check_ready()
    s2.close()


def test_version_mismatch_names_both_versions_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    s = open_store(path)
    s.initialise()
    s.close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = '0' WHERE key = 'store_version'")
    con.commit()
    con.close()
    s = open_store(path)
    with pytest.raises(StoreVersionMismatch) as err:
        s.check_ready()
    msg = str(err.value)
    assert f"store at {path} has store version 0" in msg
    assert f"needs store version {STORE_VERSION}" in msg
    assert "hugelite init-store" in msg
    assert (err.value.found, err.value.expected) == ("0", STORE_VERSION)
    with pytest.raises(StoreVersionMismatch):
        s.initialise()  # never silently overwrites another version
    s.close()


def test_file_uses_wal_and_pragmas(file_store) -> None:
    with file_store.read() as tx:
        assert tx.core.scalar("PRAGMA journal_mode") == "wal"
        assert tx.core.scalar("PRAGMA foreign_keys") == 1
        assert tx.core.scalar("PRAGMA synchronous") == 1  # NORMAL
        assert tx.core.scalar("PRAGMA busy_timeout") == 5000


def test_size_bytes_grows(store) -> None:
    before = store.size_bytes()
    assert before > 0
    with store.write() as tx:
        tx.elements.vertices_insert([(i, 1, "x" * 200) for i in range(2000)])
    assert store.size_bytes() > before


def test_closed_store_refuses_transactions(tmp_path: Path) -> None:
    s = open_store(tmp_path / "g.db")
    s.initialise()
    s.close()
    s.close()  # idempotent
    assert s.closed
    with pytest.raises(StoreClosed), s.read():
        pass
    with pytest.raises(StoreClosed), s.write():
        pass


def test_memory_stores_are_independent() -> None:
    a, b = open_store(None), open_store(":memory:")
    a.initialise()
    assert b.is_initialised() is False
    a.close()
    b.close()


def test_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    path.write_bytes(b"this is not an sqlite database, just some text padding" * 100)
    s = open_store(path)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a hugelite database \\(it is not a SQLite database\\)"):
        s.check_ready()
    with pytest.raises(StoreError, match="it was left untouched"):
        s.initialise()
    s.close()
    assert path.read_bytes() == before


def test_empty_file_is_not_initialised(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    path.touch()
    s = open_store(path)
    with pytest.raises(StoreNotInitialised):
        s.check_ready()
    s.initialise()
    s.check_ready()
    s.close()
