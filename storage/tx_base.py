"""The transaction object's shared plumbing: its connections and the read-only guard.

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

from sqlalchemy.engine import Connection

from storage.errors import MissingEndpoint, ReadOnlyTransaction, StoreConflict, StoreError

#: most rows in one multi-row INSERT (`TxBase._insert_values`); a power of two, so a batch
#: is a few statements of at most log2(ROWS_MAX) + 1 distinct sizes
ROWS_MAX = 512


@lru_cache(maxsize=128)
def _values_sql(head: str, row: str, width: int, n: int) -> str:
    """`head` VALUES followed by `n` copies of the row template `row`, whose ``{0}`` ..
    ``{width-1}`` become that row's numbered parameters (?1.., ?width+1.., ...)."""
    return f"{head} VALUES " + ",".join(row.format(*range(k * width + 1, k * width + width + 1)) for k in range(n))


def _sizes(total: int, most: int) -> list[int]:
    """Chunk sizes for `total` rows: `most` (a power of two) while that many remain, then the
    binary decomposition of the rest, so every chunk size is a power of two <= `most` and
    the driver's statement cache keeps the few texts."""
    sizes = [most] * (total // most)
    rest = total % most
    while rest:
        size = 1 << (rest.bit_length() - 1)
        sizes.append(size)
        rest -= size
    return sizes


class TxBase:
    """State shared by every family mixin. Not used on its own."""

    __slots__ = ("conn", "raw", "readonly", "found_vertex_keys")

    def __init__(self, conn: Connection, raw: sqlite3.Connection, readonly: bool) -> None:
        self.conn = conn
        self.raw = raw
        self.readonly = readonly
        # key -> stored id of the vertices the last `vertex_heads_by_ids` of this write
        # transaction found, None once a vertex may have been deleted since (see
        # `ElementsMixin._check_edges`; ids never change, so only a delete makes it stale)
        self.found_vertex_keys: dict[int, Any] | None = None

    def _w(self) -> None:
        """Guard called first by every write method."""
        if self.readonly:
            raise ReadOnlyTransaction("this transaction was opened with store.read(): use store.write()")

    def _all(self, sql: str, params: Any = ()) -> list[Any]:
        return self.raw.execute(sql, params).fetchall()

    def _one(self, sql: str, params: Any = ()) -> Any:
        return self.raw.execute(sql, params).fetchone()

    def _scalar(self, sql: str, params: Any = ()) -> Any:
        row = self.raw.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def _insert_values(self, head: str, row: str, width: int, rows: Sequence[Sequence[Any]]) -> int:
        """Insert `rows` (each `width` parameters) as multi-row ``head VALUES row, row, ...``
        statements; returns the rows written (`rowcount` summed).

        Why not `executemany`: the driver releases the GIL around every `sqlite3_step`, one
        per row, and retakes it after; beside request threads running Python, each retake
        waits for one of them to yield (up to the switch interval), so a 500-row batch
        convoys behind them. A multi-row statement is one step per chunk. `head` must be an
        ``INSERT OR IGNORE``: with any conflict clause that can abort (the default ABORT of a
        NOT NULL column, an upsert's ``ON CONFLICT``), a multi-row INSERT writes a
        statement journal of every page it changes, which costs more than the steps saved.
        The chunks stay within the connection's host-parameter limit."""
        raw = self.raw
        most = ROWS_MAX
        limit = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // width
        while most > limit:
            most >>= 1
        written = 0
        start = 0
        for size in _sizes(len(rows), most):
            part = rows[start : start + size]
            start += size
            written += raw.execute(_values_sql(head, row, width, size), list(chain.from_iterable(part))).rowcount
        return written

    def _savepoint_many(self, sql: str, rows: list[tuple[Any, ...]], what: str) -> None:
        """executemany inside a savepoint, so a failing batch leaves nothing behind."""
        raw = self.raw
        raw.execute("SAVEPOINT hl_batch")
        try:
            raw.executemany(sql, rows)
        except BaseException as exc:
            raw.execute("ROLLBACK TO hl_batch")
            raw.execute("RELEASE hl_batch")
            if isinstance(exc, sqlite3.Error):
                raise translate(exc, what) from exc
            raise
        raw.execute("RELEASE hl_batch")


def translate(exc: sqlite3.Error, what: str) -> StoreError:
    """Map a driver error raised by a write onto the storage error a caller can act on."""
    # the out-adjacency index ends in in_id (layout v3), a function of in_key that changes no
    # uniqueness: the message names the columns that make an edge's parts, as before
    msg = str(exc).replace(", edges.in_id", "")
    if isinstance(exc, sqlite3.IntegrityError):
        if "UNIQUE" in msg or "PRIMARY KEY" in msg:
            return StoreConflict(f"{what}: {msg}")
        if "FOREIGN KEY" in msg:
            return MissingEndpoint(f"{what}: an end vertex does not exist ({msg})")
    return StoreError(f"{what}: {msg}")
