"""The hot statements use their indexes: EXPLAIN QUERY PLAN of what the public methods run.

Each test captures the SQL a public method actually executes (sqlite3's trace callback
gives it with the parameters bound) and asserts its plan: the named index is used and no
vertex/edge/index table is scanned. The only SCAN allowed is of the ``json_each`` batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from storage import AdjacencyQuery, IndexProject, IndexQuery, Lookup, Project, Store, open_store, tables


@pytest.fixture(scope="module")
def big_store() -> Store:
    s = open_store(None)
    s.initialise()
    with s.write() as tx:
        keys = tx.elements.vertices_insert([(f"v{i}", i % 5, "{}") for i in range(3000)])
        tx.elements.edges_insert([(None, i % 4, keys[i], keys[(i * 7 + 1) % 3000], str(i % 3), "{}") for i in range(6000 // 2)]
                        + [(None, 9, keys[i], keys[(i + 1) % 3000], "", None) for i in range(3000)])
        tx.index.index_add_many([(1, i % 100, k, "v") for i, k in enumerate(keys)])
    yield s
    s.close()


class _Undo(Exception):
    pass


def plans_of(store: Store, call: Callable[[Any], Any], write: bool = False) -> list[tuple[str, list[str]]]:
    """Run `call(tx)` and return (sql, plan lines) for every SELECT/DELETE/UPDATE it executed.
    With `write`, it runs in a write transaction that is rolled back afterwards."""
    captured: list[str] = []
    out: list[tuple[str, list[str]]] = []
    try:
        with store.write() if write else store.read() as tx:
            tx.raw.set_trace_callback(captured.append)
            try:
                call(tx)
            finally:
                tx.raw.set_trace_callback(None)
            for sql in captured:
                if not sql.lstrip().upper().startswith(("SELECT", "DELETE", "UPDATE")):
                    continue
                rows = tx.raw.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
                out.append((sql, [r[3] for r in rows]))
            if write:
                raise _Undo
    except _Undo:
        pass
    assert out, "the call ran no statement"
    return out


def assert_indexed(plans: list[tuple[str, list[str]]], *needles: str) -> None:
    for sql, lines in plans:
        text = "\n".join(lines)
        for line in lines:
            if line.startswith("SCAN "):
                assert "VIRTUAL TABLE" in line, f"table scan in plan of {sql!r}:\n{text}"
        for needle in needles:
            assert needle in text, f"{needle!r} not in plan of {sql!r}:\n{text}"


def test_adjacency_uses_adjacency_index(big_store) -> None:
    assert_indexed(plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), [1, 2, 3])), "USING INDEX ix_edges_out")
    assert_indexed(plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("in", [1], None, Project.EDGES), [1, 2])),
                   "USING INDEX ix_edges_in (in_key=? AND label_id=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("both", [1, 2], None, Project.EDGES), [1, 2])),
                   "ix_edges_out", "ix_edges_in")
    assert_indexed(plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("out", None, 2, Project.EDGES), [1, 2])),
                   "USING COVERING INDEX ix_edges_out", "USING INTEGER PRIMARY KEY")


def test_adjacent_keys_is_index_only(big_store) -> None:
    assert_indexed(plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("out", [9], None, Project.PAIRS), [1, 2, 3])),
                   "USING COVERING INDEX ix_edges_out (out_key=? AND label_id=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("both", None, None, Project.PAIRS), [1, 2, 3])),
                   "USING COVERING INDEX ix_edges_out", "USING COVERING INDEX ix_edges_in")


def test_id_and_key_lookups(big_store) -> None:
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.VERTICES_BY_IDS, ["v1", "v2", "v9"])),
                   "SEARCH vertices USING INDEX sqlite_autoindex_vertices_1 (id=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.EDGES_BY_IDS, [1, 2])),
                   "SEARCH edges USING INDEX ix_edges_id (id=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.EDGES_BY_IDS, [7])), "SEARCH edges USING INDEX ix_edges_id (id=?)")
    parts = "SEARCH e USING INDEX ix_edges_out (out_key=? AND label_id=? AND sort_values=? AND in_key=?)"
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.EDGES_BY_PARTS, [(1, 9, "", 2), (3, 1, "1", 22)])), parts)
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.EDGES_BY_PARTS, [(1, 9, "", 2)])), parts.replace(" e ", " edges "))
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.EDGES_BY_END_IDS, [("v1", 9, "", "v2")])),
                   "SEARCH o USING COVERING INDEX sqlite_autoindex_vertices_1 (id=?)",
                   "SEARCH i USING COVERING INDEX sqlite_autoindex_vertices_1 (id=?)", parts)
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.VERTICES_BY_KEYS, [5, 1])), "USING INTEGER PRIMARY KEY")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.find(Lookup.EDGES_BY_KEYS, [5, 1])), "USING INTEGER PRIMARY KEY")


def test_label_counts_and_scans(big_store) -> None:
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.vertex_count([2])),
                   "SEARCH vertices USING COVERING INDEX ix_vertices_label (label_id=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.edge_count([1, 2])),
                   "SEARCH edges USING COVERING INDEX ix_edges_label (label_id=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.vertices_scan([3], after_key=10, limit=5)),
                   "SEARCH vertices USING INDEX ix_vertices_label (label_id=? AND key>?)")


def test_index_lookups(big_store) -> None:
    assert_indexed(plans_of(big_store, lambda tx: tx.index.read(IndexQuery(1), [5, 7])),
                   "SEARCH index_entries USING PRIMARY KEY (index_id=? AND value=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.index.read(IndexQuery(1, True), (10, 20))),
                   "SEARCH index_entries USING PRIMARY KEY (index_id=? AND value>? AND value<?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.index.read(IndexQuery(1, project=IndexProject.COUNT), [5])),
                   "SEARCH index_entries USING PRIMARY KEY (index_id=? AND value=?)")
    by_elem = "USING COVERING INDEX ix_index_entries_elem (elem_key=? AND elem_kind=? AND index_id=?)"
    assert_indexed(plans_of(big_store, lambda tx: tx.index.index_values(1, 5)),
                   "USING COVERING INDEX ix_index_entries_elem (elem_key=? AND elem_kind=?)")
    assert_indexed(plans_of(big_store, lambda tx: tx.index.index_remove(1, 5), write=True), by_elem)
    assert_indexed(plans_of(big_store, lambda tx: tx.index.index_remove(1, 5, 4), write=True),
                   "USING PRIMARY KEY (index_id=? AND value=? AND elem_key=?)")


def test_deletes_and_updates_are_indexed(big_store) -> None:
    """Deleting a vertex cascades to edges and index entries: every step uses an index."""
    plans = plans_of(big_store, lambda tx: tx.elements.vertices_delete([1, 2]), write=True)
    assert_indexed(plans, "USING INTEGER PRIMARY KEY")
    # the cascade is a trigger (layout v2): EXPLAIN does not show trigger programs, so plan
    # its statements one by one, as they run for a deleted vertex key
    with big_store.read() as tx:
        for name, needle in (("tr_vertices_edge_cascade", "ix_edges_out (out_key=?)"),
                             ("tr_vertices_edge_cascade", "ix_edges_in (in_key=?)"),
                             ("tr_edges_index_cleanup", "ix_index_entries_elem (elem_key=? AND elem_kind=?)")):
            body = tables.TRIGGERS[name][1].replace("OLD.key", "1")
            stmts = [s.strip() for s in body.split(";") if s.strip()]
            plans = [(sql, [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + sql)]) for sql in stmts]
            assert any(needle in ln for _sql, lines in plans for ln in lines), plans
            assert_indexed(plans)
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.edges_delete([1, 2]), write=True), "USING INTEGER PRIMARY KEY")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.edge_update(3, "{}"), write=True), "USING INTEGER PRIMARY KEY")
    assert_indexed(plans_of(big_store, lambda tx: tx.elements.vertex_update(3, "{}"), write=True), "USING INTEGER PRIMARY KEY")
    with big_store.read() as tx:
        assert tx.elements.vertex_count() == 3000  # all rolled back


def test_lookups_need_no_sort_of_index_results(big_store) -> None:
    for sql, lines in plans_of(big_store, lambda tx: tx.index.read(IndexQuery(1, limit=3), [5, 7])):
        assert not any("TEMP B-TREE" in line for line in lines), (sql, lines)


def test_results_are_right_on_the_big_store(big_store) -> None:
    with big_store.read() as tx:
        assert tx.elements.vertex_count([2]) == 600
        assert len(tx.index.read(IndexQuery(1), [5])) == 30
        assert len(tx.adjacency.read(AdjacencyQuery("out", [9], None, Project.PAIRS), list(range(1, 3001)))) == 3000


def test_neighbour_ids_read_the_adjacency_index_alone(big_store) -> None:
    """Layout v3: the far end's id is in the out-adjacency index, so a 1-hop out id read
    is the start's id probe and one covering range, in the index's own order (no sort),
    and no vertex or edge row. The in side reads its covering range, then each id by key,
    unless `tables.IN_SIDE_IDS` puts out_id in its index too."""
    start = "SEARCH s USING COVERING INDEX sqlite_autoindex_vertices_1 (id=?)"
    by_key = [] if tables.IN_SIDE_IDS else ["SEARCH v USING INTEGER PRIMARY KEY (rowid=?)"]
    cases = (("out", [start, "SEARCH e USING COVERING INDEX ix_edges_out (out_key=? AND label_id=?)"]),
             ("in", [start, "SEARCH e USING COVERING INDEX ix_edges_in (in_key=? AND label_id=?)", *by_key]))
    for direction, want in cases:
        for sql, lines in plans_of(big_store, lambda tx, d=direction: tx.adjacency.from_id(AdjacencyQuery(d, [1]), "v1")):
            assert lines == want, (sql, lines)
    plans = plans_of(big_store, lambda tx: tx.adjacency.from_id(AdjacencyQuery("both", None), "v1"))
    assert_indexed(plans, "USING COVERING INDEX ix_edges_out (out_key=?)", "USING COVERING INDEX ix_edges_in (in_key=?)")
    assert sum("SEARCH v " in ln for _sql, lines in plans for ln in lines) == len(by_key), plans


def test_in_side_order_by_is_the_index_walk(big_store) -> None:
    """The in side's ORDER BY is ``ix_edges_in``'s own order (`tx_adjacency.tie`: with
    out_id named before the key when the index holds it), so the one-key reads sort
    nothing, and a per-vertex
    limit's sub-select neither (the one sort is the outer, across vertices, as in v2)."""
    for call in (lambda tx: tx.adjacency.read(AdjacencyQuery("in", [1], None, Project.PAIRS), [5]), lambda tx: tx.adjacency.read(AdjacencyQuery("in", None, None, Project.EDGES), [5])):
        for sql, lines in plans_of(big_store, call):
            assert not any("TEMP B-TREE" in ln for ln in lines), (sql, lines)
            assert any("ix_edges_in" in ln for ln in lines), (sql, lines)
    for _sql, lines in plans_of(big_store, lambda tx: tx.adjacency.read(AdjacencyQuery("in", [1], 2, Project.PAIRS), [5, 6])):
        assert sum("TEMP B-TREE" in ln for ln in lines) == 1 and lines[-1] == "USE TEMP B-TREE FOR ORDER BY", lines
