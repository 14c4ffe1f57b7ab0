"""Upgrades of a store written by an older layout, run in place when the store is opened.

`Store.check_ready()` (and `initialise()`) call `upgrade(tx)` in one write transaction: a
store either ends on `STORE_VERSION` or stays as it was. Each step takes the store one
version up; `STEPS` maps a version to its step.

v1 -> v2 (the edge layout of `tables.py`)
    The edge table is rebuilt: no foreign keys, no index on the text id, a ``dup`` column,
    a unique out-adjacency index and a partial id index. Storage cannot tell a HugeGraph
    edge id (derived from the edge's parts) from a user's id (it does not know the engine's
    id codec or the graph's schema mode), so every v1 row gets ``dup = key``: identified
    by its id, exactly as v1 found it, ``E(id)`` through the partial index, parallel edges
    kept, adjacency order unchanged (v1 broke ties by rowid; ``dup = key`` is that order).
    A strict (HugeGraph-mode) graph finds such rows by their parts too (`edges_by_parts`
    does not filter on ``dup``); what the unique index cannot do for them, refusing a
    second edge with the same parts, the insert does by a probe while the meta key
    `META_V1_EDGE_ROWS` says such rows exist (``edges_insert(..., unique_parts=True)``). New edges
    of a strict graph get ``dup = 0`` and cost neither. The step creates the v2 table from a
    frozen copy of its DDL (`V2_EDGES_DDL`), not from `tables.edges`, which has moved on.

v2 -> v3 (the end vertices' public ids in the adjacency indexes)
    ``out_id`` and ``in_id`` are added (ALTER TABLE: no copy of the table) and filled by one
    UPDATE from ``vertices`` (two primary-key probes per edge), with the adjacency index
    that changes (``ix_edges_out``, and ``ix_edges_in`` if `tables.IN_SIDE_IDS`) dropped
    first so that the UPDATE touches the table alone, then built in its v3 form (a sort).
    At 100k vertices / 1M edges (both indexes rebuilt): ~8 s.
"""

from __future__ import annotations

from collections.abc import Callable

from storage import tables
from storage.tables import META_V1_EDGE_ROWS, STORE_VERSION, trigger_ddl
from storage.tx import Tx

#: the edge table and indexes of layout v2 (sqlite_master of a v2 store), frozen: what the
#: v1 -> v2 step builds, so that the v2 -> v3 step then meets exactly a v2 store
V2_EDGES_DDL = (
    "CREATE TABLE edges (key INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL, "
    "label_id INTEGER NOT NULL, out_key INTEGER NOT NULL, in_key INTEGER NOT NULL, "
    "sort_values TEXT DEFAULT '' NOT NULL, dup INTEGER DEFAULT '0' NOT NULL, props BLOB)",
    "CREATE UNIQUE INDEX ix_edges_out ON edges (out_key, label_id, sort_values, in_key, dup)",
    "CREATE INDEX ix_edges_in ON edges (in_key, label_id, sort_values, out_key)",
    "CREATE INDEX ix_edges_label ON edges (label_id, key)",
    "CREATE UNIQUE INDEX ix_edges_id ON edges (id) WHERE dup != 0",
)


def _v1_to_v2(tx: Tx) -> None:
    raw = tx.raw
    seq = tx.core.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'edges'")
    # the old table's trigger and indexes go first: their names are reused by the new table,
    # and dropping the old rows must not remove the edges' index entries
    raw.execute("DROP TRIGGER IF EXISTS tr_edges_index_cleanup")
    for name in ("ix_edges_out", "ix_edges_in", "ix_edges_label"):
        raw.execute(f"DROP INDEX IF EXISTS {name}")
    raw.execute("ALTER TABLE edges RENAME TO edges_v1")
    for stmt in V2_EDGES_DDL:  # the v2 table and its indexes
        raw.execute(stmt)
    raw.execute(trigger_ddl("tr_edges_index_cleanup"))
    raw.execute(
        "INSERT INTO edges (key, id, label_id, out_key, in_key, sort_values, dup, props) "
        "SELECT key, id, label_id, out_key, in_key, sort_values, key, props FROM edges_v1 ORDER BY key"
    )
    copied = tx.core.scalar("SELECT count(*) FROM edges")
    raw.execute("DROP TABLE edges_v1")
    raw.execute(trigger_ddl("tr_vertices_edge_cascade"))
    # keys are never reused: keep the old high-water mark (edges deleted last were above max(key))
    if seq is not None:
        raw.execute("DELETE FROM sqlite_sequence WHERE name = 'edges'")
        raw.execute(
            "INSERT INTO sqlite_sequence (name, seq) VALUES ('edges', max(?, coalesce((SELECT max(key) FROM edges), 0)))",
            (int(seq),),
        )
    if copied:
        tx.schema.meta_set(META_V1_EDGE_ROWS, "1")


def _v2_to_v3(tx: Tx) -> None:
    raw = tx.raw
    rebuilt = ("ix_edges_out", "ix_edges_in") if tables.IN_SIDE_IDS else ("ix_edges_out",)
    for name in rebuilt:
        raw.execute(f"DROP INDEX IF EXISTS {name}")
    raw.execute("ALTER TABLE edges ADD COLUMN out_id BLOB")
    raw.execute("ALTER TABLE edges ADD COLUMN in_id BLOB")
    raw.execute(
        "UPDATE edges SET out_id = (SELECT v.id FROM vertices AS v WHERE v.key = edges.out_key), "
        "in_id = (SELECT v.id FROM vertices AS v WHERE v.key = edges.in_key)"
    )
    for index in tables.edges.indexes:  # the v3 adjacency indexes, as a fresh store has them
        if index.name in rebuilt:
            index.create(tx.conn)


STEPS: dict[str, tuple[str, Callable[[Tx], None]]] = {"1": ("2", _v1_to_v2), "2": ("3", _v2_to_v3)}


def can_upgrade(version: str | None) -> bool:
    return version in STEPS


def upgrade(tx: Tx) -> bool:
    """Bring the store of this write transaction to `STORE_VERSION`; False when its version
    is neither current nor upgradable (the caller refuses it). Re-reads the version inside
    the transaction, so two processes opening one old store upgrade it once."""
    found = tx.schema.meta_get("store_version")
    while found != STORE_VERSION:
        if found not in STEPS:
            return False
        target, step = STEPS[found]
        step(tx)
        tx.schema.meta_set("store_version", target)
        found = target
    return True
