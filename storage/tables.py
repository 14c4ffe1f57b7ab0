"""The physical model: every table, column and index of a hugelite store, and why.

One SQLite database holds one graph. Columns declared `BLOB` here have *no type affinity*
in SQLite (the rule is: a declared type containing "BLOB" means values are stored exactly as
given), which is what lets the public element id be an int, a str or bytes and stay distinct:
`1`, `'1'` and `b'1'` are three different ids, each unique per table. When SQLite compares
such values it orders NULL < numbers (compared numerically, ints and reals alike) < text <
blobs, which an index range read (`tx_index`) relies on to keep a numeric range from picking up strings.

Tables
------
``meta(key TEXT PK, value TEXT)``
    Store metadata; ``store_version`` (see `STORE_VERSION`) is checked on open.

``vertices(key INTEGER PK AUTOINCREMENT, id BLOB UNIQUE, label_id, props BLOB)``
    ``key`` is the rowid alias, so a key lookup is a B-tree search on the table itself.
    AUTOINCREMENT makes keys never reused after a delete, so a key held by a lazily loaded
    element can never silently point at a newer vertex. ``id`` is the public id.
    * ``sqlite_autoindex`` on ``id`` (the UNIQUE constraint): ``V(id)`` lookups.
    * ``ix_vertices_label (label_id, key)``: ``hasLabel`` scans in key order and
      ``COUNT(*)`` per label answered from the index alone (covering).

``edges(key INTEGER PK AUTOINCREMENT, id BLOB, label_id, out_key, in_key, sort_values TEXT,
dup INTEGER, props BLOB, out_id BLOB, in_id BLOB)`` (layout v3)
    ``key`` is the engine's handle of an edge (lazy elements, ``index_entries.elem_key``),
    never reused, like a vertex key. ``sort_values`` holds HugeGraph's sort-key values already
    encoded by the engine (empty string when the label has none). No foreign keys: the
    checks they made cost a B-tree probe per edge and row, and are done otherwise (below).
    ``dup`` says how an edge is identified:

    * ``dup = 0``: by its *parts* (out vertex, label, sort values, in vertex), the HugeGraph
      (strict schema) rule: the edge id is derived from them, so at most one such edge
      exists. Inserted with ``unique_parts=True``; found with ``edges_by_parts``. Their
      ``id`` is stored (materialisation reads it) but **not indexed**: a text id index cost
      a random B-tree insert per edge and a third of the file.
    * ``dup = key``: by its ``id``, the TinkerPop (``schema.mode=auto``) rule: user ids,
      parallel edges allowed. ``dup = key`` keeps such rows distinct in the unique index
      below, and keeps parallel edges in insertion order there. Found with ``edges_by_ids``.

    ``out_id`` / ``in_id`` (layout v3) are copies of the end vertices' public ids
    (``vertices.id`` of ``out_key`` / ``in_key``, no type affinity either), so that an
    adjacency read that answers with the far end's id (``g.V(x).out().id()``) reads the
    adjacency index alone, as a hand-written SQL schema keyed by the public id would, instead
    of one more random B-tree search of ``vertices`` per neighbour (at 100k vertices / 1M
    edges that search was half the 1-hop statement's CPU). The copies can never go stale: a
    vertex id never changes (no update method touches it) and deleting a vertex deletes its
    edges (the cascade below). Every edge insert fills them, from the end-vertex lookup it
    makes anyway (`Elements._end_ids`), with no per-edge SQL.

    * ``ix_edges_out UNIQUE (out_key, label_id, sort_values, in_key, dup, in_id)``: the
      out-adjacency index, and the identity of ``dup = 0`` edges (a second one is a
      ``StoreConflict``; ``in_id`` is a function of ``in_key``, so it changes no
      uniqueness). One B-tree range per (vertex, label) yields the edges in the order the
      engine wants (ties broken by ``dup``, i.e. insertion order); ``adjacent_keys`` and the
      neighbour-id reads use it alone (covering).
    * ``ix_edges_in (in_key, label_id, sort_values, out_key)``: the in-adjacency index
      (ties broken by rowid, the key). It does **not** cover ``out_id`` (`IN_SIDE_IDS`):
      measured on a 10k/100k REST-shaped load (500 edges a commit, string ids), covering
      the far id in both indexes cost ~2 us of storage CPU per edge inserted, in the out
      index alone ~1 us (the budget of a write path measured per edge), and only the out
      side has a reader that needs it now (``g.V(x).out(l).id()``). ``out_id`` is still
      filled in every row, so covering the in side later is an index rebuild, not a table
      rewrite: set `IN_SIDE_IDS`, bump `STORE_VERSION` and rebuild ``ix_edges_in`` in a
      migration step. In-side id reads join ``vertices`` by key, as in v2.
    * ``ix_edges_label (label_id, key)``: label scans and counts of edges.
    * ``ix_edges_id UNIQUE (id) WHERE dup <> 0``: a *partial* index, ``E(id)`` for id-identified
      edges only; a query must say ``AND dup <> 0`` for SQLite to use it.
    * trigger ``tr_vertices_edge_cascade``: deleting a vertex deletes its incident edges (via
      the two adjacency indexes), whose own cleanup trigger removes their index entries.
    * a missing end vertex is refused by the insert methods (one keyed probe per batch,
      `MissingEndpoint`), as the foreign keys did.

    Layout v1 (``STORE_VERSION`` "1") had ``id UNIQUE``, foreign keys with ON DELETE CASCADE
    and a non-unique ``ix_edges_out``; `migrations.py` upgrades such a store on open, giving
    every old row ``dup = key`` (see there why). Layout v2 had neither ``out_id`` nor
    ``in_id``; its upgrade adds and fills them and rebuilds the two adjacency indexes.

``index_entries(index_id, value BLOB, elem_kind TEXT, elem_key) WITHOUT ROWID``
    One table for every secondary, unique, range and search index label. Primary key
    ``(index_id, value, elem_key)``: an equality or range lookup is one B-tree range, and a
    WITHOUT ROWID table stores the entry inside that B-tree (no second lookup).
    ``elem_kind`` is ``'v'`` or ``'e'``.
    * ``ix_index_entries_elem (elem_key, elem_kind, index_id)``: removing the entries of an
      element (on delete or property update) without scanning the index. ``elem_key`` leads
      because it is the selective column; ``index_remove(index_id, elem_key)`` uses the same
      index. Triggers ``tr_vertices_index_cleanup``/``tr_edges_index_cleanup`` delete the
      entries of every deleted vertex or edge, including edges removed by the cascade.

``schema_items(kind, id, name, body) PK (kind, id), UNIQUE (kind, name)``
    Property keys, vertex labels, edge labels and index labels in one table with a kind
    column: they are few, read once per graph open, and one table keeps `clear()` simple.
``schema_seq(kind PK, last_id)``
    The id counter per kind, so ``schema_next_id`` gives 1, 2, 3... and never reuses an id
    of a deleted schema element (HugeGraph does not either).

``variables(name TEXT PK, value BLOB)``
    Graph variables, opaque values.

Per dialect
-----------
The same tables, columns and indexes on PostgreSQL (a store opened on a server URL), with
these differences, each for a reason:

* ``AnyValue`` columns are ``BYTEA`` holding the order-preserving encoding of `values`, so
  that PostgreSQL orders and compares ids and index values exactly as SQLite does (NULL <
  numbers < text < blobs, ``1 == 1.0``): the unique indexes, index range reads and the
  adjacency order agree on both. On SQLite the column is the untyped ``BLOB`` it always
  was (no layout change, no migration). One difference remains: an integral real of int64
  range reads back as an int on PostgreSQL.
* Integer columns are ``BIGINT`` (``INTEGER`` on SQLite, where a key column must be spelled
  so to be the rowid alias); text columns use the ``C`` collation (byte order, SQLite's
  BINARY), whatever the database's default.
* Keys come from identity columns' sequences instead of ``AUTOINCREMENT``: never reused
  either (a sequence never goes back, not even for a rolled-back batch, whose keys are
  simply skipped; SQLite's batch insert puts its counter back).
* The cascades are statement triggers with transition tables (`dialects.PG_TRIGGERS`): one
  ``DELETE ... IN (SELECT key FROM old_rows)`` per statement, not one per row.
* ``ix_edges_id`` is partial through ``postgresql_where``; ``index_entries`` is an ordinary
  table with a primary key (``WITHOUT ROWID`` is SQLite's).
* A PostgreSQL store starts at the current layout: `migrations` only ever run on SQLite.

``tasks(id INTEGER PK AUTOINCREMENT, type, name, status, progress, create_ms, update_ms,
retries, callable, input, result, server, description, dependencies)``
    Persistent task records; real columns so ``task_list(status=...)`` filters in SQL.
    * ``ix_tasks_status (status, id)``: listing tasks by status in id order.
"""

