"""Aggregates answered inside the database: path counts over k hops and group counts of one
property or of the label, asked as query objects (`queries.WalkCount` through `count`,
`queries.GroupCount` through `groups`), each shape compiled once per dialect.

Gremlin's `repeat(out()).times(k).count()` and `out().out().count()` only need the number
of walks, and `V().groupCount().by(key)` only the number of elements per value. Walking
those in Python costs a traverser (and a vertex row) per step; here one statement does the
whole walk on the adjacency index, and one scan groups the whole table.

* `walk_count` chains one CTE per intermediate hop; each level is the frontier
  ``(key, multiplicity)`` merged with ``GROUP BY`` (so a vertex reached by many walks is
  expanded once, with the walks' sum as its multiplicity), and the last hop is a join that
  sums multiplicities, so it needs no grouping. 'both' is the out side and the in side
  with ``UNION ALL`` (a self-loop counts twice, as `adjacent` lists it twice).
* a count from ONE vertex (``WalkStart.ID``, at most `CHAIN_MAX_HOPS` hops), the vertex
  named by its public id, in one statement with no frontier: a join chain per choice of
  side at each 'both' hop (``UNION ALL``, so a self-loop again counts twice), the start
  found by the id index. For one start this is about half the CTE's cost, and being one
  statement it needs no transaction around a separate start lookup.
* `property_groups` returns, per distinct JSON text of the top-level member `key` of the
  `props` object, the number of rows: the engine decodes the text (storage still never
  interprets values; it only names the member). Rows without the member group under None.
  Groups come in the order of their first row by key, the order a scan would meet them.
  Over every label it reads each chunk's texts as one `json_group_array` row and counts
  them in a dict (no sort at all); a label filter stays one `GROUP BY` on the label index.
  On PostgreSQL, where props are stored encoded (`values`), one `GROUP BY` cuts the same
  texts out of the stored bytes (`PG_MEMBER`), with or without a label filter.

Both accept `stop`, polled by a progress handler while the statement runs: when it returns
True the statement is interrupted and the method returns None (the caller raises its
timeout or cancellation); on PostgreSQL a shared watcher thread polls it and cancels the
statement (`pg_cancel`, `Aggregates._stoppable`). A statement SQLite
cannot run (an old SQLite without ``->``, props that are not JSON text) raises
`AggregateUnsupported`, and the caller takes its ordinary path; so does a property group
count on a PostgreSQL database whose encoding is not UTF8 (`_pg_property_groups`).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar, cast

import orjson

from storage._sql import label_filter, label_key
from storage.errors import StoreError
from storage.pg_cancel import WATCHER, is_cancel
from storage.queries import GroupCount, WalkCount, WalkStart
from storage.tx_base import DRIVER_ERRORS, TxCore
from storage.values import encode

#: the ``->`` operator (a member's JSON text) arrived in SQLite 3.38
HAS_JSON_ARROW = sqlite3.sqlite_version_info >= (3, 38, 0)

#: SQLite virtual-machine steps between two polls of `stop`
POLL_EVERY = 20_000
#: keys per `property_groups` statement over every label: bounds the JSON array each one
#: hands back and the list it decodes to (~0.4 MiB at 5k texts; 20k held ~1.4 MiB at the
#: querying peak) at no cost in time (5k, 10k and 20k within noise at 10k and 100k rows)
GROUP_CHUNK = 5_000
#: the longest walk a count from one id (``WalkStart.ID``) answers with one join chain ('both' hops double
#: the branches: 2**hops at most)
CHAIN_MAX_HOPS = 3
#: the longest walk `walk_count` answers in one statement: one CTE per hop, so the statement
#: (and SQLite's C stack while it prepares it) grows with the hops; 100,000 hops overflowed
#: that stack (SIGSEGV) and 10**9 took 16 GB before SQLite saw a byte. The engine unrolls no
#: longer walk (its stepwise repeat takes over, polling its deadline per level).
WALK_MAX_HOPS = 16

_SIDES = {"out": (("out_key", "in_key"),), "in": (("in_key", "out_key"),),
          "both": (("out_key", "in_key"), ("in_key", "out_key"))}
_T = TypeVar("_T")

_TABLES = {"vertex": "vertices", "edge": "edges"}

Hop = tuple[str, tuple[int, ...] | None]  # (direction, label ids or None for every label)


class AggregateUnsupported(StoreError):
    """This database (an old SQLite; for property groups, a PostgreSQL database not in UTF8)
    or this data cannot answer the aggregate; use the general path."""


def _hop_rows(frontier: str, direction: str, labels: tuple[int, ...] | None) -> str:
    """`(other end, multiplicity)` for every edge leaving the frontier in `direction`."""
    parts = []
    for this, other in _SIDES[direction]:
        parts.append(
            f"SELECT e.{other} AS k, fr.m AS m FROM {frontier} AS fr CROSS JOIN edges AS e "
            f"ON e.{this} = fr.k{label_filter('e.label_id', labels)}"
        )
    return " UNION ALL ".join(parts)


_PAIRS_START = "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)"
_PG_PAIRS_START = "SELECT (value ->> 0)::bigint, (value ->> 1)::bigint FROM json_array_elements(CAST(? AS json))"


@lru_cache(maxsize=128)
def _walk_sql(
    hops: tuple[Hop, ...], everyone: tuple[int, ...] | None = None, from_all: bool = False, pg: bool = False,
) -> str:
    """`from_all`: the walks start at every vertex (with a label in `everyone` when given).
    `pg`: PostgreSQL's words for the start pairs."""
    if from_all:
        where = "" if everyone is None else f" WHERE 1{label_filter('label_id', everyone)}"
        ctes = [f"f0(k, m) AS (SELECT key, 1 FROM vertices{where})"]
    else:
        ctes = [f"f0(k, m) AS ({_PG_PAIRS_START if pg else _PAIRS_START})"]
    for i, (direction, labels) in enumerate(hops[:-1], start=1):
        alias = " AS h" if pg else ""  # PostgreSQL 15 wants a name for every subquery in FROM
        ctes.append(f"f{i}(k, m) AS (SELECT k, sum(m) FROM ({_hop_rows(f'f{i - 1}', direction, labels)}){alias} GROUP BY k)")
    direction, labels = hops[-1]
    last = _hop_rows(f"f{len(hops) - 1}", direction, labels)
    return f"WITH {', '.join(ctes)} SELECT sum(m) FROM ({last}){' AS h' if pg else ''}"


