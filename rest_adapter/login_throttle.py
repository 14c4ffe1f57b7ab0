"""Slows repeated failed logins, per user and per client address, without blocking anyone else.

Why: without it a client tried 4,141 wrong SASL passwords in 3 s (issue 16 item 9). Every
door that checks a password goes through `verify_password`: the WebSocket's SASL and HTTP
Basic handshake (`ws/sasl.py`) and REST's Basic (`auth.py`); one throttle object per server
process (`app.state.login_throttle`), so a user's failures count the same whichever door
they come through.

The rule: each key (`user:<name>`, `address:<ip>`) may fail `FREE_FAILURES` times; every
further failure doubles its delay (`BASE_DELAY_S`, at most `MAX_DELAY_S`). An attempt on a
delayed key waits out the delay with `asyncio.sleep` (the event loop keeps serving every
other client), then is checked as usual; an attempt whose wait would be longer than
`MAX_WAIT_S` (many attempts queued at once) is refused at once without checking its
password. A success clears its keys; a key with no failure for `FORGET_AFTER_S` is
forgotten, and at most `MAX_KEYS` keys are kept (the least recently failed go first), so
the state is bounded whatever a client sends.

Where the counts live: in the store of the auth records (`gremlin_engine.auth.LoginFailures`),
so every process of `serve --workers N` reads and moves the same counts and a client gets
no more attempts from N processes than from one. A password check reads its keys' counts
there (off the event loop, beside the check itself); a failure is one write; a success
writes only when it has failures to clear. Remembered credentials (`admit`) are answered
without the store: each process keeps the set of keys that failed lately (`refresh`, from
the store once a second with the auth records' sync, and its own outcomes at once), and an
attempt on such a key takes the checked path. So another process's failures reach this
process's remembered-credentials answer within that second, as a password changed through
another process does (`docs/auth.md`). Without a shared store (`ConfigAuthenticator`) the
counts are the process's own.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from gremlin_engine.auth import LoginFailures
from rest_adapter.context import in_pool

FREE_FAILURES = 5
BASE_DELAY_S = 0.25
MAX_DELAY_S = 30.0
MAX_WAIT_S = 5.0
FORGET_AFTER_S = 900.0
MAX_KEYS = 10_000

T = TypeVar("T")


class LoginThrottled(Exception):
    """Too many recent failures for this user or address: refused without a check."""

    def __init__(self, retry_after_s: float) -> None:
        self.retry_after_s = retry_after_s
        super().__init__(
            f"Too many failed logins for this user or address; try again in {retry_after_s:.0f} s"
        )


def delay_until(failures: int, next_allowed: float, now: float) -> float:
    """The time before which a key that has just failed `failures` times waits (the rule)."""
    excess = failures - FREE_FAILURES
    if excess <= 0:
        return next_allowed
    delay = min(MAX_DELAY_S, BASE_DELAY_S * 2 ** min(excess - 1, 32))
    return min(max(next_allowed, now) + delay, now + MAX_DELAY_S)


class LoginThrottle:
    """Per-user and per-address failure counts with exponential delays (module docstring).
    `failures`: where the counts live (None: a memory store of this process's own, made
    when first needed)."""

    def __init__(self, failures: LoginFailures | None = None, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._failures = failures
        self._making = threading.Lock()
        #: the keys this process knows to have failed lately (`admit` reads it without a lock)
        self._failed_keys: frozenset[str] = frozenset()

    @classmethod
    def in_store(cls, store: Any, clock: Callable[[], float] = time.time) -> LoginThrottle:
        """A throttle whose counts live in `store` (the auth records' store), shared by
        every process that serves it."""
        return cls(LoginFailures(store, FORGET_AFTER_S, MAX_KEYS), clock)

    @property
    def failures(self) -> LoginFailures:
        if self._failures is None:
            with self._making:  # pool threads may ask at once
                if self._failures is None:
                    self._failures = LoginFailures.in_memory(FORGET_AFTER_S, MAX_KEYS)
        return self._failures

    @staticmethod
    def keys(user: str, address: str | None) -> tuple[str, ...]:
        return (f"user:{user}",) + ((f"address:{address}",) if address else ())

    def wait_s(self, keys: tuple[str, ...]) -> float:
        """How long an attempt on `keys` must wait now (0 when it may go at once); reads the
        store."""
        return self._look(keys)[0]

    async def attempt(self, user: str, address: str | None, check: Callable[[], bool],
                      pool: Executor | None = None) -> bool:
        """Waits out the keys' delay, then runs `check` (True: the credentials are right)
        and records the outcome; raises `LoginThrottled` when the wait is too long. The
        store calls and `check` run on `pool` (None: here, as a test does)."""
        keys = self.keys(user, address)
        wait, counted = await _blocking(pool, self._look, keys)
        if wait > MAX_WAIT_S:
            raise LoginThrottled(wait)
        if wait > 0:
            await asyncio.sleep(wait)
        return await _blocking(pool, self._check, keys, check, counted)

    def admit(self, user: str, address: str | None) -> bool:
        """For credentials known to be right without a check (remembered: `rest_adapter/auth.py`):
        True when no key of theirs failed lately, as far as this process knows (memory only,
        no lock); False: go through `attempt`, which reads the store's counts, waits out a
        delay and clears the failures."""
        failed = self._failed_keys
        if not failed:
            return True
        return not any(k in failed for k in self.keys(user, address))

    def failed(self, keys: tuple[str, ...]) -> None:
        """One more failure of each key (a store write)."""
        self.failures.failed(keys, self._clock(), delay_until)
        self._failed_keys = self._failed_keys | set(keys)

    def succeeded(self, keys: tuple[str, ...]) -> None:
        """Clears the keys' failures (a store write)."""
        self.failures.clear(keys)
        self._failed_keys = self._failed_keys - set(keys)

    def refresh(self) -> None:
        """Learns which keys failed lately in any process (a store read; the server calls it
        off the event loop once a second, with the auth records' sync)."""
        self._failed_keys = frozenset(self.failures.keys(self._clock()))

    def _look(self, keys: tuple[str, ...]) -> tuple[float, bool]:
        """(wait, whether any key has failures) from the store."""
        now = self._clock()
        found = self.failures.read(keys, now)
        missing = set(keys) - found.keys()
        if found or (missing & self._failed_keys):
            self._failed_keys = (self._failed_keys - missing) | found.keys()
        return max([0.0, *(held - now for _n, held in found.values())]), bool(found)

    def _check(self, keys: tuple[str, ...], check: Callable[[], bool], counted: bool) -> bool:
        ok = bool(check())
        if not ok:
            self.failed(keys)
        elif counted:  # no write for a success with nothing to clear
            self.succeeded(keys)
        return ok

    def __len__(self) -> int:
        return len(self.failures)


async def _blocking(pool: Executor | None, fn: Callable[..., T], *args: Any) -> T:
    return fn(*args) if pool is None else await in_pool(pool, fn, *args)


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

    def check() -> bool:
        principal = authenticator.check_password(user, password)
        if principal is not None:
            found.append(principal)
        return principal is not None

    await throttle.attempt(user, address, check, pool)
    return found[0] if found else None
