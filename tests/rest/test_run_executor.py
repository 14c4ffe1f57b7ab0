"""`context.run`: blocking engine calls on the app's REST worker threads, off the event loop:
another thread, the request's context variables seen there but set there only for that
call, exceptions raised as raised, keyword arguments, and the app's bounded pool.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.errors import NotFound
from rest_adapter.context import run

_VAR: contextvars.ContextVar[str] = contextvars.ContextVar("h5_test_var", default="unset")


class _Pools:
    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.rest = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hugelite-rest")


class _App:
    workers = _Pools()


class _Request:
    """What `run` reads of a request: its app's worker pool."""

    def __init__(self, app: Any = None) -> None:
        self.scope = {"app": app or _App()}


REQ: Any = _Request()


def test_runs_on_a_worker_thread_and_returns_the_value() -> None:
    async def go() -> tuple[int, str]:
        return await run(REQ, lambda a, b: a + b, 2, 3), await run(REQ, lambda: threading.current_thread().name)

    value, name = asyncio.run(go())
    assert value == 5
    assert name.startswith("hugelite-rest")
    assert name != threading.current_thread().name


def test_keyword_arguments_reach_the_call() -> None:
    def f(a: int, *, b: int = 0, c: int = 0) -> tuple[int, int, int]:
        return a, b, c

    assert asyncio.run(run(REQ, f, 1, c=7)) == (1, 0, 7)
    assert asyncio.run(run(REQ, f, 4, b=5, c=6)) == (4, 5, 6)


def test_context_variables_are_seen_and_not_leaked() -> None:
    def read_and_set() -> str:
        seen = _VAR.get()
        _VAR.set("set in the worker")
        return seen

    async def go() -> tuple[str, str, str]:
        _VAR.set("request value")
        first = await run(REQ, read_and_set)
        second = await run(REQ, read_and_set)  # a fresh copy of the request's context again
        return first, second, _VAR.get()

    assert asyncio.run(go()) == ("request value", "request value", "request value")
    # a later call from another context does not see what a worker set
    assert asyncio.run(run(REQ, _VAR.get)) == "unset"


def test_exceptions_are_raised_as_raised() -> None:
    def missing() -> None:
        raise NotFound("Vertex 'x' does not exist")

    with pytest.raises(NotFound) as info:
        asyncio.run(run(REQ, missing))
    assert str(info.value) == "Vertex 'x' does not exist"

    with pytest.raises(ZeroDivisionError):
        asyncio.run(run(REQ, lambda: 1 // 0))


def test_the_pool_is_the_apps_and_bounded(tmp_path: Path) -> None:
    from rest_adapter.app import create_app
    from rest_adapter.settings import Settings
    from tests.conftest import write_conf

    settings = Settings.load(write_conf(tmp_path, {}, {"restserver.max_worker_threads": "3"}))
    app = create_app(settings)
    names = asyncio.run(_gather(app, 12))
    assert {n.rsplit("_", 1)[0] for n in names} == {"hugelite-rest"}
    assert len(set(names)) <= 3
    app.workers.shutdown()


async def _gather(app: Any, n: int) -> list[str]:
    def name() -> str:
        time.sleep(0.01)
        return threading.current_thread().name

    req = _Request(app)
    return list(await asyncio.gather(*(run(req, name) for _ in range(n))))


def test_a_stray_stop_iteration_ends_the_call_as_an_error() -> None:
    def stray() -> None:
        next(iter(()))

    with pytest.raises(RuntimeError, match="StopIteration"):
        asyncio.run(asyncio.wait_for(run(REQ, stray), 10))