@lru_cache(maxsize=128)
def _chain_sql(hops: tuple[Hop, ...], pg: bool = False) -> str:
    """The statement of a walk count from one vertex (``WalkStart.ID``): per choice of side
    at every 'both' hop, one join chain from the start vertex (found by its public id,
    ``?1``) counting its rows; CROSS JOINs pin the loop order (id index probe, then one
    adjacency-index range per row). One statement, so no transaction is needed around it;
    0 when there is no such vertex. A join row is one walk, so parallel edges count once
    each and a 'both' self-loop twice (its out side and its in side), as the frontier CTE
    counts. For a point start the chain beats the CTE (no JSON start list, no GROUP BY temp
    b-tree); deeper walks keep the CTE, whose grouping keeps a hub's fan-out from
    multiplying rows."""
    branches = []
    for sides in itertools.product(*(_SIDES[d] for d, _labels in hops)):
        joins, prev = [], "s.key"
        for i, ((this, other), (_d, labels)) in enumerate(zip(sides, hops, strict=True)):
            joins.append(f" CROSS JOIN edges AS e{i} ON e{i}.{this} = {prev}{label_filter(f'e{i}.label_id', labels)}")
            prev = f"e{i}.{other}"
        branches.append(f"SELECT count(*) AS c FROM vertices AS s{''.join(joins)} WHERE s.id = ?1")
    if len(branches) == 1:
        return branches[0]
    return f"SELECT sum(c) FROM ({' UNION ALL '.join(branches)}){' AS b' if pg else ''}"


#: PostgreSQL: the JSON text of member ``?1`` of a row's props. There `props` is ``BYTEA``
#: holding `values.encode` of the JSON text (a tag byte, then its UTF-8 bytes): the tag is
#: dropped and the bytes read as text; ``json`` (not ``jsonb``) keeps the member's text as
#: it was written, so texts stay apart exactly as SQLite's ``->`` keeps them (``1`` and
#: ``1.0``, member order inside a tag object). NULL props (and empty ones, which the scan
#: reads as no properties) give NULL: absent. ``CAST(? AS text)``: ``->`` also takes an int.
PG_MEMBER = ("(convert_from(nullif(substring(props FROM 2), ''::bytea), 'UTF8')::json "
             "-> CAST(?1 AS text))::text")


