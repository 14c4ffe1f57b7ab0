"""What differs between the two dialects a store runs on, in one place: SQLite (a file or
memory) and PostgreSQL (a server URL).

* **Locations.** `is_server_url` tells a PostgreSQL URL (``postgresql[+driver]://...``) from a
  SQLite path.
* **Values.** PostgreSQL stores untyped values as order-preserving ``BYTEA`` (`values`); the
  driver's bytea loader is replaced on every connection (`register_loaders`) so that every
  read, raw SQL included, gets int / float / str / bytes back, as from SQLite.
* **Triggers.** SQLite's row triggers (`tables.TRIGGERS`) are statement triggers with
  transition tables here (`PG_TRIGGERS`): one ``DELETE ... IN (SELECT key FROM old_rows)``
  per statement instead of one per deleted row.
* **Statements.** The hot-path SQL of `storage` is written once, in SQLite's words, with
  ``?`` / ``?N`` parameters; `pg_sql` renders a text for psycopg (``%s`` / ``%(N)s``,
  ``%`` doubled), once per text (`lru_cache`). Where the two dialects need different SQL
  (tuples in JSON arrays, the key sequence, upserts that name their table, the ORDER BY a
  PostgreSQL plan needs where SQLite's loop order gives it), the statement builders state
  both forms; `pg_sql` rewrites the few spellings that differ
  only in words (``INDEXED BY`` dropped, ``CROSS JOIN ... ON`` -> ``JOIN ... ON``, ``INSERT
  OR IGNORE`` -> ``ON CONFLICT DO NOTHING``, ``json_each(?)`` over integer keys -> the same
  table from ``json_array_elements_text ... WITH ORDINALITY``, ``WHERE 1 AND``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

PG_SCHEMES = ("postgresql", "postgres")


def is_server_url(location: object) -> bool:
    """Whether `location` names a database server (a PostgreSQL SQLAlchemy URL) rather than
    a SQLite file path (or None / ":memory:")."""
    if not isinstance(location, str):
        return False
    scheme, sep, _rest = location.partition("://")
    return bool(sep) and scheme.split("+", 1)[0].lower() in PG_SCHEMES


# ---- triggers ------------------------------------------------------------------------------
_PG_VERTICES_DELETED = """
CREATE OR REPLACE FUNCTION hl_vertices_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM index_entries WHERE elem_kind = 'v' AND elem_key IN (SELECT key FROM old_rows);
  DELETE FROM edges WHERE out_key IN (SELECT key FROM old_rows);
  DELETE FROM edges WHERE in_key IN (SELECT key FROM old_rows);
  RETURN NULL;
END $$
"""
_PG_EDGES_DELETED = """
CREATE OR REPLACE FUNCTION hl_edges_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM index_entries WHERE elem_kind = 'e' AND elem_key IN (SELECT key FROM old_rows);
  RETURN NULL;
END $$
"""
#: (table, DDL) run after the table is created on PostgreSQL: what `tables.TRIGGERS` do on
#: SQLite (a deleted vertex takes its edges, a deleted element its index entries)
PG_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("vertices", _PG_VERTICES_DELETED),
    ("vertices", "CREATE TRIGGER tr_vertices_deleted AFTER DELETE ON vertices REFERENCING OLD TABLE AS old_rows "
                 "FOR EACH STATEMENT EXECUTE FUNCTION hl_vertices_deleted()"),
    ("edges", _PG_EDGES_DELETED),
    ("edges", "CREATE TRIGGER tr_edges_deleted AFTER DELETE ON edges REFERENCING OLD TABLE AS old_rows "
              "FOR EACH STATEMENT EXECUTE FUNCTION hl_edges_deleted()"),
)


# ---- statements ----------------------------------------------------------------------------
_PARAM = re.compile(r"'(?:[^']|'')*'|\?(\d*)|%")


#: ``json_each(?)`` over a JSON array of integer keys (every use left in the shared texts;
#: arrays of tuples have statements of their own per dialect)
_JSON_EACH = re.compile(r"json_each\((\?\d*)\)( AS \w+)?")


def _keys_table(m: re.Match[str]) -> str:
    return (f"(SELECT j.value::bigint AS value, j.n - 1 AS key FROM json_array_elements_text(CAST({m.group(1)} AS json)) "
            f"WITH ORDINALITY AS j(value, n)){m.group(2) or ' AS keys'}")


@lru_cache(maxsize=2048)
def pg_sql(sql: str) -> tuple[str, bool]:
    """(psycopg text of the SQLite-worded `sql`, whether it takes named parameters): ``?``
    becomes ``%s``, ``?N`` ``%(N)s`` (bind with `named`), a literal ``%`` ``%%``; quoted
    strings are left alone. Rewrites the SQLite-only spellings the shared texts use."""
    numbered = False

    def swap(m: re.Match[str]) -> str:
        nonlocal numbered
        token = m.group(0)
        if token.startswith("'"):
            return token
        if token == "%":
            return "%%"
        if m.group(1):
            numbered = True
            return f"%(p{m.group(1)})s"
        return "%s"

    text = _JSON_EACH.sub(_keys_table, sql)
    text = _PARAM.sub(swap, text)
    text = re.sub(r" INDEXED BY \w+", "", text)
    text = text.replace(" WHERE 1 AND ", " WHERE ")
    # SQLite's CROSS JOIN ... ON pins the loop order; PostgreSQL spells an inner join JOIN
    text = re.sub(r" CROSS JOIN (\w+ AS \w+) ON ", r" JOIN \1 ON ", text)
    if text.startswith("INSERT OR IGNORE INTO"):
        text = "INSERT INTO" + text[len("INSERT OR IGNORE INTO"):] + " ON CONFLICT DO NOTHING"
    return text, numbered


def named(params: Any) -> dict[str, Any]:
    """Positional parameters as the mapping a ``%(pN)s`` text binds."""
    return {f"p{i}": v for i, v in enumerate(params, start=1)}


class Dialect:
    """A store's SQL dialect (`SQLITE`, `POSTGRESQL`): `TxCore.dialect`, which the
    transaction families read to pick a statement's form (``.pg``)."""

    __slots__ = ("name", "pg")

    def __init__(self, name: str) -> None:
        self.name = name
        self.pg = name == "postgresql"

    def __repr__(self) -> str:
        return f"<storage.Dialect {self.name}>"


SQLITE = Dialect("sqlite")
POSTGRESQL = Dialect("postgresql")
