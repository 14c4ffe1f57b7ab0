"""`Lookup.VERTEX_HEADS_BY_IDS`: printable string ids go as one JSON array (`json_each`), any
other batch as IN lists; both must find exactly the same vertices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage import Lookup, MissingEndpoint, open_store
from storage._sql import padded_chunks, unique
from storage.elements_sql import heads_sql

IDS: list[Any] = ["1:p1", "123", 'q"uo\\te', "ünï", "emoji😀", "a b", "1:p2", "x\ty", "", "[1]", "null"]
OTHER: list[Any] = [123, b"\x01\x02", 7]


def _in_lists(tx: Any, ids: list[Any]) -> list[tuple[int, Any, int]]:
    out: list[tuple[int, Any, int]] = []
    for size, part in padded_chunks(unique(ids)):
        out += tx.raw.execute(heads_sql(size), part).fetchall()
    return out


@pytest.fixture
def store(tmp_path: Path) -> Any:
    st = open_store(str(tmp_path / "heads.db"))
    st.initialise()
    with st.write() as tx:
        tx.elements.vertices_insert([(i, n % 3 + 1, "{}") for n, i in enumerate(IDS + OTHER)])
    yield st
    st.close()


@pytest.mark.parametrize("wanted", [
    IDS, IDS + ["missing", "1:p1"], ["123"], ["x\ty", "1:p1"], IDS + OTHER, [123, "123"], ["missing"],
    [f"1:p{i}" for i in range(2000)],
])
def test_heads_equal_the_in_list_lookup(store: Any, wanted: list[Any]) -> None:
    with store.read() as tx:
        got = sorted(tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, wanted))
        assert got == sorted(_in_lists(tx, wanted))
    found = {r[1] for r in got}
    assert found == {i for i in wanted if i in IDS + OTHER}
    assert all(type(r[1]) is type(next(i for i in wanted if i == r[1] and type(i) is type(r[1]))) for r in got)


def test_string_id_is_not_the_number(store: Any) -> None:
    with store.read() as tx:
        rows = tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["123"])
        assert [(r[1], type(r[1])) for r in rows] == [("123", str)]
        assert [r[1] for r in tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, [123])] == [123]


# ---- the edge inserts' end check trusts the vertices a heads lookup just found ----------------


#: the end-vertex check's statement (since layout v3 it reads the ends' ids too, for the
#: edges' out_id / in_id)
_END_CHECK = "CROSS JOIN vertices AS v ON v.key = k.value"


def _statements(tx: Any) -> list[str]:
    seen: list[str] = []
    tx.raw.set_trace_callback(seen.append)
    return seen


def _edge_rows(keys: list[int]) -> list[tuple[Any, ...]]:
    return [(f"e{n}", 1, keys[n], keys[(n + 1) % len(keys)], "", "{}") for n in range(len(keys))]


def test_found_ends_skip_the_check(store: Any) -> None:
    with store.write() as tx:
        keys = [r[0] for r in tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1:p1", "1:p2", "123"])]
        seen = _statements(tx)
        tx.elements.edges_insert(_edge_rows(keys), unique_parts=True)
        tx.raw.set_trace_callback(None)
        assert not [s for s in seen if _END_CHECK in s]
        assert tx.elements.edge_count() == 3


def test_other_ends_are_checked(store: Any) -> None:
    with store.write() as tx:
        keys = [r[0] for r in tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1:p1"])]
        seen = _statements(tx)
        tx.elements.edges_insert([("e", 1, keys[0], 3, "", "{}")], unique_parts=True)  # key 3 was not looked up
        tx.raw.set_trace_callback(None)
        assert [s for s in seen if _END_CHECK in s]
        with pytest.raises(MissingEndpoint):
            tx.elements.edges_insert([("f", 1, keys[0], 999, "", "{}")], unique_parts=True)


@pytest.mark.parametrize("how", ["delete", "clear"])
def test_a_deleted_vertex_is_checked_again(store: Any, how: str) -> None:
    with store.write() as tx:
        keys = [r[0] for r in tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1:p1", "1:p2"])]
        if how == "delete":
            tx.elements.vertices_delete([keys[1]])
        else:
            tx.clear()
        assert tx.core.found_vertex_keys is None
        with pytest.raises(MissingEndpoint):
            tx.elements.edges_insert(_edge_rows(keys), unique_parts=True)


def test_read_lookups_record_nothing(store: Any) -> None:
    with store.read() as tx:
        tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1:p1"])
        assert tx.core.found_vertex_keys is None
    with store.write() as tx:
        assert tx.core.found_vertex_keys is None  # a new transaction starts without any
        tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, ["1:p1", "missing"])
        assert len(tx.core.found_vertex_keys) == 1
