"""The transaction object: one component per family of storage methods, over one `TxCore`.

``tx.elements`` (vertex and edge rows), ``tx.adjacency`` (incident edges of a batch, by
`queries.Adjacency` query objects), ``tx.aggregates`` (walk counts, groupings), ``tx.index``
(index entries), ``tx.schema`` (schema items and meta), ``tx.records`` (variables and tasks).
Composition, not inheritance: each family is one module holding the `TxCore` (the
connections and the read-only guard) and nothing of the others, so a new family (auth
records) is one more module and one more slot here, and none of the others changes.

One class serves both kinds of transaction; a read transaction (``readonly=True``) raises
`ReadOnlyTransaction` from every write method, so code written against `WriteTx` fails
loudly, not silently, when handed a read transaction. `ReadTx` and `WriteTx` are aliases
kept for type hints that say which one a function expects.
"""

from __future__ import annotations

import sqlite3

from sqlalchemy.engine import Connection

from storage import tables
from storage.tables import metadata
from storage.tx_adjacency import Adjacency
from storage.tx_aggregates import Aggregates
from storage.tx_base import TxCore
from storage.tx_elements import Elements
from storage.tx_index import Index
from storage.tx_records import Records
from storage.tx_schema import Schema

# clear() drops and recreates the element tables (much faster than deleting row by row through
# the cascade and cleanup triggers); dropping a table drops its triggers, and creating it makes
# them again (`tables.TRIGGERS`).
_DROPPED = ("index_entries", "edges", "vertices")
_EMPTIED = ("schema_items", "schema_seq", "variables")


class Tx:
    """A store transaction. Obtain one from `Store.read()` or `Store.write()`."""

    __slots__ = ("core", "elements", "adjacency", "aggregates", "index", "schema", "records")

    def __init__(self, conn: Connection, raw: sqlite3.Connection, readonly: bool) -> None:
        core = self.core = TxCore(conn, raw, readonly)
        self.elements = Elements(core)
        self.adjacency = Adjacency(core)
        self.aggregates = Aggregates(core)
        self.index = Index(core)
        self.schema = Schema(core)
        self.records = Records(core)

    @property
    def readonly(self) -> bool:
        return self.core.readonly

    @property
    def conn(self) -> Connection:
        """The SQLAlchemy connection (DDL, Core statements on cold paths)."""
        return self.core.conn

    @property
    def raw(self) -> sqlite3.Connection:
        """The driver connection inside the same transaction (maintenance, tests)."""
        return self.core.raw

    def clear(self) -> None:
        """Remove all data, schema, index entries and variables; keep tasks and meta.
        Element keys keep counting up afterwards (they are never reused)."""
        core = self.core
        core.check_writable()
        core.found_vertex_keys = None
        raw = core.raw
        seqs = raw.execute("SELECT name, seq FROM sqlite_sequence WHERE name IN ('vertices', 'edges')").fetchall()
        for table in _DROPPED:
            raw.execute(f"DROP TABLE {table}")
        metadata.create_all(core.conn, tables=[tables.vertices, tables.edges, tables.index_entries])
        raw.executemany("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", seqs)
        for table in _EMPTIED:
            raw.execute(f"DELETE FROM {table}")

    def __repr__(self) -> str:
        return f"<storage.Tx {'read' if self.readonly else 'write'}>"


ReadTx = Tx
WriteTx = Tx
