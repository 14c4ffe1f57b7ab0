"""The transaction object's shared plumbing: its connections and the read-only guard.

A transaction holds the SQLAlchemy `Connection` checked out for it (used for Core statements
on cold paths: schema, tasks, DDL) and the underlying DBAPI `sqlite3.Connection` (used with
cached SQL text on hot paths, see `_sql`). Both are the same database connection inside the
same ``BEGIN`` ... ``COMMIT``.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy.engine import Connection

from storage.errors import MissingEndpoint, ReadOnlyTransaction, StoreConflict, StoreError


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
