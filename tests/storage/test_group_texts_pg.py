"""`Aggregates.groups` by a property key on PostgreSQL (`tx_aggregates._pg_property_groups`):
the member texts cut out of the encoded props in one ``GROUP BY``, compared with what was
written, byte for byte, in the order of each group's first row; what it declines (a
database whose encoding is not UTF8) and what it refuses (props that are not JSON text).

Run by `make test-postgres` (`python -m tests.run_postgres`), skipped on SQLite.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy.engine import make_url

import storage.tx_aggregates as agg
from storage import GroupCount, Store, StoreError, drop_database, open_store
from tests.storage.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only (HUGELITE_TEST_PG_URL)")

#: member values whose texts must come back as written (and stay apart from look-alikes)
VALUES: list[Any] = [
    "b", "a", 1, 1.0, True, "1", "true", None, [1, "x"], {"@t": "L", "v": 1}, {"v": 1, "@t": "L"},
    'q"uote', "back\\slash", "tab\tnew\nline", "ünï\u2028cødé€", "", "[1]", "\x1f", 1e20, -0.5, False, 10**18,
]


def _written(value: Any, absent: bool, ascii_only: bool) -> str:
    body = {"z": 0} if absent else {"z": 0, "k": value, "w": "after"}
    return json.dumps(body, separators=(",", ":"), ensure_ascii=ascii_only)


def _by_hand(rows: list[tuple[int, str | None]], labels: set[int] | None) -> list[tuple[str | None, int]]:
    """The oracle: each row's member `k` as written (None: absent), counted in row order."""
    counts: dict[str | None, int] = {}
    for label, text in rows:
        if labels is None or label in labels:
            body = json.loads(text) if text else {}
            member = None if "k" not in body else json.dumps(body["k"], separators=(",", ":"),
                                                             ensure_ascii="\\u" in (text or ""))
            counts[member] = counts.get(member, 0) + 1
    return list(counts.items())


def test_texts_equal_what_was_written_with_and_without_labels(store: Store) -> None:
    rnd = random.Random(11)
    rows: list[tuple[int, str | None]] = []
    for i in range(400):
        v = rnd.choice(VALUES)
        rows.append((1 + i % 3, None if i % 97 == 0 else _written(v, rnd.random() < 0.1, ascii_only=i % 2 == 0)))
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(None, label, text) for label, text in rows])
        gone = set(keys[10:60:4])
        tx.elements.vertices_delete(sorted(gone))
        tx.elements.edges_insert([(None, label, keys[0], keys[1], "", text) for label, text in rows])
    live = [row for key, row in zip(keys, rows, strict=True) if key not in gone]
    with store.read() as tx:
        for kind, kept in (("vertex", live), ("edge", rows)):
            for labels in (None, [2], [1, 3], [1, 2, 3], [9]):
                got = tx.aggregates.groups(GroupCount(kind, labels, "k"))
                assert got == _by_hand(kept, None if labels is None else set(labels)), (kind, labels)
                assert all(type(n) is int for _t, n in got)
            assert tx.aggregates.groups(GroupCount(kind, [], "k")) == []


def test_any_key_name_is_answered(store: Store) -> None:
    """The key is a bound parameter, not a JSON path: quotes and backslashes in it are fine."""
    odd = ['q"k', "b\\k", "", "$.k", "ü"]
    with store.write() as tx:
        tx.elements.vertices_insert([(None, 1, json.dumps({k: i for k in odd})) for i in (1, 2, 1)])
    with store.read() as tx:
        for k in odd:
            assert tx.aggregates.groups(GroupCount("vertex", None, k)) == [("1", 2), ("2", 1)], k


def test_null_and_empty_props_are_absent_and_a_stop_is_polled_first(store: Store) -> None:
    with store.write() as tx:
        tx.elements.vertices_insert([(None, 1, ""), (None, 1, '{"k":1}'), (None, 1, None), (None, 1, "{}")])
    with store.read() as tx:
        assert tx.aggregates.groups(GroupCount("vertex", None, "k")) == [(None, 3), ("1", 1)]
        assert tx.aggregates.groups(GroupCount("vertex", None, "k"), stop=lambda: True) is None
        assert tx.aggregates.groups(GroupCount("vertex", None, "k"), stop=lambda: False) == [(None, 3), ("1", 1)]


def test_props_that_are_not_json_are_refused_by_name(store: Store) -> None:
    with store.write() as tx:
        tx.elements.vertices_insert([(None, 1, '{"k":1}'), (None, 1, "not json")])
    with store.read() as tx, pytest.raises(StoreError, match=r"^property groups of 'k': props that are not JSON text"):
        tx.aggregates.groups(GroupCount("vertex", None, "k"))


@pytest.fixture
def latin1_store() -> Iterator[Store]:
    """A store in a database made with the LATIN1 encoding (the cluster's default is UTF8)."""
    import psycopg  # the optional PostgreSQL driver

    assert PG_URL is not None
    name = f"hl_test_latin1_{uuid.uuid4().hex[:10]}"
    admin = make_url(PG_URL).set(drivername="postgresql")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    s = open_store(url)
    s.initialise()
    yield s
    s.close()
    drop_database(url)


def test_a_database_not_in_utf8_declines_before_any_statement(latin1_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its text conversion would fail on '€' (not in LATIN1), where the scan answers: the
    group count declines before running SQL, so the transaction goes on (the engine scans)."""
    with latin1_store.write() as tx:
        tx.elements.vertices_insert([(None, 1, '{"k":"€"}'), (None, 1, '{"k":1}')])
    ran: list[str] = []
    fetch_all = agg._fetch_all

    def recording(cur: Any, sql: str, params: Any) -> list[Any]:
        ran.append(sql)
        return fetch_all(cur, sql, params)

    monkeypatch.setattr(agg, "_fetch_all", recording)
    with latin1_store.read() as tx:
        with pytest.raises(agg.AggregateUnsupported, match="UTF8"):
            tx.aggregates.groups(GroupCount("vertex", None, "k"))
        assert ran == []
        assert tx.raw.execute("SELECT count(*) FROM vertices").fetchone()[0] == 2  # the transaction goes on
