"""The transaction object: every storage method, grouped by family in the `tx_*` mixins.

One class serves both kinds of transaction; a read transaction (``readonly=True``) raises
`ReadOnlyTransaction` from every write method, so code written against `WriteTx` fails
loudly, not silently, when handed a read transaction. `ReadTx` and `WriteTx` are aliases
kept for type hints that say which one a function expects.
"""

from __future__ import annotations

from storage.tx_adjacency import AdjacencyMixin
from storage.tx_elements import ElementsMixin
from storage.tx_index import IndexMixin
from storage.tx_records import RecordsMixin
from storage.tx_schema import SchemaMixin

# Order matters for clear(): index entries first (so the delete triggers find nothing left
# to do), then edges before the vertices they reference.
_CLEARED_TABLES = ("index_entries", "edges", "vertices", "schema_items", "schema_seq", "variables")


class Tx(ElementsMixin, AdjacencyMixin, IndexMixin, SchemaMixin, RecordsMixin):
    """A store transaction. Obtain one from `Store.read()` or `Store.write()`."""

    __slots__ = ()

    def clear(self) -> None:
        """Remove all data, schema, index entries and variables; keep tasks and meta.
        Element keys keep counting up afterwards (they are never reused)."""
        self._w()
        for table in _CLEARED_TABLES:
            self.raw.execute(f"DELETE FROM {table}")

    def __repr__(self) -> str:
        return f"<storage.Tx {'read' if self.readonly else 'write'}>"


ReadTx = Tx
WriteTx = Tx