@lru_cache(maxsize=64)
def _groups_sql(table: str, labels: tuple[int, ...] | None, pg: bool = False) -> str:
    """`property_groups` in one ``GROUP BY`` statement: the groups of the rows with one of
    `labels` (read through the label index; None: every row), in the order of their first
    row, by key: the order of a scan (`elements_sql.scan_sql` reads by key on both
    dialects). SQLite takes it under a label filter only; PostgreSQL always (`pg`)."""
    member = PG_MEMBER if pg else "props -> ?1"
    where = "" if labels is None else f" WHERE 1{label_filter('label_id', labels)}"
    return f"SELECT {member}, count(*), min(key) AS first FROM {table}{where} GROUP BY 1 ORDER BY first"


@lru_cache(maxsize=4)
def _texts_sql(table: str) -> str:
    """One chunk of `property_groups` over every label: the member's JSON text of every row
    with a key in ``(?2, ?3]``, in key order, as one JSON array (NULL where absent).

    Why not ``GROUP BY``: its sorter and its ``min(key)`` (for first-row order) cost as much
    as the JSON parse itself (~24M + ~5M instructions of ~62M at 10k rows, where the array
    costs ~3M); a dict counting the decoded array keeps first-appearance order for free.
    The rowid range is one loop over the table b-tree in key order (`tests/storage/
    test_group_texts.py` pins the plan), the order the rows reach the aggregate. ``|| ''``
    drops the JSON subtype of ``->``'s result, so the array holds each text as a string
    (with it, the value itself would be embedded, and texts such as ``1`` and ``1.0`` or
    ``"1"`` would no longer stay apart)."""
    return f"SELECT json_group_array((props -> ?1) || '') FROM {table} WHERE key > ?2 AND key <= ?3"


@lru_cache(maxsize=4)
def _key_bounds_sql(table: str) -> str:
    return f"SELECT (SELECT min(key) FROM {table}), (SELECT max(key) FROM {table})"


@lru_cache(maxsize=64)
def _label_groups_sql(table: str, labels: tuple[int, ...] | None) -> str:
    where = "" if labels is None else f" WHERE 1{label_filter('label_id', labels)}"
    return f"SELECT label_id, count(*), min(key) AS first FROM {table}{where} GROUP BY label_id ORDER BY first"


