"""One read outside an explicit transaction: the store's cheapest way to answer a point read.

`Store.read()` costs a connection checkout, ``BEGIN``, ``ROLLBACK`` and a checkin around
the statement: about as much CPU as the indexed SELECT of a point lookup itself. A read
that is ONE statement needs none of the transaction: in WAL mode (and on a memory store,
whose connection is serialised by the store lock) a statement run in autocommit mode
reads one consistent snapshot of its own. `read_once(store, fn, *args)` runs
`fn(tx, *args)` that way, on an idle pooled connection, and returns what it returns.

* `fn` must issue one statement, or pass `snapshot=True`: its statements then run inside
  ``BEGIN`` ... ``ROLLBACK`` (one snapshot for all of them, still cheaper than `read()`).
* When this thread already has a transaction open, `fn` runs in a read-only view of it
  (what `store.read()` gives there), so it sees that transaction's own writes.
* The `Tx` handed to `fn` is read-only; driver errors come out as `StoreError`, as from a
  `with store.read()` block.

Kept in its own module (not in `store.py`) so that it touches no transaction machinery: it
borrows the store's idle list and checkout/checkin, which honour checkout listeners
(statement tracing in tests) and a closed store exactly as `read()` does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from storage.errors import StoreError
from storage.tx import Tx

T = TypeVar("T")


def read_once(store: Any, fn: Callable[..., T], *args: Any, snapshot: bool = False) -> T:
    """`fn(tx, *args)` on a read-only tx outside an explicit transaction (see module)."""
    outer = getattr(store._local, "tx", None)
    if outer is not None:  # a read view of this thread's open transaction
        return fn(Tx(outer.conn, outer.raw, True), *args)
    if store._closed:
        store._ensure_open()
    if store.memory:  # a memory store's one connection is shared: hold its lock
        with store._lock:
            return _run(store, store._checkout(), fn, args, snapshot)
    idle = store._idle
    pair = None
    if idle and not store.engine.pool.dispatch.checkout:  # what `_checkout` would do, inline
        try:
            pair = idle.pop()
        except IndexError:
            pass
    return _run(store, pair or store._checkout(), fn, args, snapshot)


def _run(store: Any, pair: tuple[Any, Any], fn: Callable[..., T], args: tuple[Any, ...], snapshot: bool) -> T:
    conn, raw = pair
    try:
        if snapshot:
            raw.execute("BEGIN")
        return fn(Tx(conn, raw, True), *args)
    except sqlite3.Error as exc:
        raise StoreError(f"store at {store.display_path}: {exc}") from exc
    finally:
        if raw.in_transaction:
            try:
                raw.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        idle = store._idle
        if raw.in_transaction or store._closed or len(idle) >= store._idle_max or store.engine.pool.dispatch.checkout:
            store._checkin(conn, raw)  # the general rules (invalidate, close)
        else:
            # only `raw` was used, so SQLAlchemy's side of `conn` is as clean as it was
            idle.append(pair)
            if store._closed and pair in idle:  # closed meanwhile: do not strand it
                idle.remove(pair)
                conn.close()


#: what a `reader` returns when it cannot answer here; the caller then uses `read_once`
DECLINED: Any = object()


def reader(
    store: Any, sql: str, one: bool = False, decline: tuple[type[BaseException], ...] = (), poll_every: int = 0,
) -> Callable[..., Any]:
    """A prepared one-statement read: `read(params)` runs `sql` on an idle pooled connection
    of `store` outside any transaction, as `read_once` would, and returns its one row (None
    when there is none) with `one`, else its list of rows; or `DECLINED` whenever
    `read_once` would do anything else (a memory store, a closed store, this thread inside a
    transaction, no idle connection, checkout listeners). For a direct plan's hottest calls
    (`gremlin_engine/runtime/direct_fast.py`): no `Tx`, no callback and no argument tuples
    between the caller and the statement. Driver errors come out as `StoreError`, and the
    connection goes back exactly as `_run` puts it back; except the driver errors of a type
    in `decline`, which return `DECLINED` (the caller's general path meets the same error
    and handles it its own way, e.g. a walk count's `AggregateUnsupported`). With
    `poll_every`, `read(params, stop)` polls `stop()` every that many SQLite steps while the
    statement runs (a progress handler, as `Tx._aggregate` sets one); True interrupts it,
    which comes out as the driver's `OperationalError`."""
    if store.memory:
        return lambda params: DECLINED
    local = store._local
    idle = store._idle
    # the pool is replaced only by `Store.close()` (engine.dispose), which `_closed` declines first
    dispatch = store.engine.pool.dispatch

    def read(params: Any, stop: Callable[[], bool] | None = None) -> Any:
        if not idle or store._closed or dispatch.checkout or getattr(local, "tx", None) is not None:
            return DECLINED
        try:
            pair = idle.pop()
        except IndexError:
            return DECLINED
        raw = pair[1]
        try:
            if stop is not None and poll_every:
                raw.set_progress_handler(lambda: 1 if stop() else 0, poll_every)
            cursor = raw.execute(sql, params)
            return cursor.fetchone() if one else cursor.fetchall()
        except sqlite3.Error as exc:
            if decline and isinstance(exc, decline):
                return DECLINED
            raise StoreError(f"store at {store.display_path}: {exc}") from exc
        finally:
            if stop is not None and poll_every:
                raw.set_progress_handler(None, 0)
            if raw.in_transaction:
                try:
                    raw.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if raw.in_transaction or store._closed or len(idle) >= store._idle_max or dispatch.checkout:
                store._checkin(pair[0], raw)
            else:
                idle.append(pair)
                if store._closed and pair in idle:  # closed meanwhile: do not strand it
                    idle.remove(pair)
                    pair[0].close()

    return read
