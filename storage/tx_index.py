"""Index entries: one table serves secondary, unique, range and search index labels.

Lookups are `queries.IndexQuery` objects (`Index.read`): equality or range, projecting keys,
a count or vertex rows; the entries themselves are written and maintained by the
`index_add*` / `index_remove` / `index_drop` methods.

An entry is (index_id, value, elem_kind, elem_key). `value` has no type affinity, so SQLite
compares numbers numerically (an int 5 and a real 5.0 are equal) and orders every number
before every string and every string before every blob. Lookups return element keys in index
order (value, then key), each key once; with `limit` the cursor stops early, so a limited
lookup reads only what it returns.

Entries of deleted vertices and edges are removed by triggers (see `tables`), so the engine
only maintains entries on insert and property change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

from storage._sql import padded_chunks, placeholders, unique
from storage.errors import StoreError
from storage.queries import IndexProject, IndexQuery
from storage.rows import VertexRow, make_vertex
from storage.tx_base import TxCore
from storage.values import encode

_ADD = "INSERT OR IGNORE INTO index_entries (index_id, value, elem_kind, elem_key) VALUES (?, ?, ?, ?)"
# `index_add_many`'s rows (index_id, value, elem_key, elem_kind) as multi-row statements
# (`TxCore.insert_values`); the numbered parameters put each in its column, no new tuples
_ADD_HEAD = "INSERT OR IGNORE INTO index_entries (index_id, value, elem_kind, elem_key)"
_ADD_ROW = "(?{0},?{1},?{3},?{2})"
_ANY = object()
# The entries of one element in one index. Naming both kinds lets the planner use all three
# columns of ix_index_entries_elem; left to itself it prefers walking the primary key of the
# whole index (to skip a sort), which is slow for a big index.
_BY_ELEM = "elem_key = ? AND elem_kind IN ('v', 'e') AND index_id = ?"


@lru_cache(maxsize=64)
def _eq_sql(n: int) -> str:
    return (
        f"SELECT elem_key FROM index_entries WHERE index_id = ? AND value IN ({placeholders(n)}) "
        f"ORDER BY value, elem_key"
    )


@lru_cache(maxsize=64)
def _eq_count_sql(n: int) -> str:
    return (
        f"SELECT count(DISTINCT elem_key) FROM index_entries "
        f"WHERE index_id = ? AND value IN ({placeholders(n)})"
    )


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


def _type_class(value: Any) -> int:
    """SQLite's comparison class: 0 number, 1 text, 2 blob."""
    if isinstance(value, int | float | Decimal):
        return 0
    if isinstance(value, str):
        return 1
    if isinstance(value, bytes | bytearray | memoryview):
        return 2
    raise StoreError(f"index values must be numbers, strings or bytes, not {type(value).__name__}")


# Smallest value of each class, to bound an open range inside its own class.
_CLASS_FLOOR = {1: "", 2: b""}


def _range_where(lo: Any, hi: Any, lo_incl: bool, hi_incl: bool) -> tuple[str, list[Any]]:
    """The value conditions of a range, kept inside the type class of its bounds: a range
    with only a numeric lower bound must not run on into the strings."""
    conds: list[str] = []
    params: list[Any] = []
    cls = _type_class(lo if lo is not None else hi) if (lo is not None or hi is not None) else None
    if lo is not None:
        conds.append("value >= ?" if lo_incl else "value > ?")
        params.append(lo)
    elif cls in _CLASS_FLOOR:
        conds.append("value >= ?")
        params.append(_CLASS_FLOOR[cls])
    if hi is not None:
        conds.append("value <= ?" if hi_incl else "value < ?")
        params.append(hi)
    elif cls is not None and cls + 1 in _CLASS_FLOOR:
        conds.append("value < ?")
        params.append(_CLASS_FLOOR[cls + 1])
    return "".join(f" AND {c}" for c in conds), params


def _distinct(rows: Iterable[Any], limit: int | None, seen: dict[int, None] | None = None) -> list[int]:
    seen = {} if seen is None else seen
    if limit is not None and len(seen) >= limit:
        return list(seen)
    for (key,) in rows:
        if key not in seen:
            seen[key] = None
            if limit is not None and len(seen) >= limit:
                break
    return list(seen)


