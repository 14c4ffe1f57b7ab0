"""Cancellation and deadlines for running traversals.

One `CancelToken` travels with a traversal. Every step loop calls `check()` every few
items, so an HTTP/WebSocket `evaluationTimeout` or a task cancel stops any traversal
promptly, even one that never touches storage (`g.inject(1).repeat(...)`).

A token with a deadline (or one whose `guard_memory()` was called) also bounds memory: every `MEMORY_CHECK_INTERVAL_S` of a run it
reads the process's resident size, and a traversal during which the process grew by more
than `TRAVERSAL_MEMORY_BYTES` (env `HUGELITE_TRAVERSAL_MEMORY_MB`, default 1024, 0 turns it
off) ends with `LimitExceeded` naming the limit. A deadline alone does not bound memory:
`g.V().repeat(both()).emit().path().fold()` on a two-vertex cycle reaches gigabytes in
seconds. The check costs one float comparison per `check()`, and runs that end within the
first interval never read the size at all.
"""

from __future__ import annotations

import os
import threading
import time
import weakref

from gremlin_engine.errors import LimitExceeded, TraversalCancelled, TraversalTimeout


def bytes_from_env(name: str, default_mb: float) -> int:
    """A size bound set in MiB by the environment variable `name` (unset or unreadable: the
    default; 0 turns the bound off), in bytes."""
    raw = os.environ.get(name, "").strip()
    try:
        mb = float(raw) if raw else default_mb
    except ValueError:
        mb = default_mb
    return max(0, int(mb * 1024 * 1024))


#: how much a process may grow while one traversal runs (0: unbounded)
TRAVERSAL_MEMORY_BYTES = bytes_from_env("HUGELITE_TRAVERSAL_MEMORY_MB", 1024.0)
#: seconds between two reads of the resident size by one running token
MEMORY_CHECK_INTERVAL_S = 0.05
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The process's resident set size now (Linux `/proc/self/statm`), None elsewhere."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


class CancelToken:
    """`deadline_ms` is a duration from now (None: no deadline). Thread-safe `cancel()`."""

    __slots__ = ("_deadline", "_cancelled", "timeout_ms", "_mem_next", "_mem_base", "__weakref__")

    def __init__(self, deadline_ms: float | None = None) -> None:
        self.timeout_ms = deadline_ms
        if deadline_ms is None:
            self._deadline = None
            self._mem_next = 0.0
        else:
            now = time.monotonic()
            self._deadline = now + deadline_ms / 1000.0
            self._mem_next = now + MEMORY_CHECK_INTERVAL_S
        self._mem_base = -1
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
        if self._deadline is not None:
            now = time.monotonic()
            if now >= self._deadline:
                raise TraversalTimeout(f"traversal exceeded its time limit of {self.timeout_ms:g} ms")
            if now >= self._mem_next:
                self._check_memory(now)
        elif self._mem_next:
            now = time.monotonic()
            if now >= self._mem_next:
                self._check_memory(now)

    def guard_memory(self) -> CancelToken:
        """Turns the memory bound on for a token without a deadline (a deadline turns it on
        by itself): an async Gremlin job runs until cancelled, and must not be able to grow
        the process without bound meanwhile. Returns the token."""
        if self._deadline is None and not self._mem_next:
            self._mem_next = time.monotonic() + MEMORY_CHECK_INTERVAL_S
        return self

    def _check_memory(self, now: float) -> None:
        """The memory bound (module docstring): the first read sets the baseline."""
        self._mem_next = now + MEMORY_CHECK_INTERVAL_S
        limit = TRAVERSAL_MEMORY_BYTES
        if not limit:
            return
        rss = resident_bytes()
        if rss is None:
            return
        if self._mem_base < 0:
            self._mem_base = rss
            return
        if rss - self._mem_base > limit:
            grown = (rss - self._mem_base) / 1048576
            raise LimitExceeded(
                f"traversal exceeded its memory limit: the process grew by {grown:,.0f} MiB while it ran "
                f"(HUGELITE_TRAVERSAL_MEMORY_MB is {limit / 1048576:g})"
            )