from __future__ import annotations

from sqlalchemy import (
    DDL,
    BigInteger,
    Column,
    Identity,
    Index,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    UniqueConstraint,
    event,
)
from sqlalchemy import Integer as _Integer
from sqlalchemy import Text as _Text

from storage.dialects import PG_TRIGGERS
from storage.values import AnyValue

#: every integer column: SQLite's INTEGER (a key column must be spelled exactly so to be the
#: rowid alias), PostgreSQL's BIGINT (keys, epoch milliseconds)
Integer = _Integer().with_variant(BigInteger(), "postgresql")
#: every text column: on PostgreSQL in the "C" collation, i.e. ordered by bytes as SQLite's
#: BINARY collation orders them, whatever the database's default collation is
Text = _Text().with_variant(_Text(collation="C"), "postgresql")

#: Version of the physical layout above. Bump it whenever a table, column or index changes;
#: a store written with another version is refused with `StoreVersionMismatch`.
STORE_VERSION = "3"

#: meta key set by the v1 -> v2 migration while the edge table holds rows copied from v1
META_V1_EDGE_ROWS = "edges.v1_rows"

SCHEMA_KINDS = frozenset({"propertykey", "vertexlabel", "edgelabel", "indexlabel"})


metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)

vertices = Table(
    "vertices",
    metadata,
    Column("key", Integer, Identity(always=False), primary_key=True),
    Column("id", AnyValue, nullable=False, unique=True),
    Column("label_id", Integer, nullable=False),
    Column("props", AnyValue),
    sqlite_autoincrement=True,
)
Index("ix_vertices_label", vertices.c.label_id, vertices.c.key)

