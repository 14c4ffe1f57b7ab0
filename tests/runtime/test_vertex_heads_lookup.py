"""`Tx.vertex_heads_by_ids`: printable string ids go as one JSON array (`json_each`), any
other batch as IN lists; both must find exactly the same vertices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage import open_store
from storage._sql import padded_chunks, unique
from storage.tx_elements import _heads_sql

IDS: list[Any] = ["1:p1", "123", 'q"uo\\te', "ünï", "emoji😀", "a b", "1:p2", "x\ty", "", "[1]", "null"]
OTHER: list[Any] = [123, b"\x01\x02", 7]


def _in_lists(tx: Any, ids: list[Any]) -> list[tuple[int, Any, int]]:
    out: list[tuple[int, Any, int]] = []
    for size, part in padded_chunks(unique(ids)):
        out += tx.raw.execute(_heads_sql(size), part).fetchall()
    return out


@pytest.fixture
def store(tmp_path: Path) -> Any:
    st = open_store(str(tmp_path / "heads.db"))
    st.initialise()
    with st.write() as tx:
        tx.vertices_insert([(i, n % 3 + 1, "{}") for n, i in enumerate(IDS + OTHER)])
    yield st
    st.close()


@pytest.mark.parametrize("wanted", [
    IDS, IDS + ["missing", "1:p1"], ["123"], ["x\ty", "1:p1"], IDS + OTHER, [123, "123"], ["missing"],
    [f"1:p{i}" for i in range(2000)],
])
def test_heads_equal_the_in_list_lookup(store: Any, wanted: list[Any]) -> None:
    with store.read() as tx:
        got = sorted(tx.vertex_heads_by_ids(wanted))
        assert got == sorted(_in_lists(tx, wanted))
    found = {r[1] for r in got}
    assert found == {i for i in wanted if i in IDS + OTHER}
    assert all(type(r[1]) is type(next(i for i in wanted if i == r[1] and type(i) is type(r[1]))) for r in got)


def test_string_id_is_not_the_number(store: Any) -> None:
    with store.read() as tx:
        rows = tx.vertex_heads_by_ids(["123"])
        assert [(r[1], type(r[1])) for r in rows] == [("123", str)]
        assert [r[1] for r in tx.vertex_heads_by_ids([123])] == [123]
