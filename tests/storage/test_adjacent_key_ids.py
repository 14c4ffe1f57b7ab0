"""`tx.adjacent_key_ids`: the (to key, to id) rows of a side whose adjacency index holds the
far ids (layout v3: 'out') are exactly `adjacent_keys`' to-keys joined to `vertex_ids_of`
(same rows, same order, the same stored types: 1, '1' and b'1' distinct), for every label
filter, per-vertex limit and row cap; the read is covering (no `edges` or `vertices` row);
the sides the index does not cover are refused."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from storage import StoreError
from storage.tables import IN_SIDE_IDS
from storage.tx_adjacency import _key_ids_sql
from tests.storage.test_layout_v3 import v3  # noqa: F401  (the fixture: VERTICES / EDGES fresh and upgraded)

KEY_SETS = ([1], [4], [1, 4], [4, 1, 3, 1], [2, 5, 6], [6], [99], [1, 2, 3, 4, 5, 6])
LABELS = (None, [1], [2], [1, 2], [])
LIMITS = (None, 1, 2, 0)
CAPS = (None, 0, 1, 3)


def _joined(tx: Any, keys: list[int], lids: Any, lim: Any, cap: Any) -> list[tuple[Any, Any, type]]:
    """What the reads before layout v3 gave: the ordered to-keys, then a probe each."""
    tos = [to for _, to in tx.adjacent_keys(keys, "out", lids, lim, cap)]
    ids = tx.vertex_ids_of(tos)
    return [(to, ids[to], type(ids[to])) for to in tos]


def test_rows_are_the_joined_reads(v3: Any) -> None:  # noqa: F811
    with v3.read() as tx:
        seen = 0
        for keys, lids, lim, cap in itertools.product(KEY_SETS, LABELS, LIMITS, CAPS):
            got = tx.adjacent_key_ids(keys, "OUT", lids, lim, cap)
            assert [(k, i, type(i)) for k, i in got] == _joined(tx, keys, lids, lim, cap), (keys, lids, lim, cap)
            seen += len(got)
        assert seen > 200
        # a known answer: vertex 1's out-edges in index order (label, sort values, other end, dup)
        assert tx.adjacent_key_ids([1], "out") == [(2, "1"), (3, b"1"), (3, b"1"), (4, "1:marko"), (4, "1:marko")]
        assert tx.adjacent_key_ids([4], "out", [1]) == [(1, 1), (4, "1:marko")]


def test_which_sides_are_covered(v3: Any) -> None:  # noqa: F811
    with v3.read() as tx:
        assert tx.far_ids_covered("out") and tx.far_ids_covered("OUT")
        assert not tx.far_ids_covered("both")
        assert tx.far_ids_covered("in") is IN_SIDE_IDS
        with pytest.raises(StoreError):
            tx.adjacent_key_ids([1], "both")
        if not IN_SIDE_IDS:
            with pytest.raises(StoreError):
                tx.adjacent_key_ids([1], "in")


@pytest.mark.parametrize(("labels", "one_key"), [((), True), ((1,), True), ((), False), ((1,), False), ((1, 2), False)])
def test_the_read_is_covering(v3: Any, labels: tuple[int, ...], one_key: bool) -> None:  # noqa: F811
    """Without a per-vertex limit the plan reads `ix_edges_out` alone (no table row of edges,
    no vertices probe) and sorts nothing where the index order is the answer's."""
    sql = _key_ids_sql("out", labels, one_key, False)
    arg: Any = 1 if one_key else "[1, 4]"
    with v3.read() as tx:
        plan = [r[-1] for r in tx.raw.execute(f"EXPLAIN QUERY PLAN {sql}", (arg,)).fetchall()]
    edges = [p for p in plan if " e " in f" {p} " or "edges" in p]
    assert edges and all("USING COVERING INDEX ix_edges_out" in p for p in edges), plan
    assert not any("vertices" in p for p in plan), plan
    if len(labels) <= 1:
        assert not any("TEMP B-TREE" in p for p in plan), plan
