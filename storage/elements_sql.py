"""The SQL of the element reads and writes (`tx_elements.Elements`), per statement, and the
PostgreSQL forms where the two dialects differ (keys from sequences, tuples as JSON arrays
of arrays). Split out of `tx_elements.py`, which binds and runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
from typing import Any

from storage._sql import label_filter, placeholders
from storage.rows import make_edge, make_vertex
from storage.tables import META_V1_EDGE_ROWS

V_COLS = "key, id, label_id, props"
E_COLS = "key, id, label_id, out_key, in_key, sort_values, props"
COLS = {"vertices": V_COLS, "edges": E_COLS}
ROW: dict[str, Callable[[Any], Any]] = {"vertices": make_vertex, "edges": make_edge}
MIN_KEY = -(2**63)
META_SQL = "SELECT value FROM meta WHERE key = ?"
#: `vertex_ids`' statements: the CROSS JOIN keeps the keys' order, which the array follows
IDS_JSON_SQL = "SELECT json_group_array(v.id) FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"
IDS_OF_KEYS_SQL = "SELECT k.value, v.id FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"


# edges are found by id only among id-identified rows: the condition that lets SQLite use
# the partial index ix_edges_id (HugeGraph-mode rows, dup = 0, are found by their parts)
ID_FILTER = {"vertices": "", "edges": " AND dup <> 0"}


@lru_cache(maxsize=256)
def by_ids_sql(table: str, n: int) -> str:
    return f"SELECT {COLS[table]} FROM {table} WHERE id IN ({placeholders(n)}){ID_FILTER[table]}"


ONE_SQL = {t: f"SELECT {c} FROM {t} WHERE id = ?{ID_FILTER[t]}" for t, c in COLS.items()}
E_PARTS = "out_key = ? AND label_id = ? AND sort_values = ? AND in_key = ?"
# INDEXED BY: ix_edges_in would serve the same equalities, but only ix_edges_out ends in
# dup, the order asked for (the planner, seeing two equal choices, took either)
ONE_PARTS_SQL = f"SELECT {E_COLS} FROM edges INDEXED BY ix_edges_out WHERE {E_PARTS} ORDER BY dup"
# one edge by its end vertices' public ids: two id-index probes, then one of ix_edges_out
BY_END_IDS_SQL = (
    f"SELECT {', '.join('e.' + c.strip() for c in E_COLS.split(','))} FROM vertices AS o CROSS JOIN vertices AS i "
    "CROSS JOIN edges AS e INDEXED BY ix_edges_out ON e.out_key = o.key AND e.label_id = ? AND e.sort_values = ? "
    "AND e.in_key = i.key WHERE o.id = ? AND i.id = ? ORDER BY e.dup"
)
# json_each drives one probe of ix_edges_out per (out_key, label_id, sort_values, in_key)
JSON_PARTS = (
    "e.out_key = p.value ->> 0 AND e.label_id = p.value ->> 1 AND e.sort_values = p.value ->> 2 "
    "AND e.in_key = p.value ->> 3"
)
BY_PARTS_SQL = (
    f"SELECT {', '.join('e.' + c.strip() for c in E_COLS.split(','))} FROM json_each(?) AS p "
    f"CROSS JOIN edges AS e INDEXED BY ix_edges_out ON {JSON_PARTS} ORDER BY p.key, e.dup"
)
# PostgreSQL: the tuples as a JSON array of arrays, each member cast to its column's type
PG_BY_PARTS_SQL = (
    f"SELECT {', '.join('e.' + c.strip() for c in E_COLS.split(','))} FROM json_array_elements(CAST(? AS json)) "
    "WITH ORDINALITY AS p(value, n) CROSS JOIN edges AS e ON e.out_key = (p.value ->> 0)::bigint "
    "AND e.label_id = (p.value ->> 1)::bigint AND e.sort_values = p.value ->> 2 AND e.in_key = (p.value ->> 3)::bigint "
    "ORDER BY p.n, e.dup"
)
V1_CONFLICT_SQL = (
    f"SELECT p.key FROM json_each(?) AS p CROSS JOIN edges AS e INDEXED BY ix_edges_out ON {JSON_PARTS} "
    "AND e.dup <> 0 LIMIT 1"
)
# end vertices found, of a sorted key list (probes in key order: ~0.7 us a key, against
# ~1.2 us for a correlated NOT EXISTS per key); only on a shortfall is the missing key sought
# with their ids: the edges' out_id / in_id (layout v3)
FOUND_SQL = "SELECT v.key, v.id FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"
MISSING_SQL = (
    "SELECT k.value FROM json_each(?) AS k WHERE NOT EXISTS (SELECT 1 FROM vertices AS v WHERE v.key = k.value) LIMIT 1"
)
ONE_KEY_SQL = {t: f"SELECT {c} FROM {t} WHERE key = ?" for t, c in COLS.items()}


@lru_cache(maxsize=64)
def heads_sql(n: int) -> str:
    return f"SELECT key, id, label_id FROM vertices WHERE id IN ({placeholders(n)})"


# printable string ids only: SQLite's JSON reader gives back exactly the text Python wrote.
# One row of three JSON arrays (the keys, each found id's position in the input, the label
# ids) rather than a row per vertex: one step, where a row each is one step each, and the
# driver gives up and retakes the GIL around every step (~1.7 against ~2.6 us an id alone,
# and no convoy behind request threads; see `TxCore.insert_values`)
HEADS_JSON_SQL = (
    "SELECT json_group_array(v.key), json_group_array(k.key), json_group_array(v.label_id) "
    "FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.id = k.value"
)
STR = {str}
KEY_ID = itemgetter(0, 1)


@lru_cache(maxsize=8)
def by_keys_sql(table: str) -> str:
    cols = ", ".join(f"t.{c.strip()}" for c in COLS[table].split(","))
    return (
        f"SELECT {cols} FROM json_each(?) AS k CROSS JOIN {table} AS t ON t.key = k.value "
        f"ORDER BY k.key"
    )


@lru_cache(maxsize=256)
def scan_sql(table: str, labels: tuple[int, ...]) -> str:
    return (
        f"SELECT {COLS[table]} FROM {table} WHERE key > ?{label_filter('label_id', labels)} "
        f"ORDER BY key LIMIT ?"
    )


@lru_cache(maxsize=256)
def count_sql(table: str, labels: tuple[int, ...]) -> str:
    where = f" WHERE 1{label_filter('label_id', labels)}" if labels else ""
    return f"SELECT count(*) FROM {table}{where}"


#: PostgreSQL: keys come from the key column's sequence (never reused, never rolled back)
PG_NEXT_KEYS = {t: f"SELECT nextval(pg_get_serial_sequence('{t}', 'key')) FROM generate_series(1, ?)"
                 for t in ("vertices", "edges")}


def next_key_sql(table: str) -> str:
    return (
        "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = '" + table + "'), 0), "
        "coalesce((SELECT max(key) FROM " + table + "), 0)) + 1"
    )


NEXT_KEY = {t: next_key_sql(t) for t in ("vertices", "edges")}
# what a batch insert reads first, in one statement (each statement is a GIL round trip, see
# `TxCore.insert_values`): the table's key sequence (None: no row yet), its largest key,
# and (edges) whether the store holds v1 edge rows (`_check_edges`)
BATCH_STATE = {
    t: f"SELECT (SELECT seq FROM sqlite_sequence WHERE name = '{t}'), (SELECT max(key) FROM {t}), "
    f"(SELECT 1 FROM meta WHERE key = '{META_V1_EDGE_ROWS}')"
    for t in ("vertices", "edges")
}
V_INSERT = "INSERT INTO vertices (key, id, label_id, props) VALUES (?, ?, ?, ?)"
V_INSERT_AUTO = "INSERT INTO vertices (id, label_id, props) VALUES (?, ?, ?)"
# rows (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id); dup is 0
# (parts-identified) or the key again (?1), so it is not bound a second time
E_INSERT = {
    unique: "INSERT INTO edges (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup) "
    f"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {'0' if unique else '?1'})"
    for unique in (True, False)
}
# batch rows that skip what a unique index refuses: see `Elements._insert_or_undo`
# (table, edges identified by their parts?) -> the insert that skips rows a unique index refuses
INSERT_OR_SKIP = {
    ("vertices", True): V_INSERT + " ON CONFLICT DO NOTHING",
    ("edges", True): E_INSERT[True] + " ON CONFLICT DO NOTHING",
    ("edges", False): E_INSERT[False] + " ON CONFLICT DO NOTHING",
}
# the same rows as multi-row `INSERT OR IGNORE`s (`TxCore.insert_values`): (head, row
# template, parameters per row); OR IGNORE skips what ON CONFLICT DO NOTHING skips, and a
# NULL in a NOT NULL column too, which `_insert_or_undo` tells apart on a shortfall. Plain
# `?`s where the row is bound as it is: the driver asks SQLite the name of every parameter
# it binds, a list walk for numbered ones
E_HEAD = "INSERT OR IGNORE INTO edges (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup)"
INSERT_VALUES = {
    ("vertices", True): ("INSERT OR IGNORE INTO vertices (key, id, label_id, props)", "(?,?,?,?)", 4),
    ("edges", True): (E_HEAD, "(?,?,?,?,?,?,?,?,?,0)", 9),
    ("edges", False): (E_HEAD, "(?{0},?{1},?{2},?{3},?{4},?{5},?{6},?{7},?{8},?{0})", 9),
}
# the row positions of each table's NOT NULL columns (key, id, label_id, ...)
NOT_NULL = {"vertices": range(3), "edges": range(6)}
# PostgreSQL's batches of `COPY_MIN_ROWS` rows or more go in by COPY (`PgRaw.copy_rows`):
# table -> its columns in the rows' order; an edge row gets its dup (0, or the key) last
COPY_COLUMNS = {
    "vertices": "key, id, label_id, props",
    "edges": "key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup",
}
#: below this many rows a multi-row INSERT is as quick (COPY costs two more round trips:
#: its savepoint; bench/README.md, "COPY on PostgreSQL")
COPY_MIN_ROWS = 16
# what the refusing unique index covers, in SQLite's words
UNIQUE = {
    ("vertices", True): "vertices.id",
    ("edges", True): "edges.out_key, edges.label_id, edges.sort_values, edges.in_key, edges.dup",
    ("edges", False): "edges.id",
}
