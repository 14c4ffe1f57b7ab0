"""The failed-login counts a login throttle keeps, in a store every server process shares.

The throttle (`rest_adapter/login_throttle.py`) owns the rule (free failures, doubling
delays); this is where its counts live. With `StandardAuthenticator` they go in the store of
the auth records (`auth.graph_store`), so `serve --workers N` gives a client the same
attempts as one process does; with `ConfigAuthenticator`, which has no store, in a memory
store of the process's own (`in_memory`). Each call is one store transaction; the REST layer
makes them off the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import storage

#: (failures, next_allowed, now) -> next_allowed: the throttle's rule, run inside the write
#: that counted the failure, so two processes failing at once both count
Rule = Callable[[int, float, float], float]


class LoginFailures:
    """Failure counts by key in `store`. A key counts while it failed within
    `forget_after_s` or still holds a delay; at most `max_keys` keys are kept (the least
    recently failed go first), so the table is bounded whatever clients send."""

    def __init__(self, store: Any, forget_after_s: float, max_keys: int) -> None:
        self.store = store
        self.forget_after_s = forget_after_s
        self.max_keys = max_keys
        with store.write() as tx:
            storage.ensure_login_failures(tx)

    @classmethod
    def in_memory(cls, forget_after_s: float, max_keys: int) -> LoginFailures:
        """Counts of this process only (no shared store to keep them in)."""
        return cls(storage.open_store(None), forget_after_s, max_keys)

    def read(self, keys: Sequence[str], now: float) -> dict[str, tuple[int, float]]:
        """key -> (failures, next_allowed) of those of `keys` that count now."""
        with self.store.read() as tx:
            return storage.LoginFailures(tx).read(keys, now - self.forget_after_s, now)

    def keys(self, now: float) -> set[str]:
        """Every key that counts now."""
        with self.store.read() as tx:
            return set(storage.LoginFailures(tx).keys(now - self.forget_after_s, now))

    def failed(self, keys: Sequence[str], now: float, rule: Rule) -> None:
        """One more failure of each of `keys` at `now`, with the delay `rule` gives it."""
        with self.store.write() as tx:
            table = storage.LoginFailures(tx)
            table.forget(now - self.forget_after_s, now)
            for key in keys:
                failures, held = table.count(key, now)
                until = rule(failures, held, now)
                if until != held:
                    table.hold(key, until)
            table.trim(self.max_keys)

    def clear(self, keys: Sequence[str]) -> None:
        with self.store.write() as tx:
            storage.LoginFailures(tx).clear(keys)

    def __len__(self) -> int:
        with self.store.read() as tx:
            return len(storage.LoginFailures(tx))
