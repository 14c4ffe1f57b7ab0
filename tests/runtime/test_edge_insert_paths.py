"""`Elements.edges_insert(rows)` of two rows or more goes in without a savepoint, skipping taken
parts (`unique_parts=True`) or taken ids (auto mode), and undoes itself on a shortfall; a
single row keeps the savepoint.
Both must raise `StoreConflict` for a taken edge and leave nothing behind: no row, no index
entry touched, the key sequence as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage import IndexQuery, Lookup, MissingEndpoint, StoreConflict, open_store


@pytest.fixture
def store(tmp_path: Path) -> Any:
    st = open_store(str(tmp_path / "edges.db"))
    st.initialise()
    with st.write() as tx:
        tx.elements.vertices_insert([(f"v{i}", 1, "{}") for i in range(6)])
        tx.elements.edges_insert([("old", 1, 1, 2, "", "{}")], unique_parts=True)  # parts (1, 1, '', 2)
        tx.elements.edges_insert([("auto", 1, 3, 4, "", "{}")])  # id-identified: dup = key
    yield st
    st.close()


def _insert(store: Any, rows: list[tuple[Any, ...]], unique_parts: bool = True) -> tuple[list[int], list[str]]:
    """The keys a batch got and the statements it ran (a parts-identified batch unless told)."""
    seen: list[str] = []
    with store.write() as tx:
        tx.raw.set_trace_callback(seen.append)
        try:
            keys = tx.elements.edges_insert(rows, unique_parts=unique_parts)
        finally:
            tx.raw.set_trace_callback(None)
    return keys, seen


def _rows(store: Any) -> list[tuple[Any, ...]]:
    with store.read() as tx:
        return tx.raw.execute("SELECT key, id, label_id, out_key, in_key, sort_values, dup, props FROM edges ORDER BY key").fetchall()


def test_fresh_batch_goes_in_without_a_savepoint(store: Any) -> None:
    before = _rows(store)
    rows = [("a", 1, 2, 3, "", '{"w":1}'), ("b", 1, 3, 4, "", "{}"), ("c", 2, 1, 2, "", "{}")]
    keys, seen = _insert(store, rows)
    assert not [s for s in seen if "SAVEPOINT" in s]
    after = _rows(store)
    assert after[: len(before)] == before
    assert after[len(before):] == [(k, i, lb, o, n, s, 0, p) for k, (i, lb, o, n, s, p) in zip(keys, rows, strict=True)]


@pytest.mark.parametrize("rows", [
    [("a", 1, 2, 3, "", "{}"), ("x", 1, 1, 2, "", "{}")],  # the second is taken: probe
    [("a", 1, 2, 3, "", "{}"), ("b", 1, 2, 3, "", "{}")],  # repeated parts: savepoint
    [("a", 1, 2, 3, "s", "{}"), ("x", 1, 1, 2, "", "{}")],  # sort values: savepoint
])
def test_a_taken_edge_conflicts_and_leaves_nothing(store: Any, rows: list[tuple[Any, ...]]) -> None:
    before = _rows(store)
    with pytest.raises(StoreConflict):
        _insert(store, rows)
    assert _rows(store) == before
    with store.write() as tx:  # the keys were not used up either
        assert tx.elements.edges_insert([("z", 3, 5, 6, "", "{}")], unique_parts=True) == [before[-1][0] + 1]


def test_parts_of_an_id_identified_edge_are_free(store: Any) -> None:
    keys, seen = _insert(store, [("p", 1, 3, 4, "", "{}"), ("q", 1, 4, 3, "", "{}")])  # (3, 1, '', 4) is "auto"'s
    assert len(keys) == 2 and not [s for s in seen if "SAVEPOINT" in s]


def test_sort_values_go_in_alike_and_single_rows_keep_the_savepoint(store: Any) -> None:
    _keys, seen = _insert(store, [("s1", 1, 2, 3, "x", "{}"), ("s2", 1, 3, 2, "x", "{}")])
    assert not [s for s in seen if "SAVEPOINT" in s]
    with pytest.raises(StoreConflict):
        _insert(store, [("s3", 1, 4, 5, "x", "{}"), ("s1again", 1, 2, 3, "x", "{}")])
    _keys, seen = _insert(store, [("one", 1, 5, 6, "", "{}")])
    assert [s for s in seen if "SAVEPOINT" in s]


def test_undo_keeps_index_entries_and_an_absent_sequence(tmp_path: Path) -> None:
    st = open_store(str(tmp_path / "fresh.db"))
    st.initialise()
    try:
        with st.write() as tx:
            tx.elements.vertices_insert([(f"v{i}", 1, "{}") for i in range(3)])
            tx.index.index_add_many([(7, "x", 1, "v")])
            assert tx.raw.execute("SELECT seq FROM sqlite_sequence WHERE name = 'edges'").fetchone() is None
            with pytest.raises(StoreConflict):
                tx.elements.edges_insert([("a", 1, 1, 2, "", "{}"), ("b", 1, 2, 3, "", "{}"), ("a2", 1, 1, 2, "", "{}")],
                                unique_parts=True)
            assert tx.elements.edge_count() == 0
            assert tx.raw.execute("SELECT seq FROM sqlite_sequence WHERE name = 'edges'").fetchone() is None
            assert tx.index.read(IndexQuery(7), ["x"]) == [1]
            assert tx.elements.edges_insert([("c", 1, 1, 3, "", "{}"), ("d", 1, 3, 1, "", "{}")], unique_parts=True) == [1, 2]
    finally:
        st.close()


def test_a_missing_end_vertex_is_refused_first(store: Any) -> None:
    before = _rows(store)
    with pytest.raises(MissingEndpoint):
        _insert(store, [("a", 1, 2, 3, "", "{}"), ("b", 1, 2, 99, "", "{}")])
    assert _rows(store) == before


def test_vertex_batches_undo_a_taken_id(tmp_path: Path) -> None:
    st = open_store(str(tmp_path / "v.db"))
    st.initialise()
    try:
        with st.write() as tx:
            assert tx.elements.vertices_insert([("a", 1, "{}"), ("b", 1, "{}")]) == [1, 2]
            seen: list[str] = []
            tx.raw.set_trace_callback(seen.append)
            assert tx.elements.vertices_insert([("c", 1, "{}"), (None, 2, "{}")]) == [3, 4]  # None: id = key
            tx.raw.set_trace_callback(None)
            assert not [s for s in seen if "SAVEPOINT" in s]
            tx.index.index_add_many([(5, "x", 1, "v")])
            before = tx.raw.execute("SELECT * FROM vertices ORDER BY key").fetchall()
            for rows in ([("d", 1, "{}"), ("a", 1, "{}")], [("e", 1, "{}"), ("e", 2, "{}")], [("f", 1, "{}"), (4, 1, "{}")]):
                with pytest.raises(StoreConflict):
                    tx.elements.vertices_insert(rows)
                assert tx.raw.execute("SELECT * FROM vertices ORDER BY key").fetchall() == before
            assert tx.index.read(IndexQuery(5), ["x"]) == [1]
            assert tx.elements.vertices_insert([(None, 1, "{}"), ("g", 1, "{}")]) == [5, 6]  # the keys were not used up
            assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_KEYS, [5])] == [5]
    finally:
        st.close()


def _insert_auto(store: Any, rows: list[tuple[Any, ...]]) -> tuple[list[int], list[str]]:
    """An auto-mode (id-identified) batch: dup is each row's key, ids are unique."""
    return _insert(store, rows, unique_parts=False)


