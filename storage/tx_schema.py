"""Store metadata and the schema catalogue (property keys, vertex/edge/index labels).

Schema bodies are opaque JSON text written by the engine; storage only keeps the numeric
id and the name unique per kind, and hands out ids from a per-kind counter that never
reuses the id of a deleted schema element.
"""

from __future__ import annotations

from typing import Any

from storage.errors import StoreError
from storage.rows import SchemaRow, make_schema
from storage.tables import SCHEMA_KINDS
from storage.tx_base import DRIVER_ERRORS, TxCore, translate
from storage.values import encode

_SCHEMA_COLS = "id, name, body"
_PUT = (
    "INSERT INTO schema_items (kind, id, name, body) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (kind, id) DO UPDATE SET name = excluded.name, body = excluded.body"
)
_SEQ_RAISE = (
    "INSERT INTO schema_seq (kind, last_id) VALUES (?, ?) "
    "ON CONFLICT (kind) DO UPDATE SET last_id = max(last_id, excluded.last_id)"
)
#: PostgreSQL's words for the same (``greatest``; the target table named)
_PG_SEQ_RAISE = (
    "INSERT INTO schema_seq (kind, last_id) VALUES (?, ?) "
    "ON CONFLICT (kind) DO UPDATE SET last_id = greatest(schema_seq.last_id, excluded.last_id)"
)
_PG_SEQ_NEXT = (
    "INSERT INTO schema_seq (kind, last_id) VALUES (?, 1) "
    "ON CONFLICT (kind) DO UPDATE SET last_id = schema_seq.last_id + 1 RETURNING last_id"
)
_SEQ_NEXT = (
    "INSERT INTO schema_seq (kind, last_id) VALUES (?, 1) "
    "ON CONFLICT (kind) DO UPDATE SET last_id = last_id + 1 RETURNING last_id"
)


def _kind(kind: str) -> str:
    if kind not in SCHEMA_KINDS:
        raise StoreError(f"unknown schema kind {kind!r}: one of {sorted(SCHEMA_KINDS)}")
    return kind


class Schema:
    __slots__ = ("core", "raw", "pg")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw
        self.pg = core.dialect.pg

    # ---- meta ----------------------------------------------------------------------------
    def meta_get(self, key: str) -> str | None:
        value = self.core.scalar("SELECT value FROM meta WHERE key = ?", (key,))
        return None if value is None else str(value)

    def meta_set(self, key: str, value: str) -> None:
        self.core.check_writable()
        self.raw.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, str(value)),
        )

    # ---- schema --------------------------------------------------------------------------
    def schema_list(self, kind: str) -> list[SchemaRow]:
        """Every schema element of a kind, in id order."""
        sql = f"SELECT {_SCHEMA_COLS} FROM schema_items WHERE kind = ? ORDER BY id"
        return [make_schema(r) for r in self.raw.execute(sql, (_kind(kind),))]

    def schema_get(self, kind: str, name: str) -> SchemaRow | None:
        row = self.core.one(f"SELECT {_SCHEMA_COLS} FROM schema_items WHERE kind = ? AND name = ?", (_kind(kind), name))
        return None if row is None else make_schema(row)

    def schema_get_id(self, kind: str, id: int) -> SchemaRow | None:
        row = self.core.one(f"SELECT {_SCHEMA_COLS} FROM schema_items WHERE kind = ? AND id = ?", (_kind(kind), id))
        return None if row is None else make_schema(row)

    def schema_put(self, kind: str, id: int, name: str, body_json: Any) -> None:
        """Insert or replace the schema element `id` of `kind`. A name already used by another
        element of the same kind raises `StoreConflict`."""
        self.core.check_writable()
        what = f"{kind} {name!r} (id {id}) conflicts with an existing name"
        if self.pg:  # a refused statement would end the transaction: a savepoint keeps it
            self.core.savepoint_many(_PUT, [(_kind(kind), int(id), name, encode(body_json))], what)
            self.raw.execute(_PG_SEQ_RAISE, (kind, int(id)))
            return
        try:
            self.raw.execute(_PUT, (_kind(kind), int(id), name, body_json))
        except DRIVER_ERRORS as exc:
            raise translate(exc, what) from exc
        self.raw.execute(_SEQ_RAISE, (kind, int(id)))

    def schema_delete(self, kind: str, id: int) -> bool:
        self.core.check_writable()
        return self.raw.execute("DELETE FROM schema_items WHERE kind = ? AND id = ?", (_kind(kind), id)).rowcount > 0

    def schema_next_id(self, kind: str) -> int:
        """Reserve and return the next id of a kind: 1, 2, 3... (never one in use or deleted)."""
        self.core.check_writable()
        return int(self.core.scalar(_PG_SEQ_NEXT if self.pg else _SEQ_NEXT, (_kind(kind),)))
