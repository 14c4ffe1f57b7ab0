"""Bounded runs: a traverser request tried with a cap on the adjacency rows it may read.

Why: a light request (k-out depth 1, k-neighbor depth 2 over ordinary degrees) costs less
than handing it to a worker thread and back, so a server wants to run it inline on its
event loop. But whether a request is light is a property of the data (a source's degree),
not of its parameters: `max_degree=-1` at depth 1 may read ten rows or a million. So the
server runs it inside `bounded(rows)`, and every adjacency read of the walker
(`base.Walker`, `base.KeyNodes`) first makes sure it cannot go past the cap:

* a read whose size is known in advance (a per-vertex limit, `max_degree` or `skip_degree`,
  times the vertices asked about) runs when it fits in what is left, else `OverBudget`;
* an open-ended read is first counted by storage up to one row past what is left
  (`tx.adjacent_targets(..., max_rows=left + 1)`: an unsorted index-only read that stops
  there), so a hub costs at most that many index steps; more than is left is
  `OverBudget`, else the read runs as it would unbounded (for a caller that only wants the
  unsorted targets, the counting read is the read; for one that wants the ordered pairs,
  the read is `tx.adjacent_keys(..., max_rows=left + 1)`, the first rows of the ordered
  answer, which are all of it when they are no more than is left). 'both' with a per-vertex limit is
  counted without the limit (storage cannot cap that form; the count is an upper bound).
  Either way a bounded run that finishes
  read exactly the rows an unbounded run reads, and answers alike;
* `Vertex`-level reads (`Walker.adjacency`: edge property rules, paths with edges) are
  counted the same way on the vertices' storage keys; an access without a storage
  transaction (a filtering view) cannot be counted and stops the run.

`OverBudget` is not an engine error: it never reaches a client. The caller has only read
(the algorithm steps never write), so it drops the attempt (the read transaction rolls
back) and runs the request again without a bound, where it belongs (a worker thread). The
rows read before stopping are bounded by the cap, so the wasted work is too.

Outside `bounded()` nothing changes: `current()` is None and the walker reads as before.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

_CURRENT: ContextVar[RowBudget | None] = ContextVar("hugelite_algorithm_row_budget", default=None)


class OverBudget(Exception):
    """A bounded run would read more adjacency rows than its budget: run it unbounded."""


class RowBudget:
    """The adjacency rows a bounded run may still read."""

    __slots__ = ("left",)

    def __init__(self, rows: int) -> None:
        self.left = rows

    def fit(self, tx: Any, keys: Sequence[int], direction: Any, label_ids: Sequence[int] | None,
            limit: int | None) -> list[int] | None:
        """Makes sure reading the adjacency of `keys` (at most `limit` edges each; None:
        all) fits what is left, else OverBudget. Returns the to-keys counted on the way when
        they are that very read (unsorted, as `tx.adjacent_targets` gives them), else None.
        The caller `spend`s what it then reads."""
        if limit is not None and len(keys) * limit <= self.left:
            return None  # the caller's own limit bounds it
        if not hasattr(tx, "adjacent_targets"):
            raise OverBudget  # no cheap way to count it first
        # 'both' cannot cap a per-vertex limit spanning its two sides: count every edge
        # instead (at least as many, so fitting still proves the read fits)
        per_vertex = None if limit is not None and _both(direction) else limit
        counted = tx.adjacent_targets(keys, direction, label_ids, per_vertex, max_rows=self.left + 1)
        if len(counted) > self.left:
            raise OverBudget
        return counted if per_vertex == limit else None

    def spend(self, rows: int) -> None:
        self.left -= rows

    def take(self, rows: int) -> None:
        """Spends `rows` already read by a capped read (at most `left + 1` of them), or
        OverBudget when they are more than is left: the check every capped read makes."""
        if rows > self.left:
            raise OverBudget
        self.left -= rows

    def adjacency(self, tx: Any, keys: Sequence[int], direction: Any, label_ids: list[int] | None,
                  limit: int | None, shape: str) -> list[Any]:
        """What an unbounded run reads for `keys` (limit None: every edge): `shape` "pairs"
        is `tx.adjacent_keys`' (from, to) rows, "keys" their to-keys in that order
        (`tx.adjacent_to_keys` when the tx has it),
        "targets" `tx.adjacent_targets`' unsorted to-keys, "key_ids" `tx.adjacent_key_ids`'
        (to-key, to-id) rows in the order of "keys", "key_id_lists" the same as two lists
        (`tx.adjacent_key_id_lists`: to-keys, to-ids); OverBudget when that may be more
        rows than are left (nothing big is read to find out)."""
        if not keys:
            return ([], []) if shape == "key_id_lists" else []  # type: ignore[return-value]
        rows: list[Any]
        if shape != "targets" and _capped_in_order(tx, direction, limit) and not (
                limit is not None and len(keys) * limit <= self.left):
            # the ordered read itself, capped: n + 1 rows say "too many", fewer are all of it
            if shape == "key_id_lists":
                lists = tx.adjacent_key_id_lists(keys, direction, label_ids, limit, max_rows=self.left + 1)
                self.take(len(lists[0]))
                return lists  # type: ignore[return-value]
            if shape == "key_ids":
                rows = tx.adjacent_key_ids(keys, direction, label_ids, limit, max_rows=self.left + 1)
            elif shape == "keys" and hasattr(tx, "adjacent_to_keys"):
                rows = tx.adjacent_to_keys(keys, direction, label_ids, limit, max_rows=self.left + 1)
            else:
                rows = tx.adjacent_keys(keys, direction, label_ids, limit, max_rows=self.left + 1)
                if shape == "keys":
                    rows = [to for _, to in rows]
            self.take(len(rows))
            return rows
        counted = self.fit(tx, keys, direction, label_ids, limit)
        if shape == "targets":
            rows = counted if counted is not None else tx.adjacent_targets(keys, direction, label_ids, limit)
        elif shape == "key_ids":
            rows = tx.adjacent_key_ids(keys, direction, label_ids, limit)
        elif shape == "key_id_lists":
            lists = tx.adjacent_key_id_lists(keys, direction, label_ids, limit)
            self.left -= len(lists[0])
            return lists  # type: ignore[return-value]
        elif shape == "keys" and hasattr(tx, "adjacent_to_keys"):
            rows = tx.adjacent_to_keys(keys, direction, label_ids, limit)
        else:
            rows = tx.adjacent_keys(keys, direction, label_ids, limit)
            if shape == "keys":
                rows = [to for _, to in rows]
        self.left -= len(rows)
        return rows


def _capped_in_order(tx: Any, direction: Any, limit: int | None) -> bool:
    """Whether `tx.adjacent_keys` can cap its ordered answer (`max_rows`): every form but
    'both' with a per-vertex limit (trimmed after the statement). Remembered per tx class,
    direction and whether there is a limit (a function of those alone)."""
    key = (type(tx), direction, limit is None)
    try:
        ok = _CAPPED.get(key)
    except TypeError:  # an unhashable direction
        ok, key = None, None
    if ok is None:
        ok = hasattr(tx, "adjacent_keys") and not (limit is not None and _both(direction)) and _takes_max_rows(tx)
        if key is not None and len(_CAPPED) < 256:
            _CAPPED[key] = ok
    return ok


_CAPPED: dict[tuple[Any, ...], bool] = {}


def _takes_max_rows(tx: Any) -> bool:
    kind = type(tx)
    ok = _MAX_ROWS.get(kind)
    if ok is None:
        try:
            ok = "max_rows" in inspect.signature(tx.adjacent_keys).parameters
        except (TypeError, ValueError):
            ok = False
        _MAX_ROWS[kind] = ok
    return ok


_MAX_ROWS: dict[type, bool] = {}


def _both(direction: Any) -> bool:
    try:
        both = _BOTH.get(direction)
    except TypeError:
        both = None
    if both is None:
        both = str(getattr(direction, "name", direction)).lower() == "both"
        try:
            if len(_BOTH) < 64:
                _BOTH[direction] = both
        except TypeError:
            pass
    return both


_BOTH: dict[Any, bool] = {}  # direction (an enum member or its text) -> whether it is 'both'


def current() -> RowBudget | None:
    """The budget of the bounded run in progress on this thread's context, if any."""
    return _CURRENT.get()


class bounded:
    """Runs the block as a bounded run reading at most `rows` adjacency rows (`with
    bounded(rows) as budget:`). A class rather than a `@contextmanager` generator: it is
    entered once per light REST request, and a generator's frame costs ~3x as much."""

    __slots__ = ("budget", "token")

    def __init__(self, rows: int) -> None:
        self.budget = RowBudget(rows)

    def __enter__(self) -> RowBudget:
        self.token = _CURRENT.set(self.budget)
        return self.budget

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self.token)
