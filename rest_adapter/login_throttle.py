"""Slows repeated failed logins, per user and per client address, without blocking anyone else.

Why: without it a client tried 4,141 wrong SASL passwords in 3 s (issue 16 item 9). Every
door that checks a password goes through `LoginThrottle.attempt`: the WebSocket's SASL
and HTTP Basic handshake today (`gremlin_ws.py`), and the REST authentication of issue 19
when it comes; one throttle object per server (`app.state.login_throttle`), so a user's
failures count the same whichever door they come through.

The rule: each key (`user:<name>`, `address:<ip>`) may fail `FREE_FAILURES` times; every
further failure doubles its delay (`BASE_DELAY_S`, at most `MAX_DELAY_S`). An attempt on a
delayed key waits out the delay with `asyncio.sleep` (the event loop keeps serving every
other client), then is checked as usual; an attempt whose wait would be longer than
`MAX_WAIT_S` (many attempts queued at once) is refused at once without checking its
password. A success clears its keys; a key with no failure for `FORGET_AFTER_S` is
forgotten, and at most `MAX_KEYS` keys are kept (the least recently failed go first), so
the state is bounded whatever a client sends.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from rest_adapter.context import in_pool

FREE_FAILURES = 5
BASE_DELAY_S = 0.25
MAX_DELAY_S = 30.0
MAX_WAIT_S = 5.0
FORGET_AFTER_S = 900.0
MAX_KEYS = 10_000


class LoginThrottled(Exception):
    """Too many recent failures for this user or address: refused without a check."""

    def __init__(self, retry_after_s: float) -> None:
        self.retry_after_s = retry_after_s
        super().__init__(
            f"Too many failed logins for this user or address; try again in {retry_after_s:.0f} s"
        )


@dataclass
class _Record:
    failures: int = 0
    next_allowed: float = 0.0  # monotonic time before which an attempt waits
    last_failure: float = 0.0


class LoginThrottle:
    """Per-user and per-address failure counts with exponential delays (module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()  # REST auth may check from worker threads
        self._records: OrderedDict[str, _Record] = OrderedDict()

    @staticmethod
    def keys(user: str, address: str | None) -> tuple[str, ...]:
        return (f"user:{user}",) + ((f"address:{address}",) if address else ())

    def wait_s(self, keys: tuple[str, ...]) -> float:
        """How long an attempt on `keys` must wait now (0 when it may go at once)."""
        now = self._clock()
        with self._lock:
            self._forget(now)
            return max([0.0, *(r.next_allowed - now for k in keys if (r := self._records.get(k)))])

    async def attempt(self, user: str, address: str | None, check: Callable[[], Awaitable[bool] | bool]) -> bool:
        """Waits out the keys' delay, then runs `check` (True: the credentials are right)
        and records the outcome; raises `LoginThrottled` when the wait is too long."""
        keys = self.keys(user, address)
        wait = self.wait_s(keys)
        if wait > MAX_WAIT_S:
            raise LoginThrottled(wait)
        if wait > 0:
            await asyncio.sleep(wait)
        outcome = check()
        ok = bool(await outcome) if inspect.isawaitable(outcome) else bool(outcome)
        if ok:
            self.succeeded(keys)
        else:
            self.failed(keys)
        return ok

    def admit(self, user: str, address: str | None) -> bool:
        """For credentials known to be right without a check (remembered: `rest_adapter/auth.py`):
        True, with their keys' failures cleared as a success clears them, when no delay is
        pending on them; False: go through `attempt`, which waits the delay out. Free of
        locks while nobody has failed lately (the common case)."""
        if not self._records:
            return True
        keys = self.keys(user, address)
        if self.wait_s(keys) > 0:
            return False
        self.succeeded(keys)
        return True

    def failed(self, keys: tuple[str, ...]) -> None:
        now = self._clock()
        with self._lock:
            for key in keys:
                record = self._records.pop(key, None) or _Record()
                record.failures += 1
                record.last_failure = now
                excess = record.failures - FREE_FAILURES
                if excess > 0:
                    delay = min(MAX_DELAY_S, BASE_DELAY_S * 2 ** min(excess - 1, 32))
                    record.next_allowed = min(max(record.next_allowed, now) + delay, now + MAX_DELAY_S)
                self._records[key] = record  # most recently failed last
            while len(self._records) > MAX_KEYS:
                self._records.popitem(last=False)

    def succeeded(self, keys: tuple[str, ...]) -> None:
        with self._lock:
            for key in keys:
                self._records.pop(key, None)

    def _forget(self, now: float) -> None:
        while self._records:
            key, record = next(iter(self._records.items()))
            if now - record.last_failure < FORGET_AFTER_S or record.next_allowed > now:
                break
            del self._records[key]

    def __len__(self) -> int:
        return len(self._records)


async def verify_password(throttle: LoginThrottle, authenticator: Any, user: str, password: str,
                          address: str | None, pool: Executor) -> Any:
    """The principal for `user`/`password`, or None when they are wrong, through `throttle`
    (every door shares one): credentials the authenticator remembers as right are answered
    at once, in memory; any other check runs on `pool` (it reads the auth records, and
    bcrypt blocks). Raises `LoginThrottled` for an attempt the throttle holds off."""
    known = authenticator.remembered(user, password)
    if known is not None and throttle.admit(user, address):
        return known
    found: list[Any] = []

    async def check() -> bool:
        principal = await in_pool(pool, authenticator.check_password, user, password)
        if principal is not None:
            found.append(principal)
        return principal is not None

    await throttle.attempt(user, address, check)
    return found[0] if found else None
