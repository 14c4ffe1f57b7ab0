"""A file store's connections leave ``temp_store`` at SQLite's default (its sorter keeps
records in one buffer and spills past the page cache; MEMORY mallocs each record and made
group counts ~25% slower), a memory store keeps MEMORY; and a group count whose sort
needs the sorter answers the same on both (`storage/engine.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.store import open_store


@pytest.mark.parametrize(("where", "expected"), [("file", 0), ("memory", 2)])
def test_temp_store_per_store_kind(tmp_path: Path, where: str, expected: int) -> None:
    store = open_store(tmp_path / "g.db" if where == "file" else None)
    try:
        with store.read() as tx:
            assert tx.raw.execute("PRAGMA temp_store").fetchone()[0] == expected
            assert tx.raw.execute("PRAGMA cache_size").fetchone()[0] == -32768
    finally:
        store.close()


def test_group_sort_spills_nothing_small_and_answers(tmp_path: Path) -> None:
    """A GROUP BY over 20k rows through the sorter: counts and first-row order exact."""
    store = open_store(tmp_path / "g.db")
    try:
        with store.read() as tx:
            rows = tx.raw.execute(
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19999) "
                "SELECT i % 7, count(*), min(i) AS first FROM n GROUP BY 1 ORDER BY first"
            ).fetchall()
        assert rows == [(r, len(range(r, 20000, 7)), r) for r in range(7)]
    finally:
        store.close()
