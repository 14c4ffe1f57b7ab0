"""Which process runs a task: leases in the store, so that with N server processes
(`serve --workers N`) a task runs exactly once, and a dead process's tasks end.

A task's job is a Python callable, held only by the process that submitted it, so that
process claims the task in the transaction that records it (`storage.TaskLeases.take`) and
runs it; before the job starts and before its end is recorded it checks that it still holds
the lease (`hold`, a conditional UPDATE: atomic in SQLite and PostgreSQL alike). While it
holds tasks, a `LeaseKeeper` extends their leases every `RENEW_S` and looks every `POLL_S`
for a cancel asked through another process (which only writes `cancelling` in the store).

A lease is *stale* when it expired (`LEASE_MS` without renewal), when its holder is a
process of this machine that no longer runs (a restart need not wait out the lease), or
when an unfinished task has none (written before leases existed). A stale task is marked
`failed` (`cancelling` ones `cancelled`) by the next process that looks (`give_up_stale`: at
start, on a task read, a cancel, a submit): HugeGraph's distributed scheduler does the same
with a RUNNING task whose lock no server holds (RUNNING -> FAILED; it runs it again only
with `task.retry` > 0, default 0). It is never run again here: a job may have committed part
of its work, and a gremlin script run twice would do it twice.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from gremlin_engine.mode_hold import process_alive
from storage import TaskLeases

log = logging.getLogger("hugelite.tasks")

#: how long a lease lasts without renewal (ms): a holder that stops renewing for this long
#: (dead, or stuck) gives its tasks up
LEASE_MS = 30_000
#: how often a holder extends its leases (s)
RENEW_S = 5.0
#: how often a holder looks for cancels asked through another process (s)
POLL_S = 0.5

UNFINISHED = ("new", "scheduling", "scheduled", "queued", "restoring", "running", "cancelling")
INTERRUPTED = "org.apache.hugegraph.HugeException: The task was interrupted because the server stopped"

_OWNER: tuple[int, str] | None = None


def now_ms() -> int:
    return int(time.time() * 1000)


def owner_id() -> str:
    """This process's name in leases: `host/pid/nonce` (the nonce tells a reused pid apart)."""
    global _OWNER
    pid = os.getpid()
    if _OWNER is None or _OWNER[0] != pid:
        _OWNER = (pid, f"{socket.gethostname()}/{pid}/{secrets.token_hex(4)}")
    return _OWNER[1]


def _holder_gone(owner: str) -> bool:
    """Whether `owner` names a process of this machine that no longer runs."""
    host, _, rest = owner.partition("/")
    pid = rest.partition("/")[0]
    return host == socket.gethostname() and pid.isdigit() and not process_alive(int(pid))


def stale_tasks(tx: Any, now: int) -> list[tuple[int, str]]:
    """(id, status) of the unfinished tasks no running process holds."""
    mine = owner_id()
    out = []
    for task_id, status, owner, expires in TaskLeases(tx).unfinished(UNFINISHED):
        if owner is None or expires is None or expires < now or (owner != mine and _holder_gone(owner)):
            out.append((task_id, status))
    return out


def held_task_named(tx: Any, name: str) -> bool:
    """Whether an unfinished task called `name` is held by a running process (`tx`: a write
    transaction, after the manager's `recover`): an index job another process is running."""
    stale = {task_id for task_id, _ in stale_tasks(tx, now_ms())}
    return any(rec["name"] == name and rec["id"] not in stale
               for rec in tx.records.task_list(status=list(UNFINISHED)))


def give_up_stale(tx: Any, now: int) -> int:
    """Marks the stale tasks failed (`cancelling` ones cancelled) in the write transaction
    `tx`, and drops their leases and any expired one; returns how many tasks it ended."""
    leases = TaskLeases(tx)
    ended = 0
    for task_id, status in stale_tasks(tx, now):
        _end(tx, task_id, status, now)
        leases.release(task_id)
        ended += 1
    leases.forget_expired(now)
    return ended


def _end(tx: Any, task_id: int, status: str, now: int) -> None:
    """An interrupted task's end: cancelled when a cancel was asked, else failed."""
    if status == "cancelling":
        tx.records.task_update(task_id, {"status": "cancelled", "update_ms": now})
    else:
        tx.records.task_update(task_id, {"status": "failed", "update_ms": now, "result": INTERRUPTED})


def give_up_owned(tx: Any, now: int) -> None:
    """Ends the unfinished tasks this process holds (in the write transaction `tx`), as a
    restart would: what a closing task manager never started is failed, not left waiting
    for its lease to expire."""
    leases = TaskLeases(tx)
    for task_id in leases.owned(owner_id()):
        rec = tx.records.task_get(task_id)
        if rec is not None and rec["status"] in UNFINISHED:
            _end(tx, task_id, rec["status"], now)
        leases.release(task_id)


class _Ticker:
    """A daemon thread calling `tick()` every `interval` seconds while `active()`; started
    again by `wake()` after it stopped."""

    def __init__(self, name: str, interval: float, tick: Callable[[], None], active: Callable[[], bool]) -> None:
        self.name = name
        self.interval = interval
        self.tick = tick
        self.active = active
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def wake(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            time.sleep(self.interval)
            with self._lock:
                if not self.active():
                    self._thread = None
                    return
            try:
                self.tick()
            except Exception:  # a busy or closed store: the next tick tries again
                log.debug("%s: tick failed", self.name, exc_info=True)


class LeaseKeeper:
    """The leases one task manager holds: renewed, and watched for remote cancels, while
    the manager has tasks queued or running (two threads, so that a renewal waiting for the
    store's writer does not hold up the cancel checks, which only read)."""

    def __init__(self, manager: Any) -> None:
        self.manager = manager
        name = getattr(manager.graph, "name", "g")
        self._renewer = _Ticker(f"task-leases-{name}", RENEW_S, self.renew, manager.holds_tasks)
        self._watcher = _Ticker(f"task-cancels-{name}", POLL_S, self.watch, manager.holds_tasks)

    def wake(self) -> None:
        self._renewer.wake()
        self._watcher.wake()

    def renew(self) -> None:
        """Extends this process's leases; gives up the tasks of dead processes meanwhile."""
        store = self.manager.store
        if store.closed:
            return
        with store.write() as tx:
            now = now_ms()
            TaskLeases(tx).renew(owner_id(), now + LEASE_MS)
            give_up_stale(tx, now)

    def watch(self) -> None:
        """Trips the token of every task of ours whose record says `cancelling` or is gone
        (a forced delete), whichever process wrote it."""
        store = self.manager.store
        if store.closed:
            return
        with store.read() as tx:
            found = TaskLeases(tx).statuses(owner_id())
        for task_id, status in found:
            if status is None or status in ("cancelling", "cancelled"):
                self.manager.trip(task_id)
