"""Fixtures for the traversal unit tests: a fresh in-memory modern graph and a `q()` helper
that runs a traversal written as IR-building calls."""

from __future__ import annotations

import pytest

from .memory_access import MemoryGraph, modern


@pytest.fixture
def graph() -> MemoryGraph:
    return modern()
