"""The task manager: persistent task records and the worker pool that runs them.

One manager per graph and process, owned by the engine (so embedded use runs schema jobs and
gremlin jobs too, with no server). Records live in the store's task table and survive
restarts; the callables do not, so the process that submits a task runs it, holding a lease
on it in the store (`leases.py`): with N server processes over one store a task runs once,
any process reads, cancels or deletes it, and the tasks of a process that died (its leases
stale) are marked `failed` (`cancelling` ones `cancelled`) by the next process that looks.

Life of a task (single node, as HugeGraph): `new` (record written) → `queued` (handed to
the pool) → `running` → `success` | `failed` | `cancelled`. `cancel()` on a queued or
running task sets `cancelling` and trips its `CancelToken`; the job stops at its next check
and the worker records `cancelled` (a job that finishes first still ends `success`).

A task may be submitted inside a write transaction that is still open (a schema change in a
Gremlin script or REST call): its record is written in that transaction, and the worker
simply waits for the single store writer before it starts, so it sees the committed change
or, after a rollback, no task at all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson

from gremlin_engine.auth.guard import require
from gremlin_engine.auth.permissions import DELETE, EXECUTE, READ, WRITE
from gremlin_engine.auth.principal import ANONYMOUS_ADMIN
from gremlin_engine.context import JOB, ExecutionContext
from gremlin_engine.errors import HugeliteError, IllegalArgument, NotFound, TraversalCancelled
from gremlin_engine.graph_handle import GraphHandle
from gremlin_engine.limits import RUNNING, CancelToken
from gremlin_engine.tasks.leases import (
    LEASE_MS,
    LeaseKeeper,
    give_up_owned,
    give_up_stale,
    held_task_named,
    now_ms,
    owner_id,
    stale_tasks,
)
from gremlin_engine.tasks.model import COMPLETED, SERVER_ID, first_line, status_name, task_json
from gremlin_engine.tasks.results import Serialized, failure_text, plain_json
from storage import Store, TaskLeases, Tx, ensure_task_leases

log = logging.getLogger("hugelite.tasks")
GREMLIN_CALLABLE = "org.apache.hugegraph.job.GremlinJob"
MAX_PENDING = 10000


class TaskContext:
    """What a running job sees: `check()` (raises on cancel) and `progress(n)`."""

    def __init__(self, task_id: int, token: CancelToken) -> None:
        self.task_id = task_id
        self.token = token
        self.progress_value = 0

    def check(self) -> None:
        self.token.check()

    def progress(self, n: int) -> None:
        self.progress_value = int(n)


class TaskManager:
    """Tasks of one graph. `workers` threads run jobs; `result_serializer(results) -> str`
    (set by the REST layer) turns gremlin job results into `task_result` JSON."""

    def __init__(self, graph: GraphHandle, workers: int = 2) -> None:
        self.graph = graph
        self.result_serializer: Callable[[Any], str] | None = None
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"tasks-{getattr(graph, 'name', 'g')}")
        self._tokens: dict[int, CancelToken] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._recovered = False
        self._keeper = LeaseKeeper(self)
        if not _in_transaction(graph.store):
            self.recover()

    @property
    def store(self) -> Store:
        return self.graph.store

    # ---- start-up ---------------------------------------------------------------------------
    def held_elsewhere(self, tx: Tx, name: str) -> bool:
        """Whether an unfinished task called `name` is held by a running process (`tx`: a
        write transaction, after `recover`): an index job another server process runs."""
        return held_task_named(tx, name)

    def recover(self, tx: Tx | None = None) -> int:
        """Creates the lease table when the store lacks it and marks the tasks no running
        process holds (a previous or a dead process's) failed, cancelling ones cancelled.
        Runs when the manager starts (or at its first submit, if it was created inside an
        open transaction); tasks other processes hold are theirs."""
        if self._recovered:
            return 0
        if tx is None:
            with self.store.write() as own:
                return self.recover(own)
        ensure_task_leases(tx)
        self._recovered = True
        return give_up_stale(tx, now_ms())

    def settle(self) -> None:
        """Gives up stale tasks (`leases.py`) before a read shows them: a task whose process
        died reads `failed`, not `running` for good. A read when there are none."""
        if _in_transaction(self.store):
            return
        if not self._recovered:
            self.recover()
            return
        with self.store.read() as tx:
            stale = stale_tasks(tx, now_ms())
        if stale:
            with self.store.write() as tx:
                give_up_stale(tx, now_ms())

    def holds_tasks(self) -> bool:
        """Whether this process has tasks queued or running (their leases need renewing)."""
        with self._lock:
            return bool(self._tokens) and not self.store.closed

    def trip(self, task_id: int) -> None:
        """Cancels this process's run of a task (a cancel asked through any process)."""
        with self._lock:
            token = self._tokens.get(int(task_id))
        if token is not None:
            token.cancel()

    # ---- submit -------------------------------------------------------------------------------
    def submit(
        self,
        type: str,
        name: str,
        callable_name: str,
        input: Any,
        fn: Callable[[TaskContext], Any],
        tx: Tx | None = None,
        description: str | None = None,
    ) -> int:
        """Records a task and queues `fn(ctx)`; returns the task id. `input` is stored as
        JSON text (strings as they are)."""
        if self._closed:
            raise IllegalArgument("The task manager is closed")
        text = input if input is None or isinstance(input, str) else orjson.dumps(input).decode()
        record = {
            "type": type,
            "name": name,
            "status": "new",
            "progress": 0,
            "create_ms": now_ms(),
            "retries": 0,
            "callable": callable_name,
            "input": text,
            "description": description,
        }

        def write(t: Tx) -> int:
            pending = len(t.records.task_list(status=["new", "queued", "running"], limit=MAX_PENDING + 1))
            if pending >= MAX_PENDING:
                raise IllegalArgument(f"Pending tasks size {pending} has exceeded the max limit {MAX_PENDING}")
            task_id = t.records.task_insert(record)
            t.records.task_update(task_id, {"status": "queued", "server": SERVER_ID, "update_ms": now_ms()})
            TaskLeases(t).take(task_id, owner_id(), now_ms() + LEASE_MS)  # this process runs it
            return task_id

        if tx is not None:
            self.recover(tx)
            task_id = write(tx)
        else:
            with self.store.write() as own:
                self.recover(own)
                task_id = write(own)
        token = RUNNING.add(CancelToken())  # shutdown cancels queued and running jobs too
        with self._lock:
            self._tokens[task_id] = token
        self._pool.submit(self._run, task_id, fn, token)
        self._keeper.wake()
        return task_id

    def submit_gremlin(
        self,
        script: str,
        bindings: dict[str, Any] | None = None,
        language: str = "gremlin-groovy",
        serializer: Callable[[Any], str] | None = None,
        *,
        ctx: ExecutionContext | None = None,
    ) -> int:
        """An async Gremlin job (`POST /jobs/gremlin`): `g`, `graph` and the graph's name are
        bound; the results become `task_result` JSON via `serializer` (or the manager's
        `result_serializer`, or plain JSON). The submitter (`ctx`'s principal) needs EXECUTE
        on GREMLIN and WRITE on TASK, and the script runs as them (the job door)."""
        principal = ctx.principal if ctx is not None else ANONYMOUS_ADMIN
        require(ctx, self.graph.name, EXECUTE, "GREMLIN", "gremlin")
        require(ctx, self.graph.name, WRITE, "TASK")
        if script is None:
            raise IllegalArgument("The gremlin parameter can't be null")
        if language is None:
            raise IllegalArgument("The language parameter can't be null")
        name = self.graph.name
        task_input = {"gremlin": script, "aliases": {name: "graph"}, "bindings": dict(bindings or {}), "language": language}
        ser = serializer or self.result_serializer or plain_json

        registry = getattr(self.graph, "registry", None)
        limit = getattr(registry, "job_timeout_ms", None) or 0  # `gremlinserver.job_timeout_ms`

        def job(task: TaskContext) -> Any:
            # the job's own limit (0: until cancelled), and the memory bound (limits.py)
            task.token.guard_memory()
            aliases = {"g": f"__g_{name}", "graph": name}
            run_ctx = ExecutionContext(principal, JOB, timeout_ms=limit, cancel=task.token)
            # HugeGraph keeps a non-traversal script's value as it is ("3", not "[3]")
            results = self.graph.execute(script, dict(bindings or {}), aliases, as_value=True, ctx=run_ctx)
            return Serialized(ser(results))

        return self.submit("gremlin", first_line(script), GREMLIN_CALLABLE, task_input, job)

    # ---- running --------------------------------------------------------------------------------
    def _run(self, task_id: int, fn: Callable[[TaskContext], Any], token: CancelToken) -> None:
        ctx = TaskContext(task_id, token)
        try:
            with self.store.write() as tx:
                rec = tx.records.task_get(task_id)
                leases = TaskLeases(tx)
                if rec is None:
                    leases.release(task_id)
                    return  # rolled back with its transaction, or deleted
                if not leases.hold(task_id, owner_id(), now_ms() + LEASE_MS):
                    log.warning("task %s: its lease was given up before it started; not run", task_id)
                    return
                if rec["status"] in ("cancelling", "cancelled") or token.cancelled:
                    tx.records.task_update(task_id, {"status": "cancelled", "update_ms": now_ms()})
                    leases.release(task_id)
                    return
                tx.records.task_update(task_id, {"status": "running", "update_ms": now_ms()})
            status, result = "success", None
            try:
                value = fn(ctx)
                result = value.text if isinstance(value, Serialized) else (None if value is None else plain_json(value))
            except TraversalCancelled:
                status = "cancelled"
            except BaseException as exc:  # a job's failure is its task's result, not ours
                status = "failed"
                result = failure_text(exc)
                if not isinstance(exc, HugeliteError):
                    log.exception("task %s failed", task_id)
            with self.store.write() as tx:
                rec = tx.records.task_get(task_id)
                leases = TaskLeases(tx)
                held = leases.hold(task_id, owner_id(), now_ms())
                leases.release(task_id)
                if rec is None:
                    return
                if not held:  # stale meanwhile: another process marked it failed, which stays
                    log.warning("task %s ended %s after its lease was given up; it stays %s",
                                task_id, status, rec["status"])
                    return
                if status == "success" and token.cancelled and rec["status"] == "cancelling":
                    status = "success"  # finished before it noticed the cancel
                fields: dict[str, Any] = {"status": status, "update_ms": now_ms(), "progress": ctx.progress_value}
                if result is not None:
                    fields["result"] = result
                tx.records.task_update(task_id, fields)
        except BaseException:
            log.exception("task %s could not be recorded", task_id)
        finally:
            with self._lock:
                self._tokens.pop(task_id, None)

    # ---- reads ----------------------------------------------------------------------------------
    def record(self, task_id: int) -> dict[str, Any] | None:
        with self.store.read() as tx:
            return tx.records.task_get(int(task_id))

    def get(self, task_id: int, *, ctx: ExecutionContext | None = None) -> dict[str, Any]:
        """The task map with details; 404 `Can't find task with id 'N'` (READ on TASK)."""
        require(ctx, self.graph.name, READ, "TASK", str(task_id))
        rec = self.record(task_id)
        if rec is not None and rec["status"] not in COMPLETED:
            self.settle()
            rec = self.record(task_id)
        if rec is None:
            raise NotFound(f"Can't find task with id '{task_id}'")
        return task_json(rec, details=True)

    def list(
        self,
        status: str | None = None,
        limit: int | None = 100,
        page: str | None = None,
        ids: list[int] | None = None,
        *,
        ctx: ExecutionContext | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Task maps without details, ascending id, and the next page token (None at the
        end; only meaningful when `page` was given: "" asks for the first page). READ on TASK."""
        require(ctx, self.graph.name, READ, "TASK")
        self.settle()
        if ids:
            if status is not None:
                raise IllegalArgument(f"Not support status when query task by ids, but got status='{status}'")
            if page is not None:
                raise IllegalArgument(f"Not support page when query task by ids, but got page='{page}'")
            with self.store.read() as tx:
                found = [tx.records.task_get(int(i)) for i in ids]
            return [task_json(r, details=False) for r in found if r is not None], None
        wanted = status_name(status) if status is not None else None
        after = None
        if page:
            try:
                after = int(page)
            except ValueError:
                raise IllegalArgument(f"Invalid page: '{page}'") from None
        fetch = None if limit is None or limit < 0 else limit + 1
        with self.store.read() as tx:
            records = tx.records.task_list(status=wanted, limit=fetch, after_id=after)
        next_page = None
        if fetch is not None and len(records) > limit:  # type: ignore[operator]
            records = records[:limit]
            next_page = str(records[-1]["id"]) if records else None
        return [task_json(r, details=False) for r in records], next_page

    # ---- changes --------------------------------------------------------------------------------
    def cancel(self, task_id: int, *, ctx: ExecutionContext | None = None) -> dict[str, Any]:
        """`PUT /tasks/{id}?action=cancel`: the task map, now `cancelling` or `cancelled`
        (WRITE on TASK)."""
        require(ctx, self.graph.name, WRITE, "TASK", str(task_id))
        self.recover()
        with self.store.write(ctx) as tx:
            give_up_stale(tx, now_ms())  # a task no process runs any more is not cancelled, but failed
            rec = tx.records.task_get(int(task_id))
            if rec is None:
                raise NotFound(f"Can't find task with id '{task_id}'")
            if rec["status"] in COMPLETED or rec["status"] == "cancelling":
                raise IllegalArgument(f"Can't cancel task '{task_id}' which is completed or cancelling")
            new = "cancelled" if rec["status"] in ("new", "scheduling", "scheduled") else "cancelling"
            tx.records.task_update(rec["id"], {"status": new, "update_ms": now_ms()})
            rec = tx.records.task_get(rec["id"])
            if rec is None:  # not after an update in the same transaction
                raise NotFound(f"Can't find task with id '{task_id}'")
        self.trip(task_id)  # ours; another process's holder sees `cancelling` within leases.POLL_S
        return task_json(rec, details=True)

    def delete(self, task_id: int, force: bool = False, *, ctx: ExecutionContext | None = None) -> None:
        """Removes a task record (never its effects); incomplete tasks only with `force`,
        which also cancels them (DELETE on TASK)."""
        require(ctx, self.graph.name, DELETE, "TASK", str(task_id))
        with self.store.write(ctx) as tx:
            rec = tx.records.task_get(int(task_id))
            if rec is None:
                raise NotFound(f"Can't find task with id '{task_id}'")  # HugeGraph 1.7's 404
            if rec["status"] not in COMPLETED and not force:
                raise IllegalArgument(
                    f"Can't delete incomplete task '{task_id}' in status {rec['status']}, "
                    f"Please try to cancel the task first"
                )
            tx.records.task_delete(rec["id"])
        self.trip(task_id)  # ours; another process's holder sees the record gone

    def wait(self, task_id: int, timeout_s: float = 30.0, interval_s: float = 0.01) -> dict[str, Any]:
        """Blocks until a task completes (tests, embedded callers, `BaseApiTest.waitTask`)."""
        deadline = time.monotonic() + timeout_s
        while True:
            self.settle()
            rec = self.record(task_id)
            if rec is None:
                raise NotFound(f"Can't find task with id '{task_id}'")
            if rec["status"] in COMPLETED:
                return task_json(rec, details=True)
            if time.monotonic() >= deadline:
                raise IllegalArgument(f"Task '{task_id}' did not complete within {timeout_s:g}s")
            time.sleep(interval_s)

    def close(self) -> None:
        """Stops accepting tasks, cancels running ones and waits for the workers."""
        self._closed = True
        with self._lock:
            tokens = list(self._tokens.values())
        for token in tokens:
            token.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._give_up_own()

    def _give_up_own(self) -> None:
        """The tasks this process still holds once its pool stopped (queued ones it never
        started) end here, as a restart would end them, instead of waiting out their leases."""
        store = self.store
        if store.closed or not self._recovered or _in_transaction(store):
            return
        try:
            with store.write() as tx:
                give_up_owned(tx, now_ms())
        except Exception:  # the store is going away with us: the leases expire instead
            log.debug("could not give up this process's tasks", exc_info=True)

    shutdown = close


def _in_transaction(store: Any) -> bool:
    """Whether this thread has a store transaction open (then we must not open another)."""
    return bool(store.in_transaction())
