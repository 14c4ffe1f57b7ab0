"""`tx.adjacent_key_id_lists`: `adjacent_key_ids`' rows as two lists (to keys, stored ids),
the same values of the same types in the same order for every key set, label filter,
per-vertex limit and row cap; read as two JSON arrays where the shape allows (int and str
ids), split from the rows where it does not (a blob id, a per-vertex limit, two labels)."""

from __future__ import annotations

import itertools
from typing import Any

import orjson
import pytest

from storage import StoreError
from storage.tx_adjacency import _key_id_lists_sql
from tests.storage.test_adjacent_key_ids import CAPS, KEY_SETS, LABELS, LIMITS
from tests.storage.test_layout_v3 import v3  # noqa: F401  (the fixture: VERTICES / EDGES fresh and upgraded)


def _typed(values: list[Any]) -> list[tuple[Any, type]]:
    return [(v, type(v)) for v in values]


def test_lists_are_the_rows_split(v3: Any) -> None:  # noqa: F811
    with v3.read() as tx:
        seen = 0
        for keys, lids, lim, cap in itertools.product(KEY_SETS, LABELS, LIMITS, CAPS):
            rows = tx.adjacent_key_ids(keys, "OUT", lids, lim, cap)
            tos, ids = tx.adjacent_key_id_lists(iter(keys), "OUT", lids, lim, cap)
            assert _typed(tos) == _typed([r[0] for r in rows]), (keys, lids, lim, cap)
            assert _typed(ids) == _typed([r[1] for r in rows]), (keys, lids, lim, cap)
            seen += len(tos)
        assert seen > 200
        # known answers: a blob id among them (the rows split), and int and str ids only
        assert tx.adjacent_key_id_lists([1], "out") == ([2, 3, 3, 4, 4], ["1", b"1", b"1", "1:marko", "1:marko"])
        assert tx.adjacent_key_id_lists([4, 5], "out", [1]) == ([1, 4], [1, "1:marko"])
        assert tx.adjacent_key_id_lists([4], "out", [1], max_rows=1) == ([1], [1])
        assert tx.adjacent_key_id_lists([99, 6], "out") == ([], [])
        assert tx.adjacent_key_id_lists([1], "out", []) == ([], [])


@pytest.mark.parametrize("one_key", [True, False])
def test_json_arrays_keep_the_stored_types(v3: Any, one_key: bool) -> None:  # noqa: F811
    """The JSON form itself (taken for int and str ids): an int id stays an int and a str
    that looks like one stays a str; a blob id is refused by SQLite, which sends the
    method to the rows."""
    sql = _key_id_lists_sql("out", (1,), one_key, False)
    arg: Any = 4 if one_key else "[4, 5]"
    with v3.read() as tx:
        tos, ids = tx.raw.execute(sql, (arg,)).fetchone()
        assert (orjson.loads(tos), orjson.loads(ids)) == ([1, 4], [1, "1:marko"])
        key_2 = tx.raw.execute(_key_id_lists_sql("out", (1,), True, False), (2,)).fetchone()
        assert key_2 == ("[]", "[]")
        with pytest.raises(Exception, match="BLOB"):
            tx.raw.execute(_key_id_lists_sql("out", (), True, False), (1,)).fetchone()


def test_uncovered_sides_are_refused(v3: Any) -> None:  # noqa: F811
    with v3.read() as tx, pytest.raises(StoreError):
        tx.adjacent_key_id_lists([1], "both")


def test_to_keys_and_targets_with_a_per_vertex_limit(v3: Any) -> None:  # noqa: F811
    """`adjacent_to_keys` (ordered) and `adjacent_targets` (a multiset) read per-vertex
    limits key by key from the index: the same answer as `adjacent_keys`' rows, and with a
    row cap its first rows (to_keys) or that many of them (targets)."""
    with v3.read() as tx:
        seen = 0
        for keys, lids, lim, cap in itertools.product(KEY_SETS, LABELS, LIMITS, CAPS):
            for direction in ("out", "in"):
                ordered = [to for _, to in tx.adjacent_keys(keys, direction, lids, lim, cap)]
                assert tx.adjacent_to_keys(iter(keys), direction, lids, lim, cap) == ordered, (keys, lids, lim, cap)
                targets = tx.adjacent_targets(keys, direction, lids, lim, cap)
                whole = [to for _, to in tx.adjacent_keys(keys, direction, lids, lim)]
                assert len(targets) == len(ordered)
                assert all(targets.count(t) <= whole.count(t) for t in targets), (keys, lids, lim, cap)
                if cap is None:
                    assert sorted(targets) == sorted(whole)
                seen += len(ordered)
        assert seen > 200
        assert tx.adjacent_to_keys([1], "out", None, 2) == [2, 3]
        assert tx.adjacent_to_keys([4, 1], "out", None, 1, 1) == [1]
        assert tx.adjacent_key_id_lists([1, 4], "out", None, 1) == ([2, 1], ["1", 1])
