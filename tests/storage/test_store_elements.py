"""Vertex and edge CRUD, ids, scans, counts."""

from __future__ import annotations

import pytest

from storage import EdgeRow, Lookup, MissingEndpoint, StoreConflict, VertexRow


def test_vertex_crud(store) -> None:
    with store.write() as tx:
        k = tx.elements.vertex_insert("marko", 1, '{"age":29}')
        assert tx.elements.find(Lookup.VERTICES_BY_KEYS, [k]) == [VertexRow(k, "marko", 1, '{"age":29}')]
        assert tx.elements.vertex_update(k, props='{"age":30}') is True
        assert tx.elements.vertex_update(k, label_id=2) is True
        assert tx.elements.vertex_update(k) is True
        assert tx.elements.vertex_update(999) is False
    with store.read() as tx:
        assert tx.elements.find(Lookup.VERTICES_BY_IDS, ["marko"]) == [VertexRow(k, "marko", 2, '{"age":30}')]
    with store.write() as tx:
        assert tx.elements.vertices_delete([k, 12345]) == 1
        assert tx.elements.find(Lookup.VERTICES_BY_KEYS, [k]) == []
        assert tx.elements.vertices_delete([]) == 0


def test_ids_of_different_types_are_distinct(store) -> None:
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(1, 1, "int"), ("1", 1, "str"), (b"1", 1, "bytes"), (2**62, 1, "big")])
    with store.read() as tx:
        rows = tx.elements.find(Lookup.VERTICES_BY_IDS, [b"1", "1", 1, 2**62])
        assert [r.props for r in rows] == ["bytes", "str", "int", "big"]
        assert [type(r.id) for r in rows] == [bytes, str, int, int]
        assert [r.key for r in rows] == [keys[2], keys[1], keys[0], keys[3]]


def test_lookup_order_dedupes_and_skips_unknown(store) -> None:
    with store.write() as tx:
        a, b, c = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None), ("c", 1, None)])
    with store.read() as tx:
        assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["c", "x", "a", "c", "b"])] == ["c", "a", "b"]
        assert [r.key for r in tx.elements.find(Lookup.VERTICES_BY_KEYS, [c, 999, a, c])] == [c, a]
        assert tx.elements.find(Lookup.VERTICES_BY_IDS, []) == []
        assert tx.elements.find(Lookup.VERTICES_BY_KEYS, []) == []


def test_large_id_batches_cross_chunks(store) -> None:
    ids = [f"v{i}" for i in range(2500)]
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, None) for i in ids])
    with store.read() as tx:
        wanted = list(reversed(ids)) + ["missing"]
        rows = tx.elements.find(Lookup.VERTICES_BY_IDS, wanted)
        assert [r.id for r in rows] == list(reversed(ids))
        assert [r.key for r in tx.elements.find(Lookup.VERTICES_BY_KEYS, list(reversed(keys)))] == list(reversed(keys))


def test_id_none_means_id_equals_key(store) -> None:
    with store.write() as tx:
        k1 = tx.elements.vertex_insert(None, 1)
        k2, k3 = tx.elements.vertices_insert([(None, 1, None), ("named", 1, None)])
        e = tx.elements.edge_insert(None, 5, k1, k2)
    with store.read() as tx:
        assert [(r.key, r.id) for r in tx.elements.find(Lookup.VERTICES_BY_KEYS, [k1, k2, k3])] == [(k1, k1), (k2, k2), (k3, "named")]
        assert tx.elements.find(Lookup.EDGES_BY_KEYS, [e])[0].id == e


def test_duplicate_vertex_id_conflicts_and_batch_is_atomic(store) -> None:
    with store.write() as tx:
        tx.elements.vertex_insert("a", 1)
        with pytest.raises(StoreConflict):
            tx.elements.vertex_insert("a", 2)
        with pytest.raises(StoreConflict):
            tx.elements.vertices_insert([("b", 1, None), ("c", 1, None), ("a", 1, None)])
        # the failed batch left nothing behind, the transaction goes on
        assert tx.elements.find(Lookup.VERTICES_BY_IDS, ["b", "c"]) == []
        assert tx.elements.vertex_count() == 1


def test_keys_are_never_reused(store) -> None:
    with store.write() as tx:
        k1, k2 = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None)])
        tx.elements.vertices_delete([k2])
        k3 = tx.elements.vertex_insert("c", 1)
        (k4,) = tx.elements.vertices_insert([("d", 1, None)])
    assert k3 > k2 and k4 > k3


