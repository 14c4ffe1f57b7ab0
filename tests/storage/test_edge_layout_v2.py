"""Edge layout v2: parts-identified and id-identified edges, the cascade trigger, and the
upgrade of a layout-v1 store (written here with a frozen copy of the v1 DDL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import (
    STORE_VERSION,
    AdjacencyQuery,
    EdgeRow,
    IndexQuery,
    Lookup,
    MissingEndpoint,
    Project,
    StoreConflict,
    open_store,
)
from storage.tables import META_V1_EDGE_ROWS
from tests.storage.past_layouts import V1_DDL


def _three(tx) -> tuple[int, int, int]:
    return tuple(tx.elements.vertices_insert([("a", 1, None), ("b", 1, None), ("c", 1, None)]))  # type: ignore[return-value]


def test_parts_identified_edges(store) -> None:
    with store.write() as tx:
        a, b, c = _three(tx)
        e1, e2 = tx.elements.edges_insert([("Sa>1>1>>Sb", 1, a, b, "", "p1"), ("Sa>1>1>x>Sc", 1, a, c, "x", None)],
                                 unique_parts=True)
        e3 = tx.elements.edge_insert("Sb>2>2>>Sa", 2, b, a, "", "p3", unique_parts=True)
        assert tx.elements.find(Lookup.EDGES_BY_PARTS, [(b, 2, "", a), (a, 1, "", b), (a, 1, "x", c), (a, 1, "", b), (a, 1, "", c)]) == [
            EdgeRow(e3, "Sb>2>2>>Sa", 2, b, a, "", "p3"),
            EdgeRow(e1, "Sa>1>1>>Sb", 1, a, b, "", "p1"),
            EdgeRow(e2, "Sa>1>1>x>Sc", 1, a, c, "x", None),
        ]
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_PARTS, [(a, 1, "x", c)])] == [e2]
        assert tx.elements.find(Lookup.EDGES_BY_END_IDS, [("a", 1, "x", "c")]) == [EdgeRow(e2, "Sa>1>1>x>Sc", 1, a, c, "x", None)]
        assert tx.elements.find(Lookup.EDGES_BY_END_IDS, [("a", 1, "", "c")]) == [] and tx.elements.find(Lookup.EDGES_BY_END_IDS, [("zz", 1, "x", "c")]) == []
        assert tx.elements.find(Lookup.EDGES_BY_PARTS, [(a, 2, "", b)]) == [] and tx.elements.find(Lookup.EDGES_BY_PARTS, []) == []
        # not id-identified: the partial id index does not hold them
        assert tx.elements.find(Lookup.EDGES_BY_IDS, ["Sa>1>1>>Sb", "Sb>2>2>>Sa"]) == []
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_KEYS, [e3, e1])] == [e3, e1]
        # the same parts again: a conflict, and the batch leaves nothing behind
        with pytest.raises(StoreConflict):
            tx.elements.edge_insert("Sa>1>1>>Sb", 1, a, b, "", None, unique_parts=True)
        with pytest.raises(StoreConflict):
            tx.elements.edges_insert([("Sc>1>1>>Sa", 1, c, a, "", None), ("Sa>1>1>>Sb", 1, a, b, "", None)], unique_parts=True)
        assert tx.elements.edge_count() == 3
        with pytest.raises(MissingEndpoint):
            tx.elements.edges_insert([("Sc>1>1>>S?", 1, c, 999, "", None)], unique_parts=True)


def test_id_identified_edges_allow_parallels_in_insertion_order(store) -> None:
    with store.write() as tx:
        a, b, c = _three(tx)
        k1, k2 = tx.elements.edges_insert([("x", 1, a, b, "", None), ("y", 1, a, b, "", None)])
        k3 = tx.elements.edge_insert(None, 1, a, b)
        k0 = tx.elements.edge_insert("h", 1, a, c, "", None, unique_parts=True)
        with pytest.raises(StoreConflict):
            tx.elements.edge_insert("y", 2, b, c)
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_IDS, ["y", k3, "x", "h"])] == [k2, k3, k1]
        assert tx.elements.find(Lookup.EDGES_BY_IDS, [k3])[0].id == k3
        assert [r.key for r in tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), [a])] == [k1, k2, k3, k0]
        assert [r.key for r in tx.adjacency.read(AdjacencyQuery("in", None, None, Project.EDGES), [b])] == [k1, k2, k3]
        assert [r.key for r in tx.adjacency.read(AdjacencyQuery("out", None, 2, Project.EDGES), [a])] == [k1, k2]
        assert tx.adjacency.read(AdjacencyQuery("both", None, None, Project.PAIRS), [a, b]) == [(a, b)] * 3 + [(a, c)] + [(b, a)] * 3
        assert tx.adjacency.joining(AdjacencyQuery("out", None), [(a, b)])[(a, b)].key == k1
        # parts lookup sees id-identified edges too (in insertion order), for v1 rows
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_PARTS, [(a, 1, "", b)])] == [k1, k2, k3]


def test_vertex_delete_cascades_to_both_kinds_and_their_index_entries(store) -> None:
    with store.write() as tx:
        a, b, c = _three(tx)
        p = tx.elements.edge_insert("Sa>1>1>>Sb", 1, a, b, unique_parts=True)
        q = tx.elements.edge_insert("q", 1, c, a)
        r = tx.elements.edge_insert("r", 1, b, c)
        tx.index.index_add_many([(5, "v", p, "e"), (5, "v", q, "e"), (5, "v", r, "e"), (6, "w", a, "v")])
        assert tx.elements.vertices_delete([a]) == 1
        assert [e.key for e in tx.elements.edges_scan()] == [r]
        assert tx.index.read(IndexQuery(5), ["v"]) == [r] and tx.index.read(IndexQuery(6), ["w"]) == []


def test_clear_keeps_the_cascade(store) -> None:
    with store.write() as tx:
        a, b, _c = _three(tx)
        old = tx.elements.edge_insert("e", 1, a, b)
        tx.clear()
        a, b, _c = _three(tx)
        new = tx.elements.edge_insert("Sa>1>1>>Sb", 1, a, b, unique_parts=True)
        assert new > old
        tx.elements.vertices_delete([b])
        assert tx.elements.edge_count() == 0


# ---- layout v1 and its upgrade ----------------------------------------------------------
# (key, id, label, out, in, sort values, props): strict-style ids, auto-style ids, parallel
# edges (3 and 4, 7 and 8), a self-loop, bytes/int/str ids; key 10 was deleted (seq = 10)
V1_EDGES = [
    (1, "S1:a>1>1>>S1:b", 1, 1, 2, "", '{"w":1}'),
    (2, "S1:a>1>1>2>S1:c", 1, 1, 3, "2", None),
    (3, 103, 2, 2, 3, "", '{"x":"p"}'),
    (4, "par", 2, 2, 3, "", None),
    (5, b"\x01\x02", 2, 3, 3, "", None),
    (6, "S1:c>1>1>>S1:a", 1, 3, 1, "", None),
    (7, "p7", 3, 1, 2, "s", None),
    (8, "p8", 3, 1, 2, "s", None),
    (9, "S1:a>1>1>1>S1:b", 1, 1, 2, "1", None),
]


def _write_v1(path: Path) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("BEGIN")
    for stmt in V1_DDL:
        con.execute(stmt)
    con.executemany("INSERT INTO meta VALUES (?, ?)", [("store_version", "1"), ("backend", "sqlite")])
    con.executemany("INSERT INTO vertices (key, id, label_id, props) VALUES (?, ?, 1, '{}')",
                    [(1, "1:a"), (2, "1:b"), (3, "1:c"), (4, "1:d")])
    con.executemany("INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?)", V1_EDGES)
    con.execute("INSERT INTO edges VALUES (10, 'gone', 1, 4, 4, '', NULL)")
    con.execute("DELETE FROM edges WHERE key = 10")
    con.executemany("INSERT INTO index_entries VALUES (?, ?, ?, ?)",
                    [(7, 1, "e", 1), (7, 2, "e", 3), (7, 1, "e", 8), (8, "x", "v", 2), (8, "y", "v", 1)])
    con.execute("COMMIT")
    con.close()


def _snapshot(tx) -> dict[str, object]:
    """Everything the engine can observe of the edges."""
    keys = [1, 2, 3, 4]
    return {
        "scan": tx.elements.edges_scan(),
        "out": tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), keys),
        "in": tx.adjacency.read(AdjacencyQuery("in", None, None, Project.EDGES), keys),
        "both": tx.adjacency.read(AdjacencyQuery("both", None, None, Project.PAIRS), keys),
        "limited": tx.adjacency.read(AdjacencyQuery("out", None, 1, Project.EDGES), keys),
        "labels": tx.adjacency.read(AdjacencyQuery("out", [2, 3], None, Project.EDGES), keys),
        "joining": tx.adjacency.joining(AdjacencyQuery("out", None), [(1, 2), (2, 3), (3, 1)]),
        "ids": tx.elements.find(Lookup.EDGES_BY_IDS, [row[1] for row in V1_EDGES] + ["gone"]),
        "index": (tx.index.read(IndexQuery(7), [1, 2]), tx.index.read(IndexQuery(8), ["x", "y"])),
        "counts": (tx.elements.edge_count(), tx.elements.edge_count([2]), tx.adjacency.read(AdjacencyQuery("both", None, None, Project.COUNTS), keys)),
    }


def test_v1_store_is_upgraded_on_open_and_answers_the_same(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    _write_v1(path)
    s = open_store(path)
    assert s.stored_version() == "1"
    s.check_ready()  # upgrades
    assert s.stored_version() == STORE_VERSION == "3"  # v1 -> v2 -> v3
    with s.read() as tx:
        snap = _snapshot(tx)
        # v3's copies of the end vertices' ids, filled for every old row
        assert tx.raw.execute(
            "SELECT count(*) FROM edges AS e JOIN vertices AS o ON o.key = e.out_key JOIN vertices AS i "
            "ON i.key = e.in_key WHERE e.out_id IS o.id AND e.in_id IS i.id").fetchone()[0] == len(V1_EDGES)
        assert tx.schema.meta_get(META_V1_EDGE_ROWS) == "1"
        names = {r[0] for r in tx.raw.execute("SELECT name FROM sqlite_master")}
        assert {"ix_edges_out", "ix_edges_in", "ix_edges_label", "ix_edges_id", "tr_vertices_edge_cascade",
                "tr_edges_index_cleanup", "tr_vertices_index_cleanup"} <= names
        assert "edges_v1" not in names
        assert tx.raw.execute("PRAGMA foreign_key_list(edges)").fetchall() == []
        assert tx.raw.execute("PRAGMA integrity_check(edges)").fetchall() == [("ok",)]  # (3.40 misreads index_entries)
    rows = [EdgeRow(*r) for r in V1_EDGES]
    assert snap["scan"] == rows
    assert snap["ids"] == rows  # E(id) of every old edge, whatever its id type
    by_key = {r.key: r for r in rows}
    # the answers below are what the v1 storage code gave on this store before the upgrade
    assert [r.key for r in snap["out"]] == [1, 9, 2, 7, 8, 3, 4, 6, 5]  # (label, sort, in, key) per vertex
    assert [r.key for r in snap["in"]] == [6, 1, 9, 7, 8, 2, 3, 4, 5]
    assert snap["both"] == [(1, 2), (1, 2), (1, 3), (1, 2), (1, 2), (1, 3),
                            (2, 3), (2, 3), (2, 1), (2, 1), (2, 1), (2, 1),
                            (3, 1), (3, 3), (3, 1), (3, 2), (3, 2), (3, 3)]
    assert [r.key for r in snap["limited"]] == [1, 3, 6]
    assert [r.key for r in snap["labels"]] == [7, 8, 3, 4, 5]
    assert {p: e.key for p, e in snap["joining"].items()} == {(1, 2): 1, (2, 3): 3, (3, 1): 6}
    assert snap["index"] == ([1, 8, 3], [2, 1])
    assert snap["counts"] == (9, 3, {1: 6, 2: 6, 3: 6, 4: 0})
    assert by_key[5].id == b"\x01\x02"
    # v1 rows are found by their parts as well (a strict graph looks its edges up that way)
    with s.read() as tx:
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_PARTS, [(1, 1, "", 2), (2, 2, "", 3), (1, 1, "1", 2)])] == [1, 3, 4, 9]
    with s.write() as tx:
        # a HugeGraph-mode insert may not repeat a v1 row's parts ...
        with pytest.raises(StoreConflict):
            tx.elements.edge_insert("S1:a>1>1>>S1:b", 1, 1, 2, "", None, unique_parts=True)
        with pytest.raises(StoreConflict):
            tx.elements.edges_insert([("S1:d>1>1>>S1:a", 1, 4, 1, "", None), ("S1:c>1>1>>S1:a", 1, 3, 1, "", None)],
                            unique_parts=True)
        # ... nor an auto-mode one repeat a v1 id; new edges never reuse a deleted key
        with pytest.raises(StoreConflict):
            tx.elements.edge_insert("par", 1, 4, 4)
        assert tx.elements.edge_insert("S1:d>1>1>>S1:a", 1, 4, 1, "", None, unique_parts=True) == 11
        assert tx.elements.edge_insert("new", 2, 2, 3) == 12
        assert [r.key for r in tx.adjacency.read(AdjacencyQuery("out", [2], None, Project.EDGES), [2])] == [3, 4, 12]
        # the cascade and index cleanup of v1 rows
        tx.elements.vertices_delete([3])
        assert [r.key for r in tx.elements.edges_scan()] == [1, 7, 8, 9, 11]
        assert tx.index.read(IndexQuery(7), [1, 2]) == [1, 8] and tx.index.read(IndexQuery(8), ["x", "y"]) == [2, 1]
    s.close()
    s2 = open_store(path)
    s2.check_ready()  # already current: nothing to do
    with s2.read() as tx:
        assert tx.elements.edge_count() == 5
    s2.close()


def test_initialise_upgrades_a_v1_store(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    _write_v1(path)
    s = open_store(path)
    s.initialise()
    with s.read() as tx:
        assert tx.schema.meta_get("store_version") == STORE_VERSION
        assert tx.elements.edges_scan() == [EdgeRow(*r) for r in V1_EDGES]
    s.close()


def test_empty_v1_store_upgrades_without_the_v1_flag(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    con = sqlite3.connect(path, isolation_level=None)
    for stmt in V1_DDL:
        con.execute(stmt)
    con.execute("INSERT INTO meta VALUES ('store_version', '1')")
    con.close()
    s = open_store(path)
    s.check_ready()
    with s.write() as tx:
        assert tx.schema.meta_get(META_V1_EDGE_ROWS) is None
        a, b, _c = _three(tx)
        assert tx.elements.edge_insert("Sa>1>1>>Sb", 1, a, b, unique_parts=True) == 1
    s.close()