def _labels(label_ids: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if label_ids is None else label_key(label_ids)


def _normalise(hops: Sequence[tuple[Any, Sequence[int] | None]]) -> list[Hop] | None:
    """(direction name, label key) per hop; None when a hop allows no label (no walk passes)."""
    norm: list[Hop] = []
    for direction, labels in hops:
        d = str(getattr(direction, "name", direction)).lower()
        if d not in _SIDES:
            raise StoreError(f"direction must be 'out', 'in' or 'both', not {direction!r}")
        if labels is not None and len(labels) == 0:
            return None
        norm.append((d, _labels(labels)))
    return norm


def _fetch_all(cur: Any, sql: str, params: Any) -> list[Any]:
    """Every row of one statement (on `TxCore.cur`: it is read to its end at once)."""
    return cur.execute(sql, params).fetchall()  # type: ignore[no-any-return]


def member_path(key: str) -> str | None:
    """The JSON path of the top-level member `key` (None when a path cannot name it)."""
    if '"' in key or "\\" in key:
        return None
    return f'$."{key}"'


class Aggregates:
    __slots__ = ("core", "raw", "cur", "driver", "pg")

    def __init__(self, core: TxCore) -> None:
        self.core = core
        self.raw = core.raw
        self.cur = core.cur  # statements read to their end at once (`TxCore.cur`)
        self.driver = core.driver
        #: PostgreSQL: `stop` is polled by the shared watcher (`pg_cancel`), not a progress
        #: handler, and a failed statement ends the transaction, so nothing falls back
        self.pg = core.dialect.pg

    def _stoppable(self, stop: Callable[[], bool] | None, read: Callable[..., _T], *args: Any) -> _T | None:
        """`read(*args)` polled by `stop` while it runs: None when `stop` interrupted it.
        Most reads are one statement's rows: `_fetch_all`.

        SQLite: `stop` is a progress handler, called every `POLL_EVERY` virtual-machine
        steps, whose true answer interrupts the statement; any other driver refusal is
        `AggregateUnsupported`, so the caller falls back to the step pipeline.

        PostgreSQL: `stop` is polled once before the statement, then by the shared watcher
        (`pg_cancel.WATCHER`, every `pg_cancel.POLL_S`), which cancels the statement once it
        is true; the statement raises ``QueryCanceled`` (57014), taken as the interruption.
        The watcher's registration ends before this returns, with no cancel in flight, so
        none reaches the connection's next statement. The cancel aborts an open
        transaction: the caller raises its timeout or cancellation and the store's scope
        rolls the transaction back. Other errors are raised as they are (a failed statement
        ends the transaction there: nothing falls back)."""
        if self.pg:
            if stop is None:
                return read(*args)
            if stop():
                return None
            conn = cast(Any, self.driver).conn  # `engine_pg.PgRaw`'s psycopg connection
            WATCHER.add(conn, stop)
            try:
                return read(*args)
            except DRIVER_ERRORS as exc:
                if is_cancel(exc) and stop():
                    return None
                raise
            finally:
                WATCHER.remove(conn)
        if stop is not None:  # its answer is taken for its truth: stop itself is the handler
            self.driver.set_progress_handler(stop, POLL_EVERY)
        try:
            return read(*args)
        except sqlite3.OperationalError as exc:
            if stop is not None and stop():
                return None
            raise AggregateUnsupported(str(exc)) from exc
        finally:
            if stop is not None:
                self.driver.set_progress_handler(None, 0)

    def count(self, query: WalkCount, operand: Any = None, stop: Callable[[], bool] | None = None) -> int | None:
        """The number of walks `query` describes from its start (`queries.WalkStart`): the
        operand is the (vertex key, multiplicity) pairs (``PAIRS``), None (``ALL``) or the
        start's stored id (``ID``). None when `stop` interrupted it."""
        hops = query.hops
        if hops is None:
            return 0
        if query.start is WalkStart.ID:
            if len(hops) > CHAIN_MAX_HOPS:
                raise StoreError(f"walk_count_from_id takes at most {CHAIN_MAX_HOPS} hops, not {len(hops)}")
            # the query's hops are normalised already: its statement is one cache probe away
            sql = _chain_sql(hops, self.pg)
            rows = self._stoppable(stop, _fetch_all, self.cur, sql, [encode(operand) if self.pg else operand])
            return None if rows is None else int(rows[0][0] or 0)
        if query.start is WalkStart.ALL:
            labels = query.start_labels
            return self._walk_count(None, hops, stop, labels)
        return self._walk_count(operand, hops, stop)

    def groups(self, query: GroupCount, stop: Callable[[], bool] | None = None) -> list[tuple[Any, int]] | None:
        """(label id, count) per label when `query.key` is None, else (JSON text of the
        member or None, count) per distinct text; None when `stop` interrupted it."""
        if query.key is None:
            return self._label_groups(query.kind, query.labels, stop)
        return self._property_groups(query.kind, query.labels, query.key, stop)

    def _walk_count(
        self, start: Sequence[tuple[int, int]] | None, hops: Sequence[tuple[str, Sequence[int] | None]],
        stop: Callable[[], bool] | None = None, start_label_ids: Sequence[int] | None = None,
    ) -> int | None:
        """The number of walks of `len(hops)` steps from `start` ((vertex key, multiplicity)
        pairs), hop i going in direction hops[i][0] ('out', 'in', 'both') over edges with
        a label in hops[i][1] (None: any label; empty: none). None when `stop` interrupted it.
        `start=None`: from every vertex (with a label in `start_label_ids`, when given), once."""
        if len(hops) > WALK_MAX_HOPS:
            raise StoreError(f"walk_count takes at most {WALK_MAX_HOPS} hops, not {len(hops)}")
        norm = _normalise(hops)
        if norm is None:
            return 0
        if start is None:
            if start_label_ids is not None and len(start_label_ids) == 0:
                return 0
            if not norm:
                return int(self.core.scalar("SELECT count(*) FROM vertices" + (f" WHERE 1{label_filter('label_id', _labels(start_label_ids))}" if start_label_ids else "")))
            rows = self._stoppable(stop, _fetch_all, self.cur, _walk_sql(tuple(norm), _labels(start_label_ids), True, self.pg), [])
            return None if rows is None else int(rows[0][0] or 0)
        if not start:
            return 0
        if not norm:
            return sum(int(m) for _k, m in start)
        arg = json.dumps([[int(k), int(m)] for k, m in start])
        rows = self._stoppable(stop, _fetch_all, self.cur, _walk_sql(tuple(norm), pg=self.pg), [arg])
        if rows is None:
            return None
        return int(rows[0][0] or 0)

    def _property_groups(
        self, kind: str, label_ids: Sequence[int] | None, key: str, stop: Callable[[], bool] | None = None,
    ) -> list[tuple[str | None, int]] | None:
        """(JSON text of member `key` of `props`, or None where absent; row count) per
        distinct text, for the rows of `kind` ('vertex' / 'edge') with a label in
        `label_ids` (None: all), in the order of each group's first row.

        Over every label: chunks of `GROUP_CHUNK` keys, each one statement handing back its
        rows' texts in key order as one JSON array (`_texts_sql`), counted in one dict, so
        the groups keep the order of their first row with no sort and no ``min(key)``; the
        chunks bound the array (and the list it decodes to) at ~5k texts. At 10k rows this
        is ~43M instructions of SQLite where ``GROUP BY`` took ~62M. A label filter goes
        through the label index (`ix_vertices_label`) as one ``GROUP BY`` statement (a rowid
        range would read every label, and the index walks several labels one after the
        other, not in key order).
        """
        if self.pg:
            return self._pg_property_groups(kind, label_ids, key, stop)
        path = member_path(key)
        if not HAS_JSON_ARROW or path is None:
            raise AggregateUnsupported("this SQLite cannot extract a member's JSON text")
        if label_ids is not None and len(label_ids) == 0:
            return []
        table = _TABLES[kind]
        labels = _labels(label_ids)

        def read(raw: Any) -> list[tuple[str | None, int]]:
            if labels is not None:
                # a label filter reads its rows through the label index in one statement
                sql = _groups_sql(table, labels)
                return [(text, n) for text, n, _first in raw.execute(sql, (path,))]
            low, high = raw.execute(_key_bounds_sql(table)).fetchone()
            counts: Counter[str | None] = Counter()
            if low is not None:
                sql = _texts_sql(table)
                for start in range(low - 1, high, GROUP_CHUNK):
                    (texts,) = raw.execute(sql, (path, start, start + GROUP_CHUNK)).fetchone()
                    try:
                        counts.update(orjson.loads(texts))  # a dict: first-seen order kept
                    except (orjson.JSONDecodeError, TypeError) as exc:
                        raise AggregateUnsupported(f"member texts could not be read back: {exc}") from exc
            return list(counts.items())

        return self._stoppable(stop, read, self.raw)

    def _pg_property_groups(
        self, kind: str, label_ids: Sequence[int] | None, key: str, stop: Callable[[], bool] | None,
    ) -> list[tuple[str | None, int]] | None:
        """`_property_groups` on PostgreSQL: one ``GROUP BY`` of each row's member text
        (`PG_MEMBER`) whatever the label filter, ordered by each group's first key; any key
        name (it is a bound parameter, not a path). The texts are the ones the engine
        wrote into props, cut out verbatim, so the engine decodes and merges them exactly as
        it decodes a scanned row.

        Declined (`AggregateUnsupported`, before any SQL, so the transaction goes on) in a
        database whose encoding is not UTF8: reading the stored UTF-8 bytes as text would
        convert them there, and fail on a character the encoding lacks, where the scan,
        which decodes them in Python, answers. Props that are not JSON text (never written
        by the engine; the scan cannot read them either) fail the statement, and with it
        the transaction: a `StoreError` naming them."""
        if cast(Any, self.driver).server_encoding != "UTF8":  # `engine_pg.PgRaw`
            raise AggregateUnsupported("property groups are grouped in SQL on a UTF8 database only")
        if label_ids is not None and len(label_ids) == 0:
            return []
        sql = _groups_sql(_TABLES[kind], _labels(label_ids), True)
        try:
            rows = self._stoppable(stop, _fetch_all, self.cur, sql, [key])
        except DRIVER_ERRORS as exc:
            if str(getattr(exc, "sqlstate", "") or "").startswith("22"):  # a data exception
                raise StoreError(f"property groups of {key!r}: props that are not JSON text ({exc})") from exc
            raise
        return None if rows is None else [(text, int(n)) for text, n, _first in rows]

    def _label_groups(
        self, kind: str, label_ids: Sequence[int] | None = None, stop: Callable[[], bool] | None = None,
    ) -> list[tuple[int, int]] | None:
        """(label id, row count) per label of `kind`, in the order of each label's first row."""
        if label_ids is not None and len(label_ids) == 0:
            return []
        rows = self._stoppable(stop, _fetch_all, self.cur, _label_groups_sql(_TABLES[kind], _labels(label_ids)), [])
        return None if rows is None else [(int(r[0]), int(r[1])) for r in rows]
