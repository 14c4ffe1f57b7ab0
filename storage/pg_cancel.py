"""Stopping a running PostgreSQL statement when its caller's `stop()` turns true: one shared
watcher thread polls the `stop` of every guarded statement in flight and cancels the
statement whose `stop` says so, through psycopg's public `Connection.cancel_safe`.

Why a watcher: SQLite calls a progress handler from inside the statement (`tx_aggregates.
POLL_EVERY` virtual-machine steps apart), but a PostgreSQL statement runs in its server
backend while the calling thread waits in the driver; only another thread can notice the
deadline and ask the server to cancel. One daemon thread serves every connection (a thread
per statement would cost a thread start, ~50-100 us, on each short aggregate): a statement
registers its connection and its `stop` (`Watcher.add`), and the thread, asleep while nothing is
registered, polls each registered `stop` every `POLL_S`.

**The cancel race.** A cancel request is a separate connection to the server, which signals
the backend; one dispatched while statement A ends could land on the connection's next
statement B. `Watcher.remove` therefore waits while a cancel of its connection is being sent:
psycopg's `cancel_safe` returns once the server closed the cancel connection, i.e. after
the server signalled the backend. B is sent only after that, and PostgreSQL drops a cancel
that reaches a backend waiting for its next command (``postgres.c``: "Query cancel is
supposed to be a no-op when there is no query in progress"); so the cancel either stops A
(which then raises ``QueryCanceled``, sqlstate 57014) or nothing.

`stop` must be cheap and callable from another thread (the engine's is a flag and a
monotonic-clock comparison), and once true it must stay true.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("hugelite.storage")

#: seconds between two polls of the registered `stop`s: a cancelled statement overruns its
#: deadline by at most this plus the cancel's round trip (a fork of a backend on the
#: server: a few ms); a poll takes the GIL from request threads once per interval, 40 times
#: a second while a guarded statement runs, and never while none does
POLL_S = 0.025
#: seconds a cancel request may take before the watcher gives up on it (the statement then
#: runs to its end; the watcher goes on serving the others)
CANCEL_TIMEOUT_S = 5.0

#: SQLSTATE of a statement stopped by a cancel request (``query_canceled``)
QUERY_CANCELED = "57014"


class Watcher:
    """The registry of guarded statements in flight and the thread polling them.

    `running` maps a psycopg connection (one statement at a time runs on a connection) to its
    `stop`; `cancelling` holds the connections whose cancel is being sent, which `remove`
    waits out (the race above; `done` is notified when a round of cancels was sent). One
    lock guards both; the cancels are sent outside it, so a slow one holds up only its
    own statement's exit.

    Wakeups: a short statement should cost its thread no switch to the watcher. The
    watcher sleeps without a timeout while nothing is registered (`idle`); the first
    registration wakes it (`wake`), and it then sleeps `POLL_S` before its first poll (the
    statement's `stop` was polled just before it was sent), so a burst of short statements
    wakes it about once per `POLL_S`, not once each; a registration while it is awake does
    not signal it at all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.done = threading.Condition(self.lock)
        self.running: dict[Any, Callable[[], bool]] = {}
        self.cancelling: set[Any] = set()
        self.idle = True
        self.thread: threading.Thread | None = None

    def add(self, conn: Any, stop: Callable[[], bool]) -> None:
        """From now until `remove(conn)`, `stop` is polled and the statement running on
        psycopg connection `conn` cancelled once it is true."""
        with self.lock:
            self.running[conn] = stop
            if self.idle:
                self.idle = False
                if self.thread is None:
                    self._start()
                self.wake.notify()

    def remove(self, conn: Any) -> None:
        """`conn`'s statement ended: no longer polled, and once this returns no cancel of
        it is in flight (it waits out one being sent: the race above)."""
        with self.lock:
            if self.running.pop(conn, None) is None:  # the watcher took it to cancel
                while conn in self.cancelling:
                    self.done.wait()

    def _start(self) -> None:
        thread = threading.Thread(target=self._watch, name="hugelite-pg-cancel", daemon=True)
        thread.start()
        self.thread = thread

    def _watch(self) -> None:
        with self.lock:
            while True:
                if not self.running:
                    self.idle = True
                    while self.idle:
                        self.wake.wait()
                self.wake.wait(POLL_S)  # nobody signals it while awake: a timed sleep
                due = [conn for conn, stop in self.running.items() if _true(stop)]
                if not due:
                    continue
                for conn in due:
                    del self.running[conn]
                    self.cancelling.add(conn)
                self.lock.release()
                try:
                    for conn in due:
                        _cancel(conn)
                finally:
                    self.lock.acquire()
                self.cancelling.difference_update(due)
                self.done.notify_all()

    def _after_fork(self) -> None:
        """In a forked child: the parent's thread is not there, nor are its statements."""
        self.__init__()  # type: ignore[misc]


def _true(stop: Callable[[], bool]) -> bool:
    """`stop()`, where a `stop` that raises counts as false (the statement then runs on
    to its end, as it would without a watcher; the error is logged)."""
    try:
        return bool(stop())
    except Exception:  # a caller's callable: anything; the watcher must outlive it
        log.exception("a statement's stop() raised; its statement is not cancelled")
        return False


def _cancel(conn: Any) -> None:
    """Ask the server to cancel what runs on `conn` (`cancel_safe`: psycopg >= 3.2 with
    libpq >= 17 sends it without blocking the GIL, and falls back to `cancel` itself)."""
    try:
        conn.cancel_safe(timeout=CANCEL_TIMEOUT_S)
    except Exception as exc:  # psycopg's errors, a connection closed meanwhile: log, go on
        log.warning("cancelling a PostgreSQL statement failed: %s", exc)


#: the process's one watcher
WATCHER = Watcher()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WATCHER._after_fork)


def is_cancel(exc: BaseException) -> bool:
    """Whether a driver error is a statement stopped by a cancel request."""
    return getattr(exc, "sqlstate", None) == QUERY_CANCELED