def test_an_id_identified_batch_goes_in_without_a_savepoint(store: Any) -> None:
    before = _rows(store)
    rows = [("m1", 1, 1, 2, "", "{}"), ("m2", 1, 1, 2, "", "{}")]  # parallel edges: both kept
    keys, seen = _insert_auto(store, rows)
    assert not [s for s in seen if "SAVEPOINT" in s]
    assert _rows(store)[len(before):] == [(k, i, lb, o, n, s, k, p) for k, (i, lb, o, n, s, p) in zip(keys, rows, strict=True)]


@pytest.mark.parametrize("rows", [
    [("m1", 1, 1, 2, "", "{}"), ("auto", 1, 2, 3, "", "{}")],  # "auto" is taken
    [("m1", 1, 1, 2, "", "{}"), ("m1", 1, 2, 3, "", "{}")],  # the same id twice in the batch
])
def test_a_taken_edge_id_conflicts_and_leaves_nothing(store: Any, rows: list[tuple[Any, ...]]) -> None:
    before = _rows(store)
    with pytest.raises(StoreConflict, match="UNIQUE constraint failed: edges.id"):
        _insert_auto(store, rows)
    assert _rows(store) == before
    with store.write() as tx:  # the keys were not used up either
        assert tx.elements.edges_insert([("z", 3, 5, 6, "", "{}")]) == [before[-1][0] + 1]
