"""The transaction object: one component per family of storage methods, over one `TxCore`.

``tx.elements`` (vertex and edge rows), ``tx.adjacency`` (incident edges of a batch, by
`queries.AdjacencyQuery` objects), ``tx.aggregates`` (walk counts, groupings), ``tx.index``
(index entries), ``tx.schema`` (schema items and meta), ``tx.records`` (variables and tasks).
Composition, not mixins: each family is one module whose component holds the `TxCore` (the
connections and the read-only guard, which `Tx` itself is: one object per transaction, not
two) and nothing of the other families; components are made on first use (a point read needs
one of the six). A new family (auth records) is one more module and one more property here,
and none of the others changes.

One class serves both kinds of transaction; a read transaction (``readonly=True``) raises
`ReadOnlyTransaction` from every write method, so code written against `WriteTx` fails
loudly, not silently, when handed a read transaction. `ReadTx` and `WriteTx` are aliases
kept for type hints that say which one a function expects.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy.engine import Connection

from storage import tables
from storage.dialects import SQLITE, Dialect
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


class Tx(TxCore):
    """A store transaction. Obtain one from `Store.read()` or `Store.write()`."""

    __slots__ = ("_elements", "_adjacency", "_aggregates", "_index", "_schema", "_records")

    def __init__(
        self, conn: Connection, raw: sqlite3.Connection, readonly: bool, dialect: Dialect = SQLITE, cur: Any = None,
    ) -> None:
        super().__init__(conn, raw, readonly, dialect, cur)
        self._elements: Elements | None = None
        self._adjacency: Adjacency | None = None
        self._aggregates: Aggregates | None = None
        self._index: Index | None = None
        self._schema: Schema | None = None
        self._records: Records | None = None

    @property
    def core(self) -> TxCore:
        """The connections and the read-only guard every component shares (the transaction
        itself: its state is the core's, so opening one builds one object, not two)."""
        return self

    # each component is made on first use: a point read needs one of the six
    @property
    def elements(self) -> Elements:
        c = self._elements
        if c is None:
            c = self._elements = Elements(self)
        return c

    @property
    def adjacency(self) -> Adjacency:
        c = self._adjacency
        if c is None:
            c = self._adjacency = Adjacency(self)
        return c

    @property
    def aggregates(self) -> Aggregates:
        c = self._aggregates
        if c is None:
            c = self._aggregates = Aggregates(self)
        return c

    @property
    def index(self) -> Index:
        c = self._index
        if c is None:
            c = self._index = Index(self)
        return c

    @property
    def schema(self) -> Schema:
        c = self._schema
        if c is None:
            c = self._schema = Schema(self)
        return c

    @property
    def records(self) -> Records:
        c = self._records
        if c is None:
            c = self._records = Records(self)
        return c

    def clear(self) -> None:
        """Remove all data, schema, index entries and variables; keep tasks and meta.
        Element keys keep counting up afterwards (they are never reused)."""
        self.check_writable()
        self.found_vertex_keys = None
        raw = self.raw
        if self.dialect.pg:  # TRUNCATE keeps the key sequences (keys are never reused)
            raw.execute(f"TRUNCATE {', '.join(_DROPPED)}")
            for table in _EMPTIED:
                raw.execute(f"DELETE FROM {table}")
            return
        seqs = raw.execute("SELECT name, seq FROM sqlite_sequence WHERE name IN ('vertices', 'edges')").fetchall()
        for table in _DROPPED:
            raw.execute(f"DROP TABLE {table}")
        metadata.create_all(self.conn, tables=[tables.vertices, tables.edges, tables.index_entries])
        raw.executemany("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", seqs)
        for table in _EMPTIED:
            raw.execute(f"DELETE FROM {table}")

    def __repr__(self) -> str:
        return f"<storage.Tx {'read' if self.readonly else 'write'}>"


ReadTx = Tx
WriteTx = Tx
