"""`context.run`: blocking engine calls on the REST worker threads, off the event loop.

It replaced Starlette's `run_in_threadpool` (anyio) for CPU per request; these tests pin
what anyio's call gave and handlers rely on: another thread, the request's context
variables seen there but set there only for that call, exceptions raised as raised,
keyword arguments, a bounded pool, and a cancelled request that waits for a running call.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest

from gremlin_engine.errors import NotFound
from rest_adapter import context
from rest_adapter.context import WORKER_THREADS, run

_VAR: contextvars.ContextVar[str] = contextvars.ContextVar("h5_test_var", default="unset")


def test_runs_on_a_worker_thread_and_returns_the_value() -> None:
    async def go() -> tuple[int, str]:
        return await run(lambda a, b: a + b, 2, 3), await run(lambda: threading.current_thread().name)

    value, name = asyncio.run(go())
    assert value == 5
    assert name.startswith("hugelite-rest")
    assert name != threading.current_thread().name


def test_keyword_arguments_reach_the_call() -> None:
    def f(a: int, *, b: int = 0, c: int = 0) -> tuple[int, int, int]:
        return a, b, c

    assert asyncio.run(run(f, 1, c=7)) == (1, 0, 7)
    assert asyncio.run(run(f, 4, b=5, c=6)) == (4, 5, 6)


def test_context_variables_are_seen_and_not_leaked() -> None:
    def read_and_set() -> str:
        seen = _VAR.get()
        _VAR.set("set in the worker")
        return seen

    async def go() -> tuple[str, str, str]:
        _VAR.set("request value")
        first = await run(read_and_set)
        second = await run(read_and_set)  # a fresh copy of the request's context again
        return first, second, _VAR.get()

    assert asyncio.run(go()) == ("request value", "request value", "request value")
    # a later call from another context does not see what a worker set
    assert asyncio.run(run(_VAR.get)) == "unset"


def test_exceptions_are_raised_as_raised() -> None:
    def missing() -> None:
        raise NotFound("Vertex 'x' does not exist")

    with pytest.raises(NotFound) as info:
        asyncio.run(run(missing))
    assert str(info.value) == "Vertex 'x' does not exist"

    with pytest.raises(ZeroDivisionError):
        asyncio.run(run(lambda: 1 // 0))


def test_the_pool_is_bounded() -> None:
    asyncio.run(run(lambda: None))
    pool = context._workers()
    assert pool._max_workers == WORKER_THREADS == 40


def test_a_cancelled_request_waits_for_its_running_call() -> None:
    started = threading.Event()
    release = threading.Event()
    finished: list[str] = []

    def slow() -> str:
        started.set()
        release.wait(5)
        finished.append("done")
        return "late"

    async def go() -> tuple[bool, list[str]]:
        task = asyncio.ensure_future(run(slow))
        while not started.is_set():
            await asyncio.sleep(0.001)
        task.cancel()
        await asyncio.sleep(0.02)
        pending_while_running = not task.done()  # the cancel waits for the call
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        return pending_while_running, list(finished)

    pending, finished_at_cancel = asyncio.run(go())
    assert pending is True
    assert finished_at_cancel == ["done"]
