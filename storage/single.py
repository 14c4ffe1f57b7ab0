"""The statement budget of a single-statement read (``store.read(ctx, single=True)``).

A caller that will run at most one statement may skip the transaction around it: on SQLite
an autocommit SELECT is its own implicit read transaction (one snapshot for the statement),
and on PostgreSQL an autocommit statement is one round trip instead of three (``BEGIN``,
the statement, ``ROLLBACK``). One statement is then exactly as consistent as a snapshot; two
would read two different snapshots, so the second one is refused (`StoreError`): it is the
caller's programming error, and it must fail loudly in tests rather than answer from two
points in time.

`OneStatement` stands in for the driver connection (`TxCore.raw`) of such a transaction and
counts what is sent through it; `OneStatementConn` does the same for the SQLAlchemy
connection (`TxCore.conn`, cold paths: task records), on the same budget. Both forward
everything else unchanged.
"""

from __future__ import annotations

from typing import Any

from storage.errors import StoreError

MISUSE = (
    "a single-statement read ran a second statement: open store.read() without single=True "
    "when a transaction needs more than one statement (two statements would read two snapshots)"
)


class OneStatement:
    """A driver connection that runs one statement, then refuses the next (`MISUSE`).

    It keeps the cursor of that statement, so `close` can end it when the transaction
    ends: a SQLite statement left unfinished (one row fetched of several) would keep its
    read snapshot open on a connection that goes back to the pool."""

    __slots__ = ("raw", "used", "cursor")

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.used = False
        self.cursor: Any = None

    def spend(self) -> None:
        """Take the one statement of the budget, or raise when it is gone."""
        if self.used:
            raise StoreError(MISUSE)
        self.used = True

    def execute(self, sql: str, params: Any = ()) -> Any:
        if self.used:
            raise StoreError(MISUSE)
        self.used = True
        cur = self.cursor = self.raw.execute(sql, params)
        return cur

    def executemany(self, sql: str, rows: Any) -> Any:
        self.spend()
        cur = self.cursor = self.raw.executemany(sql, rows)
        return cur

    @property
    def in_transaction(self) -> bool:
        return bool(self.raw.in_transaction)

    def getlimit(self, category: int) -> int:
        return int(self.raw.getlimit(category))

    def close(self) -> None:
        """End the statement's cursor (the transaction is over); the connection stays."""
        cur = self.cursor
        if cur is not None:
            self.cursor = None
            cur.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class OneStatementConn:
    """The SQLAlchemy connection of a single-statement read: its statements spend the
    same budget as the driver connection's (`OneStatement`)."""

    __slots__ = ("conn", "budget")

    def __init__(self, conn: Any, budget: OneStatement) -> None:
        self.conn = conn
        self.budget = budget

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self.budget.spend()
        return self.conn.execute(*args, **kwargs)

    def exec_driver_sql(self, *args: Any, **kwargs: Any) -> Any:
        self.budget.spend()
        return self.conn.exec_driver_sql(*args, **kwargs)

    def scalar(self, *args: Any, **kwargs: Any) -> Any:
        self.budget.spend()
        return self.conn.scalar(*args, **kwargs)

    def scalars(self, *args: Any, **kwargs: Any) -> Any:
        self.budget.spend()
        return self.conn.scalars(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)