def test_vertex_scan_and_counts(store) -> None:
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, i % 3, None) for i in range(30)])
    with store.read() as tx:
        assert [r.key for r in tx.elements.vertices_scan()] == keys
        assert [r.id for r in tx.elements.vertices_scan(label_ids=[1])] == list(range(1, 30, 3))
        assert [r.id for r in tx.elements.vertices_scan(label_ids=[0, 2])] == [i for i in range(30) if i % 3 != 1]
        page1 = tx.elements.vertices_scan(limit=10)
        page2 = tx.elements.vertices_scan(after_key=page1[-1].key, limit=10)
        assert [r.id for r in page1 + page2] == list(range(20))
        assert tx.elements.vertices_scan(label_ids=[]) == []
        assert tx.elements.vertex_count() == 30
        assert tx.elements.vertex_count([1]) == 10
        assert tx.elements.vertex_count([1, 2]) == 20
        assert tx.elements.vertex_count([7]) == 0
        assert tx.elements.vertex_count([]) == 0


def test_vertices_update_batch(store) -> None:
    with store.write() as tx:
        a, b = tx.elements.vertices_insert([("a", 1, "x"), ("b", 1, "y")])
        tx.elements.vertices_update([(a, "X"), (b, "Y")])
    with store.read() as tx:
        assert [r.props for r in tx.elements.find(Lookup.VERTICES_BY_KEYS, [a, b])] == ["X", "Y"]


def test_edge_crud(store) -> None:
    with store.write() as tx:
        a, b = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None)])
        e = tx.elements.edge_insert("a>knows>b", 7, a, b, "2020", '{"w":1}')
        assert tx.elements.find(Lookup.EDGES_BY_IDS, ["a>knows>b"]) == [EdgeRow(e, "a>knows>b", 7, a, b, "2020", '{"w":1}')]
        assert tx.elements.edge_update(e, '{"w":2}') is True
        assert tx.elements.edge_update(999, "x") is False
        e2, e3 = tx.elements.edges_insert([("e2", 8, b, a, "", None), ("e3", 7, b, b, None, None)])
        tx.elements.edges_update([(e2, "p2")])
    with store.read() as tx:
        assert [r.props for r in tx.elements.find(Lookup.EDGES_BY_KEYS, [e, e2])] == ['{"w":2}', "p2"]
        assert tx.elements.find(Lookup.EDGES_BY_KEYS, [e3])[0].sort_values == ""
        assert [r.key for r in tx.elements.edges_scan()] == [e, e2, e3]
        assert [r.key for r in tx.elements.edges_scan(label_ids=[7])] == [e, e3]
        assert [r.key for r in tx.elements.edges_scan(after_key=e, limit=1)] == [e2]
        assert tx.elements.edge_count() == 3
        assert tx.elements.edge_count([7]) == 2
    with store.write() as tx:
        assert tx.elements.edges_delete([e, e3]) == 2
        assert tx.elements.edge_count() == 1


def test_edge_needs_existing_endpoints(store) -> None:
    with store.write() as tx:
        a = tx.elements.vertex_insert("a", 1)
        with pytest.raises(MissingEndpoint):
            tx.elements.edge_insert("e", 1, a, 424242)
        with pytest.raises(MissingEndpoint):
            tx.elements.edges_insert([("e1", 1, a, a, "", None), ("e2", 1, 999, a, "", None)])
        assert tx.elements.edge_count() == 0
        tx.elements.edge_insert("e", 1, a, a)
        with pytest.raises(StoreConflict):
            tx.elements.edge_insert("e", 1, a, a)


def test_vertex_delete_cascades_to_edges(store) -> None:
    with store.write() as tx:
        a, b, c = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None), ("c", 1, None)])
        tx.elements.edges_insert([("ab", 1, a, b, "", None), ("ca", 1, c, a, "", None), ("bc", 1, b, c, "", None),
                         ("aa", 1, a, a, "", None)])
        tx.elements.vertices_delete([a])
    with store.read() as tx:
        assert [r.id for r in tx.elements.edges_scan()] == ["bc"]
        assert tx.elements.find(Lookup.EDGES_BY_IDS, ["ab", "ca", "aa"]) == []
