"""Fixtures for the storage tests: real SQLite stores, in memory and in files under tmp_path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import Store, open_store


@pytest.fixture(params=["memory", "file"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An initialised store of each backend."""
    s = open_store(None if request.param == "memory" else tmp_path / "graph.db")
    s.initialise()
    yield s
    s.close()


@pytest.fixture
def file_store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(tmp_path / "graph.db")
    s.initialise()
    yield s
    s.close()


@pytest.fixture
def memory_store() -> Iterator[Store]:
    s = open_store(":memory:")
    s.initialise()
    yield s
    s.close()
