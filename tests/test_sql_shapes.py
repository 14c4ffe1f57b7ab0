"""Pins the SQL the engine sends to SQLite for the hot read shapes, and that SQLite answers
each statement from an index.

A Gremlin engine over SQL is only as fast as the statements it issues: one full scan where
a B-tree search belongs turns a point read into O(graph) work, and nothing else in the
suite would notice. So every statement the engine runs for `V().has(label, key, value)`
(with an index label on key), `out(label)` and `count()` is captured with the sqlite3 trace
callback on the graph's own connections (storage executes on the driver connection, below
SQLAlchemy's cursor events) and explained with `EXPLAIN QUERY PLAN`:

* no plan line may be a `SCAN` of a table; the allowed scans are the `json_each` batch of
  keys the storage layer joins against (a virtual table, as many rows as the batch), the
  frontier of a walk count (a CTE `fr` holding the previous level's keys) and a bare
  `count(*)`, which SQLite answers by walking the smallest covering index;
* the statements hit the index the storage docs promise (index_entries primary key,
  `ix_edges_out`, `ix_vertices_label`), and a read makes a bounded number of them.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from gremlin_engine import GraphConfig, GraphRegistry
from gremlin_engine.graph import Graph
from gremlin_engine.runtime import api
from gremlin_engine.structure.numbers import Long

N_PEOPLE = 300

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("propertykey", {"name": "city", "data_type": "TEXT"}),
    ("propertykey", {"name": "weight", "data_type": "DOUBLE"}),
    ("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name", "city"],
                     "nullable_keys": ["city"]}),
    ("vertexlabel", {"name": "software", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]}),
    ("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person",
                   "properties": ["weight"], "nullable_keys": ["weight"]}),
    ("edgelabel", {"name": "created", "source_label": "person", "target_label": "software"}),
    ("indexlabel", {"name": "personByName", "base_type": "VERTEX_LABEL", "base_value": "person",
                    "index_type": "SECONDARY", "fields": ["name"]}),
)

#: statements every call makes that are not about the data (graph mode, schema cache fill)
BOOKKEEPING = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b|\bFROM (meta|schema_items)\b", re.I)


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[Graph]:
    """A strict graph on a SQLite file: 300 people (each knows the next five), a few
    pieces of software, and an index label on `name`."""
    cfg = GraphConfig(name="shapes", backend="sqlite", store=str(tmp_path / "shapes.db"))
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    g = registry.open(cfg)
    for kind, body in SCHEMA:
        _el, task = g.schema.create(kind, body)
        if task:
            assert g.tasks.wait(task, 30)["task_status"] == "success"
    with api.write_access(g) as access:
        people = [access.add_vertex("person", Long(i), [("name", f"p{i}"), ("city", f"c{i % 7}")])
                  for i in range(1, N_PEOPLE + 1)]
        tools = [access.add_vertex("software", Long(10_000 + i), [("name", f"s{i}")]) for i in range(3)]
        for i, v in enumerate(people):
            for d in range(1, 6):
                access.add_edge("knows", v, people[(i + d) % N_PEOPLE], None, [("weight", 0.5)])
            access.add_edge("created", v, tools[i % 3])
    try:
        yield g
    finally:
        registry.close_all()


class Captured:
    """Statements run on the graph's connections while `capture()` is active."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.sql: list[str] = []
        event.listen(graph.store.engine, "checkout", self._on_checkout)

    def _on_checkout(self, dbapi_conn: sqlite3.Connection, _rec: object, _proxy: object) -> None:
        dbapi_conn.set_trace_callback(self.sql.append)

    def run(self, script: str) -> tuple[list, list[str]]:
        """Runs `script`; returns its results and the data statements it issued."""
        self.sql.clear()
        results = self.graph.execute(script)
        return results, [s for s in self.sql if not BOOKKEEPING.search(s)]

    def plan(self, sql: str) -> list[str]:
        con = sqlite3.connect(self.graph.config.store_path)
        try:
            return [row[3] for row in con.execute("EXPLAIN QUERY PLAN " + sql)]
        finally:
            con.close()


@pytest.fixture
def cap(graph: Graph) -> Iterator[Captured]:
    c = Captured(graph)
    c.run("g.V().limit(1)")  # warm the schema cache, so only data statements follow
    yield c
    event.remove(graph.store.engine, "checkout", c._on_checkout)


