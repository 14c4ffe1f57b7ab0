"""hugelite storage: a graph's vertices, edges, index entries, schema, variables and tasks in
SQLite or PostgreSQL, through SQLAlchemy Core. Imports nothing else of hugelite and knows
nothing of Gremlin.

    store = open_store("data/hugegraph.db")   # or open_store(None) for memory, or a URL:
    # open_store("postgresql+psycopg://user@host:5432/hugegraph") after ensure_database(url)
    store.initialise()                        # once (idempotent): `hugelite init-store`
    store.check_ready()                       # raises StoreNotInitialised / StoreVersionMismatch
    with store.write() as tx:
        key = tx.elements.vertex_insert("marko", label_id=1, props='{"name":"marko"}')
    with store.read() as tx:
        tx.adjacency.read(AdjacencyQuery("out", project=Project.PAIRS), [key])

See `docs/internals.md` (Storage) for the method table and `storage/tables.py` for the
physical model. Both dialects give the same answers through the same methods; what differs
(the stored form of untyped values, keys from sequences, triggers, the SQL words) is said in
`tables.py` ("Per dialect"), `dialects.py` and `values.py`. On PostgreSQL every store is
the same kind (there is no memory store), and a `GroupCount` by a property key leaves grouping to
the engine (`AggregateUnsupported`): the property bodies are stored encoded there.
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
from storage.generations import SCHEMA_GENERATION, generation
from storage.generations import bump as bump_generation
from storage.login_failures import LoginFailures, ensure_login_failures
from storage.queries import (
    AdjacencyQuery,
    GroupCount,
    IndexProject,
    IndexQuery,
    Lookup,
    Project,
    WalkCount,
    WalkStart,
)
from storage.rows import EdgeRow, SchemaRow, VertexRow
from storage.snapshot import snapshot_file
from storage.store import Store, drop_database, ensure_database, open_store
from storage.tables import SCHEMA_KINDS, STORE_VERSION
from storage.task_leases import TaskLeases, ensure_task_leases
from storage.tx import ReadTx, Tx, WriteTx
from storage.tx_aggregates import CHAIN_MAX_HOPS, WALK_MAX_HOPS, AggregateUnsupported

__all__ = [
    "AuthTable",
    "LoginFailures",
    "ensure_login_failures",
    "SCHEMA_GENERATION",
    "TaskLeases",
    "bump_generation",
    "ensure_task_leases",
    "generation",
    "ensure_auth_tables",
    "CHAIN_MAX_HOPS",
    "snapshot_file",
    "SCHEMA_KINDS",
    "STORE_VERSION",
    "AdjacencyQuery",
    "AggregateUnsupported",
    "EdgeRow",
    "GroupCount",
    "IndexProject",
    "IndexQuery",
    "WalkCount",
    "WalkStart",
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
    "drop_database",
    "ensure_database",
    "is_server_url",
    "open_store",
    "remove_store_files",
]
