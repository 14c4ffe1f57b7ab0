"""Task leases: which process runs a task, until when (`serve --workers N`).

A task's record (`tables.tasks`) says what it is and how it ended; its lease says who holds
it now. The process that submits a task writes the lease in the same transaction as the
record; before the job starts, and while it runs, the holder extends it; when the task ends,
the holder removes it with the final status. A process that dies stops extending its leases:
once one has expired, its task is *stale*, and the next process that looks marks it failed
(the engine's `gremlin_engine/tasks/leases.py` says why failed and not run again).

``task_leases(task_id PK, owner, expires_ms)`` lives in its own table, created when missing
(`ensure_task_leases`), so neither the task table nor the store version changes. Every
statement is plain SQL that SQLite and PostgreSQL run alike; a claim is a conditional UPDATE
whose row count says whether it won, which is atomic in both.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import BigInteger, Column, MetaData, Table, Text

from storage.tx import Tx

lease_metadata = MetaData()

task_leases = Table(
    "task_leases",
    lease_metadata,
    Column("task_id", BigInteger, primary_key=True, autoincrement=False),
    Column("owner", Text, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)


def ensure_task_leases(tx: Tx) -> None:
    """Creates the lease table in a store that lacks it (idempotent; a write transaction)."""
    tx.core.check_writable()
    lease_metadata.create_all(tx.conn)  # checks first


class TaskLeases:
    """The leases of one transaction (`with store.write() as tx: TaskLeases(tx)`)."""

    __slots__ = ("tx",)

    def __init__(self, tx: Tx) -> None:
        self.tx = tx

    def take(self, task_id: int, owner: str, expires_ms: int) -> None:
        """A new task's lease (written with its record)."""
        self.tx.core.check_writable()
        self.tx.raw.execute("INSERT INTO task_leases (task_id, owner, expires_ms) VALUES (?, ?, ?)",
                            (task_id, owner, expires_ms))

    def hold(self, task_id: int, owner: str, expires_ms: int) -> bool:
        """Extends `owner`'s lease on one task; False when `owner` holds it no more (it
        expired and another process gave the task up): the claim a job makes before it runs
        and before it records its end."""
        self.tx.core.check_writable()
        return self.tx.raw.execute("UPDATE task_leases SET expires_ms = ? WHERE task_id = ? AND owner = ?",
                                   (expires_ms, task_id, owner)).rowcount == 1

    def renew(self, owner: str, expires_ms: int) -> int:
        """Extends every lease `owner` holds; returns how many."""
        self.tx.core.check_writable()
        return int(self.tx.raw.execute("UPDATE task_leases SET expires_ms = ? WHERE owner = ?",
                                       (expires_ms, owner)).rowcount)

    def release(self, task_id: int) -> None:
        self.tx.core.check_writable()
        self.tx.raw.execute("DELETE FROM task_leases WHERE task_id = ?", (task_id,))

    def owned(self, owner: str) -> list[int]:
        """The tasks `owner` holds leases on."""
        return [int(r[0]) for r in self.tx.raw.execute("SELECT task_id FROM task_leases WHERE owner = ?", (owner,))]

    def forget_expired(self, now_ms: int) -> None:
        """Drops every expired lease (those of tasks deleted while their holder was gone)."""
        self.tx.core.check_writable()
        self.tx.raw.execute("DELETE FROM task_leases WHERE expires_ms < ?", (now_ms,))

    def unfinished(self, statuses: Sequence[str]) -> list[tuple[int, str, str | None, int | None]]:
        """(id, status, lease owner, lease expiry) of the tasks in one of `statuses`, owner
        and expiry None for a task without a lease: what deciding which are stale needs."""
        marks = ", ".join("?" for _ in statuses)
        rows = self.tx.raw.execute(
            f"SELECT t.id, t.status, l.owner, l.expires_ms FROM tasks t LEFT JOIN task_leases l ON l.task_id = t.id "
            f"WHERE t.status IN ({marks}) ORDER BY t.id",
            tuple(statuses),
        )
        return [(int(i), str(s), o, None if e is None else int(e)) for i, s, o, e in rows]

    def statuses(self, owner: str) -> list[tuple[int, str | None]]:
        """(id, status) of the tasks `owner` holds, status None for a task whose record is
        gone: how a holder learns that another process cancelled or deleted one."""
        rows = self.tx.raw.execute(
            "SELECT l.task_id, t.status FROM task_leases l LEFT JOIN tasks t ON t.id = l.task_id WHERE l.owner = ?",
            (owner,))
        return [(int(i), None if s is None else str(s)) for i, s in rows]
