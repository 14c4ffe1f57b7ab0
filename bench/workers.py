"""REST read throughput with one and with two server processes (`serve --workers N`), side by side.

    python -m bench.workers [--size small|large] [--requests N] [--concurrency C] [--rounds R]

1. Loads the workload (`bench/rest_load.py`'s schema: person PRIMARY_KEY name, knows
   person->person) into one sqlite store through a one-process server, over REST.
2. Starts two servers on that same store, `--workers 1` and `--workers 2`; both stay up
   (an idle one costs nothing measurable), and the rounds alternate between them, A then B.
3. Each round: `GET .../graph/vertices/{id}` and `GET .../traversers/kout` (depth 2, OUT,
   label knows, count_only) from random people, with C keep-alive connections of
   `rest_load`'s hand-written socket client (httpx's own CPU would cap the rate). The
   kernel gives each new connection to either process of the two-process server.
4. Prints the medians of requests/s per server, the ratio 2 ÷ 1 per operation, how the
   two-process server's CPU split between its processes (the kernel hands a burst of new
   connections to whichever process accepts first, so 8 connections opened at once may all
   land on one), and the load average before and after (the machine is shared).

The client runs on the same machine and takes its share of the cores: what one core more
buys is bounded by what is left of the second one. The per-request cost of the schema
check with N > 1 (`SchemaService.sync`, one keyed read inside the request's transaction)
is measured in-process, on the same store, as step 5.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from bench.rest_load import P, _post_all, _raw_get_run, edge_batches, make_schema, vertex_batches, vid
from bench.server import BenchServer
from bench.workload import SIZES, Workload, workload

GRAPH = "bench"


def _server(base: Path, store: Path, workers: int) -> BenchServer:
    base.mkdir(parents=True, exist_ok=True)
    props = f"backend=sqlite\nstore={store}\nschema.mode=strict\n"
    return BenchServer(base, GRAPH, props, timeout_ms=600000, init_store=True, workers=workers)


def load(base: Path, store: Path, w: Workload) -> None:
    server = _server(base / "loader", store, 1)
    try:
        with httpx.Client(base_url=server.url, timeout=600) as c:
            make_schema(c)
        _post_all(server.url, f"{P}/graph/vertices/batch", list(vertex_batches(w)), 2)
        _post_all(server.url, f"{P}/graph/edges/batch", list(edge_batches(w)), 2)
    finally:
        server.stop()


def paths(w: Workload, n: int, op: str, seed: int) -> list[str]:
    rnd = random.Random(seed)
    if op == "get":
        return [f'{P}/graph/vertices/"{vid(rnd.randrange(w.n_vertices))}"' for _ in range(n)]
    return [f'{P}/traversers/kout?source=%22{vid(rnd.randrange(w.n_vertices))}%22&max_depth=2&direction=OUT'
            f'&label=knows&count_only=true&max_degree=-1&capacity=-1&limit=-1' for _ in range(n)]


def rate(server: BenchServer, ps: list[str], concurrency: int) -> float:
    wall, _lat = asyncio.run(_raw_get_run(server.port, ps, concurrency))
    return len(ps) / wall


def worker_ticks(server: BenchServer) -> dict[int, int]:
    """CPU clock ticks of each worker process of `server` (the children uvicorn spawned, not
    multiprocessing's resource tracker); {} for a one-process server."""
    pid = server.proc.pid
    out = {}
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            if b"spawn_main" not in Path(f"/proc/{child}/cmdline").read_bytes():
                continue
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(child)] = int(fields[11]) + int(fields[12])
    return out


def busier_share(before: dict[int, int], after: dict[int, int]) -> float:
    """The busier worker's share of the workers' CPU over a run (0.5: even; 1.0: one did all)."""
    used = [after[p] - before.get(p, 0) for p in after]
    return max(used) / sum(used) if sum(used) else 0.0