def assert_indexed(cap: Captured, statements: list[str]) -> list[list[str]]:
    """Every statement is a SELECT whose plan searches an index; returns the plans."""
    plans = []
    for sql in statements:
        assert sql.lstrip().upper().startswith(("SELECT", "WITH")), f"a read issued a write: {sql}"
        plan = cap.plan(sql)
        bare_count = re.match(r"\s*SELECT count\(\*\) FROM \w+\s*$", sql, re.I) is not None
        for line in plan:
            if not line.startswith("SCAN "):
                continue
            if "VIRTUAL TABLE" in line:  # json_each(batch of keys)
                continue
            if re.fullmatch(r"SCAN (fr|\(subquery-\d+\))", line):  # a walk's frontier (a CTE)
                continue
            if bare_count and "USING COVERING INDEX" in line:
                continue
            pytest.fail(f"full scan in the plan of\n  {sql}\n  -> {plan}")
        plans.append(plan)
    return plans


def test_has_label_key_value_searches_the_index_label(cap: Captured) -> None:
    results, stmts = cap.run("g.V().has('person', 'name', 'p42').values('name')")
    assert results == ["p42"]
    plans = assert_indexed(cap, stmts)
    lookups = [i for i, s in enumerate(stmts) if "FROM index_entries" in s]
    assert len(lookups) == 1, stmts
    assert re.search(r"index_id = \d+ AND value (=|IN \()\s*'p42'", stmts[lookups[0]]), stmts[lookups[0]]
    assert any("USING PRIMARY KEY (index_id=? AND value=?)" in ln for ln in plans[lookups[0]])
    # then the matching vertex row by its key: a rowid search, never a scan filtering props
    assert not any("props" in s and ("LIKE" in s or "json_extract" in s) for s in stmts)
    assert len(stmts) <= 2, stmts


def test_has_count_is_answered_from_the_index(cap: Captured) -> None:
    results, stmts = cap.run("g.V().has('person', 'name', 'p7').count()")
    assert results == [1]
    plans = assert_indexed(cap, stmts)
    assert len(stmts) == 1, stmts
    assert re.search(r"count\(DISTINCT elem_key\) FROM index_entries", stmts[0]), stmts[0]
    assert any("index_entries USING PRIMARY KEY" in ln for ln in plans[0])


def test_out_label_uses_the_adjacency_index(cap: Captured) -> None:
    results, stmts = cap.run("g.V(10).out('knows').id()")
    assert sorted(results) == [11, 12, 13, 14, 15]
    plans = assert_indexed(cap, stmts)
    adjacency = [i for i, s in enumerate(stmts) if "FROM" in s and "edges" in s]
    assert len(adjacency) == 1, stmts
    sql = stmts[adjacency[0]]
    # the general adjacency statement (k.value) or the fused hopIds one, starting at the id (s.key)
    assert re.search(r"out_key = (k\.value|s\.key) AND e\.label_id = \d+", sql), sql
    assert any("USING COVERING INDEX ix_edges_out (out_key=? AND label_id=?)" in ln for ln in plans[adjacency[0]])
    # the start vertex by id, the adjacency, the neighbours by key: nothing per neighbour
    assert len(stmts) <= 3, stmts
    # the fused hopIds step: one statement whose neighbour ids come from the adjacency
    # index itself (layout v3's in_id): no search of the vertex table per neighbour, no sort
    for _ in range(3):
        results, stmts = cap.run("g.V(10).out('knows').id()")
    assert results == [11, 12, 13, 14, 15] and len(stmts) == 1, stmts
    plan = assert_indexed(cap, stmts)[0]
    assert "e.in_id" in stmts[0], stmts
    assert plan == ["SEARCH s USING COVERING INDEX sqlite_autoindex_vertices_1 (id=?)",
                    "SEARCH e USING COVERING INDEX ix_edges_out (out_key=? AND label_id=?)"], plan


def test_out_without_label_and_two_hops_stay_batched(cap: Captured) -> None:
    results, stmts = cap.run("g.V(10).out().out().count()")
    assert results == [5 * 6]  # 5 people, each knows 5 and created 1; software has no out-edges
    assert_indexed(cap, stmts)
    adjacency = [s for s in stmts if "edges" in s]
    assert len(adjacency) == 1, stmts  # the whole walk is one statement, not one per hop
    assert all("ix_edges_out" in ln for s in adjacency for ln in cap.plan(s) if " e " in f" {ln} ")
    assert len(stmts) <= 2, stmts
    # without count() each hop is still one batched statement, whatever the frontier size
    results, stmts = cap.run("g.V(10).out().out().id()")
    assert len(results) == 30
    assert len([s for s in stmts if "edges" in s]) == 2, stmts


