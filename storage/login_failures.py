"""Failed logins, per key, in the store every server process shares (`serve --workers N`).

The REST layer's login throttle (`rest_adapter/login_throttle.py`) slows a key (`user:<name>`,
`address:<ip>`) after repeated failures. Counted in each process's memory, `--workers N`
gave a client N times the attempts; counted here, in the store that holds the auth records,
every process reads and moves the same count. Storage knows no rule: a row is a key, its
failure count, the wall-clock time before which an attempt on it waits, and its last
failure's time (epoch seconds; wall clock, not monotonic, since the processes may be on
different machines when the store is a PostgreSQL server).

``login_failures(key PK, failures, next_allowed, last_failure)`` lives in its own table,
created when missing (`ensure_login_failures`), so neither the auth tables nor the store
version change. A failure is counted by one upsert whose RETURNING gives the count it left:
the row stays locked until the transaction ends (PostgreSQL), or the whole store is
(SQLite's one writer), so two processes counting at once each see the other's failure.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Column, Double, Index, Integer, MetaData, Table, Text

from storage.tx import Tx

failure_metadata = MetaData()

login_failures = Table(
    "login_failures",
    failure_metadata,
    Column("key", Text, primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("next_allowed", Double, nullable=False),
    Column("last_failure", Double, nullable=False),
)
#: forgetting and trimming go oldest failure first (the key breaks ties)
Index("ix_login_failures_last", login_failures.c.last_failure, login_failures.c.key)

#: a key's first failure, or one more (both dialects take the table-qualified column)
_COUNT = ("INSERT INTO login_failures (key, failures, next_allowed, last_failure) VALUES (?, 1, 0, ?) "
          "ON CONFLICT (key) DO UPDATE SET failures = login_failures.failures + 1, "
          "last_failure = excluded.last_failure RETURNING failures, next_allowed")
#: a row still counts while it failed within the forget window or holds a delay
_LIVE = "(last_failure >= ? OR next_allowed > ?)"


def ensure_login_failures(tx: Tx) -> None:
    """Creates the table in a store that lacks it (idempotent; a write transaction)."""
    tx.core.check_writable()
    failure_metadata.create_all(tx.conn)  # checks first


class LoginFailures:
    """The failure rows of one transaction (`with store.write() as tx: LoginFailures(tx)`).
    `live_since` / `now` arguments leave out rows past the forget window whose delay is
    over: they are as good as gone, whether or not `forget` deleted them yet."""

    __slots__ = ("tx",)

    def __init__(self, tx: Tx) -> None:
        self.tx = tx

    def read(self, keys: Sequence[str], live_since: float, now: float) -> dict[str, tuple[int, float]]:
        """key -> (failures, next_allowed) of the live rows among `keys`."""
        if not keys:
            return {}
        marks = ", ".join("?" for _ in keys)
        rows = self.tx.core.all(f"SELECT key, failures, next_allowed FROM login_failures "
                                f"WHERE key IN ({marks}) AND {_LIVE}", (*keys, live_since, now))
        return {str(k): (int(f), float(n)) for k, f, n in rows}

    def keys(self, live_since: float, now: float) -> list[str]:
        """Every live key (a process's picture of who failed lately)."""
        return [str(r[0]) for r in self.tx.core.all(f"SELECT key FROM login_failures WHERE {_LIVE}",
                                                    (live_since, now))]

    def count(self, key: str, now: float) -> tuple[int, float]:
        """One more failure of `key` at `now`: (failures, next_allowed) as it leaves them.
        Call `forget` first in the same transaction, so a stale row starts again at 1."""
        self.tx.core.check_writable()
        failures, next_allowed = self.tx.raw.execute(_COUNT, (key, now)).fetchone()
        return int(failures), float(next_allowed)

    def hold(self, key: str, next_allowed: float) -> None:
        """Sets the time before which an attempt on `key` waits."""
        self.tx.core.check_writable()
        self.tx.raw.execute("UPDATE login_failures SET next_allowed = ? WHERE key = ?", (next_allowed, key))

    def clear(self, keys: Sequence[str]) -> None:
        self.tx.core.check_writable()
        if keys:
            marks = ", ".join("?" for _ in keys)
            self.tx.raw.execute(f"DELETE FROM login_failures WHERE key IN ({marks})", tuple(keys))

    def forget(self, live_since: float, now: float) -> None:
        """Deletes the rows that are no longer live."""
        self.tx.core.check_writable()
        self.tx.raw.execute("DELETE FROM login_failures WHERE last_failure < ? AND next_allowed <= ?",
                            (live_since, now))

    def trim(self, max_keys: int) -> None:
        """Keeps at most `max_keys` rows: the most recently failed."""
        self.tx.core.check_writable()
        cut = self.tx.core.one("SELECT last_failure, key FROM login_failures ORDER BY last_failure DESC, key DESC "
                               "LIMIT 1 OFFSET ?", (max_keys,))
        if cut is not None:
            self.tx.raw.execute("DELETE FROM login_failures WHERE (last_failure, key) <= (?, ?)", tuple(cut))

    def __len__(self) -> int:
        return int(self.tx.core.scalar("SELECT count(*) FROM login_failures"))
