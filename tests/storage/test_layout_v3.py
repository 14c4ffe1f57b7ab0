"""Layout v3: edges carry their end vertices' public ids (``out_id`` / ``in_id``) and the
out-adjacency index covers ``in_id`` (the in side ``out_id`` only with `IN_SIDE_IDS`). Every insert path fills them with the exact stored value (1,
'1' and b'1' stay distinct); the neighbour-id reads take them from the index alone; a v2
store (written here with a frozen copy of the v2 DDL) is upgraded on open and answers as
before, and accepts every write it accepted before."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from storage import STORE_VERSION, AdjacencyQuery, Lookup, MissingEndpoint, Project, StoreConflict, open_store
from storage.adjacency_sql import TIE
from storage.tables import IN_SIDE_IDS
from tests.storage.past_layouts import V2_DDL

# ---- a v2 store, as hugelite's layout v2 wrote it -------------------------------------------
# (key, id, label_id): ids of every stored type, three of them equal as numbers or text
VERTICES = [(1, 1, 1), (2, "1", 1), (3, b"1", 2), (4, "1:marko", 1), (5, 7, 2), (6, "lonely", 1)]
# (key, id, label_id, out_key, in_key, sort_values, dup): parts-identified (dup 0) edges
# with sort values, id-identified parallels (dup = key), a self-loop, both labels
EDGES = [
    (1, "1>1>>2", 1, 1, 2, "", 0),
    (2, "1>1>b>3", 1, 1, 3, "b", 0),
    (3, "1>1>a>3", 1, 1, 3, "a", 0),
    (4, "p1", 2, 1, 4, "", 4),
    (5, "p2", 2, 1, 4, "", 5),  # parallel to 4, after it
    (6, "3>1>>1", 1, 3, 1, "", 0),
    (7, "4>1>>4", 1, 4, 4, "", 0),  # self-loop
    (8, 99, 2, 5, 1, "", 8),
    (9, b"e\x00", 2, 2, 1, "", 9),
    (10, "4>2>>1", 1, 4, 1, "", 0),
]
ENDS = {k: i for k, i, _ in VERTICES}


def _write_v2(path: Path) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    for stmt in V2_DDL:
        con.execute(stmt)
    con.executemany("INSERT INTO meta VALUES (?, ?)", [("store_version", "2"), ("backend", "sqlite")])
    con.executemany("INSERT INTO vertices (key, id, label_id, props) VALUES (?, ?, ?, '{}')", VERTICES)
    con.executemany(
        "INSERT INTO edges (key, id, label_id, out_key, in_key, sort_values, dup, props) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
        EDGES,
    )
    con.execute("INSERT INTO index_entries VALUES (5, 'x', 'e', 4)")
    con.close()


_SIDE = {"out": [("out_key", "in_key")], "in": [("in_key", "out_key")],
         "both": [("out_key", "in_key"), ("in_key", "out_key")]}


def _v2_answers(path: Path) -> dict[str, Any]:
    """Adjacency and neighbour ids of every vertex, by plain SQL over the v2 tables (the
    join to `vertices` the v2 statements made), before the upgrade."""
    con = sqlite3.connect(path)
    out: dict[str, Any] = {}
    for key in ENDS:
        for d, sides in _SIDE.items():
            for labels in ((), (1,), (2,), (1, 2)):
                rows: list[Any] = []
                for this, other in sides:
                    lab = f" AND e.label_id IN ({','.join(map(str, labels))})" if labels else ""
                    rows += con.execute(
                        f"SELECT e.{other}, v.id FROM edges AS e JOIN vertices AS v ON v.key = e.{other} "
                        f"WHERE e.{this} = ?{lab} ORDER BY e.label_id, e.sort_values, e.{other}, e.{TIE[this]}",
                        (key,)).fetchall()
                out[f"{key}/{d}/{labels}"] = rows
    con.close()
    return out


def _answers(tx: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, vid in ENDS.items():
        for d in _SIDE:
            for labels in ((), (1,), (2,), (1, 2)):
                lids = list(labels) or None
                pairs = tx.adjacency.read(AdjacencyQuery(d, lids, None, Project.PAIRS), [key])
                ids = [r[1] for r in tx.adjacency.from_id(AdjacencyQuery(d, lids), vid)]
                assert [to for _, to in pairs] == tx.adjacency.read(AdjacencyQuery(d, lids, None, Project.TO_KEYS), [key])
                assert sorted(tx.adjacency.read(AdjacencyQuery(d, lids, None, Project.TARGETS), [key])) == sorted(to for _, to in pairs)
                assert [(r.out_key, r.in_key) for r in tx.adjacency.read(AdjacencyQuery(d, lids, None, Project.EDGES), [key])] == [
                    (key, to) if (d == "out" or (d == "both" and n < _outs(tx, key, lids))) else (to, key)
                    for n, (_, to) in enumerate(pairs)]
                out[f"{key}/{d}/{labels}"] = [(to, i) for (_, to), i in zip(pairs, ids, strict=True)]
    return out


def _outs(tx: Any, key: int, lids: Any) -> int:
    return len(tx.adjacency.read(AdjacencyQuery("out", lids, None, Project.PAIRS), [key]))


def _typed(rows: list[tuple[Any, Any]]) -> list[tuple[Any, Any, type]]:
    return [(to, i, type(i)) for to, i in rows]


def test_v2_store_is_upgraded_and_answers_the_same(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    _write_v2(path)
    before = _v2_answers(path)
    s = open_store(path)
    assert s.stored_version() == "2"
    s.check_ready()  # upgrades
    assert s.stored_version() == STORE_VERSION == "3"
    with s.read() as tx:
        after = _answers(tx)
        assert {k: _typed(v) for k, v in after.items()} == {k: _typed(v) for k, v in before.items()}
        assert sum(map(len, after.values())) > 50
        # every row's copies are its ends' ids, with their storage types (1, '1', b'1' distinct)
        rows = tx.raw.execute("SELECT key, out_key, in_key, out_id, in_id, typeof(out_id), typeof(in_id) "
                              "FROM edges ORDER BY key").fetchall()
        assert [(r[3], r[4]) for r in rows] == [(ENDS[r[1]], ENDS[r[2]]) for r in rows]
        typeof = {int: "integer", str: "text", bytes: "blob"}
        assert [(r[5], r[6]) for r in rows] == [(typeof[type(ENDS[r[1]])], typeof[type(ENDS[r[2]])]) for r in rows]
        # the indexes are the ones a fresh store builds
        assert _layout(tx) == _fresh_layout(tmp_path)
        assert tx.raw.execute("PRAGMA integrity_check(edges)").fetchall() == [("ok",)]
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_IDS, ["p1", "p2", 99, b"e\x00"])] == [4, 5, 8, 9]
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_PARTS, [(1, 1, "a", 3), (1, 2, "", 4)])] == [3, 4, 5]
        assert [r.key for r in tx.elements.find(Lookup.EDGES_BY_END_IDS, [(1, 1, "b", b"1")])] == [2]
    s.close()
    s2 = open_store(path)
    s2.check_ready()  # already current: nothing to do
    assert s2.stored_version() == "3"
    s2.close()


def test_initialise_upgrades_a_v2_store(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    _write_v2(path)
    s = open_store(path)
    s.initialise()
    with s.read() as tx:
        assert tx.schema.meta_get("store_version") == "3"
        assert tx.raw.execute("SELECT count(*) FROM edges WHERE out_id IS NULL OR in_id IS NULL").fetchone()[0] == 0
    s.close()


def _layout(tx: Any) -> tuple[Any, ...]:
    cols = [r[1:] for r in tx.raw.execute("PRAGMA table_info(edges)")]
    idx = {r[0]: [c[2] for c in tx.raw.execute(f"PRAGMA index_info({r[0]})")]
           for r in tx.raw.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'edges' "
                                   "AND name NOT LIKE 'sqlite_%'")}
    unique = {r[1]: r[2] for r in tx.raw.execute("PRAGMA index_list(edges)")}
    return cols, idx, unique


def _fresh_layout(tmp_path: Path) -> tuple[Any, ...]:
    s = open_store(tmp_path / "fresh.db")
    s.initialise()
    with s.read() as tx:
        got = _layout(tx)
    s.close()
    return got


def test_fresh_layout_columns_and_indexes(tmp_path: Path) -> None:
    cols, idx, unique = _fresh_layout(tmp_path)
    assert [c[0] for c in cols][-2:] == ["out_id", "in_id"]
    assert all(c[1] == "BLOB" for c in cols if c[0] in ("out_id", "in_id"))  # no type affinity
    assert idx["ix_edges_out"] == ["out_key", "label_id", "sort_values", "in_key", "dup", "in_id"]
    assert idx["ix_edges_in"] == ["in_key", "label_id", "sort_values", "out_key"] + (["out_id"] if IN_SIDE_IDS else [])
    assert unique["ix_edges_out"] == 1 and unique["ix_edges_in"] == 0


@pytest.fixture(params=["fresh", "upgraded"])
def v3(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A v3 store holding VERTICES and EDGES: written fresh, or written as v2 and upgraded."""
    path = tmp_path / "v3.db"
    if request.param == "upgraded":
        _write_v2(path)
        s = open_store(path)
        s.check_ready()
    else:
        s = open_store(path)
        s.initialise()
        with s.write() as tx:
            tx.raw.executemany("INSERT INTO vertices (key, id, label_id, props) VALUES (?, ?, ?, '{}')", VERTICES)
            for key, eid, label, o, i, sv, dup in EDGES:
                got = tx.elements.edge_insert(eid, label, o, i, sv, None, unique_parts=dup == 0)
                assert got == key
    yield s
    s.close()


