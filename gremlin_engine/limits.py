"""Cancellation and deadlines for running traversals.

One `CancelToken` travels with a traversal. Every step loop calls `check()` every few
items, so an HTTP/WebSocket `evaluationTimeout` or a task cancel stops any traversal
promptly, even one that never touches storage (`g.inject(1).repeat(...)`).
"""

from __future__ import annotations

import time

from gremlin_engine.errors import TraversalCancelled, TraversalTimeout


class CancelToken:
    """`deadline_ms` is a duration from now (None: no deadline). Thread-safe `cancel()`."""

    __slots__ = ("_deadline", "_cancelled", "timeout_ms")

    def __init__(self, deadline_ms: float | None = None) -> None:
        self.timeout_ms = deadline_ms
        self._deadline = None if deadline_ms is None else time.monotonic() + deadline_ms / 1000.0
        # a plain flag: setting and reading one attribute is atomic under the GIL, and every
        # request makes a token, where a threading.Event (a Condition and a Lock) cost ~10 µs
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def remaining_ms(self) -> float | None:
        if self._deadline is None:
            return None
        return max(0.0, (self._deadline - time.monotonic()) * 1000.0)

    def expired(self) -> bool:
        return self._deadline is not None and time.monotonic() >= self._deadline

    def check(self) -> None:
        """Raises `TraversalCancelled` or `TraversalTimeout`; otherwise returns quickly."""
        if self._cancelled:
            raise TraversalCancelled("traversal was cancelled")
        if self._deadline is not None and time.monotonic() >= self._deadline:
            raise TraversalTimeout(f"traversal exceeded its time limit of {self.timeout_ms:g} ms")

