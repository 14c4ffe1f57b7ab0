"""Untyped values (ids, index values) order, compare and round-trip the same on every dialect.

The reference is SQLite itself: a column without type affinity, sorted and compared by
SQLite. Through the store (index entries, vertex ids) on the store's own dialect, the
order of `index_scan`, the matches of `index_eq` / `index_range` and the ids read back must
be SQLite's: on PostgreSQL that is the order-preserving encoding of `storage.values`.
"""

from __future__ import annotations

import math
import random
import sqlite3
import struct

import pytest

from storage import IndexQuery, Lookup, Store, StoreConflict
from storage.values import decode, encode

EDGE_VALUES: list[object] = [
    0, -0.0, 1, 1.5, -1, -1.5, 2**63 - 1, -(2**63), 2**62, 2**53 + 1, float(2**53), 2.0**63, -(2.0**63), 1e300, -1e300,
    5e-324, -5e-324, 0.1, math.inf, -math.inf, 3, 3.0000000000000004, "", "a", "ab", "a\x00", "b", "é", "日本", "\U0001f600",
    "Z", "10", "9", b"", b"\x00", b"\x00\x00", b"\xff", b"a", b"ab",
]


def _mixed(n: int, seed: int = 3) -> list[object]:
    rng = random.Random(seed)
    out: list[object] = []
    for _ in range(n):
        kind = rng.randrange(5)
        if kind == 0:
            out.append(rng.randint(-(2**63), 2**63 - 1))
        elif kind == 1:
            x = struct.unpack("d", rng.randbytes(8))[0]
            out.append(x if x == x else 0.25)
        elif kind == 2:
            out.append(rng.uniform(-100, 100))
        elif kind == 3:
            out.append("".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)])) for _ in range(rng.randrange(4))))
        else:
            out.append(rng.randbytes(rng.randrange(4)))
    return out


def _sqlite_order(values: list[object]) -> list[object]:
    """`values` sorted by SQLite (each value's position breaks ties, as elem_key does)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (v BLOB, k INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?)", [(v, k) for k, v in enumerate(values)])
    return [values[k] for (k,) in db.execute("SELECT k FROM t ORDER BY v, k")]


def _same(a: object, b: object) -> bool:
    """Equal as SQLite compares them, and of the same class (number, text, blob)."""
    kinds = (int | float, str, bytes)
    return a == b and [isinstance(a, k) for k in kinds] == [isinstance(b, k) for k in kinds]


def test_the_encoding_orders_as_sqlite_does() -> None:
    values = EDGE_VALUES + _mixed(2000)
    expected = _sqlite_order(values)
    got = sorted(range(len(values)), key=lambda k: (encode(values[k]), k))
    assert [values[k] for k in got] == expected


def test_the_encoding_round_trips() -> None:
    for v in EDGE_VALUES + _mixed(2000):
        back = decode(encode(v))
        assert _same(back, v), (v, back)
        if isinstance(v, float) and not (v.is_integer() and abs(v) <= 2**63):
            assert type(back) is float  # only integral reals of int64 range come back as ints


def test_equal_numbers_encode_alike_and_nan_is_null() -> None:
    assert encode(1) == encode(1.0) == encode(True)
    assert encode(0) == encode(-0.0)
    assert encode(float("nan")) is None
    assert encode(2**63 - 1) < encode(2.0**63) < encode(1e300) < encode(math.inf) < encode("")
    with pytest.raises(OverflowError):
        encode(2**63)


def test_index_order_and_lookups_through_the_store(store: Store) -> None:
    values = EDGE_VALUES + _mixed(300)
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(None, 1, None) for _ in values])
        tx.index.index_add_many([(7, v, k, "v") for v, k in zip(values, keys, strict=True)])
    by_key = dict(zip(keys, values, strict=True))
    expected = _sqlite_order(values)
    with store.read() as tx:
        scanned = tx.index.index_scan(7)
        assert [by_key[k] for _v, k in scanned] == expected
        assert all(_same(v, by_key[k]) for v, k in scanned)
        # equality as SQLite: 1 finds the entry of 1.0 as well, -0.0 the entry of 0
        assert {by_key[k] for k in tx.index.read(IndexQuery(7), [1.0])} == {1}
        assert {repr(by_key[k]) for k in tx.index.read(IndexQuery(7), [0])} == {"0", "-0.0"}
        # a numeric range stays among the numbers; a text range among the texts
        in_range = [by_key[k] for k in tx.index.read(IndexQuery(7, True), (-1, 3))]
        assert in_range == [v for v in expected if isinstance(v, int | float) and -1 <= v <= 3]
        texts = [by_key[k] for k in tx.index.read(IndexQuery(7, True), ("a", None))]
        assert texts == [v for v in expected if isinstance(v, str) and v >= "a"]


def test_ids_of_three_kinds_stay_distinct_and_round_trip(store: Store) -> None:
    ids: list[object] = [1, "1", b"1", 2**63 - 1, -(2**63), "日本", b"\x00\xff", 2.5]
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, None) for i in ids])
        with pytest.raises(StoreConflict):
            tx.elements.vertex_insert(1.0, 1, None)  # 1.0 is the id 1, as SQLite compares them
    with store.read() as tx:
        rows = tx.elements.find(Lookup.VERTICES_BY_IDS, ids)
        assert [r.key for r in rows] == keys
        assert all(_same(r.id, i) for r, i in zip(rows, ids, strict=True))
        assert [r.id for r in tx.elements.find(Lookup.VERTICES_BY_IDS, ["1"])] == ["1"]
        assert tx.elements.find(Lookup.VERTEX_IDS_BY_KEYS, keys[::-1]) == ids[::-1]
