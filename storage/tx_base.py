"""`TxCore`: what every family of a transaction shares, its connections and the read-only guard.

A transaction holds the SQLAlchemy `Connection` checked out for it (used for Core statements
on cold paths: schema, tasks, DDL) and the underlying DBAPI `sqlite3.Connection` (used with
cached SQL text on hot paths, see `_sql`). Both are the same database connection inside the
same ``BEGIN`` ... ``COMMIT``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

from sqlalchemy.engine import Connection, CursorResult

from storage.dialects import SQLITE, Dialect
from storage.errors import MissingEndpoint, ReadOnlyTransaction, StoreBusy, StoreConflict, StoreError
from storage.single import OneStatement

try:  # the PostgreSQL driver is optional (`engine_pg`)
    import psycopg

    #: the errors a database driver raises: what the store's methods catch and translate
    DRIVER_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, psycopg.Error)
except ImportError:  # pragma: no cover - without the postgresql extra
    DRIVER_ERRORS = (sqlite3.Error,)

#: PostgreSQL's SQLSTATEs of a unique violation, a missing foreign row, and of a transaction
#: that lost to a concurrent one (serialization failure, deadlock): retry it
_PG_UNIQUE, _PG_FOREIGN = "23505", "23503"
PG_RETRY = frozenset({"40001", "40P01"})

#: row counts of the multi-row INSERTs (`TxCore.insert_values`): a chunk is padded up to
#: the next one, so a batch of up to ROWS_MAX rows is one statement and the driver's
#: statement cache keeps the few texts; padding wastes at most a third of a chunk
ROW_BUCKETS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
ROWS_MAX = ROW_BUCKETS[-1]


@lru_cache(maxsize=128)
def _values_sql(head: str, row: str, width: int, n: int) -> str:
    """`head` VALUES followed by `n` copies of the row template `row`, whose ``{0}`` ..
    ``{width-1}``, if it has them, become that row's numbered parameters (?1.., ?width+1..,
    ...); a row of plain ``?``s takes its parameters in order."""
    return f"{head} VALUES " + ",".join(row.format(*range(k * width + 1, k * width + width + 1)) for k in range(n))


def _chunks(total: int, most: int) -> list[tuple[int, int]]:
    """(rows, bucket) of each chunk of `total` rows: full chunks of `most` (a bucket), then
    the rest in the smallest bucket that holds it."""
    out = [(most, most)] * (total // most)
    rest = total % most
    if rest:
        out.append((rest, next(b for b in ROW_BUCKETS if b >= rest)))
    return out


class TxCore:
    """State shared by every family component of one `Tx` (`tx.elements`, `tx.adjacency`,
    ...): each holds this object, never another family, so a family is one module and one
    slot of `Tx`, and a new one (auth records) adds both without touching the others."""

    __slots__ = ("conn", "raw", "cur", "driver", "readonly", "found_vertex_keys", "ctx", "dialect")

    def __init__(
        self, conn: Connection, raw: sqlite3.Connection, readonly: bool, dialect: Dialect = SQLITE, cur: Any = None,
    ) -> None:
        self.conn = conn
        self.raw = raw
        #: what runs a statement the caller reads to its end at once (one row of a unique
        #: key, a ``fetchall``, a loop over every row): the connection's reused cursor
        #: (`connections.Link.ctl`: no cursor made per statement; the driver resets the
        #: statement when its last row is read), or `single.Drained` over it in a
        #: single-statement read. Anything else (a ``fetchone`` of several rows, a loop
        #: that may stop early) runs on `raw`, whose cursor per statement ends with it.
        self.cur: sqlite3.Cursor = raw if cur is None else cur  # type: ignore[assignment]
        driver: Any = raw
        while type(driver) is OneStatement:  # a single read's budget (nested: budgets)
            driver = driver.raw
        #: the driver connection itself, for what is set on the connection rather than sent
        #: as a statement (a progress handler): no budget's forwarding in between
        self.driver: sqlite3.Connection = driver
        self.readonly = readonly
        #: the store's SQL dialect (`dialects.SQLITE` or `dialects.POSTGRESQL`)
        self.dialect = dialect
        # key -> stored id of the vertices the last `vertex_heads_by_ids` of this write
        # transaction found, None once a vertex may have been deleted since (see
        # `Elements._check_edges`; ids never change, so only a delete makes it stale)
        self.found_vertex_keys: dict[int, Any] | None = None
        #: the execution context of the request this transaction serves (opaque to storage:
        #: the engine reads it), None for a transaction opened without one
        self.ctx: object = None

    def check_writable(self) -> None:
        """Guard called first by every write method."""
        if self.readonly:
            raise ReadOnlyTransaction("this transaction was opened with store.read(): use store.write()")

    def core_execute(self, statement: Any) -> CursorResult[Any]:
        """Run a SQLAlchemy Core `statement` on the transaction's connection (cold paths:
        task records); in a single-statement read it spends the one statement, as a
        statement on `raw` does (`single.OneStatement`)."""
        raw: Any = self.raw
        if type(raw) is OneStatement:
            raw.spend()
        return self.conn.execute(statement)

    def all(self, sql: str, params: Any = ()) -> list[Any]:
        return self.raw.execute(sql, params).fetchall()

    def one(self, sql: str, params: Any = ()) -> Any:
        return self.raw.execute(sql, params).fetchone()

    def scalar(self, sql: str, params: Any = ()) -> Any:
        row = self.raw.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def insert_values(self, head: str, row: str, width: int, rows: Sequence[Sequence[Any]]) -> int:
        """Insert `rows` (each `width` parameters) as multi-row ``head VALUES row, row, ...``
        statements; returns the rows written (`rowcount` summed).

        Why not `executemany`: the driver releases the GIL around every `sqlite3_step`, one
        per row, and retakes it after; beside request threads running Python, each retake
        waits for one of them to yield (up to the switch interval), so a 500-row batch
        convoys behind them. A multi-row statement is one step per chunk. `head` must be an
        ``INSERT OR IGNORE``: with any conflict clause that can abort (the default ABORT of a
        NOT NULL column, an upsert's ``ON CONFLICT``), a multi-row INSERT writes a
        statement journal of every page it changes, which costs more than the steps saved.
        The chunks stay within the connection's host-parameter limit, and each is padded
        to its bucket (`ROW_BUCKETS`) with repeats of its last row, which the table's
        primary key refuses and OR IGNORE skips: the table's primary key must be among
        the row's values (vertices and edges: key; index entries: all but the kind)."""
        raw = self.raw
        limit = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // width
        most = max([b for b in ROW_BUCKETS if b <= limit], default=1)
        written = 0
        start = 0
        for size, bucket in _chunks(len(rows), most):
            params = list(chain.from_iterable(rows[start : start + size]))
            start += size
            if bucket > size:
                params += params[-width:] * (bucket - size)
            written += raw.execute(_values_sql(head, row, width, bucket), params).rowcount
        return written

    def savepoint_many(self, sql: str, rows: list[tuple[Any, ...]], what: str) -> None:
        """executemany inside a savepoint, so a failing batch leaves nothing behind."""
        raw = self.raw
        raw.execute("SAVEPOINT hl_batch")
        try:
            raw.executemany(sql, rows)
        except BaseException as exc:
            raw.execute("ROLLBACK TO hl_batch")
            raw.execute("RELEASE hl_batch")
            if isinstance(exc, DRIVER_ERRORS):
                raise translate(exc, what) from exc
            raise
        raw.execute("RELEASE hl_batch")


def translate(exc: Exception, what: str) -> StoreError:
    """Map a driver error raised by a write onto the storage error a caller can act on."""
    # the out-adjacency index ends in in_id (layout v3), a function of in_key that changes no
    # uniqueness: the message names the columns that make an edge's parts, as before
    msg = str(exc).replace(", edges.in_id", "")
    state = getattr(exc, "sqlstate", None)
    if state is not None:  # PostgreSQL
        msg = msg.splitlines()[0] if msg else msg
        if state == _PG_UNIQUE:
            return StoreConflict(f"{what}: UNIQUE constraint failed ({msg})")
        if state == _PG_FOREIGN:
            return MissingEndpoint(f"{what}: an end vertex does not exist ({msg})")
        if state in PG_RETRY:
            return StoreBusy(f"{what}: a concurrent transaction conflicted, retry it ({msg})")
    if isinstance(exc, sqlite3.IntegrityError):
        if "UNIQUE" in msg or "PRIMARY KEY" in msg:
            return StoreConflict(f"{what}: {msg}")
        if "FOREIGN KEY" in msg:
            return MissingEndpoint(f"{what}: an end vertex does not exist ({msg})")
    return StoreError(f"{what}: {msg}")