def test_count_by_label_reads_only_the_label_index(cap: Captured) -> None:
    results, stmts = cap.run("g.V().hasLabel('person').count()")
    assert results == [N_PEOPLE]
    plans = assert_indexed(cap, stmts)
    assert len(stmts) == 1 and re.match(r"\s*SELECT count\(\*\) FROM vertices\b", stmts[0]), stmts
    assert any("USING COVERING INDEX ix_vertices_label (label_id=?)" in ln for ln in plans[0])


def test_count_all_is_one_statement(cap: Captured) -> None:
    results, stmts = cap.run("g.V().count()")
    assert results == [N_PEOPLE + 3]
    plans = assert_indexed(cap, stmts)
    assert stmts == ["SELECT count(*) FROM vertices"]
    assert any("COVERING INDEX" in ln for ln in plans[0])  # the small label index, not the table
    results, stmts = cap.run("g.E().hasLabel('knows').count()")
    assert results == [5 * N_PEOPLE]
    plans = assert_indexed(cap, stmts)
    assert len(stmts) == 1 and "count(" in stmts[0].lower()
    assert any("ix_edges_label (label_id=?)" in ln for ln in plans[0])


def test_out_count_is_indexed(cap: Captured) -> None:
    results, stmts = cap.run("g.V(10).out('knows').count()")
    assert results == [5]
    assert_indexed(cap, stmts)
    assert sum("edges" in s for s in stmts) == 1, stmts


def test_out_count_reads_no_vertex_rows(cap: Captured) -> None:
    results, stmts = cap.run("g.V(10).out('knows').count()")
    assert results == [5]
    assert not [s for s in stmts if "FROM json_each" in s and "vertices" in s], stmts
    # bulk and 'both' are counted as iterating would: 5 out + 5 in 'knows' per person
    results, stmts = cap.run("g.V(10, 10, 11).both('knows').count()")
    assert results == [30]
    assert not [s for s in stmts if "FROM json_each" in s and "vertices" in s], stmts
    assert cap.run("g.V(10).out('knows').out('knows').count()")[0] == [25]
    assert cap.run("g.V(10).out('nosuch').count()")[0] == [0]


def test_out_id_reads_no_neighbour_properties(cap: Captured) -> None:
    results, stmts = cap.run("g.V(10).out('knows').id()")
    assert sorted(results) == [11, 12, 13, 14, 15]
    assert_indexed(cap, stmts)
    assert not [s for s in stmts if "props" in s and "edges" in s], stmts
    assert len(stmts) <= 2, stmts  # the start vertex, then adjacency joined with the heads
    assert sorted(cap.run("g.V(11).in('knows').label()")[0]) == ["person"] * 5
    # neighbours first met without their properties still load when asked later
    got = cap.run("g.V(10).union(out('knows').id(), out('knows').values('name'))")[0]
    assert sorted(map(str, got)) == sorted(["11L", "12L", "13L", "14L", "15L", "p11", "p12", "p13", "p14", "p15"])
    assert cap.run("g.V(10).out('created').id()")[0] == [10_000]  # person i created s((i - 1) % 3)


