"""The transaction object: one component per family of storage methods, over one `TxCore`.

``tx.elements`` (vertex and edge rows), ``tx.adjacency`` (incident edges of a batch, by
`queries.AdjacencyQuery` objects), ``tx.aggregates`` (walk counts, groupings), ``tx.index``
(index entries), ``tx.schema`` (schema items and meta), ``tx.records`` (variables and tasks).
Composition, not mixins: each family is one module whose component holds the `TxCore` (the
connections and the read-only guard, which `Tx` itself is: one object, not two) and nothing
of the other families; components are made on first use (a point read needs one of the six)
and kept: a `Tx` belongs to one connection and serves each of its transactions of one kind in
turn (`connections.Link`). A new family (auth records) is one more module and one more slot
and `_FAMILIES` entry here, and none of the others changes.

One class serves both kinds of transaction; a read transaction (``readonly=True``) raises
`ReadOnlyTransaction` from every write method, so code written against `WriteTx` fails
loudly, not silently, when handed a read transaction. `ReadTx` and `WriteTx` are aliases
kept for type hints that say which one a function expects.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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

    # one slot per family component, made on first use (a point read needs one of the six)
    # by `__getattr__`, which Python calls only while the slot is empty: afterwards reading
    # ``tx.elements`` is a slot read, not a property call, on every transaction of the
    # connection this `Tx` belongs to (`connections.Link`)
    __slots__ = ("elements", "adjacency", "aggregates", "index", "schema", "records")
    elements: Elements
    adjacency: Adjacency
    aggregates: Aggregates
    index: Index
    schema: Schema
    records: Records

    def __init__(
        self, conn: Connection, raw: sqlite3.Connection, readonly: bool, dialect: Dialect = SQLITE, cur: Any = None,
    ) -> None:
        super().__init__(conn, raw, readonly, dialect, cur)

    if not TYPE_CHECKING:  # hidden from the type checker: `tx.misspelt` stays an error there

        def __getattr__(self, name: str) -> Any:
            """A family component asked for the first time: made, kept in its slot."""
            family = _FAMILIES.get(name)
            if family is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            component = family(self)
            setattr(self, name, component)
            return component

    @property
    def core(self) -> TxCore:
        """The connections and the read-only guard every component shares (the transaction
        itself: its state is the core's, so opening one builds one object, not two)."""
        return self

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


_FAMILIES: dict[str, Callable[[TxCore], Any]] = {
    "elements": Elements, "adjacency": Adjacency, "aggregates": Aggregates, "index": Index, "schema": Schema,
    "records": Records,
}

ReadTx = Tx
WriteTx = Tx
