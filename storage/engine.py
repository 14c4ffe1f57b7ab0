"""SQLAlchemy engine creation for SQLite, and the pragmas every connection gets.

Two shapes:

* **file**: a `QueuePool` of connections to one database file in WAL mode. WAL lets any
  number of readers keep a consistent snapshot while one writer commits, which is exactly
  the store's model (`Store.read()` / `Store.write()`).
* **memory**: one shared in-memory database on one connection (`StaticPool`); the store
  serialises every transaction on it with a lock, so it is safe from many threads.

Every connection is put in the driver's autocommit mode (``isolation_level=None``): the
`sqlite3` module otherwise opens transactions implicitly before DML and cannot issue
``BEGIN IMMEDIATE``. The store issues ``BEGIN``/``BEGIN IMMEDIATE``/``COMMIT``/``ROLLBACK``
itself, which is the recipe SQLAlchemy documents for pysqlite.

Pragmas, and why:

* ``journal_mode=WAL`` (file only): snapshot readers that never block the writer.
* ``synchronous=NORMAL``: in WAL mode this is durable against application crashes and
  only risks the last commits on power loss, for far fewer fsyncs.
* ``busy_timeout``: another process (or a second `Store` on the same file) holding the
  write lock makes us wait instead of failing at once.
* ``foreign_keys=ON``: store layout v2 declares no foreign keys (triggers and insert checks
  do their work, `tables.py`); kept on so a v1 store behaves as it did until it is upgraded.
* a 32 MiB page cache (64 and 256 MiB were measured for bulk loads and made no difference
  beyond noise: index pages missing from the cache come from the OS page cache, and what
  costs is writing them, below).
* ``temp_store`` left at SQLite's default (FILE) for a file store: SQLite's sorter (GROUP
  BY, ORDER BY) then keeps up to a page cache's worth of records (32 MiB) in one growing
  buffer and spills only beyond; with ``temp_store=MEMORY`` it mallocs every record
  instead, which made `V().groupCount().by(k)` ~25% slower at 100k vertices (raw sqlite3's
  own ``GROUP BY city``: 83 ms with MEMORY, 51 ms without) and walk-count ``GROUP BY``s a
  few % slower. Temporary b-trees (DISTINCT, ``IN (SELECT ...)``) beyond ~2 MiB go to a
  temporary file, as in any SQLite program. A memory store keeps ``MEMORY``: no files.
* ``wal_autocheckpoint=20000`` pages (~80 MiB of WAL) instead of SQLite's 1000 (~4 MiB): a
  REST batch of 500 edges dirties ~1,000 random index pages, so with the default every
  commit ran a checkpoint that copied them all back into the database file; checkpointing
  every ~20 commits writes each hot page once for all of them (edge inserts: ~35% less
  commit CPU at 10k/100k, ~28% at 100k/1M). The price is disk: the WAL file grows to ~80 MiB
  during a load; ``journal_size_limit`` truncates it back to 64 MiB after a checkpoint.
  Readers stay correct either way (WAL pages are found through the wal-index).

The pools do not "reset on return" (an extra ROLLBACK per checkout): `Store` always ends its
transaction itself and invalidates a connection it could not end.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import QueuePool, StaticPool

from storage.errors import StoreError

#: prepared statements the driver keeps per connection (hot-path SQL is cached by shape,
#: so a few hundred distinct texts cover every shape in use).
STATEMENT_CACHE = 512


#: page cache per connection, in KiB (SQLite's negative `cache_size` form)
CACHE_KIB = 32768

#: WAL pages written before a commit checkpoints them into the database file
WAL_AUTOCHECKPOINT_PAGES = 20000

#: bytes the WAL file is truncated to after a checkpoint
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024


#: RETURNING (3.35) and the built-in JSON functions used for key batches (3.38).
MIN_SQLITE = (3, 38, 0)


def create_sqlite_engine(path: str | None, *, busy_timeout_ms: int = 5000) -> Engine:
    """An engine for the database file at `path`, or a private in-memory one for None."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StoreError(
            f"SQLite {sqlite3.sqlite_version} is too old: hugelite needs {'.'.join(map(str, MIN_SQLITE))} "
            f"or newer (Python's sqlite3 module links the system library)"
        )
    memory = path is None

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(
            ":memory:" if memory else path,  # type: ignore[arg-type]
            timeout=busy_timeout_ms / 1000.0,
            check_same_thread=False,
            isolation_level=None,
            cached_statements=STATEMENT_CACHE,
        )

    if memory:
        engine = create_engine("sqlite://", creator=connect, poolclass=StaticPool, pool_reset_on_return=None)
    else:
        engine = create_engine(
            "sqlite://",
            creator=connect,
            poolclass=QueuePool,
            pool_size=8,
            max_overflow=56,
            pool_timeout=60,
            pool_reset_on_return=None,
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        try:
            cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            cur.execute("PRAGMA foreign_keys = ON")
            cur.execute("PRAGMA synchronous = NORMAL")
            cur.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            if memory:
                cur.execute("PRAGMA temp_store = MEMORY")
            else:
                cur.execute("PRAGMA journal_mode = WAL")
                cur.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
                cur.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
        finally:
            cur.close()

    return engine
