"""`LoginThrottle`'s rule on a clock the test turns: free failures, doubling delays with a
cap, success clearing, forgetting, and a bounded number of keys; the counts in a memory store
(`LoginFailures.in_memory`). Two real server processes sharing the counts:
`test_workers.py::test_failed_logins_count_once_across_processes`."""

from __future__ import annotations

import asyncio

import pytest

from gremlin_engine.auth import LoginFailures
from rest_adapter import login_throttle as lt


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_delays_double_after_the_free_failures_and_stop_at_the_cap() -> None:
    clock = Clock()
    throttle = lt.LoginThrottle(clock=clock)
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
    throttle = lt.LoginThrottle(clock=clock)
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
    throttle = lt.LoginThrottle(clock=clock)
    old = throttle.keys("old", None)
    for _ in range(lt.FREE_FAILURES + 1):
        throttle.failed(old)
    clock.now += lt.FORGET_AFTER_S + 1
    assert throttle.wait_s(old) == 0.0
    throttle.failed(throttle.keys("new", None))  # a write forgets what is past the window
    assert len(throttle) == 1
    throttle.failed(old)  # and a forgotten key starts again from its first failure
    assert throttle.failures.read(old, clock.now) == {"user:old": (1, 0.0)}
    # the bound, at 40 keys (the same code keeps MAX_KEYS; 10,000 writes would be slow here)
    small = lt.LoginThrottle(LoginFailures.in_memory(lt.FORGET_AFTER_S, 40), clock=clock)
    for n in range(90):
        clock.now += 0.001 * (n % 2)  # some at the same instant: the key breaks the tie
        small.failed(small.keys(f"user{n:02}", None))
    assert len(small) == 40
    assert small.failures.keys(clock.now) == {f"user:user{n:02}" for n in range(50, 90)}  # the latest kept


def test_remembered_credentials_take_the_checked_path_only_for_keys_that_failed() -> None:
    """`admit` answers from memory; a key that failed sends the login through `attempt`,
    whose success clears the count (and a success with nothing to clear writes nothing)."""
    clock = Clock()
    throttle = lt.LoginThrottle(clock=clock)
    assert throttle.admit("admin", "10.0.0.1") is True
    throttle.failed(throttle.keys("mallory", "10.0.0.9"))
    assert throttle.admit("admin", "10.0.0.1") is True
    assert throttle.admit("admin", "10.0.0.9") is False  # the address failed
    assert asyncio.run(throttle.attempt("admin", "10.0.0.9", lambda: True)) is True
    assert throttle.failures.read(("address:10.0.0.9", "user:mallory"), clock.now) == {"user:mallory": (1, 0.0)}
    assert throttle.admit("admin", "10.0.0.9") is True


def test_another_throttle_on_the_same_store_sees_the_counts(tmp_path) -> None:
    """Two throttles over one store file (two server processes): failures made through
    either count once, a delay set by one holds in the other, and `refresh` tells the
    other's remembered-credentials answer."""
    import storage

    store = storage.open_store(str(tmp_path / "g.db"))
    store.initialise()
    try:
        clock = Clock()
        one, two = lt.LoginThrottle.in_store(store, clock), lt.LoginThrottle.in_store(store, clock)
        keys = one.keys("admin", "10.0.0.1")
        for n in range(lt.FREE_FAILURES + 2):
            (one if n % 2 else two).failed(keys)
        assert one.wait_s(keys) == two.wait_s(keys) == lt.BASE_DELAY_S + 2 * lt.BASE_DELAY_S  # the 6th and 7th
        assert one.admit("admin", "10.0.0.1") is False and two.admit("admin", "10.0.0.1") is False
        other = lt.LoginThrottle.in_store(store, clock)
        assert other.admit("admin", "10.0.0.1") is True  # not refreshed yet
        other.refresh()
        assert other.admit("admin", "10.0.0.1") is False
    finally:
        store.close()
