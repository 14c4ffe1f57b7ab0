"""Auth records and revoked tokens in a store's own tables (`tables.auth_records`, `auth_revoked`).

Storage knows nothing of users or permissions: a record is a kind (`user`, `group`, ...),
a text id, an optional unique name and an opaque JSON body, which the engine's
`gremlin_engine.auth` gives meaning to. `AuthTable` wraps one open transaction, so a
check and its write (a duplicate name, a belong whose user must exist) share one snapshot
and one commit. A `generation` counter, bumped by every write, lets a server notice changes
made by another process (`hugelite users` on the store it serves) with one keyed read.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from storage.errors import StoreConflict
from storage.tables import AUTH_TABLES, metadata
from storage.tx import Tx

#: the kind of the one row counting writes (never listed as a record)
GENERATION_KIND = "~generation"

_BUMP = ("INSERT INTO auth_records (kind, id, name, body) VALUES (?, '', NULL, '1') "
         "ON CONFLICT (kind, id) DO UPDATE SET body = CAST(CAST({t}body AS INTEGER) + 1 AS TEXT)")
#: per dialect (PostgreSQL names the table's own column in an upsert's SET)
BUMP = {False: _BUMP.format(t=""), True: _BUMP.format(t="auth_records.")}
REVOKE = {False: "INSERT OR REPLACE INTO auth_revoked (digest, exp) VALUES (?, ?)",
          True: "INSERT INTO auth_revoked (digest, exp) VALUES (?, ?) ON CONFLICT (digest) DO UPDATE SET exp = excluded.exp"}
#: creation order: SQLite's rowid, PostgreSQL's `seq` column (`tables.auth_records`)
ORDER = {False: "rowid", True: "seq"}


def ensure_auth_tables(tx: Tx) -> None:
    """Creates the auth tables in a store initialised before they existed (idempotent)."""
    tx.core.check_writable()
    metadata.create_all(tx.conn, tables=list(AUTH_TABLES))


class AuthTable:
    """The auth records of one transaction (`with store.write() as tx: AuthTable(tx)`)."""

    __slots__ = ("tx",)

    def __init__(self, tx: Tx) -> None:
        self.tx = tx

    def present(self) -> bool:
        """Whether the store has the auth tables (False: `ensure_auth_tables` first)."""
        if self.tx.dialect.pg:
            return self.tx.core.scalar("SELECT to_regclass('auth_records') IS NOT NULL") is True
        return self.tx.core.one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'auth_records'") is not None

    # ---- records ---------------------------------------------------------------------
    def get(self, kind: str, id: str) -> str | None:
        """The body of record `id`, or None."""
        value = self.tx.core.scalar("SELECT body FROM auth_records WHERE kind = ? AND id = ?", (kind, id))
        return None if value is None else str(value)

    def find(self, kind: str, name: str) -> tuple[str, str] | None:
        """(id, body) of the record named `name`, or None."""
        row = self.tx.core.one("SELECT id, body FROM auth_records WHERE kind = ? AND name = ?", (kind, name))
        return None if row is None else (str(row[0]), str(row[1]))

    def list(self, kind: str, limit: int | None = None) -> list[tuple[str, str]]:
        """(id, body) of every record of `kind` in creation order, at most `limit`."""
        sql = f"SELECT id, body FROM auth_records WHERE kind = ? ORDER BY {ORDER[self.tx.dialect.pg]}"
        params: tuple[Any, ...] = (kind,)
        if limit is not None and limit >= 0:
            sql += " LIMIT ?"
            params = (kind, limit)
        return [(str(i), str(b)) for i, b in self.tx.core.all(sql, params)]

    def insert(self, kind: str, id: str, name: str | None, body: str) -> None:
        """Adds a record; a second record with the same id, or the same name, is a
        `StoreConflict`."""
        self.tx.core.check_writable()
        sql = "INSERT INTO auth_records (kind, id, name, body) VALUES (?, ?, ?, ?)"
        if self.tx.dialect.pg:  # a refused row must not end the transaction there
            if self.tx.raw.execute(sql + " ON CONFLICT DO NOTHING", (kind, id, name, body)).rowcount == 0:
                raise StoreConflict(f"{kind} '{id}' already exists")
            self._bump()
            return
        try:
            self.tx.raw.execute(sql, (kind, id, name, body))
        except sqlite3.IntegrityError:
            raise StoreConflict(f"{kind} '{id}' already exists") from None
        self._bump()

    def update(self, kind: str, id: str, body: str) -> bool:
        self.tx.core.check_writable()
        done = self.tx.raw.execute("UPDATE auth_records SET body = ? WHERE kind = ? AND id = ?",
                                   (body, kind, id)).rowcount > 0
        if done:
            self._bump()
        return done

    def delete(self, kind: str, id: str) -> bool:
        self.tx.core.check_writable()
        done = self.tx.raw.execute("DELETE FROM auth_records WHERE kind = ? AND id = ?", (kind, id)).rowcount > 0
        if done:
            self._bump()
        return done

    def generation(self) -> int:
        """How many writes the records have had (0 for none)."""
        value = self.tx.core.scalar("SELECT body FROM auth_records WHERE kind = ? AND id = ''", (GENERATION_KIND,))
        return 0 if value is None else int(value)

    def _bump(self) -> None:
        self.tx.raw.execute(BUMP[self.tx.dialect.pg], (GENERATION_KIND,))

    # ---- revoked tokens --------------------------------------------------------------
    def revoke(self, digest: str, exp: int) -> None:
        """Records a logged-out token (its digest) until `exp` (epoch seconds)."""
        self.tx.core.check_writable()
        self.tx.raw.execute(REVOKE[self.tx.dialect.pg], (digest, exp))

    def forget_revoked(self, now: int) -> None:
        self.tx.core.check_writable()
        self.tx.raw.execute("DELETE FROM auth_revoked WHERE exp < ?", (now,))

    def revoked(self, digest: str) -> bool:
        return self.tx.core.one("SELECT 1 FROM auth_revoked WHERE digest = ?", (digest,)) is not None
