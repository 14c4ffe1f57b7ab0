"""`Store`: one SQLite database (file or memory) and its transactions.

Concurrency model
-----------------
One writer and a pool of readers per store, both owned by the store (datasette's `Database`
is the model: one write connection behind a lock, read connections from a pool). The store
starts no thread: a transaction runs on the thread that opens it, and belongs to it.

* **The writer** (`connections.Writer`, file stores): one connection of its own, kept for the store's
  life, and the lock in front of it. `write()` takes the lock (writers of this process
  queue here instead of spinning on SQLITE_BUSY; `StoreBusy` after `write_wait_s`) and
  issues ``BEGIN IMMEDIATE``, which also waits, up to the busy timeout, for writers in
  other processes (`serve --workers N`). One connection for every write keeps its page
  cache warm between commits (SQLite drops a connection's cache when *another* one wrote).
* **The readers** (`connections.Readers`, file stores): a pool of connections; `read()` takes one and
  ``BEGIN``s; in WAL mode its first read pins a snapshot that later commits do not disturb,
  and readers never wait for the writer. Up to `connections.IDLE_CONNECTIONS` idle ones are kept, last
  in first out: SQLAlchemy's ``connect()``/``close()`` pair costs ~20 us, more than a point
  lookup's SQL. While a pool checkout listener is registered (statement tracing), every
  transaction checks a connection out of the pool and gives it back, writer included.
  A kept connection (`connections.Link`) keeps its `Tx` of each kind too, reset and reused
  by its next transaction of that kind: a transaction is one connection's while it runs.
* **Memory**: one connection shared by everybody, so every transaction, read or write,
  holds the store's lock for its duration: the writer is also the only reader.
* **PostgreSQL** (a server URL, `engine_pg`): the same model over a `QueuePool` of server
  connections. Readers ``BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY``: one snapshot for
  the transaction, as a WAL reader has, never waiting for writers. The writer is this
  process's one write connection behind the same lock, in a plain ``BEGIN`` (READ
  COMMITTED). Several server processes (`serve --workers N`, or several machines) each have
  a writer on one database, and that is safe: PostgreSQL locks the rows a writer changes,
  and the unique indexes refuse a second vertex id or a second edge of the same parts
  whichever process inserts it (`StoreConflict`, exactly as on SQLite); keys come from
  sequences, so two writers never take the same key. A transaction PostgreSQL aborts as a
  serialization failure or deadlock raises `StoreBusy` (retry it).

Both kinds commit (writes) or end (reads) on normal exit and roll back on exception; driver
errors escaping a transaction are re-raised as `StoreError`. Inside an open transaction the
same thread may open `read()` again and gets a read-only view of the *same* transaction (it
sees the outer uncommitted writes); opening `write()` inside any transaction of the same
thread raises `StoreError` instead of deadlocking.

Single-statement reads
----------------------
``store.read(ctx, single=True)`` is a read whose caller promises at most one statement (a
point lookup: one `find`). It sends no ``BEGIN``/``ROLLBACK``: the statement runs in the
connection's autocommit mode, which on SQLite is its own implicit read transaction (one WAL
snapshot for the statement) and on PostgreSQL is one round trip instead of three (at READ
COMMITTED, which for one statement is one snapshot too). So one statement reads exactly
what it would inside a snapshot transaction, and sees every commit made before it started.
A second statement (of the transaction, or of a read nested in it) raises `StoreError`
("a single-statement read ran a second statement"): two would read two snapshots, and that
is a caller's bug to be caught loudly, never answered. Everything else is as for `read()`:
the same readers (a memory store's one connection under its lock), the read-only guard, the
checkout listeners, nesting (inside the same thread's open transaction it is a read view of
that transaction, still limited to one statement).

The threads that call in live above this layer, each where its protocol needs one: the
app's worker pool (engine work never runs on the event loop), one thread per streamed
result (a stream holds its read transaction across the consumer's reads, and a transaction
belongs to one thread), one per Gremlin session (its transaction spans requests), and the
task manager's workers (`/jobs/gremlin` runs beside requests).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NoReturn, cast

from sqlalchemy.exc import DBAPIError

from storage import files, migrations
from storage.connections import Connections, Link, Readers, Writer
from storage.dialects import POSTGRESQL, SQLITE, is_server_url
from storage.engine import create_sqlite_engine
from storage.errors import (
    StoreBusy,
    StoreClosed,
    StoreError,
    StoreNotHugelite,
    StoreNotInitialised,
    StoreVersionMismatch,
)
from storage.single import Drained, OneStatement
from storage.tables import STORE_VERSION, metadata
from storage.tx import Tx
from storage.tx_base import DRIVER_ERRORS, PG_RETRY

MEMORY_NAMES = (None, "", ":memory:")

def open_store(
    path: str | Path | None = None, *, busy_timeout_ms: int = 5000, write_wait_s: float = 120.0
) -> Store:
    """Open (never create tables in) the store at `path`: None or ":memory:" for a private
    in-memory SQLite store, a filesystem path for a SQLite file, or a PostgreSQL SQLAlchemy
    URL (``postgresql+psycopg://user@host:5432/name``, `dialects.is_server_url`) for a
    database on a server (`ensure_database` creates it). Call `initialise()` to create the
    tables, `check_ready()` to verify them."""
    return Store(path, busy_timeout_ms=busy_timeout_ms, write_wait_s=write_wait_s)


def ensure_database(url: str) -> bool:
    """Create the PostgreSQL database `url` names unless it exists; True when created."""
    from storage.engine_pg import ensure_database as create  # psycopg is optional

    return create(url)


def drop_database(url: str) -> bool:
    """Drop the PostgreSQL database `url` names (its connections are ended first); True when
    it existed. The server-side counterpart of `remove_store_files`: call it only for a
    database hugelite created (`ensure_database` returned True for it)."""
    from storage.engine_pg import drop_database as drop  # psycopg is optional

    return drop(url)


class Store:
    """One graph's database. Thread-safe; open transactions with `read()` / `write()`."""

    def __init__(self, path: str | Path | None, *, busy_timeout_ms: int = 5000, write_wait_s: float = 120.0) -> None:
        self.memory = path in MEMORY_NAMES
        #: the server URL of a PostgreSQL store (None for SQLite)
        self.url: str | None = str(path) if is_server_url(path) else None
        self.path: str | None = None if self.memory or self.url else str(Path(path))  # type: ignore[arg-type]
        if self.url is not None:
            from storage.engine_pg import create_pg_engine  # psycopg is optional

            self.dialect = POSTGRESQL
            self.engine = create_pg_engine(self.url)
            self._begin_read, self._begin_write = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "BEGIN"
        else:
            self.dialect = SQLITE
            self.engine = create_sqlite_engine(self.path, busy_timeout_ms=busy_timeout_ms)
            self._begin_read, self._begin_write = "BEGIN", "BEGIN IMMEDIATE"
        connections = Connections(self.engine, self.display_path)
        # memory: one lock for everything (one shared connection); file: the writer's lock
        self._writer = Writer(connections, threading.RLock() if self.memory else threading.Lock(), write_wait_s)
        self._readers = Readers(connections)
        self._local = _Open()
        self._closed = False

    @property
    def display_path(self) -> str:
        if self.url is not None:
            return self.engine.url.render_as_string(hide_password=True)
        return ":memory:" if self.path is None else self.path

    def __repr__(self) -> str:
        return f"<storage.Store {self.display_path}>"

    # ---- transactions --------------------------------------------------------------------
    def read(self, ctx: object = None, *, single: bool = False) -> _Scope:
        """A snapshot read transaction; its write methods raise `ReadOnlyTransaction`.
        Use as ``with store.read(ctx) as tx:``. `ctx` is the caller's execution context,
        opaque here: the transaction holds it as `tx.ctx` for whoever reads through it.

        ``single=True``: the caller promises at most one statement (one `find`, one
        adjacency read...), and the transaction sends no ``BEGIN``/``ROLLBACK`` around it
        (see "Single-statement reads" above); a second statement raises `StoreError`."""
        return _Scope(self, True, ctx, single)

    def write(self, ctx: object = None) -> _Scope:
        """The single write transaction (``BEGIN IMMEDIATE``): commit on exit, rollback on
        error. Use as ``with store.write(ctx) as tx:`` (`ctx` as for `read`)."""
        return _Scope(self, False, ctx)

    def in_transaction(self) -> bool:
        """Whether the calling thread has a transaction of this store open (then it must
        not open a write transaction: that would raise)."""
        return self._local.tx is not None

    def read_ready(self) -> bool:
        """True when `read()` would start without waiting: a file store (its readers never
        wait for the writer) with an idle connection or room in the pool for one. A memory store's reads share
        the writer's lock, so they may always wait."""
        if self.memory or self._closed or self.in_transaction():
            return False
        return self._readers.ready()

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
            if self.url is not None and not _has_meta(tx) and _has_tables(tx):
                raise StoreNotHugelite(self.display_path, "the database has other tables")
            if migrations.can_upgrade(tx.schema.meta_get("store_version") if _has_meta(tx) else None):
                migrations.upgrade(tx)
            metadata.create_all(tx.conn)
            found = tx.schema.meta_get("store_version")
            if found is not None and found != STORE_VERSION:
                raise StoreVersionMismatch(self.display_path, found, STORE_VERSION)
            if found is None:
                tx.schema.meta_set("store_version", STORE_VERSION)
                tx.schema.meta_set("backend", self.dialect.name)
            if created:
                tx.schema.meta_set(files.OWNER_KEY, files.OWNER_VALUE)

    def stored_version(self) -> str | None:
        """The store version recorded in the database, None when it is not initialised."""
        if self.path is not None and files.check_usable(self.path) is not files.FileKind.HUGELITE:
            return None
        try:
            with self.read() as tx:
                if not _has_meta(tx):
                    if self.url is not None and _has_tables(tx):
                        raise StoreNotHugelite(self.display_path, "the database has other tables")
                    return None
                return tx.schema.meta_get("store_version")
        except StoreNotInitialised:  # PostgreSQL: the database does not exist yet
            return None

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
            if self.url is not None:
                return int(tx.core.scalar("SELECT pg_database_size(current_database())"))
            return int(tx.core.scalar("PRAGMA page_count")) * int(tx.core.scalar("PRAGMA page_size"))

    def close(self) -> None:
        """Release every connection; a memory store's data is gone afterwards."""
        if not self._closed:
            self._closed = True
            self._readers.close()
            with self._writer.lock:
                self._writer.close()
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
    if tx.dialect.pg:
        return tx.core.scalar("SELECT to_regclass('meta') IS NOT NULL") is True
    return tx.core.one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'") is not None


def _has_tables(tx: Tx) -> bool:
    """Whether a PostgreSQL database has tables of its own in the current schema."""
    sql = "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() LIMIT 1"
    return tx.core.one(sql) is not None


def _end(raw: Any, statement: str) -> None:
    """End a transaction if one is still open (a failed COMMIT may already have ended it)."""
    if raw.in_transaction:
        try:
            raw.execute(statement)
        except DRIVER_ERRORS:
            pass


def _failed(store: Store, what: str, err: BaseException) -> StoreError:
    """The storage error of a driver error that ended a transaction: `StoreBusy` for
    PostgreSQL's serialization failures and deadlocks (retry the transaction)."""
    orig = getattr(err, "orig", err)
    if getattr(orig, "sqlstate", None) in PG_RETRY:
        return StoreBusy(f"store at {store.display_path}: {what}a concurrent transaction conflicted, retry it: {orig}")
    return StoreError(f"store at {store.display_path}: {what}{orig}")


class _Open(threading.local):
    """The transaction the calling thread has open on a store (None: none), a class default
    so that asking needs no ``getattr`` probe."""

    tx: Tx | None = None


class _Scope:
    """One transaction's `with` block (a class, not a generator: it runs on every call,
    and two nested generator context managers cost several microseconds). A file store's
    read, the common case, takes the short ways through `__enter__` and `__exit__`. The
    `Tx` it hands out is its connection's (`connections.Link`), reset for this transaction."""

    __slots__ = ("store", "readonly", "ctx", "single", "link", "tx", "budget", "nested", "locked")
    budget: OneStatement  # a single-statement read's (set on entry)

    def __init__(self, store: Store, readonly: bool, ctx: object = None, single: bool = False) -> None:
        self.store = store
        self.readonly = readonly
        self.ctx = ctx
        self.single = single

    def __enter__(self) -> Tx:
        store = self.store
        outer = store._local.tx
        if outer is not None:
            return self._view(outer)
        if store._closed:
            store._ensure_open()
        self.nested = False
        if self.readonly and not store.memory:  # a reader's connection
            self.locked = False
            link = self.link = store._readers.checkout()
            if not self.single:
                try:  # `_send_begin`, inline: this runs before every snapshot read
                    link.ctl.execute(store._begin_read)
                except DRIVER_ERRORS as exc:
                    self._begin_failed(link, store._begin_read, exc)
        else:  # the writer's connection: writes, and every transaction of a memory store
            store._writer.acquire(wait=not self.readonly)
            self.locked = True
            try:
                link = self.link = store._writer.checkout()
                if not self.single:
                    self._send_begin(link, store._begin_read if self.readonly else store._begin_write)
            except BaseException:
                self._release()
                raise
        if self.single:
            tx, budget = link.single, link.budget
            if tx is None or budget is None:
                budget = link.budget = OneStatement(link.raw)
                tx = link.single = Tx(link.conn, budget, True, store.dialect, Drained(budget, link.ctl))  # type: ignore[arg-type]
            self.budget = budget
            budget.used = False
        elif self.readonly:
            tx = link.reads
            if tx is None:
                tx = link.reads = Tx(link.conn, link.raw, True, store.dialect, link.ctl)
        else:
            tx = link.writes
            if tx is None:
                tx = link.writes = Tx(link.conn, link.raw, False, store.dialect, link.ctl)
            else:
                tx.found_vertex_keys = None
        self.tx = tx
        tx.ctx = self.ctx
        store._local.tx = tx
        return tx

    def _send_begin(self, link: Link, begin: str) -> None:
        """Opens the transaction on `link` (its control cursor); a failure gives the
        connection back and raises `StoreError`."""
        try:
            link.ctl.execute(begin)
        except DRIVER_ERRORS as exc:
            self._begin_failed(link, begin, exc)

    def _begin_failed(self, link: Link, begin: str, exc: Exception) -> NoReturn:
        _end(link.raw, "ROLLBACK")
        self._checkin()
        raise StoreError(f"store at {self.store.display_path}: {begin} failed: {exc}") from exc

    def _view(self, outer: Tx) -> Tx:
        """A read view of the same thread's open transaction `outer` (nested)."""
        if not self.readonly:
            raise StoreError("a write transaction cannot be opened inside another transaction of the same thread")
        self.nested = True
        if self.single:
            budget = self.budget = OneStatement(outer.raw)
            view = self.tx = Tx(outer.conn, budget, True, outer.dialect, Drained(budget, outer.cur))  # type: ignore[arg-type]
        else:
            view = self.tx = Tx(outer.conn, outer.raw, True, outer.dialect, outer.cur)
        view.ctx = self.ctx if self.ctx is not None else outer.ctx
        return view

    def __exit__(self, _type: Any, exc: BaseException | None, _tb: Any) -> None:
        if self.single and self.budget.cursor is not None:  # end its statement before the connection goes back
            self.budget.close()
        if self.nested:
            return
        self.tx.ctx = None  # the connection's `Tx` outlives the transaction: not its caller's context
        store, link = self.store, self.link
        store._local.tx = None
        if exc is None and not self.locked:
            # the common case (a file store's read ending cleanly), without the general
            # path's repeated checks: ROLLBACK ends the snapshot, the connection goes back
            if link.raw.in_transaction:  # not after a single-statement read
                try:
                    link.ctl.execute("ROLLBACK")
                except DRIVER_ERRORS:
                    pass
            store._readers.checkin(link, store._closed)
            return
        raw = link.raw
        try:
            if exc is not None:
                _end(raw, "ROLLBACK")
                if isinstance(exc, (*DRIVER_ERRORS, DBAPIError)):
                    raise _failed(store, "", exc) from exc
            elif self.readonly:
                _end(raw, "ROLLBACK")
            else:
                try:
                    link.ctl.execute("COMMIT")
                except DRIVER_ERRORS as err:
                    _end(raw, "ROLLBACK")
                    raise _failed(store, "commit failed: ", err) from err
                if store.dialect is POSTGRESQL:
                    cast(Any, raw).after_commit()  # statistics after bulk inserts (`engine_pg.PgRaw`)
        finally:
            # never keep or hand back a connection inside a transaction
            _end(raw, "ROLLBACK")
            try:
                self._checkin()
            finally:
                self._release()

    def _checkin(self) -> None:
        store = self.store
        if self.locked:
            store._writer.checkin(self.link, store._closed)
        else:
            store._readers.checkin(self.link, store._closed)

    def _release(self) -> None:
        if self.locked:
            self.locked = False
            self.store._writer.lock.release()
