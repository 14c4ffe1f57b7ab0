"""`Store`: one SQLite database (file or memory) and its transactions.

Concurrency model
-----------------
* **file**: `write()` takes a per-store lock (one writer per process, so writers queue
  here rather than spin on SQLITE_BUSY) and issues ``BEGIN IMMEDIATE`` (which also waits,
  up to the busy timeout, for writers in other processes). `read()` takes any pooled
  connection and ``BEGIN``s; in WAL mode its first read pins a snapshot that later commits
  do not disturb, and readers never wait for the writer.
* **memory**: one connection shared by everybody, so every transaction, read or write,
  holds the store lock for its duration. Simple, and safe from any thread.

Both commit on normal exit and roll back on exception. Connections a transaction ended
cleanly are kept checked out in a small idle list and reused by the next transaction:
SQLAlchemy's `connect()`/`close()` pair cost ~20 us, more than a point lookup's SQL. A transaction belongs to the thread
that opened it. Inside an open transaction the same thread may open `read()` again and gets a
read-only view of the *same* transaction (it sees the outer uncommitted writes); opening
`write()` inside any transaction of the same thread raises `StoreError` instead of
deadlocking. Driver errors escaping a transaction are re-raised as `StoreError`.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError

from storage import files, migrations
from storage.engine import create_sqlite_engine
from storage.errors import StoreBusy, StoreClosed, StoreError, StoreNotInitialised, StoreVersionMismatch
from storage.tables import STORE_VERSION, metadata
from storage.tx import Tx

MEMORY_NAMES = (None, "", ":memory:")

#: connections a file store keeps checked out between transactions (the pool's base size)
IDLE_CONNECTIONS = 8


def open_store(
    path: str | Path | None = None, *, busy_timeout_ms: int = 5000, write_wait_s: float = 120.0
) -> Store:
    """Open (never create tables in) the store at `path`; None or ":memory:" for a private
    in-memory store. Call `initialise()` to create it, `check_ready()` to verify it."""
    return Store(path, busy_timeout_ms=busy_timeout_ms, write_wait_s=write_wait_s)


class Store:
    """One graph's database. Thread-safe; open transactions with `read()` / `write()`."""

    def __init__(self, path: str | Path | None, *, busy_timeout_ms: int = 5000, write_wait_s: float = 120.0) -> None:
        self.memory = path in MEMORY_NAMES
        self.path: str | None = None if self.memory else str(Path(path))  # type: ignore[arg-type]
        self.engine = create_sqlite_engine(self.path, busy_timeout_ms=busy_timeout_ms)
        self._write_wait_s = write_wait_s
        # memory: one lock for everything (one shared connection); file: the writer lock
        self._lock = threading.RLock() if self.memory else threading.Lock()
        self._local = threading.local()
        self._closed = False
        #: (SQLAlchemy connection, driver connection) pairs between transactions
        self._idle: list[tuple[Any, Any]] = []
        self._idle_max = 1 if self.memory else IDLE_CONNECTIONS

    @property
    def display_path(self) -> str:
        return ":memory:" if self.path is None else self.path

    def __repr__(self) -> str:
        return f"<storage.Store {self.display_path}>"

    # ---- transactions --------------------------------------------------------------------
    def read(self) -> _Scope:
        """A snapshot read transaction; its write methods raise `ReadOnlyTransaction`.
        Use as ``with store.read() as tx:``."""
        return _Scope(self, "BEGIN", True)

    def write(self) -> _Scope:
        """The single write transaction (``BEGIN IMMEDIATE``): commit on exit, rollback on
        error. Use as ``with store.write() as tx:``."""
        return _Scope(self, "BEGIN IMMEDIATE", False)

    def _checkout(self) -> tuple[Any, Any]:
        """An idle connection of ours, else a new checkout from the pool. Pool checkout
        listeners (tracing, instrumentation) are promised one checkout per transaction, so
        while any is registered nothing is reused."""
        if not self.engine.pool.dispatch.checkout:
            try:
                return self._idle.pop()
            except IndexError:
                pass
        try:
            conn = self.engine.connect()
        except DBAPIError as exc:
            raise StoreError(f"store at {self.display_path}: cannot connect: {exc.orig}") from exc
        return conn, conn.connection.driver_connection

    def _checkin(self, conn: Any, raw: Any) -> None:
        """Keep a connection whose transaction ended for the next one; invalidate one that
        is still inside a transaction (the pool does not reset connections, engine.py)."""
        if raw.in_transaction:
            conn.invalidate()
            conn.close()
            return
        if conn.in_transaction():  # SQLAlchemy's autobegun bookkeeping (task records)
            conn.rollback()
        if self._closed or len(self._idle) >= self._idle_max or self.engine.pool.dispatch.checkout:
            conn.close()
            return
        self._idle.append(conn_raw := (conn, raw))
        if self._closed and conn_raw in self._idle:  # closed meanwhile: do not strand it
            self._idle.remove(conn_raw)
            conn.close()

    def read_ready(self) -> bool:
        """True when `read()` would start without waiting: a file store (its readers never
        wait for the writer) with an idle pooled connection. A memory store's reads share
        the writer's lock, so they may always wait."""
        if self.memory or self._closed:
            return False
        if getattr(self._local, "tx", None) is not None:
            return False
        return bool(self._idle) or self.engine.pool.checkedin() > 0  # type: ignore[attr-defined]

    # ---- lifecycle -----------------------------------------------------------------------
    def initialise(self) -> None:
        """Create the tables and record the store version. Idempotent; upgrades a store of an
        older version this code can upgrade (`migrations`), refuses any other version, and
        refuses a file that is not a hugelite store (`files.check_usable`). A file created
        here is recorded as hugelite's (`files.OWNER_KEY`): only such files are ever deleted."""
        created = False
        if self.path is not None:
            created = files.check_usable(self.path) is files.FileKind.MISSING
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        with self.write() as tx:
            if migrations.can_upgrade(tx.schema.meta_get("store_version") if _has_meta(tx) else None):
                migrations.upgrade(tx)
            metadata.create_all(tx.conn)
            found = tx.schema.meta_get("store_version")
            if found is not None and found != STORE_VERSION:
                raise StoreVersionMismatch(self.display_path, found, STORE_VERSION)
            if found is None:
                tx.schema.meta_set("store_version", STORE_VERSION)
                tx.schema.meta_set("backend", "sqlite")
            if created:
                tx.schema.meta_set(files.OWNER_KEY, files.OWNER_VALUE)

    def stored_version(self) -> str | None:
        """The store version recorded in the database, None when it is not initialised."""
        if self.path is not None and files.check_usable(self.path) is not files.FileKind.HUGELITE:
            return None
        with self.read() as tx:
            return tx.schema.meta_get("store_version") if _has_meta(tx) else None

    def is_initialised(self) -> bool:
        return self.stored_version() is not None

    def check_ready(self) -> None:
        """Raise `StoreNotInitialised` or `StoreVersionMismatch` unless the store can be used.
        A store of an older version that `migrations` can upgrade is upgraded here, in one
        write transaction, so existing stores keep opening."""
        found = self.stored_version()
        if found is None:
            raise StoreNotInitialised(self.display_path)
        if found != STORE_VERSION and migrations.can_upgrade(found):
            with self.write() as tx:
                if migrations.upgrade(tx):
                    return
            found = self.stored_version()
        if found != STORE_VERSION:
            raise StoreVersionMismatch(self.display_path, str(found), STORE_VERSION)

    def size_bytes(self) -> int:
        """Database size (page_count * page_size), for metrics."""
        with self.read() as tx:
            return int(tx.core.scalar("PRAGMA page_count")) * int(tx.core.scalar("PRAGMA page_size"))

    def close(self) -> None:
        """Release every connection; a memory store's data is gone afterwards."""
        if not self._closed:
            self._closed = True
            while self._idle:
                try:
                    conn, _raw = self._idle.pop()
                except IndexError:
                    break
                conn.close()
            self.engine.dispose()

    @property
    def closed(self) -> bool:
        return self._closed

    def _ensure_open(self) -> None:
        if self._closed:
            raise StoreClosed(f"store at {self.display_path} is closed")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _has_meta(tx: Tx) -> bool:
    return tx.core.one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'") is not None


