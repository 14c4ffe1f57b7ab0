"""The hop from the event loop to a worker thread and back, three ways, alternating in one process.

    python -m bench.hop [--calls 2000] [--rounds 15] [--work-us 0] [--loop uvloop|asyncio]

Why: every REST handler that touches the engine awaits one call on the app's worker pool
(`context.run`: engine work never runs on the event loop), and on this host that hop costs
more than the rest of our stack (`bench/README.md`, "where a GET by id's server CPU goes").
This measures the hop alone, as the server makes it (uvloop, the app's own pool of
`restserver.max_worker_threads` threads), for a call doing `--work-us` of Python work:

* `in_pool`: `rest_adapter.context.in_pool`, what the server uses (the worker hands its
  outcome back with one `call_soon_threadsafe`);
* `run_in_executor`: `loop.run_in_executor(pool, fn)` on the same pool (two chained futures);
* `anyio`: `anyio.to_thread.run_sync(fn)` (Starlette's own hop: anyio's worker threads and
  capacity limiter, not the app's pool).

Figures: process CPU per call (`time.process_time`: both threads, so wake-ups count) and
wall time per call, medians over rounds; the three run in turn inside each round, in
alternating order, so load on the shared host reaches them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio.to_thread

from rest_adapter.context import in_pool


def _work(us: float) -> Callable[[], int]:
    """A call spending about `us` µs of Python (the loop's speed measured here first)."""
    t0 = time.perf_counter()
    for _ in range(200_000):
        pass
    n = int(us * 200_000 / ((time.perf_counter() - t0) * 1e6))

    def fn() -> int:
        total = 0
        for i in range(n):
            total += i
        return total

    return fn


async def _calls(way: str, pool: ThreadPoolExecutor, fn: Callable[[], Any], calls: int) -> tuple[float, float]:
    loop = asyncio.get_running_loop()
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(calls):
        if way == "in_pool":
            await in_pool(pool, fn)
        elif way == "run_in_executor":
            await loop.run_in_executor(pool, fn)
        else:
            await anyio.to_thread.run_sync(fn)
    return (time.process_time() - c0) / calls * 1e6, (time.perf_counter() - w0) / calls * 1e6


async def _main(args: argparse.Namespace) -> None:
    pool = ThreadPoolExecutor(max_workers=args.threads, thread_name_prefix="hop")
    fn = _work(args.work_us)
    ways = ["in_pool", "run_in_executor", "anyio"]
    cpu: dict[str, list[float]] = {w: [] for w in ways}
    wall: dict[str, list[float]] = {w: [] for w in ways}
    for way in ways:  # warm: threads started, code paths run
        await _calls(way, pool, fn, 200)
    for r in range(args.rounds):
        for way in ways if r % 2 == 0 else ways[::-1]:
            c, w = await _calls(way, pool, fn, args.calls)
            cpu[way].append(c)
            wall[way].append(w)
    pool.shutdown()
    base = statistics.median(cpu["in_pool"])
    print(f"\nhop of a {args.work_us:g} µs call, {args.loop}, pool of {args.threads}: medians of {args.rounds} "
          f"rounds of {args.calls}")
    print("| way | CPU per call, µs | ÷ in_pool | wall per call, µs |\n|---|---:|---:|---:|")
    for way in ways:
        c = statistics.median(cpu[way])
        print(f"| {way} | {c:.1f} | {c / base:.2f} | {statistics.median(wall[way]):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--work-us", type=float, default=0.0)
    ap.add_argument("--threads", type=int, default=40)
    ap.add_argument("--loop", choices=["uvloop", "asyncio"], default="uvloop")
    args = ap.parse_args()
    if args.loop == "uvloop":
        import uvloop

        uvloop.run(_main(args))
    else:
        asyncio.run(_main(args))


if __name__ == "__main__":
    main()