class RunningTokens:
    """The tokens of the runs going on in this process, so that shutdown can cancel them all
    at once (SIGTERM used to wait for each script's own timeout: a 30 s script held shutdown
    27 s). Held weakly: a run's token dies with the run. Every run's token is added where
    the run makes it (`runtime/session.start`), so a cancel reaches scripts, traversals,
    traverser algorithms, WebSocket jobs and tasks alike.

    Why a dict of plain weak references by `id` and not a `WeakSet`: every request adds a
    token, and a WeakSet's add (a weak reference with a death callback, under its iteration
    guard and our lock) cost about twice a plain reference and a dict store, which need no
    lock. A dead token's entry stays until its id is reused (then overwritten) or the next
    sweep, which runs once the dict has doubled since the last one: the dict stays within
    twice the tokens alive, at amortised constant cost."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[int, weakref.ref[CancelToken]] = {}
        self._sweep_at = 1024

    def add(self, token: CancelToken) -> CancelToken:
        tokens = self._tokens
        tokens[id(token)] = weakref.ref(token)  # one dict store: atomic under the GIL, no lock
        if len(tokens) > self._sweep_at:
            self._sweep()
        return token

    def _sweep(self) -> None:
        """Drops the entries of dead tokens. An entry popped here may have been overwritten
        meanwhile by a live token that reused the id (adds take no lock): it goes back."""
        with self._lock:
            tokens = self._tokens
            for key in [k for k, r in list(tokens.items()) if r() is None]:
                ref = tokens.pop(key, None)
                if ref is not None and ref() is not None:
                    tokens[key] = ref
            self._sweep_at = max(1024, 2 * len(tokens))

    def __len__(self) -> int:
        """Entries held: the live tokens and dead ones not swept yet."""
        return len(self._tokens)

    def cancel_all(self) -> int:
        """Cancels every running token (thread-safe; each run stops at its next check, and
        a SQLite statement at its next progress poll); returns how many there were."""
        with self._lock:
            refs = list(self._tokens.values())
        tokens = [t for t in (ref() for ref in refs) if t is not None]
        for token in tokens:
            token.cancel()
        return len(tokens)


#: the process's running tokens (one process serves one registry of graphs)
RUNNING = RunningTokens()


def cancel_running() -> int:
    """Cancels every traversal and script running in this process: the server's shutdown
    calls it as the signal arrives, before it waits for the requests in flight."""
    return RUNNING.cancel_all()


# ---- what a script may compute outside traversals ---------------------------------------
# A script's own arithmetic (`x = x + x`, `x = x * x`, `[a, a, a]`) runs in the interpreter,
# between the traversal steps that poll a CancelToken, so it needs bounds of its own: one
# doubling statement per line would otherwise reach gigabytes in 40 lines, and squaring a
# BigInteger 40 times holds the GIL for minutes. Each bound is named in its error.

#: the most characters (string) or items (list, map, set) one operator or literal may make
MAX_VALUE_SIZE = 1_000_000
#: the most bits a BigInteger computed by a script operator may have (~4,200 digits: Python
#: refuses to write an integer of more than 4,300 digits as text)
MAX_BIGINT_BITS = 14_000
#: the total size a script may compute, all statements together: characters of strings
#: built by `+`, plus items of list/map/set literals and `+`, counting nested values in full
#: (a list of ten lists of a million-character string weighs ten million)
MAX_SCRIPT_VALUE_BUDGET = 20_000_000
#: the largest bulk a traverser may carry: Java's Long.MAX_VALUE, TinkerPop's bulk type
MAX_BULK = 2**63 - 1


#: the most bytes one request's results may take written out (env `HUGELITE_MAX_RESULT_MB`,
#: default 64; 0 turns it off), a value shared N times counted N times: `fold()` can nest
#: shared lists, and one long string held by a thousand slots is a thousand copies on the
#: wire (`structure/result_size.py` weighs it)
MAX_RESULT_BYTES = bytes_from_env("HUGELITE_MAX_RESULT_MB", 64.0)


class ScriptBudget:
    """Counts what one script run computes (`MAX_SCRIPT_VALUE_BUDGET`), and polls the run's
    CancelToken so that a long run of cheap statements still ends at the deadline."""

    __slots__ = ("spent", "limit", "cancel")

    def __init__(self, cancel: CancelToken | None = None, limit: int | None = None) -> None:
        self.spent = 0
        self.limit = MAX_SCRIPT_VALUE_BUDGET if limit is None else limit
        self.cancel = cancel

    def spend(self, amount: int, what: str) -> None:
        """Raises `LimitExceeded` once the script's total passes the budget."""
        self.spent += amount
        if self.spent > self.limit:
            raise LimitExceeded(
                f"script computes too much: {what} brings the script's values past "
                f"MAX_SCRIPT_VALUE_BUDGET ({self.limit:,} characters and items)"
            )
        if self.cancel is not None:
            self.cancel.check()
