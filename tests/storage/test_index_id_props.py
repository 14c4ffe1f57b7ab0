"""`Tx.index_id_props`: one equality lookup narrowed to one vertex label gives exactly the
(id, props) of `index_rows(index_id, [value])` with that label, in key order, from the
index alone (no sort of the joined rows)."""

from __future__ import annotations

import pytest

INDEX, OTHER_INDEX = 5, 6
PERSON, THING = 1, 2


@pytest.fixture
def indexed(store):
    """Ten vertices of two labels; index 5 holds value 'x' for most of them (in an order
    unlike their keys), 'y' for one; index 6 holds 'x' for one more."""
    with store.write() as tx:
        keys = tx.vertices_insert([(i if i % 3 else f"s{i}", PERSON if i % 2 else THING, f'{{"n":{i}}}'.encode())
                                   for i in range(10)])
        tx.index_add_many([(INDEX, "x", k, "v") for k in reversed(keys[:8])])
        tx.index_add_many([(INDEX, "y", keys[8], "v"), (OTHER_INDEX, "x", keys[9], "v")])
    return store, keys


def test_equals_index_rows_of_the_label(indexed) -> None:
    store, _keys = indexed
    with store.read() as tx:
        for value in ("x", "y", "z", 1):
            for label in (PERSON, THING, 99):
                want = [(r.id, r.props) for r in tx.index_rows(INDEX, [value]) if r.label_id == label]
                assert tx.index_id_props(INDEX, value, label) == want, (value, label)
        got = tx.index_id_props(INDEX, "x", PERSON)
        assert [i for i, _p in got] == [1, "s3", 5, 7]  # key order, not the entries' order
        assert [type(i) for i, _p in tx.index_id_props(INDEX, "x", THING)] == [str, int, int, str]


def test_the_lookup_is_one_index_range_without_a_sort(file_store) -> None:
    with file_store.write() as tx:
        (k,) = tx.vertices_insert([(1, PERSON, None)])
        tx.index_add(INDEX, "x", k)
    with file_store.read() as tx:
        from storage.tx_point import _INDEX_ID_PROPS

        plan = [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + _INDEX_ID_PROPS, (INDEX, "x", PERSON))]
        assert tx.index_id_props(INDEX, "x", PERSON) == [(1, None)]
    assert any(ln.startswith("SEARCH ie USING PRIMARY KEY (index_id=? AND value=?)") for ln in plan), plan
    assert any(ln.startswith("SEARCH v USING INTEGER PRIMARY KEY (rowid=?)") for ln in plan), plan
    assert not any(ln.startswith("SCAN") or "TEMP B-TREE" in ln for ln in plan), plan
