"""What a store path holds, and the one rule for deleting store files: only our own.

Why: a graph's store path may come from a configuration or, before confinement, from a
client; a server that initialises tables into whatever file it is pointed at, or deletes
whatever file a dropped graph named, damages data it never owned. So

* `inspect(path)` tells a missing file, an empty database, a hugelite store, another
  SQLite database and a file that is not SQLite apart. It reads through a read-only
  connection, so a file that is not ours is never changed (our engine's connections would
  switch it to WAL mode).
* `initialise()` (store.py) refuses a foreign file with `StoreNotHugelite` and records in
  the store's `meta` table (`OWNER_KEY`) that hugelite created the file when it did.
* `remove_store_files(path)` deletes a store's files only when that record is there: a
  store that pre-existed (an empty file adopted, or a store written before the record
  existed) is left on disk.
"""

from __future__ import annotations

import os
import sqlite3
from enum import Enum
from pathlib import Path
from urllib.parse import quote

from storage.errors import StoreNotHugelite

#: the meta key recording that hugelite created the store's file, and its value
OWNER_KEY = "file_created_by"
OWNER_VALUE = "hugelite"
#: SQLite's side files next to a database, removed with it
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
_MAGIC = b"SQLite format 3\x00"


class FileKind(Enum):
    MISSING = "missing"
    EMPTY = "empty"  # a SQLite database without tables (a 0-byte file is one)
    HUGELITE = "hugelite"
    FOREIGN = "foreign"  # a SQLite database of someone else's
    NOT_SQLITE = "not_sqlite"


def _connect_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)


def inspect(path: str | Path) -> FileKind:
    """What the file at `path` is, read without changing it: a hugelite store is a database
    whose `meta` table records a `store_version`."""
    file = Path(path)
    if not file.exists():
        return FileKind.MISSING
    if not file.is_file():
        return FileKind.NOT_SQLITE
    with file.open("rb") as head:
        magic = head.read(len(_MAGIC))
    if not magic:
        return FileKind.EMPTY
    if magic != _MAGIC:
        return FileKind.NOT_SQLITE
    try:
        conn = _connect_read_only(file)
        try:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = None
            if "meta" in names:
                version = conn.execute("SELECT value FROM meta WHERE key = 'store_version'").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return FileKind.NOT_SQLITE
    if not names:
        return FileKind.EMPTY
    return FileKind.HUGELITE if version is not None else FileKind.FOREIGN


def check_usable(path: str | Path) -> FileKind:
    """`inspect`, raising `StoreNotHugelite` for a file hugelite must not write into."""
    kind = inspect(path)
    if kind is FileKind.FOREIGN:
        raise StoreNotHugelite(str(path), "it is a SQLite database with other tables")
    if kind is FileKind.NOT_SQLITE:
        raise StoreNotHugelite(str(path), "it is not a SQLite database")
    return kind


def created_by_hugelite(path: str | Path) -> bool:
    """True when the store at `path` records that hugelite created its file."""
    if inspect(path) is not FileKind.HUGELITE:
        return False
    try:
        conn = _connect_read_only(Path(path))
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (OWNER_KEY,)).fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return False
    return row is not None and row[0] == OWNER_VALUE


def remove_store_files(path: str | Path) -> bool:
    """Deletes a closed store's file and SQLite side files when hugelite created it;
    returns False (and deletes nothing) otherwise."""
    if not created_by_hugelite(path):
        return False
    for suffix in ("", *SIDE_SUFFIXES):
        file = Path(str(path) + suffix)
        if file.is_file():
            os.remove(file)
    return True
