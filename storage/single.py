"""The statement budget of a single-statement read (``store.read(ctx, single=True)``).

A caller that will run at most one statement may skip the transaction around it: on SQLite
an autocommit SELECT is its own implicit read transaction (one snapshot for the statement),
and on PostgreSQL an autocommit statement is one round trip instead of three (``BEGIN``,
the statement, ``ROLLBACK``). One statement is then exactly as consistent as a snapshot; two
would read two different snapshots, so the second one is refused (`StoreError`): it is the
caller's programming error, and it must fail loudly in tests rather than answer from two
points in time.

`OneStatement` stands in for the driver connection (`TxCore.raw`) of such a transaction,
counts what is sent through it and forwards everything else; `Drained` stands in for the
connection's reused cursor (`TxCore.cur`, statements read to their end at once) and spends
the same budget; the SQLAlchemy Core statements of the cold paths (task records) go through
`TxCore.core_execute`, which spends it too.
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
        """Take the one statement of the budget (and of the enclosing single read's, when
        this one is nested in it), or raise when it is gone."""
        if self.used:
            raise StoreError(MISUSE)
        self.used = True
        if type(self.raw) is OneStatement:
            self.raw.spend()

    def execute(self, sql: str, params: Any = ()) -> Any:
        if self.used:
            raise StoreError(MISUSE)
        self.used = True
        cur = self.cursor = self.raw.execute(sql, params)
        return cur

    def executemany(self, sql: str, rows: Any) -> Any:
        # as `execute`: this budget only, the forward to `raw` spends an enclosing one
        if self.used:
            raise StoreError(MISUSE)
        self.used = True
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


class Drained:
    """A single-statement read's `TxCore.cur`: a statement read to its end at once (a
    point lookup's one row, a ``fetchall``) spends `budget` and runs on `cur`, the
    connection's reused cursor (or, nested, the enclosing read's `cur`, which spends the
    enclosing budget in turn). The driver resets a statement when its last row is read,
    so nothing is left for `OneStatement.close` to end, and no cursor is made for it."""

    __slots__ = ("budget", "cur")

    def __init__(self, budget: OneStatement, cur: Any) -> None:
        self.budget = budget
        self.cur = cur

    def execute(self, sql: str, params: Any = ()) -> Any:
        budget = self.budget
        if budget.used:
            raise StoreError(MISUSE)
        budget.used = True
        return self.cur.execute(sql, params)
