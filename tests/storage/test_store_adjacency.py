"""Batch adjacency: order, directions, labels, self-loops, limits, big batches."""

from __future__ import annotations

from enum import Enum

import pytest

from storage import AdjacencyQuery, Project, StoreError


class Direction(Enum):  # stands in for the engine's token: adjacency accepts anything with .name
    OUT = "out"
    IN = "in"
    BOTH = "both"


@pytest.fixture
def graph(store):
    """a->b (knows, sort 'x'), a->c (knows, sort ''), a->b (likes), c->a (knows), b->b (loop, knows)."""
    with store.write() as tx:
        a, b, c, lonely = tx.elements.vertices_insert([("a", 1, None), ("b", 1, None), ("c", 1, None), ("z", 1, None)])
        e = tx.elements.edges_insert([
            ("ab_knows", 10, a, b, "x", None),
            ("ac_knows", 10, a, c, "", None),
            ("ab_likes", 20, a, b, "", None),
            ("ca_knows", 10, c, a, "", None),
            ("bb_knows", 10, b, b, "", None),
        ])
    return store, dict(a=a, b=b, c=c, z=lonely), dict(zip(["ab_knows", "ac_knows", "ab_likes", "ca_knows", "bb_knows"], e, strict=True))


def ids(rows):
    return [r.id for r in rows]


def test_out_order_is_vertex_label_sort_other(graph) -> None:
    store, v, _ = graph
    with store.read() as tx:
        # label 10 before 20; within label 10 sort '' before 'x'
        assert ids(tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), [v["a"]])) == ["ac_knows", "ab_knows", "ab_likes"]
        # input position decides the vertex order, not the key
        assert ids(tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), [v["c"], v["a"]])) == ["ca_knows", "ac_knows", "ab_knows", "ab_likes"]
        assert ids(tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), [v["a"], v["c"]])) == ["ac_knows", "ab_knows", "ab_likes", "ca_knows"]


def test_in_and_labels(graph) -> None:
    store, v, _ = graph
    with store.read() as tx:
        assert ids(tx.adjacency.read(AdjacencyQuery("in", None, None, Project.EDGES), [v["b"]])) == ["bb_knows", "ab_knows", "ab_likes"]
        assert ids(tx.adjacency.read(AdjacencyQuery("in", [20], None, Project.EDGES), [v["b"]])) == ["ab_likes"]
        assert ids(tx.adjacency.read(AdjacencyQuery(Direction.OUT, [10, 99], None, Project.EDGES), [v["a"]])) == ["ac_knows", "ab_knows"]
        assert tx.adjacency.read(AdjacencyQuery("out", [], None, Project.EDGES), [v["a"]]) == []
        assert tx.adjacency.read(AdjacencyQuery("both", None, None, Project.EDGES), [v["z"]]) == []
        assert tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), []) == []


def test_both_gives_out_then_in_and_self_loop_twice(graph) -> None:
    store, v, _ = graph
    with store.read() as tx:
        assert ids(tx.adjacency.read(AdjacencyQuery(Direction.BOTH, None, None, Project.EDGES), [v["b"]])) == ["bb_knows", "bb_knows", "ab_knows", "ab_likes"]
        assert ids(tx.adjacency.read(AdjacencyQuery("both", None, None, Project.EDGES), [v["a"]])) == ["ac_knows", "ab_knows", "ab_likes", "ca_knows"]
        assert tx.adjacency.read(AdjacencyQuery("both", None, None, Project.PAIRS), [v["b"]]) == [(v["b"], v["b"]), (v["b"], v["b"]), (v["b"], v["a"]), (v["b"], v["a"])]


def test_adjacent_keys_matches_adjacent(graph) -> None:
    store, v, _ = graph
    batch = [v["c"], v["b"], v["a"], v["z"]]
    with store.read() as tx:
        for d in ("out", "in", "both"):
            rows = tx.adjacency.read(AdjacencyQuery(d, None, None, Project.EDGES), batch)
            pairs = tx.adjacency.read(AdjacencyQuery(d, None, None, Project.PAIRS), batch)
            assert len(rows) == len(pairs)
            for (frm, to), r in zip(pairs, rows, strict=True):
                assert (frm, to) in ((r.out_key, r.in_key), (r.in_key, r.out_key))
        assert tx.adjacency.read(AdjacencyQuery("out", None, None, Project.PAIRS), [v["a"]]) == [(v["a"], v["c"]), (v["a"], v["b"]), (v["a"], v["b"])]
        assert tx.adjacency.read(AdjacencyQuery("in", [10], None, Project.PAIRS), [v["a"]]) == [(v["a"], v["c"])]


def test_duplicate_input_keys_answered_once(graph) -> None:
    store, v, _ = graph
    with store.read() as tx:
        assert ids(tx.adjacency.read(AdjacencyQuery("out", None, None, Project.EDGES), [v["c"], v["c"]])) == ["ca_knows"]


def test_limit_per_vertex(graph) -> None:
    store, v, _ = graph
    with store.read() as tx:
        assert ids(tx.adjacency.read(AdjacencyQuery("out", None, 1, Project.EDGES), [v["a"], v["b"]])) == ["ac_knows", "bb_knows"]
        assert ids(tx.adjacency.read(AdjacencyQuery("out", None, 2, Project.EDGES), [v["a"]])) == ["ac_knows", "ab_knows"]
        assert ids(tx.adjacency.read(AdjacencyQuery("out", [20], 5, Project.EDGES), [v["a"]])) == ["ab_likes"]
        # 'both': n in total per vertex, out-edges first
        assert ids(tx.adjacency.read(AdjacencyQuery("both", None, 3, Project.EDGES), [v["a"], v["b"]])) == [
            "ac_knows", "ab_knows", "ab_likes", "bb_knows", "bb_knows", "ab_knows"]
        assert tx.adjacency.read(AdjacencyQuery("both", None, 1, Project.PAIRS), [v["a"]]) == [(v["a"], v["c"])]
        assert tx.adjacency.read(AdjacencyQuery("out", None, 0, Project.EDGES), [v["a"]]) == []


def test_bad_direction(graph) -> None:
    store, v, _ = graph
    with store.read() as tx, pytest.raises(StoreError, match="direction"):
        tx.adjacency.read(AdjacencyQuery("sideways", None, None, Project.EDGES), [v["a"]])


def test_large_batch_in_one_call(store) -> None:
    n = 3000
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, None) for i in range(n)])
        tx.elements.edges_insert([(None, 1 + i % 2, keys[i], keys[(i + 1) % n], "", None) for i in range(n)]
                        + [(None, 1, keys[i], keys[(i + 2) % n], "", None) for i in range(n)])
    batch = list(reversed(keys))
    with store.read() as tx:
        pairs = tx.adjacency.read(AdjacencyQuery("out", None, None, Project.PAIRS), batch)
        assert len(pairs) == 2 * n
        assert [f for f, _ in pairs[::2]] == batch
        rows = tx.adjacency.read(AdjacencyQuery("in", [2], None, Project.EDGES), batch)
        assert len(rows) == n // 2
        position = {k: i for i, k in enumerate(keys)}
        assert [r.in_key for r in rows] == [k for k in batch if (position[k] - 1) % n % 2 == 1]
