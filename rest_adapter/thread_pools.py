"""Worker pools made on first use: REST engine calls (`context.run`) and sessionless
Gremlin WebSocket requests (`gremlin_ws`) each own one, so a flood of one kind cannot take
every thread of the other. Made lazily because importing the app (tests, the CLI's other
commands) must not start threads."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor


class LazyPool:
    """`pool()` is the one `ThreadPoolExecutor` of `max_workers` threads named `prefix-N`,
    made by the first call."""

    def __init__(self, max_workers: int, prefix: str) -> None:
        self.max_workers = max_workers
        self.prefix = prefix
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def __call__(self) -> ThreadPoolExecutor:
        pool = self._pool
        if pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=self.max_workers, thread_name_prefix=self.prefix)
                pool = self._pool
        return pool
