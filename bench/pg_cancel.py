"""What stopping PostgreSQL statements costs (`storage.pg_cancel`), A/B in one process.

    python -m bench.pg_cancel [--rounds N] [--calls K]

Three figures, each from rounds that alternate the two sides so a burst of other load on
the shared machine hits both alike (the first `WARM` rounds left out):

* **registration**: one `WATCHER.add` + `WATCHER.remove` pair (what `_stoppable` adds
  around a guarded statement) against the same loop without them; µs per pair;
* **short statement**: a 1-hop walk count from one id (one join, ~0.1-0.3 ms) guarded by a
  `stop` that stays false against the same count with no `stop`; µs per call and ratio;
* **overrun**: a 3-hop 'both' count from one id on a complete directed graph of `N`
  vertices (seconds uncancelled) under a `stop` that turns true after 100 ms: how long
  after `stop` first said true the call returned (the watcher's poll, the cancel request,
  the backend's reaction), median and worst, with PostgreSQL's JIT on and off
  (``SET LOCAL jit``): a JIT-compiled statement took ~0.3-0.6 s to react to a cancel;
* **JIT runtimes**: whole aggregate statements with the JIT on and off (what turning it off
  for the store's sessions, `engine_pg`, costs them).

The store is a database of `$HUGELITE_BENCH_PG_URL`'s server, else of a throw-away cluster
(`tests/postgres_cluster.py`), dropped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
import uuid

import storage
from bench.measure import pg_server
from storage import Store, WalkCount, WalkStart
from storage.pg_cancel import WATCHER

WARM = 2
N = 250
ONE_HOP = WalkCount([("out", None)], WalkStart.ID)
SLOW = WalkCount([("both", None)] * 3, WalkStart.ID)


def _never() -> bool:
    return False


def registration(rounds: int, calls: int) -> tuple[float, float]:
    """(µs per add+remove pair, µs per bare loop turn): medians of alternating rounds."""
    conn = object()
    with_pair: list[float] = []
    bare: list[float] = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(calls):
            WATCHER.add(conn, _never)
            WATCHER.remove(conn)
        with_pair.append((time.perf_counter() - started) / calls * 1e6)
        started = time.perf_counter()
        for _ in range(calls):
            _never()
        bare.append((time.perf_counter() - started) / calls * 1e6)
    return statistics.median(with_pair[WARM:]), statistics.median(bare[WARM:])


def short_statement(store: Store, rounds: int, calls: int) -> tuple[float, float]:
    """(µs per guarded call, µs per unguarded call): medians of alternating rounds."""
    guarded: list[float] = []
    plain: list[float] = []
    with store.read() as tx:
        count = tx.aggregates.count
        for r in range(rounds):
            for side in ((guarded, _never), (plain, None)) if r % 2 else ((plain, None), (guarded, _never)):
                out, stop = side
                started = time.perf_counter()
                for i in range(calls):
                    count(ONE_HOP, 1 + i % N, stop)
                out.append((time.perf_counter() - started) / calls * 1e6)
    return statistics.median(guarded[WARM:]), statistics.median(plain[WARM:])


def overrun(store: Store, rounds: int) -> dict[str, list[float]]:
    """ms from `stop` first saying true to the call's return, per round, with PostgreSQL's JIT
    on and off for the statement (``SET LOCAL jit``), alternating."""
    out: dict[str, list[float]] = {"on": [], "off": []}
    for r in range(rounds):
        for jit in ("on", "off") if r % 2 else ("off", "on"):
            with store.read() as tx:
                tx.core.raw.execute(f"SET LOCAL jit = {jit}")
                at = time.monotonic() + 0.1
                seen: list[float] = []

                def stop(at: float = at, seen: list[float] = seen) -> bool:
                    now = time.monotonic()
                    if now >= at:
                        seen.append(now)
                        return True
                    return False

                assert tx.aggregates.count(SLOW, 1, stop) is None
                out[jit].append((time.monotonic() - seen[0]) * 1e3)
    return out


def jit_runtimes(store: Store, rounds: int) -> dict[str, dict[str, float]]:
    """Median ms of whole (uncancelled) aggregate statements with the JIT on and off."""
    shapes = {
        "3-hop out chain from one id": (WalkCount([("out", None)] * 3, WalkStart.ID), 1),
        "8-hop both CTE from every vertex": (WalkCount([("both", None)] * 8, WalkStart.ALL), None),
    }
    out: dict[str, dict[str, float]] = {}
    for name, (query, operand) in shapes.items():
        times: dict[str, list[float]] = {"on": [], "off": []}
        for r in range(rounds):
            for jit in ("on", "off") if r % 2 else ("off", "on"):
                with store.read() as tx:
                    tx.core.raw.execute(f"SET LOCAL jit = {jit}")
                    started = time.perf_counter()
                    tx.aggregates.count(query, operand)
                    times[jit].append((time.perf_counter() - started) * 1e3)
        out[name] = {k: statistics.median(v[1:]) for k, v in times.items()}
    return out


def _load(store: Store) -> None:
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, None) for i in range(1, N + 1)])
        tx.elements.edges_insert([(None, 10, a, b, "", None) for a in keys for b in keys if a != b])


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.pg_cancel")
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--calls", type=int, default=2000)
    args = p.parse_args(argv)
    with contextlib.ExitStack() as stack:
        server = pg_server(stack)
        url = f"{server}/bench_cancel_{uuid.uuid4().hex[:8]}"
        storage.ensure_database(url)
        stack.callback(storage.drop_database, url)
        store = storage.open_store(url)
        stack.callback(store.close)
        store.initialise()
        _load(store)
        pair, bare = registration(args.rounds, args.calls * 10)
        print(f"registration: {pair - bare:.2f} µs per add+remove pair ({pair:.2f} µs a turn with it, "
              f"{bare:.2f} µs without)")
        guarded, plain = short_statement(store, args.rounds, args.calls // 4)
        print(f"short statement: guarded {guarded:.1f} µs, unguarded {plain:.1f} µs, ratio {guarded / plain:.3f} "
              f"(+{guarded - plain:.1f} µs)")
        late = overrun(store, max(5, args.rounds // 2))
        for jit, ms in late.items():
            print(f"overrun past stop, jit {jit}: median {statistics.median(ms):.1f} ms, worst {max(ms):.1f} ms "
                  f"({len(ms)} rounds)")
        for name, both in jit_runtimes(store, max(5, args.rounds // 2)).items():
            print(f"{name}: jit on {both['on']:.0f} ms, off {both['off']:.0f} ms, "
                  f"off ÷ on {both['off'] / both['on']:.3f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
