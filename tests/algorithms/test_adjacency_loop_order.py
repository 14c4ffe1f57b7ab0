"""The adjacency statements that leave out their ORDER BY (`adjacency_sql.loop_ordered`: one
label or none, no per-vertex limit) rely on their plan: json_each as the outer loop, then
one equality range of the adjacency index per key, whose columns are the sort key. These
tests pin that plan on a store big enough for the planner to have choices, and the order
itself against the ORDER BY form on keys given out of order (with duplicates)."""

from __future__ import annotations

import random

import pytest

from storage import AdjacencyQuery, Project, _sql, open_store
from storage import adjacency_sql as ta


@pytest.fixture(scope="module")
def store():
    rnd = random.Random(7)
    s = open_store(None)
    s.initialise()
    with s.write() as tx:
        vkeys = tx.elements.vertices_insert([(f"v{i}", 1, None) for i in range(300)])
        rows = [(None, rnd.randint(1, 3), rnd.choice(vkeys), rnd.choice(vkeys), rnd.choice(["", "a", "b"]), None)
                for _ in range(4000)]
        rows += [(None, 1, vkeys[0], rnd.choice(vkeys), rnd.choice(["", "b"]), None) for _ in range(500)]  # a hub
        tx.elements.edges_insert(rows)
    s.vkeys = vkeys  # type: ignore[attr-defined]
    try:
        yield s
    finally:
        s.close()


def _plan(tx, sql: str) -> list[str]:
    return [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + sql, ["[]"] * sql.count("?"))]


@pytest.mark.parametrize("direction", ["out", "in"])
@pytest.mark.parametrize("labels", [(), (2,)])
@pytest.mark.parametrize("shape", ["keys", "rows", "heads"])
def test_unsorted_statements_walk_the_index_in_order(store, direction: str, labels: tuple[int, ...], shape: str) -> None:
    this = "out_key" if direction == "out" else "in_key"
    index = "ix_edges_out" if direction == "out" else "ix_edges_in"
    sql = (ta.heads_sql(direction, labels) if shape == "heads"
           else ta.adjacent_sql(direction, labels, False, shape == "keys"))
    assert "ORDER BY" not in sql
    with store.read() as tx:
        plan = _plan(tx, sql)
    assert plan[0].startswith("SCAN k"), plan
    want = f"{index} ({this}=?" + (" AND label_id=?)" if labels else ")")
    assert want in plan[1], plan
    assert not any("TEMP B-TREE" in line for line in plan), plan


@pytest.mark.parametrize("direction", ["out", "in"])
@pytest.mark.parametrize("labels", [None, [1], [3]])
def test_unsorted_answers_match_the_sorted_form(store, direction: str, labels: list[int] | None) -> None:
    rnd = random.Random(11)
    this, other = ta.SIDES[direction][0]
    lk = _sql.label_key(labels)
    with store.read() as tx:
        for _ in range(20):
            keys = [rnd.choice(store.vkeys) for _ in range(rnd.randint(1, 60))] + [store.vkeys[0]]
            rnd.shuffle(keys)
            arg = _sql.json_keys(_sql.unique(keys))
            for keys_only in (True, False):
                sql = ta.adjacent_sql(direction, lk, False, keys_only)
                order = f" ORDER BY k.key, e.label_id, e.sort_values, e.{other}, e.{ta.TIE[this]}"
                assert "ORDER BY" not in sql
                assert tx.raw.execute(sql, [arg]).fetchall() == tx.raw.execute(sql + order, [arg]).fetchall()
            heads = ta.heads_sql(direction, lk)
            order = f" ORDER BY k.key, e.label_id, e.sort_values, e.{other}, e.{ta.TIE[this]}"
            assert tx.raw.execute(heads, [arg]).fetchall() == tx.raw.execute(heads + order, [arg]).fetchall()


def test_several_labels_and_limits_keep_their_order_by() -> None:
    assert "ORDER BY" in ta.adjacent_sql("out", (1, 2), False, True)
    assert "ORDER BY" in ta.adjacent_sql("out", (1,), True, True)
    assert "ORDER BY" in ta.adjacent_sql("both", (1,), False, True)
    assert "ORDER BY" in ta.heads_sql("in", (1, 2))


