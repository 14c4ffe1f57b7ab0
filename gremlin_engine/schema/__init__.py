"""Schema: the model (`model.py`), the per-graph service (`service.py`) and the Gremlin schema
DSL (`dsl.py`). See docs/internals.md for how the runtime and REST use it."""

from gremlin_engine.schema.service import SchemaService

__all__ = ["SchemaService"]
