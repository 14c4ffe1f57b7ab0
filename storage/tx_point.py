"""Point reads answered by one statement each, for the engine's fused point plans.

A 1-hop id query (`g.V(id).out('knows').id()`) through the general methods costs two
statements (the start vertex by id, then its adjacency joined to the neighbours' ids) and
the Python between them. `neighbour_ids` resolves the start id and walks the adjacency
index, which holds the neighbours' ids on the out side (layout v3: no vertex row is read;
the in side joins them by key, see `tables.IN_SIDE_IDS`), in one statement, in the order `AdjacencyMixin.adjacent_keys` gives for one vertex: (label_id,
sort_values, other key, edge key); for 'both' the out-edges first, so a self-loop appears
twice.

`index_rows` is an equality index lookup joined to the vertex rows: the rows whose entries
hold any of the values, each once, in key order; `index_id_props` the same for one value
and one vertex label, only (id, props) per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from storage._sql import label_filter, label_key, padded_chunks, placeholders, unique
from storage.rows import VertexRow
from storage.tx_adjacency import OTHER_ID, TIE, _direction, tie
from storage.tx_base import TxBase
from storage.tx_elements import _ONE_SQL

# direction -> (column matching the start key, column holding the other end)
_SIDES = {"out": (("out_key", "in_key"),), "in": (("in_key", "out_key"),),
          "both": (("out_key", "in_key"), ("in_key", "out_key"))}


def _far_id(this: str, other: str) -> tuple[str, str]:
    """(the select expression of the other end's id, the join that gives it): the adjacency
    index's own copy where it holds one (layout v3: covering, no row of `edges` or
    `vertices` read), else a primary-key probe of `vertices` per edge."""
    col = OTHER_ID[this]
    if col is not None:
        return f"e.{col}", ""
    return "v.id", f" CROSS JOIN vertices AS v ON v.key = e.{other}"


@lru_cache(maxsize=128)
def _neighbour_ids_sql(direction: str, labels: tuple[int, ...]) -> str:
    """One start vertex by public id; the CROSS JOINs pin the loop order (id index probe,
    then one range of the adjacency index, then the other end's id: `_far_id`)."""
    sides = _SIDES[direction]
    parts = []
    for dir_no, (this, other) in enumerate(sides):
        far, join = _far_id(this, other)
        head = (
            f"SELECT s.key, {far}{{tail}} FROM vertices AS s CROSS JOIN edges AS e ON e.{this} = s.key"
            f"{label_filter('e.label_id', labels)}{join} WHERE s.id = ?"
        )
        if len(sides) == 1:
            return head.format(tail="") + f" ORDER BY e.label_id, e.sort_values, e.{other}, {tie('e', this)}"
        tail = f", {dir_no} AS d, e.label_id AS o_label, e.sort_values AS o_sort, e.{other} AS other, e.{TIE[this]} AS o_key"
        parts.append(head.format(tail=tail))
    return " UNION ALL ".join(parts) + " ORDER BY d, o_label, o_sort, other, o_key"


@lru_cache(maxsize=64)
def _index_rows_sql(n: int) -> str:
    return (
        f"SELECT v.key, v.id, v.label_id, v.props FROM index_entries AS ie CROSS JOIN vertices AS v "
        f"ON v.key = ie.elem_key WHERE ie.index_id = ? AND ie.value IN ({placeholders(n)})"
    )


_INDEX_ROWS_ONE = (
    "SELECT v.key, v.id, v.label_id, v.props FROM index_entries AS ie CROSS JOIN vertices AS v "
    "ON v.key = ie.elem_key WHERE ie.index_id = ? AND ie.value = ? ORDER BY ie.elem_key"
)


_INDEX_ID_PROPS = (
    "SELECT v.id, v.props FROM index_entries AS ie CROSS JOIN vertices AS v "
    "ON v.key = ie.elem_key WHERE ie.index_id = ? AND ie.value = ? AND v.label_id = ? ORDER BY ie.elem_key"
)


@lru_cache(maxsize=128)
def _neighbour_id_list_sql(direction: str, labels: tuple[int, ...]) -> str:
    """`_neighbour_ids_sql` of one side with the neighbour's id as the only column, in the
    same order: a caller that wants the ids alone gets 1-tuples (at 10 neighbours, ~10% of
    the statement's CPU went on the start key repeated in every row)."""
    this, other = _SIDES[direction][0]
    far, join = _far_id(this, other)
    return (
        f"SELECT {far} FROM vertices AS s CROSS JOIN edges AS e ON e.{this} = s.key"
        f"{label_filter('e.label_id', labels)}{join} WHERE s.id = ?"
        f" ORDER BY e.label_id, e.sort_values, e.{other}, {tie('e', this)}"
    )


def neighbour_ids_statement(direction: Any, label_ids: Sequence[int] | None) -> tuple[str, int, int]:
    """For a prepared reader (`read_once.reader`) that runs it without a `Tx`: the SQL that
    lists the neighbour ids `neighbour_ids` lists, for this direction and label filter (not
    an empty one), in the same order; how many times its parameters repeat the start id; and
    the column of each row that holds the neighbour id."""
    d = _direction(direction)
    if len(_SIDES[d]) == 1:
        return _neighbour_id_list_sql(d, label_key(label_ids)), 1, 0
    return _neighbour_ids_sql(d, label_key(label_ids)), len(_SIDES[d]), 1


#: the statement of `vertices_by_ids` for one id (a `VertexRow`'s columns), for a prepared reader
VERTEX_BY_ID_SQL = _ONE_SQL["vertices"]
#: the statement of `index_id_props`: parameters (index id, value, label id)
INDEX_ID_PROPS_SQL = _INDEX_ID_PROPS


class PointReadsMixin(TxBase):
    __slots__ = ()

    def neighbour_ids(
        self, vertex_id: Any, direction: Any, label_ids: Sequence[int] | None = None,
    ) -> list[tuple[int, Any]]:
        """(start key, neighbour id) per edge of the vertex whose stored id is `vertex_id`
        (direction 'out', 'in' or 'both'), in adjacency order (see the module). Empty when
        the vertex does not exist, has no such edge, or `label_ids` is empty."""
        d = _direction(direction)
        if label_ids is not None and len(label_ids) == 0:
            return []
        rows = self.raw.execute(_neighbour_ids_sql(d, label_key(label_ids)), (vertex_id,) * len(_SIDES[d])).fetchall()
        if d == "both":
            return [(r[0], r[1]) for r in rows]
        return rows

    def index_rows(self, index_id: int, values: Sequence[Any]) -> list[VertexRow]:
        """The vertex rows with an entry of any of `values` in index `index_id`, each once,
        in key order (what `index_eq` then `vertices_by_keys` give, sorted by key). Duplicates
        (several values, a multi-valued property) and the order are settled here: a SQL
        DISTINCT / ORDER BY would sort the rows with their property JSON in a temp b-tree."""
        make = VertexRow._make
        if len(values) == 1:  # one value: entries come once per element, in key order
            return [make(r) for r in self.raw.execute(_INDEX_ROWS_ONE, (index_id, values[0]))]
        wanted = unique(values)
        if not wanted:
            return []
        found: dict[int, Any] = {}
        for size, part in padded_chunks(wanted):
            for r in self.raw.execute(_index_rows_sql(size), [index_id, *part]):
                found[r[0]] = r
        return [make(found[k]) for k in sorted(found)]

    def index_id_props(self, index_id: int, value: Any, label_id: int) -> list[tuple[Any, Any]]:
        """(id, props) of the vertices with label `label_id` among `index_rows(index_id,
        [value])`, in key order, as plain tuples: an indexed lookup of one label and one
        value (a direct plan) needs nothing else of the row, and the label test costs less
        in SQLite than a row object and a comparison per row in Python."""
        return self.raw.execute(_INDEX_ID_PROPS, (index_id, value, label_id)).fetchall()