edges = Table(
    "edges",
    metadata,
    Column("key", Integer, Identity(always=False), primary_key=True),
    Column("id", AnyValue, nullable=False),
    Column("label_id", Integer, nullable=False),
    Column("out_key", Integer, nullable=False),
    Column("in_key", Integer, nullable=False),
    Column("sort_values", Text, nullable=False, server_default=""),
    Column("dup", Integer, nullable=False, server_default="0"),
    Column("props", AnyValue),
    # layout v3, after props: where ALTER TABLE ADD COLUMN puts them in an upgraded v2 store
    # (nullable for the same reason: an added column cannot be NOT NULL without a default)
    Column("out_id", AnyValue),
    Column("in_id", AnyValue),
    sqlite_autoincrement=True,
)
Index("ix_edges_out", edges.c.out_key, edges.c.label_id, edges.c.sort_values, edges.c.in_key, edges.c.dup,
      edges.c.in_id, unique=True)
#: whether ix_edges_in ends in out_id (covering in-side id reads); see the module docstring
IN_SIDE_IDS = False
Index("ix_edges_in", edges.c.in_key, edges.c.label_id, edges.c.sort_values, edges.c.out_key,
      *([edges.c.out_id] if IN_SIDE_IDS else []))
Index("ix_edges_label", edges.c.label_id, edges.c.key)
Index("ix_edges_id", edges.c.id, unique=True, sqlite_where=edges.c.dup != 0, postgresql_where=edges.c.dup != 0)

index_entries = Table(
    "index_entries",
    metadata,
    Column("index_id", Integer, nullable=False),
    Column("value", AnyValue, nullable=False),
    Column("elem_kind", Text, nullable=False),
    Column("elem_key", Integer, nullable=False),
    PrimaryKeyConstraint("index_id", "value", "elem_key"),
    sqlite_with_rowid=False,
)
Index(
    "ix_index_entries_elem",
    index_entries.c.elem_key,
    index_entries.c.elem_kind,
    index_entries.c.index_id,
)

schema_items = Table(
    "schema_items",
    metadata,
    Column("kind", Text, nullable=False),
    Column("id", Integer, nullable=False),
    Column("name", Text, nullable=False),
    Column("body", AnyValue),
    PrimaryKeyConstraint("kind", "id"),
    UniqueConstraint("kind", "name", name="uq_schema_items_name"),
)

