"""The connections of a store: checking them out of the SQLAlchemy pool, the one writer's,
and the idle readers' (`store.py`'s docstring says the concurrency model they serve).

Every checkout asks `Connections.traced` once, and the connection it hands out records the
answer (`Link.traced`) for its checkin: while a pool checkout listener is registered
(statement tracing), every transaction checks a connection out of the pool and gives it
back, so the listener sees one checkout per transaction; otherwise connections are kept
between transactions (SQLAlchemy's ``connect()``/``close()`` pair costs ~20 us, more than a point
lookup's SQL).
"""

from __future__ import annotations

import sqlite3
import threading
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from storage.errors import StoreBusy, StoreError, StoreNotInitialised

if TYPE_CHECKING:  # the store makes them; a connection only keeps them
    from storage.single import OneStatement
    from storage.tx import Tx

#: idle read connections a file store keeps between transactions
IDLE_CONNECTIONS = 8

class Link:
    """One database connection and what is kept with it for its life: the SQLAlchemy
    connection, the driver connection under it, what runs the store's ``BEGIN`` /
    ``ROLLBACK`` / ``COMMIT`` on it, and the transaction objects of its reads and writes.

    ``ctl`` is a cursor kept for the connection's life on SQLite (``raw.execute`` makes a
    cursor per call: ~0.15 us of each statement, two or three of which every transaction
    sends) and the driver connection itself on PostgreSQL (`engine_pg.PgRaw`).

    The transaction objects (`Tx`: a read one, a single-statement read one over its
    `single.OneStatement` budget, a write one) are made by the store on this connection's
    first transaction of each kind and reused by every later one: a transaction is one
    connection's for its whole length, and what a `Tx` holds besides the connection (the
    caller's context, the write path's found vertex keys, the budget's count) is reset
    when the next one starts, so a read allocates nothing per connection again (~1 us of a
    point lookup). `traced`: made while a pool checkout listener was registered; it is
    closed after its transaction instead of kept (`Connections.traced`)."""

    __slots__ = ("conn", "raw", "ctl", "traced", "reads", "single", "budget", "writes")

    def __init__(self, conn: Any, raw: Any, ctl: Any, traced: bool) -> None:
        self.conn = conn
        self.raw: sqlite3.Connection = raw
        self.ctl = ctl
        self.traced = traced
        self.reads: Tx | None = None
        self.single: Tx | None = None
        self.budget: OneStatement | None = None
        self.writes: Tx | None = None


class Connections:
    """Checking connections out of the store's SQLAlchemy pool and back."""

    def __init__(self, engine: Engine, display_path: str) -> None:
        self.engine = engine
        self.display_path = display_path
        # the pool's event dispatcher (the pool is replaced only by `engine.dispose()`,
        # when the store closes): a listener added to the engine later is found in it
        self.dispatch = engine.pool.dispatch
        # the dispatcher's stand-in while no checkout listener was ever added (SQLAlchemy
        # replaces it by the listeners' collection): testing for it first is a fifth of
        # the collection's own test, which the store asks at every transaction
        self.untraced = self.dispatch.checkout

    def traced(self) -> bool:
        """Whether a pool checkout listener is registered: it is promised one checkout per
        transaction, so while one is there no connection is kept between transactions."""
        listeners = self.dispatch.checkout
        return listeners is not self.untraced and bool(listeners)

    def connect(self, traced: bool) -> Link:
        try:
            conn = self.engine.connect()
        except DBAPIError as exc:
            if self.engine.dialect.name == "postgresql":
                from storage.engine_pg import missing_database

                if missing_database(exc):
                    raise StoreNotInitialised(self.display_path) from exc
            raise StoreError(f"store at {self.display_path}: cannot connect: {exc.orig}") from exc
        raw = conn.connection.driver_connection
        if self.engine.dialect.name == "postgresql":
            from storage.engine_pg import PgRaw

            pg = PgRaw(cast(Any, raw))  # the calls the store makes of either
            return Link(conn, pg, pg, traced)
        return Link(conn, raw, cast(sqlite3.Connection, raw).cursor(), traced)


def reusable(link: Link) -> bool:
    """Tidy a connection whose transaction ended; False (and closed) when it is still inside
    a transaction and must not be handed out again (the pool does not reset connections,
    engine.py)."""
    conn = link.conn
    if link.raw.in_transaction:
        conn.invalidate()
        conn.close()
        return False
    if conn.in_transaction():  # SQLAlchemy's autobegun bookkeeping (task records)
        conn.rollback()
    return True


class Writer:
    """The one writer: a lock and the connection every write transaction of the store runs
    on (a memory store's only connection, which its reads share under the same lock)."""

    def __init__(self, connections: Connections, lock: threading.Lock | threading.RLock, wait_s: float) -> None:
        self.connections = connections
        self.lock = lock
        self.wait_s = wait_s
        self.link: Link | None = None

    def acquire(self, wait: bool) -> None:
        if not wait:
            self.lock.acquire()
        elif not self.lock.acquire(timeout=self.wait_s):
            raise StoreBusy(f"store at {self.connections.display_path}: no write lock after {self.wait_s:g}s")

    def checkout(self) -> Link:
        """The writer's connection (the lock is held)."""
        link = self.link
        traced = self.connections.traced()
        if link is None or traced:
            link = self.connections.connect(traced)
            if not traced:
                self.link = link
        return link

    def checkin(self, link: Link, closed: bool) -> None:
        """After a transaction on `link` ended (the lock is still held): kept for the next
        one unless it is broken, the store closed, or a listener wants a checkout each."""
        if not reusable(link):
            if link is self.link:
                self.link = None
        elif closed or link.traced:
            if link is self.link:
                self.link = None
            link.conn.close()

    def close(self) -> None:
        if self.link is not None:
            self.link.conn.close()
            self.link = None


class Readers:
    """The read connections of a file store: idle ones kept last in first out."""

    def __init__(self, connections: Connections) -> None:
        self.connections = connections
        self.idle: list[Link] = []

    def checkout(self) -> Link:
        """An idle connection, unless a checkout listener wants one of the pool's each time
        (`Connections.traced`, inline: this runs before every read)."""
        connections = self.connections
        listeners = connections.dispatch.checkout
        if listeners is connections.untraced or not listeners:
            try:
                return self.idle.pop()
            except IndexError:
                return connections.connect(False)
        return connections.connect(True)

    def checkin(self, link: Link, closed: bool) -> None:
        conn = link.conn
        if link.raw.in_transaction:  # `reusable`, inline: this runs after every read
            conn.invalidate()
            conn.close()
            return
        if conn.in_transaction():
            conn.rollback()
        if closed or link.traced or len(self.idle) >= IDLE_CONNECTIONS:
            link.conn.close()
            return
        self.idle.append(link)

    def ready(self) -> bool:
        """An idle connection, or room in the pool for one without waiting."""
        pool: Any = self.connections.engine.pool
        return bool(self.idle) or pool.checkedin() > 0 or pool.checkedout() < pool.size()

    def close(self) -> None:
        while self.idle:
            try:
                conn = self.idle.pop().conn
            except IndexError:
                break
            conn.close()
