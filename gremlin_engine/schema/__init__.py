"""Schema: the model (`model.py`), the per-graph service (`service.py`) and the Gremlin schema
DSL (`dsl.py`). See docs/internals.md for how the runtime and REST use it.

`SchemaService` is imported on first use (PEP 562 `__getattr__`): the runtime imports
`schema.model` and `schema.coercion` for every query, and importing this package must not
pull the service with its change, family and auto-schema modules into a process that only
reads (`bench/memory_phases.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gremlin_engine.schema.service import SchemaService

__all__ = ["SchemaService"]


def __getattr__(name: str) -> Any:
    if name == "SchemaService":
        from gremlin_engine.schema.service import SchemaService

        return SchemaService
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
