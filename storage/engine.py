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
  costs is writing them, below). Every write transaction runs on the writer's own
  connection (`connections.Writer`), so the writer keeps its cache between commits (SQLite
  drops it only when *another* connection wrote);
  and at the floor (`bench.load_floor`) 32 and 256 MiB give the same CPU an element.
  ``mmap_size`` was not taken: no measurable gain at the floor, and mapped pages would
  count in every reader's RSS.
* ``temp_store`` left at SQLite's default (FILE) for a file store: SQLite's sorter (GROUP
  BY, ORDER BY) then keeps up to a page cache's worth of records (32 MiB) in one growing
  buffer and spills only beyond; with ``temp_store=MEMORY`` it mallocs every record
  instead, which made `V().groupCount().by(k)` ~25% slower at 100k vertices (raw sqlite3's
  own ``GROUP BY city``: 83 ms with MEMORY, 51 ms without) and walk-count ``GROUP BY``s a
  few % slower. Temporary b-trees (DISTINCT, ``IN (SELECT ...)``) beyond ~2 MiB go to a
  temporary file, as in any SQLite program. A memory store keeps ``MEMORY``: no files.
* ``wal_autocheckpoint=60000`` pages (~235 MiB of WAL) instead of SQLite's 1000 (~4 MiB): a
  REST batch of 500 edges dirties ~1,000-1,500 random index pages, so with the default every
  commit ran a checkpoint that copied them all back into the database file; checkpointing
  every few dozen commits writes each hot page once for all of them. 20,000 pages (the
  sixth session's value) already cut edge-insert commit CPU by ~35% at 10k/100k and ~28% at
  100k/1M against 1,000. At 100k/1M the index pages a load dirties are still mostly distinct
  within 20,000 frames, so a longer WAL keeps paying. Seventh session, `bench.rest_load --ab`
  of one tree with both values, large, raw client, two rounds (medians of el/s and server
  CPU per element, kernel share): 1 client 18.5-19.6k el/s, 41.4-44.6 µs (kernel 14.1-14.6)
  -> 21.9-22.5k, 40.1-40.9 µs (10.9-11.2); 4 clients 19.8k, 41.6-44.4 µs (12.9-14.0)
  -> 25.5-27.3k, 35.3-35.4 µs (9.0-9.2). 40,000 pages gave most of it (1 client 21.9-22.7k,
  38.5-39.0 µs; 4 clients 22.7-25.2k, 37.2-37.8 µs). At the floor (`bench.load_floor`:
  plain sqlite3, the same statements) 20,000 -> 60,000 pages is 32.6-35.3 -> 29.3-30.2 µs
  an element. The price is disk and one slower commit: the WAL file grows to ~235 MiB
  during a load (``journal_size_limit`` keeps up to 256 MiB of it after a checkpoint, so
  the next cycle reuses the file instead of regrowing it; a file grown on every cycle cost
  ~3x the kernel time at the floor), and the commit that crosses the limit runs a ~3x
  longer checkpoint. Readers stay correct either way (WAL pages are found through the
  wal-index). ``HUGELITE_WAL_PAGES`` and ``HUGELITE_WAL_LIMIT_MIB`` override both, to
  measure.
* checkpoints stay on the writer's path. A thread of its own running
  ``wal_checkpoint(PASSIVE)`` every few commits was measured (seventh session) and was
  worse: at large 49.3-49.6 µs server CPU an element (kernel 17.9-19.6) against 40.0-41.5
  without it, and no faster. Two reasons: a PASSIVE checkpoint never catches a WAL that
  keeps growing (it copies the frames present when it started), and SQLite restarts the WAL
  only when a writer begins on a fully copied one, so the WAL must still be finished by the
  writer (or the file grows without bound); and copying every few commits loses the
  once-for-many writes above, while the writer's own WAL writes cost more kernel time beside
  a concurrent checkpoint of the same files.

The pools do not "reset on return" (an extra ROLLBACK per checkout): `Store` always ends its
transaction itself and invalidates a connection it could not end.
"""

from __future__ import annotations

import os
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
#: (``HUGELITE_WAL_PAGES`` overrides it, for measuring)
WAL_AUTOCHECKPOINT_PAGES = int(os.environ.get("HUGELITE_WAL_PAGES", "60000"))

#: bytes the WAL file is truncated to after a checkpoint (``HUGELITE_WAL_LIMIT_MIB``)
JOURNAL_SIZE_LIMIT = int(os.environ.get("HUGELITE_WAL_LIMIT_MIB", "256")) * 1024 * 1024


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
