"""Index entries: equality, ranges across type classes, removal, drop, cascades."""

from __future__ import annotations

import pytest

from storage import IndexProject, IndexQuery, StoreError


@pytest.fixture
def people(store):
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(f"p{i}", 1, None) for i in range(6)])
        ages = [29, 27, 32, 35, 27, 30.5]
        tx.index.index_add_many([(1, age, k, "v") for age, k in zip(ages, keys, strict=True)])
        tx.index.index_add(2, "marko", keys[0])
        tx.index.index_add(2, "vadas", keys[1])
        tx.index.index_add(2, "29", keys[2])  # a string that looks like a number
        tx.index.index_add(2, b"\x00bytes", keys[3])
    return store, keys


def test_index_eq(people) -> None:
    store, k = people
    with store.read() as tx:
        assert tx.index.read(IndexQuery(1), [27]) == [k[1], k[4]]
        assert tx.index.read(IndexQuery(1), [30.5, 29]) == [k[0], k[5]]  # value order
        assert tx.index.read(IndexQuery(1), [29.0]) == [k[0]]  # numbers compare numerically
        assert tx.index.read(IndexQuery(1), ["29"]) == []  # ...and never equal strings
        assert tx.index.read(IndexQuery(2), ["29"]) == [k[2]]
        assert tx.index.read(IndexQuery(2), [b"\x00bytes"]) == [k[3]]
        assert tx.index.read(IndexQuery(1, limit=2), [27, 32]) == [k[1], k[4]]
        assert tx.index.read(IndexQuery(1), [99]) == []
        assert tx.index.read(IndexQuery(1), []) == []
        assert tx.index.read(IndexQuery(1, project=IndexProject.COUNT), [27, 29]) == 3
        assert tx.index.read(IndexQuery(1, project=IndexProject.COUNT), []) == 0


def test_index_eq_many_values(people) -> None:
    store, k = people
    with store.read() as tx:
        values = [27, *range(1000, 3000)]
        assert tx.index.read(IndexQuery(1), values) == [k[1], k[4]]
        assert tx.index.read(IndexQuery(1, project=IndexProject.COUNT), values) == 2


def test_index_range(people) -> None:
    store, k = people
    with store.read() as tx:
        assert tx.index.read(IndexQuery(1, True), (28, 32)) == [k[0], k[5], k[2]]
        assert tx.index.read(IndexQuery(1, True, lo_incl=False, hi_incl=False), (29, 32)) == [k[5]]
        assert tx.index.read(IndexQuery(1, True), (30, None)) == [k[5], k[2], k[3]]
        assert tx.index.read(IndexQuery(1, True), (None, 28)) == [k[1], k[4]]
        assert tx.index.read(IndexQuery(1, True, limit=3), (0, 100)) == [k[1], k[4], k[0]]
        assert tx.index.read(IndexQuery(1, True, limit=0), (0, 100)) == []


def test_open_range_stays_in_type_class(people) -> None:
    store, k = people
    with store.read() as tx:
        # numeric lower bound alone: not the strings or bytes of index 2
        assert tx.index.read(IndexQuery(2, True), (0, None)) == []
        assert tx.index.read(IndexQuery(2, True), (None, 100)) == []
        # string bounds: only strings
        assert tx.index.read(IndexQuery(2, True), ("a", None)) == [k[0], k[1]]
        assert tx.index.read(IndexQuery(2, True), (None, "n")) == [k[2], k[0]]
        assert tx.index.read(IndexQuery(2, True), (b"", None)) == [k[3]]
        assert tx.index.read(IndexQuery(2, True), (None, None)) == [k[2], k[0], k[1], k[3]]  # unbounded: everything
        with pytest.raises(StoreError):
            tx.index.read(IndexQuery(2, True), (object(), None))


def test_multi_valued_entries_and_remove(people) -> None:
    store, k = people
    with store.write() as tx:
        tx.index.index_add(3, "x", k[0])
        tx.index.index_add(3, "y", k[0])
        tx.index.index_add(3, "y", k[0])  # duplicate entry is a no-op
        tx.index.index_add(3, "y", k[1])
        assert tx.index.index_values(3, k[0]) == ["x", "y"]
        assert tx.index.read(IndexQuery(3), ["x", "y"]) == [k[0], k[1]]
        assert tx.index.read(IndexQuery(3, True), ("a", "z")) == [k[0], k[1]]  # each key once
        assert tx.index.index_remove(3, k[0], "x") == 1
        assert tx.index.index_values(3, k[0]) == ["y"]
        assert tx.index.index_remove(3, k[0]) == 1
        assert tx.index.read(IndexQuery(3), ["y"]) == [k[1]]
        assert tx.index.index_drop(1) == 6
        assert tx.index.read(IndexQuery(1), [27]) == []
        assert tx.index.read(IndexQuery(2), ["marko"]) == [k[0]]


def test_deletes_remove_index_entries(store) -> None:
    with store.write() as tx:
        a, b, c = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None), ("c", 1, None)])
        e_ab = tx.elements.edge_insert("ab", 1, a, b)
        e_ba = tx.elements.edge_insert("ba", 1, b, a)
        e_bb = tx.elements.edge_insert("bb", 1, b, b)
        tx.index.index_add(1, "va", a)
        tx.index.index_add(1, "vb", b)
        tx.index.index_add(1, "vc", c)
        tx.index.index_add_many([(2, "eab", e_ab, "e"), (2, "eba", e_ba, "e"), (2, "ebb", e_bb, "e")])
        # vertex c and edge bb share key 3: deleting the vertex keeps the edge's entry
        assert e_bb == c
        tx.elements.vertices_delete([c])
        assert tx.index.index_scan(1) == [("va", a), ("vb", b)]
        assert tx.index.index_scan(2) == [("eab", e_ab), ("eba", e_ba), ("ebb", e_bb)]
        tx.elements.vertices_delete([a])  # cascades: edges ab and ba, their entries, a's entries
        assert tx.index.index_scan(1) == [("vb", b)]
        assert tx.index.index_scan(2) == [("ebb", e_bb)]
        tx.elements.edges_delete([e_bb])
        assert tx.index.index_scan(2) == []