class Index:
    __slots__ = ("core", "raw", "cur", "pg")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw
        self.cur = core.cur  # statements read to their end at once (`TxCore.cur`)
        #: PostgreSQL: values are bound `encode`d (`values`), which keeps SQLite's order
        self.pg = core.dialect.pg

    def _values(self, values: list[Any]) -> list[Any]:
        return [encode(v) for v in values] if self.pg else values

    def read(self, query: IndexQuery, operand: Any) -> Any:
        """`query`'s answer for `operand`: the values sought (equality) or ``(lo, hi)``
        (range). ``KEYS`` -> element keys in (value, key) order, each once, at most
        `query.limit`; ``COUNT`` -> distinct elements matching; ``VERTICES`` -> vertex rows,
        each once, in key order."""
        index_id, range_, project, limit, lo_incl, hi_incl = query
        if range_:
            lo, hi = operand
            keys = self._range(index_id, lo, hi, lo_incl, hi_incl, limit)
            return len(keys) if project is IndexProject.COUNT else keys
        if project is IndexProject.VERTICES:
            return self._rows(index_id, operand)
        if project is IndexProject.KEYS:
            return self._eq(index_id, operand, limit)
        return self._eq_count(index_id, operand)

    def _rows(self, index_id: int, values: Sequence[Any]) -> list[VertexRow]:
        """The vertex rows with an entry of any of `values` in index `index_id`, each once,
        in key order (what `index_eq` then `vertices_by_keys` give, sorted by key), by one
        statement joining the entries to the rows. Duplicates (several values, a
        multi-valued property) and the order are settled here: a SQL DISTINCT / ORDER BY
        would sort the rows with their property JSON in a temp b-tree."""
        make = make_vertex
        if len(values) == 1:  # one value: entries come once per element, in key order
            return [make(r) for r in self.cur.execute(_INDEX_ROWS_ONE, (index_id, encode(values[0]) if self.pg else values[0]))]
        wanted = unique(values)
        if not wanted:
            return []
        found: dict[int, Any] = {}
        for size, part in padded_chunks(wanted):
            for r in self.cur.execute(_index_rows_sql(size), [index_id, *self._values(part)]):
                found[r[0]] = r
        return [make(found[k]) for k in sorted(found)]

    def index_add(self, index_id: int, value: Any, elem_key: int, elem_kind: str = "v") -> None:
        """Add one entry (a no-op if it exists). `elem_kind` is 'v' or 'e': it lets deleting an
        element remove its entries; pass 'e' for edge index labels."""
        self.core.check_writable()
        self.raw.execute(_ADD, (index_id, encode(value) if self.pg else value, elem_kind, elem_key))

    def index_add_many(self, rows: Iterable[tuple[int, Any, int, str]]) -> None:
        """Add (index_id, value, elem_key, elem_kind) entries (each a no-op if it exists), a
        few multi-row statements for the lot."""
        self.core.check_writable()
        rows = rows if type(rows) is list else list(rows)
        if self.pg:
            rows = [(i, encode(v), k, kind) for i, v, k, kind in rows]
        self.core.insert_values(_ADD_HEAD, _ADD_ROW, 4, rows)

    def index_remove(self, index_id: int, elem_key: int, value: Any = _ANY) -> int:
        """Remove the entries of one element in one index (only the one with `value` if given)."""
        self.core.check_writable()
        if value is _ANY:
            sql = f"DELETE FROM index_entries WHERE {_BY_ELEM}"
            return self.raw.execute(sql, (elem_key, index_id)).rowcount
        sql = "DELETE FROM index_entries WHERE index_id = ? AND value = ? AND elem_key = ?"
        return self.raw.execute(sql, (index_id, encode(value) if self.pg else value, elem_key)).rowcount

    def index_drop(self, index_id: int) -> int:
        """Remove every entry of an index label (when the index label is deleted or rebuilt)."""
        self.core.check_writable()
        return self.raw.execute("DELETE FROM index_entries WHERE index_id = ?", (index_id,)).rowcount

    def _eq(self, index_id: int, values: Sequence[Any], limit: int | None = None) -> list[int]:
        """Keys of elements having any of `values` in the index, in (value, key) order, once each."""
        wanted = unique(values)
        if not wanted or (limit is not None and limit <= 0):
            return []
        seen: dict[int, None] = {}
        for size, part in padded_chunks(wanted):
            _distinct(self.raw.execute(_eq_sql(size), [index_id, *self._values(part)]), limit, seen)
            if limit is not None and len(seen) >= limit:
                break
        return list(seen)

    def _eq_count(self, index_id: int, values: Sequence[Any]) -> int:
        """How many distinct elements have any of `values` (for count() pushdown)."""
        wanted = unique(values)
        if not wanted:
            return 0
        if len(wanted) <= 900:
            size, part = next(padded_chunks(wanted))
            return int(self.core.scalar(_eq_count_sql(size), [index_id, *self._values(part)]))
        return len(self._eq(index_id, wanted))

    def _range(
        self, index_id: int, lo: Any = None, hi: Any = None, lo_incl: bool = True, hi_incl: bool = True,
        limit: int | None = None,
    ) -> list[int]:
        """Keys of elements whose value lies between lo and hi (None = open end), in (value,
        key) order, once each. An open end stays within the bound's type class (numbers,
        strings or bytes)."""
        if limit is not None and limit <= 0:
            return []
        where, params = _range_where(lo, hi, lo_incl, hi_incl)
        sql = f"SELECT elem_key FROM index_entries WHERE index_id = ?{where} ORDER BY value, elem_key"
        return _distinct(self.raw.execute(sql, [index_id, *self._values(params)]), limit)

    def index_values(self, index_id: int, elem_key: int) -> list[Any]:
        """The values an element has in one index (to remove stale entries on update)."""
        # `+index_id`: without it the planner walks the whole index's primary key to avoid
        # sorting these few values
        sql = "SELECT value FROM index_entries WHERE elem_key = ? AND elem_kind IN ('v', 'e') AND +index_id = ? ORDER BY value"
        return [r[0] for r in self.raw.execute(sql, (elem_key, index_id))]

    def index_scan(self, index_id: int) -> list[tuple[Any, int]]:
        """Every (value, elem_key) of an index in index order (rebuild checks, tests)."""
        sql = "SELECT value, elem_key FROM index_entries WHERE index_id = ? ORDER BY value, elem_key"
        return [(v, k) for v, k in self.raw.execute(sql, (index_id,))]
