"""`Aggregates.groups` by a property key over every label reads each chunk's member texts as one JSON array
(`tx_aggregates._texts_sql`) and counts them in a dict, relying on the rows reaching the
aggregate in key order. These tests pin that order (the statement's plan is one rowid range
of the table, and the groups equal the `GROUP BY ... ORDER BY min(key)` statement it
replaced on data whose first-appearance order differs from any sort), the texts coming
back byte for byte (quotes, escapes, unicode, JSON null, absent members), and chunk edges.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import storage.tx_aggregates as agg
from storage import GroupCount, Store

#: the statement `property_groups` ran until session 6, over every label: the reference
OLD_SQL = "SELECT props -> ?, count(*), min(key) AS first FROM {table} GROUP BY 1 ORDER BY first"

#: member values whose JSON texts must come back exactly (and stay apart from look-alikes)
ODD_VALUES: list[Any] = [
    "b", "a", 1, 1.0, True, "1", "true", None, [1, "x"], {"@t": "L", "v": 1}, 'q"uote', "back\\slash",
    "tab\tnew\nline", "ünï\u2028cødé", "", "[1]", "\x1f", 1e20, -0.5, False,
]


def _old(tx: Any, table: str, key: str) -> list[tuple[Any, int]]:
    return [(t, int(n)) for t, n, _f in tx.raw.execute(OLD_SQL.format(table=table), [f'$."{key}"'])]


def _props(value: Any, absent: bool) -> str:
    return json.dumps({"z": 0} if absent else {"z": 0, "k": value, "w": "after"}, separators=(",", ":"))


@pytest.fixture
def filled(file_store: Store) -> Store:
    """Vertices and edges whose member `k` takes the odd values in a shuffled order, some
    without it, with deleted rows between (gaps in the keys)."""
    rnd = random.Random(7)
    with file_store.write() as tx:
        picks = [(rnd.choice(ODD_VALUES), rnd.random() < 0.1) for _ in range(300)]
        keys = tx.elements.vertices_insert([(None, 1 + i % 2, _props(v, absent)) for i, (v, absent) in enumerate(picks)])
        tx.elements.vertices_delete(keys[5:40:3])
        live = [k for k in keys if k not in set(keys[5:40:3])]
        tx.elements.edges_insert([(None, 1, live[i], live[i + 1], "", _props(v, absent))
                         for i, (v, absent) in enumerate(picks[: len(live) - 1])])
    return file_store


@pytest.mark.parametrize("chunk", [1, 7, 64, 20_000])
def test_groups_equal_the_group_by_statement(filled: Store, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(agg, "GROUP_CHUNK", chunk)
    with filled.read() as tx:
        for kind, table in (("vertex", "vertices"), ("edge", "edges")):
            for key in ("k", "z", "w", "nosuch"):
                got = tx.aggregates.groups(GroupCount(kind, None, key))
                assert got == _old(tx, table, key), (kind, key, chunk)
                assert all(type(n) is int for _t, n in got)


def test_texts_come_back_exactly_in_first_appearance_order(store: Store) -> None:
    """On every backend (`store`: SQLite in memory and in a file, or PostgreSQL)."""
    values = ["b", 1, "a", 1.0, "1", True, None, "b", 'q"uote', [1, "x"], "\x1f", 1]
    with store.write() as tx:
        tx.elements.vertices_insert([(None, 1, _props(v, v is None)) for v in values])
    with store.read() as tx:
        got = tx.aggregates.groups(GroupCount("vertex", None, "k"))
    assert got == [('"b"', 2), ("1", 2), ('"a"', 1), ("1.0", 1), ('"1"', 1), ("true", 1), (None, 1),
                   ('"q\\"uote"', 1), ('[1,"x"]', 1), ('"\\u001f"', 1)]


def test_a_json_null_member_is_its_text_and_an_absent_one_is_none(store: Store) -> None:
    with store.write() as tx:
        tx.elements.vertices_insert([(None, 1, '{"k":null}'), (None, 1, '{"j":1}'), (None, 1, None), (None, 1, '{"k":null}')])
    with store.read() as tx:
        assert tx.aggregates.groups(GroupCount("vertex", None, "k")) == [("null", 2), (None, 2)]


def test_the_chunk_statement_is_one_rowid_range_in_key_order(filled: Store) -> None:
    """The dict keeps first-appearance order only if the rows reach `json_group_array` in
    key order: one loop over the table b-tree by rowid range, no index, no sorter."""
    with filled.read() as tx:
        for table in ("vertices", "edges"):
            plan = [r[3] for r in tx.raw.execute("EXPLAIN QUERY PLAN " + agg._texts_sql(table), ['$."k"', 0, 10])]
            assert plan == [f"SEARCH {table} USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"], plan


def test_a_stop_interrupts_the_chunks(filled: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agg, "POLL_EVERY", 1)
    with filled.read() as tx:
        assert tx.aggregates.groups(GroupCount("vertex", None, "k"), stop=lambda: True) is None
        assert tx.aggregates.groups(GroupCount("vertex", None, "k"), stop=lambda: False) == _old(tx, "vertices", "k")


def test_texts_that_are_not_json_make_the_caller_take_its_own_path(file_store: Store) -> None:
    with file_store.write() as tx:
        tx.elements.vertices_insert([(None, 1, "not json")])
    with file_store.read() as tx, pytest.raises(agg.AggregateUnsupported):
        tx.aggregates.groups(GroupCount("vertex", None, "k"))
