"""`LoginThrottle`'s rule on a clock the test turns: free failures, doubling delays with a
cap, success clearing, forgetting, and a bounded number of keys."""

from __future__ import annotations

import asyncio

import pytest

from rest_adapter import login_throttle as lt


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_delays_double_after_the_free_failures_and_stop_at_the_cap() -> None:
    clock = Clock()
    throttle = lt.LoginThrottle(clock)
    keys = throttle.keys("admin", "10.0.0.1")
    waits = []
    for _ in range(lt.FREE_FAILURES + 12):
        throttle.failed(keys)
        waits.append(throttle.wait_s(keys))
        clock.now += max(waits[-1], 0)  # the next attempt comes when it may
    assert waits[: lt.FREE_FAILURES] == [0.0] * lt.FREE_FAILURES
    assert waits[lt.FREE_FAILURES: lt.FREE_FAILURES + 3] == [lt.BASE_DELAY_S, 2 * lt.BASE_DELAY_S, 4 * lt.BASE_DELAY_S]
    assert max(waits) == lt.MAX_DELAY_S


def test_a_burst_is_refused_unchecked_and_a_success_clears_the_keys() -> None:
    clock = Clock()
    throttle = lt.LoginThrottle(clock)
    keys = throttle.keys("admin", "10.0.0.1")
    for _ in range(lt.FREE_FAILURES + 8):
        throttle.failed(keys)  # all at once: the delays pile up to the cap
    assert throttle.wait_s(keys) == lt.MAX_DELAY_S
    checked = []
    with pytest.raises(lt.LoginThrottled, match="try again in 30 s"):
        asyncio.run(throttle.attempt("admin", "10.0.0.1", lambda: checked.append(1) or True))
    assert checked == []
    assert throttle.wait_s(throttle.keys("bob", "10.0.0.2")) == 0.0  # another user elsewhere is not slowed
    clock.now += lt.MAX_DELAY_S
    assert asyncio.run(throttle.attempt("admin", "10.0.0.1", lambda: True)) is True
    assert throttle.wait_s(keys) == 0.0 and len(throttle) == 0


def test_state_is_forgotten_and_bounded() -> None:
    clock = Clock()
    throttle = lt.LoginThrottle(clock)
    throttle.failed(throttle.keys("old", None))
    clock.now += lt.FORGET_AFTER_S + 1
    throttle.wait_s(())
    assert len(throttle) == 0
    for n in range(lt.MAX_KEYS + 50):
        throttle.failed(throttle.keys(f"user{n}", None))
    assert len(throttle) == lt.MAX_KEYS
