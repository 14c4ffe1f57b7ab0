"""Creating, changing and removing schema (filled in by the full service)."""

from __future__ import annotations

from typing import Any

from gremlin_engine.schema import validation


class SchemaChanges:
    """Mixin of `SchemaService` holding every schema change."""

    @staticmethod
    def check_name(name: Any) -> str:
        return validation.check_name(name)

    @staticmethod
    def new_user_data(user_data: Any) -> dict[str, Any]:
        return validation.new_user_data(user_data)