def test_k_hop_count_is_one_walk_statement_reading_no_vertex_rows(cap: Captured) -> None:
    """`repeat(out()).times(k).count()`: one statement, a GROUP BY per intermediate level
    on the adjacency index, and no vertex row or edge property read. Up to three hops from
    one id, even the first (pipeline) run is one join chain (`walk_count_from_id`)."""
    for k, want in ((2, 5 * 5 + 5), (3, 5 * 5 * 6)):
        results, stmts = cap.run(f"g.V(10).repeat(out()).times({k}).count()")
        assert results == [want], k
        assert_indexed(cap, stmts)
        assert len(stmts) == 1 and "CROSS JOIN edges" in stmts[0] and "WITH" not in stmts[0], stmts
        assert "props" not in stmts[0], stmts
    for k, want in ((4, 5 * 5 * 5 * 6), (5, 5 * 5 * 5 * 5 * 6)):
        results, stmts = cap.run(f"g.V(10).repeat(out()).times({k}).count()")
        assert results == [want], k
        plans = assert_indexed(cap, stmts)
        walks = [i for i, s in enumerate(stmts) if s.lstrip().startswith("WITH")]
        assert len(walks) == 1 and len(stmts) <= 2, stmts
        sql, plan = stmts[walks[0]], plans[walks[0]]
        assert "vertices" not in sql and "props" not in sql, sql
        assert sql.count("GROUP BY") == k - 1, sql
        assert sum("USING COVERING INDEX ix_edges_out (out_key=?)" in ln for ln in plan) == k, plan
    # labels and directions: 'knows' both ways is 10 per person, 'created' in-edges end at software
    results, stmts = cap.run("g.V(10).repeat(both('knows')).times(2).count()")
    assert results == [100]
    plans = assert_indexed(cap, stmts)
    assert any("ix_edges_in (in_key=? AND label_id=?)" in ln for p in plans for ln in p), plans
    assert cap.run("g.V(10).out('created').in('created').count()")[0] == [N_PEOPLE // 3]


def test_group_count_by_key_is_one_group_by(cap: Captured) -> None:
    """`V().groupCount().by(key)` groups inside SQLite: one statement, no vertex built."""
    results, stmts = cap.run("g.V().hasLabel('person').groupCount().by('city')")
    assert results == [{f"c{i}": (N_PEOPLE - i) // 7 + (1 if i else 0) for i in (1, 2, 3, 4, 5, 6, 0)}]
    assert list(results[0]) == [f"c{i}" for i in (1, 2, 3, 4, 5, 6, 0)]  # first met, as a scan
    assert len(stmts) == 1 and "GROUP BY" in stmts[0], stmts
    plans = assert_indexed(cap, stmts)
    assert any("ix_vertices_label (label_id=?)" in ln for ln in plans[0]), plans
    # the whole graph has no index to narrow it: the one scan is the table itself (as raw SQL)
    results, stmts = cap.run("g.V().groupCount().by(label)")
    assert results == [{"person": N_PEOPLE, "software": 3}]
    assert len(stmts) == 1 and "GROUP BY label_id" in stmts[0], stmts
    assert any("COVERING INDEX ix_vertices_label" in ln for ln in cap.plan(stmts[0])), cap.plan(stmts[0])


def test_whole_graph_walk_count_builds_no_start_vertex(cap: Captured) -> None:
    results, stmts = cap.run("g.V().hasLabel('person').out('knows').out('knows').count()")
    assert results == [N_PEOPLE * 25]
    assert len(stmts) == 1 and "json_each" not in stmts[0], stmts
    plans = assert_indexed(cap, stmts)
    assert any("ix_vertices_label (label_id=?)" in ln for ln in plans[0]), plans


def test_a_point_walk_count_is_one_join_chain(cap: Captured) -> None:
    """`V(id).out().out().count()` (and up to three hops) is one join chain from the id
    (`WalkCountStep.start`): the start by the vertex id index, then one covering adjacency
    range per hop; 'both' is one branch per side. No frontier CTE."""
    for script, want, ranges in (
        ("g.V(10).out().out().count()", 25 + 5, ["ix_edges_out (out_key=?)"] * 2),
        ("g.V(10).out('knows').in('knows').count()", 25, ["ix_edges_out (out_key=? AND label_id=?)",
                                                           "ix_edges_in (in_key=? AND label_id=?)"]),
        ("g.V(10).repeat(both('knows')).times(2).count()", 100, ["ix_edges_out (out_key=? AND label_id=?)",
                                                                  "ix_edges_in (in_key=? AND label_id=?)"]),
    ):
        cap.sql.clear()
        assert cap.graph.execute(script) == [want], script
        stmts = [s for s in cap.sql if not BOOKKEEPING.search(s)]
        assert len(stmts) == 1, cap.sql
        assert "CROSS JOIN edges" in stmts[0] and "WITH" not in stmts[0] and "props" not in stmts[0], stmts
        plan = assert_indexed(cap, stmts)[0]
        assert sum("USING COVERING INDEX sqlite_autoindex_vertices_1 (id=?)" in ln for ln in plan) == stmts[0].count("FROM vertices")
        for index in ranges:
            assert any(f"USING COVERING INDEX {index}" in ln for ln in plan), (index, plan)
