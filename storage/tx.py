"""The transaction object: every storage method, grouped by family in the `tx_*` mixins.

One class serves both kinds of transaction; a read transaction (``readonly=True``) raises
`ReadOnlyTransaction` from every write method, so code written against `WriteTx` fails
loudly, not silently, when handed a read transaction. `ReadTx` and `WriteTx` are aliases
kept for type hints that say which one a function expects.
"""

from __future__ import annotations

from storage import tables
from storage.tables import metadata
from storage.tx_adjacency import AdjacencyMixin
from storage.tx_aggregates import AggregatesMixin
from storage.tx_elements import ElementsMixin
from storage.tx_index import IndexMixin
from storage.tx_records import RecordsMixin
from storage.tx_schema import SchemaMixin

# clear() drops and recreates the element tables (much faster than deleting row by row through
# the cascade and cleanup triggers); dropping a table drops its triggers, and creating it makes
# them again (`tables.TRIGGERS`).
_DROPPED = ("index_entries", "edges", "vertices")
_EMPTIED = ("schema_items", "schema_seq", "variables")


class Tx(ElementsMixin, AdjacencyMixin, AggregatesMixin, IndexMixin, SchemaMixin, RecordsMixin):
    """A store transaction. Obtain one from `Store.read()` or `Store.write()`."""

    __slots__ = ()

    def clear(self) -> None:
        """Remove all data, schema, index entries and variables; keep tasks and meta.
        Element keys keep counting up afterwards (they are never reused)."""
        self._w()
        self.found_vertex_keys = None
        raw = self.raw
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