schema_seq = Table(
    "schema_seq",
    metadata,
    Column("kind", Text, primary_key=True),
    Column("last_id", Integer, nullable=False),
)

variables = Table(
    "variables",
    metadata,
    Column("name", Text, primary_key=True),
    Column("value", AnyValue),
)

tasks = Table(
    "tasks",
    metadata,
    Column("id", Integer, Identity(always=False), primary_key=True),
    Column("type", Text),
    Column("name", Text),
    Column("status", Text),
    Column("progress", Integer),
    Column("create_ms", Integer),
    Column("update_ms", Integer),
    Column("retries", Integer),
    Column("callable", Text),
    Column("input", AnyValue),
    Column("result", AnyValue),
    Column("server", Text),
    Column("description", Text),
    Column("dependencies", Text),  # JSON list of task ids
    sqlite_autoincrement=True,
)
Index("ix_tasks_status", tasks.c.status, tasks.c.id)

TASK_FIELDS = tuple(c.name for c in tasks.columns if c.name != "id")


# ---- auth records (issue 19) -----------------------------------------------------------
#: ``auth_records(kind, id, name, body) PK (kind, id)``: users, groups, targets, belongs and
#: accesses of the graph named by ``auth.graph_store``, one table with a kind column (they are
#: few, and read by id or name). ``name`` is the user, group or target name (unique per kind,
#: ``ix_auth_records_name``) and NULL for belongs and accesses; ``body`` is the record's JSON.
#: ``auth_revoked(digest PK, exp)``: tokens ended by a logout, kept until they expire anyway.
#: Added without a store version bump: an older hugelite never reads them, and
#: `auth_records.ensure_auth_tables` creates them in a store initialised before they existed.
auth_records = Table(
    "auth_records",
    metadata,
    Column("kind", Text, nullable=False),
    Column("id", Text, nullable=False),
    Column("name", Text),
    Column("body", Text, nullable=False),
    PrimaryKeyConstraint("kind", "id"),
)
Index("ix_auth_records_name", auth_records.c.kind, auth_records.c.name, unique=True)

auth_revoked = Table(
    "auth_revoked",
    metadata,
    Column("digest", Text, primary_key=True),
    Column("exp", Integer, nullable=False),
)

AUTH_TABLES = (auth_records, auth_revoked)
#: PostgreSQL has no rowid: a sequence column there keeps the records' creation order
#: (`AuthTable.list`); SQLite's table is unchanged
event.listen(auth_records, "after_create", DDL(  # type: ignore[no-untyped-call]
    "ALTER TABLE auth_records ADD COLUMN seq BIGINT GENERATED BY DEFAULT AS IDENTITY").execute_if(dialect="postgresql"))


#: trigger name -> table it is on, and its DDL. Created with their table (`after_create`) and
#: by the migration, which rebuilds `edges` under an existing `vertices`.
TRIGGERS: dict[str, tuple[str, str]] = {
    # a deleted row (also an edge removed by the cascade) takes its index entries with it
    "tr_vertices_index_cleanup": ("vertices", "DELETE FROM index_entries WHERE elem_key = OLD.key AND elem_kind = 'v';"),
    "tr_edges_index_cleanup": ("edges", "DELETE FROM index_entries WHERE elem_key = OLD.key AND elem_kind = 'e';"),
    # what ON DELETE CASCADE did in layout v1: one range of each adjacency index
    "tr_vertices_edge_cascade": (
        "vertices", "DELETE FROM edges WHERE out_key = OLD.key; DELETE FROM edges WHERE in_key = OLD.key;"
    ),
}


def trigger_ddl(name: str) -> str:
    table, body = TRIGGERS[name]
    return f"CREATE TRIGGER IF NOT EXISTS {name} AFTER DELETE ON {table} BEGIN {body} END"


for _name, (_table, _body) in TRIGGERS.items():
    event.listen(metadata.tables[_table], "after_create",
                 DDL(trigger_ddl(_name)).execute_if(dialect="sqlite"))  # type: ignore[no-untyped-call]
for _table, _ddl in PG_TRIGGERS:
    event.listen(metadata.tables[_table], "after_create",
                 DDL(_ddl).execute_if(dialect="postgresql"))  # type: ignore[no-untyped-call]