def _end(raw: Any, statement: str) -> None:
    """End a transaction if one is still open (a failed COMMIT may already have ended it)."""
    if raw.in_transaction:
        try:
            raw.execute(statement)
        except sqlite3.Error:
            pass


class _Scope:
    """One transaction's `with` block (a class, not a generator: it runs on every call,
    and two nested generator context managers cost several microseconds)."""

    __slots__ = ("store", "begin", "readonly", "nested", "locked", "conn", "raw")

    def __init__(self, store: Store, begin: str, readonly: bool) -> None:
        self.store = store
        self.begin = begin
        self.readonly = readonly
        self.nested = False
        self.locked = False

    def __enter__(self) -> Tx:
        store = self.store
        outer: Tx | None = getattr(store._local, "tx", None)
        if outer is not None:
            if not self.readonly:
                raise StoreError("a write transaction cannot be opened inside another transaction of the same thread")
            self.nested = True  # a read view of the same thread's open transaction
            return Tx(outer.conn, outer.raw, True)
        if store._closed:
            store._ensure_open()
        if not self.readonly:
            if not store._lock.acquire(timeout=store._write_wait_s):
                raise StoreBusy(f"store at {store.display_path}: no write lock after {store._write_wait_s:g}s")
            self.locked = True
        elif store.memory:
            store._lock.acquire()
            self.locked = True
        try:
            self.conn, self.raw = store._checkout()
            raw = self.raw
            try:
                raw.execute(self.begin)
            except sqlite3.Error as exc:
                _end(raw, "ROLLBACK")
                store._checkin(self.conn, raw)
                raise StoreError(f"store at {store.display_path}: {self.begin} failed: {exc}") from exc
        except BaseException:
            self._release()
            raise
        tx = Tx(self.conn, raw, self.readonly)
        store._local.tx = tx
        return tx

    def __exit__(self, _type: Any, exc: BaseException | None, _tb: Any) -> None:
        if self.nested:
            return
        store, raw = self.store, self.raw
        if exc is None and self.readonly and not self.locked:
            # the common case (a file store's read ending cleanly), without the general
            # path's repeated checks: ROLLBACK ends the snapshot, the connection goes back
            store._local.tx = None
            _end(raw, "ROLLBACK")
            store._checkin(self.conn, raw)
            return
        try:
            store._local.tx = None
            if exc is not None:
                _end(raw, "ROLLBACK")
                if isinstance(exc, sqlite3.Error | DBAPIError):
                    orig = getattr(exc, "orig", exc)
                    raise StoreError(f"store at {store.display_path}: {orig}") from exc
            elif self.readonly:
                _end(raw, "ROLLBACK")
            else:
                try:
                    raw.execute("COMMIT")
                except sqlite3.Error as err:
                    _end(raw, "ROLLBACK")
                    raise StoreError(f"store at {store.display_path}: commit failed: {err}") from err
        finally:
            # never keep or hand back a connection inside a transaction
            _end(raw, "ROLLBACK")
            try:
                store._checkin(self.conn, raw)
            finally:
                self._release()

    def _release(self) -> None:
        if self.locked:
            self.locked = False
            self.store._lock.release()
