"""Telling a server URL from a SQLite path, and the PostgreSQL text of the shared SQL."""

from __future__ import annotations

from pathlib import Path

from storage import is_server_url
from storage.dialects import named, pg_sql


def test_server_urls_and_paths() -> None:
    assert is_server_url("postgresql+psycopg://postgres@127.0.0.1:5432/hugegraph")
    assert is_server_url("postgresql://u:p@db/g") and is_server_url("postgres://db/g")
    for path in (None, "", ":memory:", "data/hugegraph.db", "/tmp/postgresql.db", Path("x.db"), "sqlite:///x.db"):
        assert not is_server_url(path)


def test_parameters_and_words() -> None:
    assert pg_sql("SELECT a FROM t WHERE b = ? AND c = '?' AND d LIKE 'x%'") == (
        "SELECT a FROM t WHERE b = %s AND c = '?' AND d LIKE 'x%'", False)
    text, numbered = pg_sql("SELECT ?1, ?2, ?1 % 2")
    assert (text, numbered) == ("SELECT %(p1)s, %(p2)s, %(p1)s %% 2", True)
    assert named([7, "x"]) == {"p1": 7, "p2": "x"}
    assert pg_sql("INSERT OR IGNORE INTO t (a) VALUES (?)")[0] == "INSERT INTO t (a) VALUES (%s) ON CONFLICT DO NOTHING"
    text = pg_sql("SELECT e.key FROM vertices AS o CROSS JOIN edges AS e INDEXED BY ix_edges_out ON e.out_key = o.key "
                  "WHERE 1 AND o.key IN (SELECT value FROM json_each(?))")[0]
    assert "INDEXED BY" not in text and "CROSS JOIN" not in text and " JOIN edges AS e ON " in text
    assert "WHERE o.key IN (SELECT value FROM (SELECT j.value::bigint AS value" in text
    assert "WITH ORDINALITY AS j(value, n)) AS keys)" in text