def _ids_of(tx: Any, keys: list[int]) -> list[tuple[Any, Any]]:
    q = "SELECT out_id, in_id FROM edges WHERE key = ?"
    return [tx.raw.execute(q, (k,)).fetchone() for k in keys]


def test_every_insert_path_fills_the_end_ids(v3: Any) -> None:
    with v3.write() as tx:
        one = tx.elements.edge_insert("x1", 2, 2, 3)  # ends not looked up: the check reads their ids
        batch = tx.elements.edges_insert([("x2", 2, 3, 2, "", None), (None, 1, 5, 5, None, "{}")])
        heads = {k: i for k, i, _ in tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1", b"1", 7])}
        assert heads == {2: "1", 3: b"1", 5: 7}
        fast = tx.elements.edges_insert([("x4", 1, 2, 3, "s", None), ("x5", 1, 3, 5, "", None)], unique_parts=True)
        single = tx.elements.edges_insert([("x6", 1, 5, 2, "", None)], unique_parts=True)
        got = _ids_of(tx, [one, *batch, *fast, *single])
        assert got == [("1", b"1"), (b"1", "1"), (7, 7), ("1", b"1"), (b"1", 7), (7, "1")]
        assert [tuple(map(type, g)) for g in got] == [(str, bytes), (bytes, str), (int, int), (str, bytes),
                                                      (bytes, int), (int, str)]
        # and the reads see them at once, in adjacency order
        assert [r[1] for r in tx.adjacency.from_id(AdjacencyQuery("out", [2]), "1")] == [1, b"1"]  # in keys 1, 3
        assert [r[1] for r in tx.adjacency.from_id(AdjacencyQuery("both", [1]), 7)] == ["1", 7, b"1", 7]  # out: keys 2, 5; in: 3, 5


def test_a_v3_store_accepts_what_v2_did_and_refuses_the_same(v3: Any) -> None:
    with v3.write() as tx:
        # a parallel id-identified edge (same ends, same in_id) and a new sort value of a parts one
        tx.elements.edges_insert([("p3", 2, 1, 4, "", None), ("p4", 2, 1, 4, "", None)])
        tx.elements.edge_insert("1>1>c>3", 1, 1, 3, "c", None, unique_parts=True)
        tx.elements.edge_insert("self", 1, 6, 6, "", None, unique_parts=True)
        assert [r[1] for r in tx.adjacency.from_id(AdjacencyQuery("out", [2]), 1)] == ["1:marko"] * 4
        # the same parts twice: refused with the message v2 gave (single and batch paths)
        v2_msg = "UNIQUE constraint failed: edges.out_key, edges.label_id, edges.sort_values, edges.in_key, edges.dup"
        with pytest.raises(StoreConflict) as single:
            tx.elements.edge_insert("again", 1, 1, 3, "a", None, unique_parts=True)
        assert str(single.value).endswith(v2_msg)
        with pytest.raises(StoreConflict) as batch:
            tx.elements.edges_insert([("n1", 1, 2, 2, "", None), ("again", 1, 1, 3, "a", None)], unique_parts=True)
        assert str(batch.value).endswith(v2_msg)
        with pytest.raises(StoreConflict, match="edges.id"):
            tx.elements.edge_insert("p1", 2, 1, 4)
        with pytest.raises(MissingEndpoint, match="vertex key 77"):
            tx.elements.edges_insert([("m", 1, 1, 77, "", None)])
        with pytest.raises(MissingEndpoint, match="vertex key 77"):
            tx.elements.edge_insert("m", 1, 77, 1)
        # a deleted vertex takes its edges (and so their copies of its id) with it
        tx.elements.vertices_delete([4])
        assert tx.raw.execute("SELECT count(*) FROM edges WHERE out_id = '1:marko' OR in_id = '1:marko'").fetchone() == (0,)
        assert tx.adjacency.from_id(AdjacencyQuery("out", [2]), 1) == []
