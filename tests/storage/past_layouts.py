"""The DDL of hugelite's past store layouts (sqlite_master of a v1 and of a v2 store), frozen
here so the upgrade tests can write such a store byte for byte as those versions did.

The statements the layouts share (the vertex table, the index entries, schema, variables,
tasks and their triggers) stand once; each layout lists them where its sqlite_master did.
Never edit a statement to follow `storage/tables.py`: these are history, not the schema.
"""

from __future__ import annotations

_VERTICES = (
    'CREATE TABLE meta ("key" TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY ("key"))',
    'CREATE TABLE vertices ("key" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL, '
    "label_id INTEGER NOT NULL, props BLOB, UNIQUE (id))",
    'CREATE INDEX ix_vertices_label ON vertices (label_id, "key")',
)
_SIDE_TABLES = (
    "CREATE TABLE index_entries (index_id INTEGER NOT NULL, value BLOB NOT NULL, elem_kind TEXT NOT NULL, "
    "elem_key INTEGER NOT NULL, PRIMARY KEY (index_id, value, elem_key)) WITHOUT ROWID",
    "CREATE INDEX ix_index_entries_elem ON index_entries (elem_key, elem_kind, index_id)",
    "CREATE TABLE schema_items (kind TEXT NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, body BLOB, "
    "PRIMARY KEY (kind, id), CONSTRAINT uq_schema_items_name UNIQUE (kind, name))",
    "CREATE TABLE schema_seq (kind TEXT NOT NULL, last_id INTEGER NOT NULL, PRIMARY KEY (kind))",
    "CREATE TABLE variables (name TEXT NOT NULL, value BLOB, PRIMARY KEY (name))",
    "CREATE TABLE tasks (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, type TEXT, name TEXT, status TEXT, "
    "progress INTEGER, create_ms INTEGER, update_ms INTEGER, retries INTEGER, callable TEXT, input BLOB, "
    "result BLOB, server TEXT, description TEXT, dependencies TEXT)",
    "CREATE INDEX ix_tasks_status ON tasks (status, id)",
)
_VERTEX_INDEX_CLEANUP = (
    "CREATE TRIGGER tr_vertices_index_cleanup AFTER DELETE ON vertices BEGIN DELETE FROM index_entries "
    "WHERE elem_key = OLD.key AND elem_kind = 'v'; END"
)
_EDGE_INDEX_CLEANUP = (
    "CREATE TRIGGER tr_edges_index_cleanup AFTER DELETE ON edges BEGIN DELETE FROM index_entries "
    "WHERE elem_key = OLD.key AND elem_kind = 'e'; END"
)

# layout v1: edges keyed by their own id, ends cascaded by foreign keys
V1_DDL = (
    *_VERTICES,
    _VERTEX_INDEX_CLEANUP,
    *_SIDE_TABLES,
    'CREATE TABLE edges ("key" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL, '
    "label_id INTEGER NOT NULL, out_key INTEGER NOT NULL, in_key INTEGER NOT NULL, "
    "sort_values TEXT DEFAULT '' NOT NULL, props BLOB, UNIQUE (id), "
    'FOREIGN KEY(out_key) REFERENCES vertices ("key") ON DELETE CASCADE, '
    'FOREIGN KEY(in_key) REFERENCES vertices ("key") ON DELETE CASCADE)',
    "CREATE INDEX ix_edges_in ON edges (in_key, label_id, sort_values, out_key)",
    "CREATE INDEX ix_edges_out ON edges (out_key, label_id, sort_values, in_key)",
    'CREATE INDEX ix_edges_label ON edges (label_id, "key")',
    _EDGE_INDEX_CLEANUP,
)

# layout v2: parts-identified edges (dup 0) beside id-identified ones, the cascade a trigger
V2_DDL = (
    *_VERTICES,
    'CREATE TABLE edges ("key" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL, '
    "label_id INTEGER NOT NULL, out_key INTEGER NOT NULL, in_key INTEGER NOT NULL, "
    "sort_values TEXT DEFAULT '' NOT NULL, dup INTEGER DEFAULT '0' NOT NULL, props BLOB)",
    "CREATE UNIQUE INDEX ix_edges_out ON edges (out_key, label_id, sort_values, in_key, dup)",
    "CREATE INDEX ix_edges_in ON edges (in_key, label_id, sort_values, out_key)",
    "CREATE UNIQUE INDEX ix_edges_id ON edges (id) WHERE dup != 0",
    'CREATE INDEX ix_edges_label ON edges (label_id, "key")',
    *_SIDE_TABLES,
    _VERTEX_INDEX_CLEANUP,
    "CREATE TRIGGER tr_vertices_edge_cascade AFTER DELETE ON vertices BEGIN DELETE FROM edges WHERE "
    "out_key = OLD.key; DELETE FROM edges WHERE in_key = OLD.key; END",
    _EDGE_INDEX_CLEANUP,
)
