"""The physical model: every table, column and index of a hugelite store, and why.

One SQLite database holds one graph. Columns declared `BLOB` here have *no type affinity*
in SQLite (the rule is: a declared type containing "BLOB" means values are stored exactly as
given), which is what lets the public element id be an int, a str or bytes and stay distinct:
`1`, `'1'` and `b'1'` are three different ids, each unique per table. When SQLite compares
such values it orders NULL < numbers (compared numerically, ints and reals alike) < text <
blobs, which `index_range` relies on to keep a numeric range from picking up strings.

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

``edges(key INTEGER PK AUTOINCREMENT, id BLOB UNIQUE, label_id, out_key, in_key,
sort_values TEXT, props BLOB)``
    ``out_key``/``in_key`` reference ``vertices.key`` with ON DELETE CASCADE, so deleting a
    vertex deletes its incident edges in the same statement. ``sort_values`` holds HugeGraph's
    sort-key values already encoded by the engine (empty string when the label has none).
    * ``ix_edges_out (out_key, label_id, sort_values, in_key)`` and
      ``ix_edges_in (in_key, label_id, sort_values, out_key)``: the adjacency index. One
      B-tree range per (vertex, label) yields the edges already in the order the engine
      wants, and ``adjacent_keys`` is answered from the index alone (no table lookup). They
      also serve the foreign-key cascade on vertex delete.
    * ``ix_edges_label (label_id, key)``: label scans and counts of edges.
    * ``sqlite_autoindex`` on ``id``: ``E(id)`` lookups.

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

``tasks(id INTEGER PK AUTOINCREMENT, type, name, status, progress, create_ms, update_ms,
retries, callable, input, result, server, description, dependencies)``
    Persistent task records; real columns so ``task_list(status=...)`` filters in SQL.
    * ``ix_tasks_status (status, id)``: listing tasks by status in id order.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    DDL,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    event,
)
from sqlalchemy.types import UserDefinedType

#: Version of the physical layout above. Bump it whenever a table, column or index changes;
#: a store written with another version is refused with `StoreVersionMismatch`.
STORE_VERSION = "1"

SCHEMA_KINDS = frozenset({"propertykey", "vertexlabel", "edgelabel", "indexlabel"})


class AnyValue(UserDefinedType):
    """A column with no type affinity: declared ``BLOB`` and passed through untouched."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "BLOB"


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
    Column("key", Integer, primary_key=True),
    Column("id", AnyValue, nullable=False, unique=True),
    Column("label_id", Integer, nullable=False),
    Column("props", AnyValue),
    sqlite_autoincrement=True,
)
Index("ix_vertices_label", vertices.c.label_id, vertices.c.key)

edges = Table(
    "edges",
    metadata,
    Column("key", Integer, primary_key=True),
    Column("id", AnyValue, nullable=False, unique=True),
    Column("label_id", Integer, nullable=False),
    Column("out_key", Integer, ForeignKey("vertices.key", ondelete="CASCADE"), nullable=False),
    Column("in_key", Integer, ForeignKey("vertices.key", ondelete="CASCADE"), nullable=False),
    Column("sort_values", Text, nullable=False, server_default=""),
    Column("props", AnyValue),
    sqlite_autoincrement=True,
)
Index("ix_edges_out", edges.c.out_key, edges.c.label_id, edges.c.sort_values, edges.c.in_key)
Index("ix_edges_in", edges.c.in_key, edges.c.label_id, edges.c.sort_values, edges.c.out_key)
Index("ix_edges_label", edges.c.label_id, edges.c.key)

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
    Column("id", Integer, primary_key=True),
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


def _index_cleanup_trigger(table: Table, elem_kind: str) -> None:
    """`tr_<table>_index_cleanup`: a deleted row (also one removed by the edge cascade) takes
    its index entries with it."""
    event.listen(
        table,
        "after_create",
        DDL(
            f"CREATE TRIGGER IF NOT EXISTS tr_{table.name}_index_cleanup AFTER DELETE ON {table.name} "
            f"BEGIN DELETE FROM index_entries WHERE elem_key = OLD.key AND elem_kind = '{elem_kind}'; END"
        ),
    )


_index_cleanup_trigger(vertices, "v")
_index_cleanup_trigger(edges, "e")