@pytest.mark.parametrize("direction", ["out", "in"])
@pytest.mark.parametrize("labels", [(), (2,), (1, 3)])
def test_one_key_statements_walk_one_index_range(store, direction: str, labels: tuple[int, ...]) -> None:
    """A single key is bound as a plain parameter (`one_key_sql`, `one_target_sql`):
    one range of the adjacency index, and its ORDER BY is that index's order (no sort)."""
    this = "out_key" if direction == "out" else "in_key"
    index = "ix_edges_out" if direction == "out" else "ix_edges_in"
    with store.read() as tx:
        for sql in (ta.one_key_sql(direction, labels, True), ta.one_key_sql(direction, labels, False),
                    ta.one_target_sql(direction, labels)):
            plan = _plan(tx, sql)
            assert any(f"{index} ({this}=?" in line for line in plan), plan
            if len(labels) <= 1:
                assert not any("TEMP B-TREE" in line for line in plan), plan


@pytest.mark.parametrize("direction", ["out", "in", "both"])
@pytest.mark.parametrize("labels", [None, [1], [3], [1, 2]])
def test_one_key_answers_match_the_batch_form(store, direction: str, labels: list[int] | None) -> None:
    """Every adjacency read of one key answers as the json_each statement of the batch form
    does for that key (the same rows, in the same order; targets as the same multiset)."""
    this, other = ta.SIDES[direction][0]
    lk = _sql.label_key(labels)
    with store.read() as tx:
        for key in [store.vkeys[0], *random.Random(5).sample(store.vkeys, 25)]:
            arg = _sql.json_keys([key])
            for keys_only in (True, False):
                batch = ta.adjacent_sql(direction, lk, False, keys_only)
                rows = tx.raw.execute(batch, [arg] * batch.count("?")).fetchall()
                width = ta.WIDTH[keys_only]
                want = [tuple(r[:width]) for r in rows]
                got = (tx.adjacency.read(AdjacencyQuery(direction, labels, None, Project.PAIRS), [key]) if keys_only
                       else [tuple(r) for r in tx.adjacency.read(AdjacencyQuery(direction, labels, None, Project.EDGES), [key])])
                assert [tuple(r) for r in got] == want
            targets = sorted(r[1] for r in tx.adjacency.read(AdjacencyQuery(direction, labels, None, Project.PAIRS), [key]))
            assert sorted(tx.adjacency.read(AdjacencyQuery(direction, labels, None, Project.TARGETS), [key])) == targets


@pytest.mark.parametrize("direction", ["out", "in"])
@pytest.mark.parametrize("labels", [(), (2,)])
@pytest.mark.parametrize("one_key", [True, False])
def test_to_keys_statements_walk_the_index_in_order(store, direction: str, labels: tuple[int, ...],
                                                    one_key: bool) -> None:
    """`to_keys_sql` has no ORDER BY: its order is the loop's, one equality range of the
    adjacency index per key (after json_each's keys), with no sort."""
    this = "out_key" if direction == "out" else "in_key"
    index = "ix_edges_out" if direction == "out" else "ix_edges_in"
    sql = ta.to_keys_sql(direction, labels, one_key)
    assert "ORDER BY" not in sql
    with store.read() as tx:
        plan = _plan(tx, sql)
    want = f"{index} ({this}=?" + (" AND label_id=?)" if labels else ")")
    assert any(want in line for line in plan), plan
    assert not any("TEMP B-TREE" in line for line in plan), plan
    if not one_key:
        assert any(line.startswith("SCAN k") for line in plan), plan


@pytest.mark.parametrize("direction", ["out", "in", "both"])
@pytest.mark.parametrize("labels", [None, [1], [3], [1, 2], []])
@pytest.mark.parametrize("limit", [None, 2])
def test_to_keys_are_the_ordered_pairs_to_column(store, direction: str, labels: list[int] | None,
                                                 limit: int | None) -> None:
    """`adjacent_to_keys` gives `adjacent_keys`' to-keys in its order, for one key and for
    many (out of order, repeated)."""
    rnd = random.Random(13)
    with store.read() as tx:
        batches = [[store.vkeys[0]], [rnd.choice(store.vkeys)], []]
        for _ in range(15):
            keys = [rnd.choice(store.vkeys) for _ in range(rnd.randint(2, 60))] + [store.vkeys[0]]
            rnd.shuffle(keys)
            batches.append(keys)
        for keys in batches:
            want = [to for _, to in tx.adjacency.read(AdjacencyQuery(direction, labels, limit, Project.PAIRS), keys)]
            assert tx.adjacency.read(AdjacencyQuery(direction, labels, limit, Project.TO_KEYS), keys) == want
