"""Callables run on threads released at one moment: the concurrent-batch tests' one way of
making requests meet (`tests/rest/test_batch_concurrent.py`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any


def run_together(jobs: Sequence[Callable[[], Any]]) -> list[Any]:
    """Runs each job on its own thread, all started behind one barrier so they overlap as
    much as they can; their results in job order (None for one still running after 60 s)."""
    barrier = threading.Barrier(len(jobs))
    out: list[Any] = [None] * len(jobs)

    def run(n: int) -> None:
        barrier.wait()
        out[n] = jobs[n]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out
