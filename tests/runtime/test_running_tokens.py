"""The process's running tokens: shutdown cancels every live run, and forgets finished ones."""

from __future__ import annotations

import gc

import pytest

from gremlin_engine.context import ExecutionContext
from gremlin_engine.errors import TraversalCancelled
from gremlin_engine.limits import CancelToken, RunningTokens
from gremlin_engine.runtime.session import LinkedToken, start


def test_cancel_all_reaches_every_live_token_and_no_dead_one() -> None:
    running = RunningTokens()
    live = [running.add(CancelToken()) for _ in range(5)]
    for _ in range(3):
        running.add(CancelToken())  # runs that ended: nothing holds their tokens
    gc.collect()
    assert running.cancel_all() == 5
    assert all(t.cancelled for t in live)


def test_the_registry_stays_bounded_and_keeps_live_tokens_through_sweeps() -> None:
    running = RunningTokens()
    live = [running.add(CancelToken(1000.0)) for _ in range(50)]
    for _ in range(20_000):  # a busy server's finished runs
        running.add(CancelToken())
    assert len(running) < 3000
    assert running.cancel_all() == 50
    assert all(t.cancelled for t in live)


def test_a_run_checks_a_token_of_its_own_linked_to_the_callers_only_when_it_adds_a_deadline() -> None:
    plain = start(ExecutionContext()).token  # no limit, no caller token: a token of its own
    assert plain is not None and not isinstance(plain, LinkedToken)
    callers = CancelToken()
    assert start(ExecutionContext(cancel=callers)).token is callers  # nothing to add to it
    limited = start(ExecutionContext(timeout_ms=60_000, cancel=callers)).token
    assert isinstance(limited, LinkedToken) and limited.remaining_ms() is not None
    assert start(ExecutionContext(timeout_ms=0)).token.remaining_ms() is None  # 0: no limit
    callers.cancel()  # the caller's cancel reaches the linked token's check
    with pytest.raises(TraversalCancelled):
        limited.check()
