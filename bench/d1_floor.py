"""k-out depth 1 over HTTP against its floor: four CPU figures per request, side by side, in one run.

    python -m bench.d1_floor --store BENCH_DB --raw RAW_DB [--rounds 30] [--ops kout1 kout1ids]

Why: issue #6 asks every traverser row within 2x of raw sqlite3, and depth 1 over HTTP
cannot be if a bare request through our protocol costs about as much server CPU as raw's
whole depth-1 answer. This script measures the four figures that decide it, interleaved round by round
(a burst of other load on the shared machine hits all of them alike), medians over rounds:

(a) raw: `bench.traversers.Raw.kout(v, 1)` per probe in this process (`process_time`),
    both as the benchmark runs it (20 probes right after the other systems' turns: caches
    cold) and in a tight loop (the same 20 probes ten times over: caches warm);
(b) floor: server CPU per keep-alive GET of the same request line and httpx's headers to
    `bench.asgi_floor`'s trivial app served with our protocol (`lean`): what any answer
    over our HTTP stack costs before the app does anything;
(c) hugelite: server CPU per k-out depth-1 GET (`python -m rest_adapter serve` on a copy
    of the store, per-thread schedstat, the `bench.traversers` request);
(d) engine: the same request in this process by `InProcess` (`Graph.traverse_request`
    of the handler's IR) and by the handlers' own entry (`Graph.traverse_step`).

Stores: BENCH_DB is copied twice (server, in-process) and RAW_DB once into a temporary
folder, never written in place.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.rest_ab import Server
from bench.server import connect_when_up
from bench.traverser_ab import FORMS, HttpxLike
from bench.workload import workload

ROOT = Path(__file__).resolve().parent.parent


class Floor:
    """`bench.asgi_floor`'s trivial app under our protocol, one keep-alive socket to it."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.asgi_floor", "--serve", str(self.port),
             "rest_adapter.http_protocol:CoalescingHttpToolsProtocol"], cwd=ROOT)
        self.sock = connect_when_up(self.proc, self.port, 30, lambda: "the floor server did not start")
        self.buf = b""

    get = Server.get
    cpu_ns = Server.cpu_ns
    HEADERS = HttpxLike.HEADERS

    def stop(self) -> None:
        self.sock.close()
        self.proc.terminate()
        self.proc.wait(timeout=15)


def _server_round(server: Any, ps: list[str]) -> float:
    t0 = server.cpu_ns()
    for p in ps:
        server.get(p)
    return (server.cpu_ns() - t0) / len(ps) / 1000


def _local_round(fn: Any, probes: list[int], repeat: int) -> float:
    t0 = time.process_time_ns()
    for _ in range(repeat):
        for v in probes:
            fn(v)
    return (time.process_time_ns() - t0) / (len(probes) * repeat) / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, help="a large `bench.traversers --keep` bench.db")
    ap.add_argument("--raw", required=True, help="its raw.db")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--ops", nargs="*", default=["kout1", "kout1ids"])
    args = ap.parse_args()

    from bench.raw_sqlite import RawSqlite
    from bench.traversers import InProcess, Raw

    tmp = Path(tempfile.mkdtemp(prefix="d1-floor-"))
    for name, src in (("srv.db", args.store), ("eng.db", args.store), ("raw.db", args.raw)):
        shutil.copyfile(src, tmp / name)
    probes = [p + 1 for p in workload("large").probe_vertices(100)][:20]
    raw = Raw(RawSqlite(tmp / "raw.db"))
    engine = InProcess(tmp / "eng.db")
    graph = engine.graph
    hugelite = HttpxLike(str(ROOT), str(tmp / "srv.db"), "auto", "bench")
    floor = Floor()
    try:
        for op in args.ops:
            ids = op.endswith("ids")
            ps = [FORMS[op].format(v=v) for v in probes] * 10
            raw_fn = (lambda v: raw.kout_ids(v, 1)) if ids else (lambda v: raw.kout(v, 1))
            eng_fn = (lambda v: engine.kout_ids(v, 1)) if ids else (lambda v: engine.kout(v, 1))
            req = {"max_depth": 1, "direction": "OUT", "label": "knows", "count_only": not ids,
                   "max_degree": -1, "capacity": -1, "limit": -1}
            from gremlin_engine.structure.numbers import Long

            def step_fn(v: int, req: dict[str, Any] = req) -> Any:
                return graph.traverse_step("hg_kout", {"source": Long(v), **req})

            for p in ps[:40]:  # warm-up, and the answers agree
                hugelite.get(p)
                floor.get(p)
            status, _, body = hugelite.get(ps[0])
            assert status == 200, body
            for v in probes:
                step_fn(v)
                eng_fn(v)
                raw_fn(v)
            figures: dict[str, list[float]] = {k: [] for k in (
                "(a) raw, as the benchmark runs it", "(a) raw, tight loop", "(b) floor: trivial app, our protocol",
                "(c) hugelite server", "(d) engine, traverse_request (IR)", "(d) engine, traverse_step")}
            names = list(figures)
            for _ in range(args.rounds):
                figures[names[3]].append(_server_round(hugelite, ps[:20]))
                figures[names[5]].append(_local_round(step_fn, probes, 1))
                figures[names[4]].append(_local_round(eng_fn, probes, 1))
                figures[names[0]].append(_local_round(raw_fn, probes, 1))
                figures[names[2]].append(_server_round(floor, ps[:20]))
                figures[names[1]].append(_local_round(raw_fn, probes, 10))
                figures[names[3]].append(_server_round(hugelite, ps[20:]))
                figures[names[2]].append(_server_round(floor, ps[20:]))
            print(f"\n{op} (k-out depth 1{', ids' if ids else ''}), {args.rounds} rounds, "
                  f"load {os.getloadavg()[0]:.2f}\n")
            print("| figure | CPU per request (median) | quartiles |")
            print("|---|---:|---|")
            for name, xs in figures.items():
                q = statistics.quantiles(xs, n=4)
                print(f"| {name} | {statistics.median(xs):.1f} µs | {q[0]:.1f}–{q[2]:.1f} |")
            med = {k: statistics.median(v) for k, v in figures.items()}
            for r in names[:2]:
                print(f"\nagainst {r}: server ÷ raw {med[names[3]] / med[r]:.2f}x, floor ÷ raw "
                      f"{med[names[2]] / med[r]:.2f}x, (server − floor) ÷ raw {(med[names[3]] - med[names[2]]) / med[r]:.2f}x")
    finally:
        hugelite.stop()
        floor.stop()
        engine.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
