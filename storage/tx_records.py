"""Graph variables and persistent task records.

Tasks have real columns (see `tables.tasks`) so listing by status is an index range. The
statements here are built with SQLAlchemy Core: field sets vary per call and these paths are
cold, so readability wins; Core caches the compiled form per column set anyway.
`dependencies` is a list of task ids in and out, stored as JSON text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update

from storage.errors import StoreError
from storage.tables import TASK_FIELDS, tasks
from storage.tx_base import TxCore
from storage.values import encode

_TASK_FIELD_SET = frozenset(TASK_FIELDS)


def _task_values(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - _TASK_FIELD_SET
    if unknown:
        raise StoreError(f"unknown task fields {sorted(unknown)}: known are {list(TASK_FIELDS)}")
    values = dict(fields)
    deps = values.get("dependencies")
    if deps is not None and not isinstance(deps, str):
        values["dependencies"] = json.dumps(list(deps))
    return values


def _task_dict(row: Any) -> dict[str, Any]:
    record = dict(row._mapping)
    deps = record.get("dependencies")
    record["dependencies"] = json.loads(deps) if deps else []
    return record


class Records:
    __slots__ = ("core", "raw")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw

    # ---- graph variables -----------------------------------------------------------------
    def var_get(self, name: str) -> Any:
        """The stored value, or None when the variable does not exist."""
        return self.core.scalar("SELECT value FROM variables WHERE name = ?", (name,))  # decoded on PostgreSQL

    def var_put(self, name: str, value: Any) -> None:
        self.core.check_writable()
        self.raw.execute(
            "INSERT INTO variables (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, encode(value) if self.core.dialect.pg else value),
        )

    def var_delete(self, name: str) -> bool:
        self.core.check_writable()
        return self.raw.execute("DELETE FROM variables WHERE name = ?", (name,)).rowcount > 0

    def var_list(self) -> dict[str, Any]:
        """All variables by name, in name order."""
        return dict(self.raw.execute("SELECT name, value FROM variables ORDER BY name").fetchall())

    # ---- tasks ---------------------------------------------------------------------------
    def task_insert(self, fields: dict[str, Any]) -> int:
        """Insert a task record and return its new id (ids are never reused)."""
        self.core.check_writable()
        result = self.core.core_execute(insert(tasks).values(**_task_values(fields)))
        return int(result.inserted_primary_key[0])  # type: ignore[index]

    def task_update(self, id: int, fields: dict[str, Any]) -> bool:
        self.core.check_writable()
        if not fields:
            return self.task_get(id) is not None
        result = self.core.core_execute(update(tasks).where(tasks.c.id == id).values(**_task_values(fields)))
        return result.rowcount > 0

    def task_get(self, id: int) -> dict[str, Any] | None:
        row = self.core.core_execute(select(tasks).where(tasks.c.id == id)).first()
        return None if row is None else _task_dict(row)

    def task_list(
        self, status: str | Sequence[str] | None = None, limit: int | None = None, after_id: int | None = None
    ) -> list[dict[str, Any]]:
        """Tasks in id order, optionally of one status (or any of several), after an id."""
        stmt = select(tasks).order_by(tasks.c.id)
        if isinstance(status, str):
            stmt = stmt.where(tasks.c.status == status)
        elif status is not None:
            stmt = stmt.where(tasks.c.status.in_(list(status)))
        if after_id is not None:
            stmt = stmt.where(tasks.c.id > after_id)
        if limit is not None:
            stmt = stmt.limit(limit)
        return [_task_dict(r) for r in self.core.core_execute(stmt)]

    def task_delete(self, id: int) -> bool:
        self.core.check_writable()
        return self.core.core_execute(delete(tasks).where(tasks.c.id == id)).rowcount > 0