def schema_check_us(store: Path, n: int = 100_000) -> tuple[float, float]:
    """(µs per `SchemaService.sync` in an open read transaction, µs per empty read
    transaction for scale), on the bench store, in this process."""
    from gremlin_engine import GraphConfig, GraphRegistry

    reg = GraphRegistry(shared=True)
    graph = reg.open(GraphConfig(name=GRAPH, backend="sqlite", store=str(store), schema_mode="strict"))
    try:
        graph.schema.snapshot()
        best_sync = best_tx = float("inf")
        for _ in range(3):
            with graph.store.read() as tx:
                t = time.perf_counter()
                for _ in range(n):
                    graph.schema.sync(tx)
                best_sync = min(best_sync, (time.perf_counter() - t) / n * 1e6)
            t = time.perf_counter()
            for _ in range(n // 10):
                with graph.store.read():
                    pass
            best_tx = min(best_tx, (time.perf_counter() - t) / (n // 10) * 1e6)
        return best_sync, best_tx
    finally:
        reg.close_all()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--requests", type=int, default=3000, help="GET-by-id requests per round (k-out: a third)")
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    w = workload(args.size)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="hugelite-workers-bench-") as tmp:
        base = Path(tmp)
        store = base / "bench.db"
        load(base, store, w)
        servers = {n: _server(base / f"w{n}", store, n) for n in (1, 2)}
        try:
            ops = {"GET vertex by id": ("get", args.requests), "k-out depth 2": ("kout", max(1, args.requests // 3))}
            for server in servers.values():  # warm-up: every process imports and caches
                for op, n in ops.values():
                    rate(server, paths(w, min(n, 400), op, 1), args.concurrency)
            got: dict[tuple[str, int], list[float]] = {(name, n): [] for name in ops for n in servers}
            shares: dict[str, list[float]] = {name: [] for name in ops}
            for r in range(args.rounds):
                for name, (op, n) in ops.items():
                    ps = paths(w, n, op, 100 + r)
                    for workers, server in servers.items():  # alternating, the same requests
                        before = worker_ticks(server)
                        got[(name, workers)].append(rate(server, ps, args.concurrency))
                        if workers > 1:
                            shares[name].append(busier_share(before, worker_ticks(server)))
                print(f"round {r + 1}/{args.rounds} done", flush=True)
        finally:
            for server in servers.values():
                server.stop()
        sync_us, tx_us = schema_check_us(store)
    load_after = os.getloadavg()
    print(f"\nREST reads, {args.size} workload ({w.n_vertices:,} vertices, {w.n_edges:,} edges), "
          f"{args.concurrency} connections, {os.cpu_count()} cores, medians of {args.rounds} alternating rounds\n")
    print("| operation | --workers 1 req/s | --workers 2 req/s | ratio 2 ÷ 1 | busier worker's CPU share (median, min-max) |")
    print("|---|---:|---:|---:|---|")
    for name in ops:
        one, two = statistics.median(got[(name, 1)]), statistics.median(got[(name, 2)])
        sh = shares[name]
        print(f"| {name} | {one:,.0f} | {two:,.0f} | {two / one:.2f} | "
              f"{statistics.median(sh):.2f} ({min(sh):.2f}-{max(sh):.2f}) |")
    print("\nper round, req/s (workers 1 / workers 2):")
    for name in ops:
        print(f"  {name}: " + ", ".join(f"{a:,.0f}/{b:,.0f}" for a, b in zip(got[(name, 1)], got[(name, 2)],
                                                                              strict=True)))
    print(f"\nschema check per transaction with N > 1 (`SchemaService.sync`): {sync_us:.2f} µs "
          f"(an empty read transaction: {tx_us:.2f} µs)")
    print("load average (1, 5, 15 min): before " + ", ".join(f"{x:.2f}" for x in load_before)
          + "; after " + ", ".join(f"{x:.2f}" for x in load_after))


if __name__ == "__main__":
    main()
