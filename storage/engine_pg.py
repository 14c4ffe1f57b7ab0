"""SQLAlchemy engine creation for PostgreSQL (psycopg 3), the driver connection the store's
hot paths use, and creating the database a URL names.

* **Pool.** A `QueuePool` like a SQLite file store's; connections run in the driver's
  autocommit mode and the store issues ``BEGIN`` / ``COMMIT`` / ``ROLLBACK`` itself, as on
  SQLite (`store._Scope`): readers ``BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`` (one
  snapshot for the whole transaction, as a SQLite WAL reader has), the writer a plain
  ``BEGIN`` (READ COMMITTED: its rows are guarded by row locks and unique indexes, which is
  what lets several server processes each have a writer on one database).
* **No JIT.** Every connection runs ``SET jit = off`` (`turn_jit_off`): a JIT-compiled
  statement reacts to a cancel request (`pg_cancel`) only after ~0.5 s.
* **Values.** Every connection decodes ``BYTEA`` results with `values.decode`
  (`register_loaders`): the only ``BYTEA`` columns are `values.AnyValue`'s.
* **Statements.** `PgRaw` is the driver connection as the store's SQL calls it (``execute``
  / ``executemany`` with SQLite-worded text, see `dialects.pg_sql`); psycopg prepares a
  statement server-side once it has run `PREPARE_THRESHOLD` times on a connection.

psycopg is an optional dependency (``pip install 'hugelite[postgresql]'``): this module is
imported only when a store is opened on a server URL.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import pq
from psycopg.adapt import Loader
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url

from storage.dialects import named, pg_sql
from storage.errors import StoreError
from storage.values import decode

#: runs of one statement text before psycopg prepares it on the server (its default is 5)
PREPARE_THRESHOLD = 2
#: server-side limit of parameters in one statement
MAX_PARAMS = 65535


class _ValueLoader(Loader):
    """``BYTEA`` results (text format: ``\\x`` and hex digits) decoded to the values
    `values.encode` stored."""

    def load(self, data: Any) -> Any:
        return decode(bytes.fromhex(bytes(data[2:]).decode()))


def register_loaders(conn: psycopg.Connection[Any]) -> None:
    conn.adapters.register_loader("bytea", _ValueLoader)
    conn.prepare_threshold = PREPARE_THRESHOLD


def turn_jit_off(conn: psycopg.Connection[Any]) -> None:
    """``SET jit = off`` for the session (`create_pg_engine`'s connections, in autocommit).

    Why: a statement the server compiled with its JIT (LLVM; chosen by cost, so the long
    aggregates are the ones compiled) took 0.3-0.6 s to end after a cancel request, where
    the same statement without the JIT ended in ~20 ms (`bench/pg_cancel.py`): the deadline
    a cancel enforces (`pg_cancel`) would not hold. The aggregates ran as fast without it
    (0.97-1.03x of their time with it, same bench). A server without the setting keeps
    its default (logged)."""
    try:
        conn.execute("SET jit = off")
    except psycopg.Error as exc:
        log.warning("could not turn PostgreSQL's JIT off for a store connection: %s", exc)


def create_pg_engine(url: str) -> Engine:
    engine = create_engine(
        url,
        isolation_level="AUTOCOMMIT",
        pool_size=8,
        max_overflow=56,
        pool_timeout=60,
        pool_reset_on_return=None,
        pool_pre_ping=False,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        register_loaders(dbapi_conn)
        turn_jit_off(dbapi_conn)

    return engine


log = logging.getLogger("hugelite.storage")

#: rows inserted on one connection before its first ANALYZE (`PgRaw.after_commit`)
ANALYZE_MIN_ROWS = 5000


class PgRaw:
    """A psycopg connection answering the calls the store makes of a `sqlite3.Connection`.

    It also counts the rows its INSERTs wrote, for `after_commit`: PostgreSQL plans from
    table statistics, and a store loaded in bulk has none until autovacuum's next round
    (a minute away, and only once a tenth of the table changed): meanwhile the planner
    guessed a hash join over whole tables for a 3-hop walk count, ~50x slower than with
    statistics. PostgreSQL's own advice after a bulk load is to run ANALYZE ("Populating a
    Database"); the writer does so each time the rows it inserted since its last ANALYZE
    reach what had been inserted before it (so ~log2(n) times over a load of n rows, each
    reading a fixed-size sample)."""

    __slots__ = ("conn", "inserted", "analyzed")

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.inserted = 0
        self.analyzed = 0

    def after_commit(self) -> None:
        """ANALYZE once the rows inserted since the last one have doubled the count (above)."""
        if self.inserted >= max(ANALYZE_MIN_ROWS, self.analyzed):
            self.analyzed += self.inserted
            self.inserted = 0
            try:
                self.conn.execute("ANALYZE")
            except psycopg.Error as exc:  # the commit stands; only the plans stay worse
                log.warning("ANALYZE after a bulk insert failed: %s", exc)

    @property
    def in_transaction(self) -> bool:
        return self.conn.info.transaction_status != pq.TransactionStatus.IDLE

    @property
    def server_encoding(self) -> str:
        """The database's encoding, as the server reported it when the connection opened
        (no round trip): SQL that turns stored bytes into text is exact only in UTF8."""
        return self.conn.info.parameter_status("server_encoding") or ""

    def execute(self, sql: str, params: Any = ()) -> psycopg.Cursor[Any]:
        text, numbered = pg_sql(sql)
        cur = self.conn.execute(text, named(params) if numbered else tuple(params))
        if text.startswith("INSERT") and cur.rowcount > 0:
            self.inserted += cur.rowcount
        return cur

    def executemany(self, sql: str, rows: Any) -> psycopg.Cursor[Any]:
        text, numbered = pg_sql(sql)
        cur = self.conn.cursor()
        cur.executemany(text, [named(r) for r in rows] if numbered else list(rows))
        if text.startswith("INSERT") and cur.rowcount > 0:
            self.inserted += cur.rowcount
        return cur

    def copy_rows(self, table: str, columns: str, rows: Sequence[Sequence[Any]]) -> None:
        """Writes `rows` into `table` (`columns`, text, in the rows' order) by ``COPY ...
        FROM STDIN``: no statement text to plan, nor parameters to bind, for a batch
        (psycopg's `Cursor.copy`, each value adapted as a query parameter is). Triggers and
        indexes see the rows as they see an INSERT's. A COPY stops at the first error (a
        unique violation: it has no ON CONFLICT), which would end the caller's
        transaction: it runs in a savepoint, rolled back before the driver's error is
        raised, so nothing of the batch is left and the transaction goes on."""
        conn = self.conn
        conn.execute("SAVEPOINT hl_copy")
        try:
            with conn.cursor().copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        except BaseException:
            conn.execute("ROLLBACK TO SAVEPOINT hl_copy")
            conn.execute("RELEASE SAVEPOINT hl_copy")
            raise
        conn.execute("RELEASE SAVEPOINT hl_copy")
        self.inserted += len(rows)

    def getlimit(self, _category: int) -> int:
        return MAX_PARAMS


def _admin_url(url: str) -> tuple[str, str]:
    """(URL of the server's ``postgres`` maintenance database, the database `url` names)."""
    parsed = make_url(url)
    name = parsed.database
    if not name:
        raise StoreError(f"the URL {parsed.render_as_string(hide_password=True)} names no database")
    return parsed.set(database="postgres").render_as_string(hide_password=False), name


def _conninfo(url: str) -> str:
    """A libpq connection string of a SQLAlchemy URL (its driver part dropped)."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def ensure_database(url: str) -> bool:
    """Create the database `url` names unless it exists (through the server's ``postgres``
    database, as HugeGraph's SQL backends created theirs on ``init-store``); True when it
    was created."""
    admin, name = _admin_url(url)
    try:
        with psycopg.connect(_conninfo(admin), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return False
            try:
                conn.execute(f'CREATE DATABASE "{name.replace(chr(34), chr(34) * 2)}"')
            except psycopg.errors.DuplicateDatabase:
                return False  # created meanwhile by another process
            return True
    except psycopg.Error as exc:
        raise StoreError(f"cannot create database {name!r}: {exc}") from exc


def drop_database(url: str) -> bool:
    """Drop the database `url` names (tests); True when it existed."""
    admin, name = _admin_url(url)
    with psycopg.connect(_conninfo(admin), autocommit=True) as conn:
        existed = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None
        conn.execute(f'DROP DATABASE IF EXISTS "{name.replace(chr(34), chr(34) * 2)}" WITH (FORCE)')
        return existed


def missing_database(exc: BaseException) -> bool:
    """Whether a connect error says the database does not exist."""
    orig = getattr(exc, "orig", exc)
    return getattr(orig, "sqlstate", None) == "3D000" or "does not exist" in str(orig)
