"""Fixtures: the schema tests' real memory graph (tasks run schema jobs on the same kind of
graph), shared from `tests/schema/conftest.py` rather than written again."""

from __future__ import annotations

from tests.schema.conftest import graph, registry

__all__ = ["graph", "registry"]
