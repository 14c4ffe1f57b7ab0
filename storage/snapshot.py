"""A consistent copy of a live SQLite store, through SQLite's online backup API.

`cp` of a store in WAL mode misses what is still in the `-wal` file and can copy a page
half-written; `sqlite3.Connection.backup` copies the database as of one moment. It copies
in one step (`pages=-1`): inside one read transaction, which in WAL mode does not stop the
writer, so a live server goes on writing; a copy in small steps would restart whenever
another connection wrote, and under steady writes might never end. The copy is a complete
store: open it like any other.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.errors import StoreError


def snapshot_file(source: str | Path, dest: str | Path) -> int:
    """Copies the store at `source` to `dest` (which must not exist); returns its size in bytes."""
    src_path, dest_path = Path(source), Path(dest)
    if not src_path.is_file():
        raise StoreError(f"no store file at {src_path}")
    if dest_path.exists():
        raise StoreError(f"{dest_path} exists already; a snapshot is written to a new file")
    src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(dest_path)
        try:
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode=WAL")
        finally:
            dst.close()
    except sqlite3.Error as e:
        dest_path.unlink(missing_ok=True)
        raise StoreError(f"cannot copy {src_path} to {dest_path}: {e}") from None
    finally:
        src.close()
    return dest_path.stat().st_size
