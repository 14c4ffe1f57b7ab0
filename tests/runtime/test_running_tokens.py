"""The process's running tokens: shutdown cancels every live run, and forgets finished ones."""

from __future__ import annotations

import gc

from gremlin_engine.limits import CancelToken, RunningTokens


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
