"""hugelite storage: a graph's vertices, edges, index entries, schema, variables and tasks in
SQLite, through SQLAlchemy Core. Imports nothing else of hugelite and knows nothing of Gremlin.

    store = open_store("data/hugegraph.db")   # or open_store(None) for memory
    store.initialise()                        # once (idempotent): `hugelite init-store`
    store.check_ready()                       # raises StoreNotInitialised / StoreVersionMismatch
    with store.write() as tx:
        key = tx.elements.vertex_insert("marko", label_id=1, props='{"name":"marko"}')
    with store.read() as tx:
        tx.adjacency.read(AdjacencyQuery("out", project=Project.PAIRS), [key])

See `docs/internals.md` (Storage) for the method table and `storage/tables.py` for the
physical model.
"""

from __future__ import annotations

from storage.auth_records import AuthTable, ensure_auth_tables
from storage.dialects import is_server_url
from storage.errors import (
    MissingEndpoint,
    ReadOnlyTransaction,
    StoreBusy,
    StoreClosed,
    StoreConflict,
    StoreError,
    StoreNotHugelite,
    StoreNotInitialised,
    StoreVersionMismatch,
)
from storage.files import remove_store_files
from storage.queries import AdjacencyQuery, Lookup, Project
from storage.rows import EdgeRow, SchemaRow, VertexRow
from storage.snapshot import snapshot_file
from storage.store import Store, drop_database, ensure_database, open_store
from storage.tables import SCHEMA_KINDS, STORE_VERSION
from storage.tx import ReadTx, Tx, WriteTx
from storage.tx_aggregates import CHAIN_MAX_HOPS, WALK_MAX_HOPS, AggregateUnsupported

__all__ = [
    "AuthTable",
    "ensure_auth_tables",
    "CHAIN_MAX_HOPS",
    "snapshot_file",
    "SCHEMA_KINDS",
    "STORE_VERSION",
    "AdjacencyQuery",
    "AggregateUnsupported",
    "EdgeRow",
    "Lookup",
    "MissingEndpoint",
    "Project",
    "ReadOnlyTransaction",
    "ReadTx",
    "SchemaRow",
    "Store",
    "StoreBusy",
    "StoreClosed",
    "StoreConflict",
    "StoreError",
    "StoreNotHugelite",
    "StoreNotInitialised",
    "StoreVersionMismatch",
    "Tx",
    "VertexRow",
    "WALK_MAX_HOPS",
    "WriteTx",
    "ensure_database",
    "is_server_url",
    "drop_database",
    "open_store",
    "remove_store_files",
]
