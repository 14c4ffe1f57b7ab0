"""Storage pieces of the batch write path: end-vertex heads by id."""

from __future__ import annotations

import uuid

from storage import Lookup, Store


def test_vertex_heads_by_ids(store: Store) -> None:
    u = uuid.UUID(int=5).bytes
    with store.write() as tx:
        keys = tx.elements.vertices_insert([("1:a", 1, '{"name":"a"}'), (42, 2, None), (u, 3, "{}"), ("1:b", 1, None)])
        heads = tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1:b", 42, "1:nobody", u, "1:b", 42])
    assert sorted(heads, key=lambda h: h[0]) == [(keys[1], 42, 2), (keys[2], u, 3), (keys[3], "1:b", 1)]
    ids = [f"1:v{i}" for i in range(2000)]
    with store.write() as tx:
        made = tx.elements.vertices_insert([(i, 1, None) for i in ids])
        heads = tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ids + ids[:10])  # more than one chunk of ids
    assert sorted(heads) == sorted(zip(made, ids, [1] * len(ids), strict=True))
    with store.read() as tx:
        assert tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, []) == []


def test_file_connections_get_the_load_pragmas(file_store: Store) -> None:
    from storage.engine import CACHE_KIB, JOURNAL_SIZE_LIMIT, WAL_AUTOCHECKPOINT_PAGES

    with file_store.write() as tx:
        got = {p: tx.raw.execute(f"PRAGMA {p}").fetchone()[0]
               for p in ("wal_autocheckpoint", "cache_size", "journal_size_limit", "journal_mode")}
    assert got == {"wal_autocheckpoint": WAL_AUTOCHECKPOINT_PAGES, "cache_size": -CACHE_KIB,
                   "journal_size_limit": JOURNAL_SIZE_LIMIT, "journal_mode": "wal"}
    assert WAL_AUTOCHECKPOINT_PAGES == 60000 and JOURNAL_SIZE_LIMIT == 256 * 2**20 and CACHE_KIB == 32768
