"""Round trips over the Gremlin Server protocol, beside embedded hugelite and gremlite.

    python -m bench.wire [--size small] [--ops 2000] [--clients 1,8] [--no-peer]

One run, one workload (`bench/workload.py`, the `small` size by default):

1. the graph is loaded into an SQLite file (strict schema, `bench/engine.py`'s loader), then
   served by a real server process (`hugelite serve`) on loopback;
2. gremlinpython `DriverRemoteConnection` clients (GraphBinary, one WebSocket each) send
   `g.V(id).out().count()` round trips, first 1 client, then 8 concurrent clients (threads),
   each over the same probe vertices;
3. with the server stopped, the same traversal through `EmbeddedConnection` on the same file
   (gremlinpython bytecode, no socket), 1 client;
4. gremlite (PyPI, gremlinpython bytecode over its own SQLite schema) loads the same workload
   and runs the same traversal, 1 client (`bench/gremlite_peer.py` holds its quirks).

Every answer is checked against the workload itself (out-degree of the probe vertex). The
table gives ops/s and per-call latency p50/p99; it is printed and written to
`bench/results/wire-<size>-<timestamp>.md`.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.workload import Workload, workload

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
TRAVERSAL = "g.V(id).out().count()"


class Row:
    def __init__(self, system: str, clients: int, latencies_s: list[float], wall_s: float, note: str = "") -> None:
        self.system, self.clients, self.note = system, clients, note
        self.n = len(latencies_s)
        self.ops_s = self.n / wall_s if wall_s else 0.0
        ordered = sorted(latencies_s)
        self.p50 = statistics.median(ordered)
        self.p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _fmt_s(s: float) -> str:
    return f"{s * 1e6:.0f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def render(rows: list[Row], size: str, w: Workload, load_notes: list[str]) -> str:
    lines = [
        f"# `{TRAVERSAL}` round trips — {size} ({w.n_vertices:,} vertices / {w.n_edges:,} edges)",
        "",
        f"Python {sys.version.split()[0]}; 2 cores shared by client and server. Every call is timed alone;"
        " ops/s is calls completed per second of wall time across all clients.",
        "",
        "| system | clients | calls | ops/s | p50 | p99 | note |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(f"| {r.system} | {r.clients} | {r.n:,} | {r.ops_s:,.0f} | {_fmt_s(r.p50)} | {_fmt_s(r.p99)} |"
                     f" {r.note} |")
    lines += ["", *load_notes, ""]
    return "\n".join(lines)


def measure(connect: Callable[[], Callable[[int], int]], probes: list[int], expected: dict[int, int],
            clients: int) -> tuple[list[float], float]:
    """Runs a caller from `connect()` over `probes`, split across `clients` threads with a
    caller each (one client runs on this thread: in-process systems keep their SQLite
    connection on the thread that opened it). Every answer is checked. Returns (per-call
    latencies, wall time)."""

    def run_part(fn: Callable[[int], int], part: list[int], start: Callable[[], None]) -> list[float]:
        fn(part[0])  # warm up (first frame, caches) outside the timing
        start()
        out: list[float] = []
        for p in part:
            t0 = time.perf_counter()
            got = fn(p)
            out.append(time.perf_counter() - t0)
            if got != expected[p]:
                raise AssertionError(f"probe {p}: expected {expected[p]}, got {got}")
        return out

    if clients == 1:
        fn = connect()
        began: list[float] = []
        try:
            lat = run_part(fn, probes, lambda: began.append(time.perf_counter()))
        finally:
            getattr(fn, "close", lambda: None)()
        return lat, time.perf_counter() - began[0]

    latencies: list[float] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)

    def worker(part: list[int]) -> None:
        fn = connect()
        try:
            local = run_part(fn, part, barrier.wait)
            with lock:
                latencies.extend(local)
        except BaseException as e:  # reported after the run
            errors.append(e)
            barrier.abort()
        finally:
            getattr(fn, "close", lambda: None)()

    threads = [threading.Thread(target=worker, args=(probes[i::clients],)) for i in range(clients)]
    for t in threads:
        t.start()
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return latencies, wall


# ---- the server ------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(workdir: Path, store: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    graphs = workdir / "graphs"
    graphs.mkdir(parents=True, exist_ok=True)
    (graphs / "bench.properties").write_text(f"backend=sqlite\nstore={store}\nschema.mode=strict\n")
    (workdir / "rest-server.properties").write_text(
        f"restserver.url=http://127.0.0.1:{port}\ngraphs={graphs}\ngremlinserver.evaluation_timeout_ms=0\n")
    log = (workdir / "server.log").open("wb")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "rest_adapter", "serve", "--conf", str(workdir), "--port",
                             str(port), "--log-level", "warning"], cwd=str(workdir), env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((workdir / "server.log").read_text())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"ws://127.0.0.1:{port}/gremlin"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# ---- the run ---------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.wire", description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="small", choices=["small", "large"])
    ap.add_argument("--ops", type=int, default=2000, help="round trips per measurement")
    ap.add_argument("--clients", default="1,8", help="comma-separated client counts for the WebSocket runs")
    ap.add_argument("--no-peer", action="store_true", help="skip gremlite (its load takes minutes)")
    ap.add_argument("--out", type=Path, help="report file (default bench/results/wire-<size>-<time>.md)")
    args = ap.parse_args(argv)

    from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
    from gremlin_python.process.anonymous_traversal import traversal
    from gremlin_python.statics import long

    from bench.engine import HugeliteEngine
    from gremlin_engine.embedded import EmbeddedConnection

    w = workload(args.size)
    degree = Counter(o for o, _i, _w in w.edges())
    base = w.probe_vertices(100)
    probes = [base[i % len(base)] for i in range(args.ops)]
    expected = {p: degree[p] for p in base}
    rows: list[Row] = []
    notes: list[str] = []

    with tempfile.TemporaryDirectory(prefix="hugelite-bench-wire-") as tmp:
        workdir = Path(tmp)
        store = workdir / "bench.db"
        t0 = time.perf_counter()
        engine = HugeliteEngine(store)
        engine.load(w)
        engine.close()
        notes.append(f"- hugelite file graph loaded in {time.perf_counter() - t0:.1f} s (strict schema, "
                     "CUSTOMIZE_NUMBER ids = workload index + 1).")

        proc, url = start_server(workdir / "conf", store)
        try:
            def remote() -> Any:
                conn = DriverRemoteConnection(url, "bench", pool_size=1)
                g = traversal().with_(conn)

                def call(p: int) -> int:
                    return int(g.V(long(p + 1)).out().count().next())

                call.close = conn.close  # type: ignore[attr-defined]
                return call

            for n in [int(c) for c in args.clients.split(",") if c.strip()]:
                lat, wall = measure(remote, probes, expected, n)
                rows.append(Row("hugelite server, gremlinpython GraphBinary over WebSocket", n, lat, wall))
                print(render(rows, args.size, w, []).splitlines()[-2], flush=True)
        finally:
            stop_server(proc)

        conn = EmbeddedConnection(store, schema_mode="strict", name="bench")
        try:
            g = traversal().with_(conn)

            def embedded(p: int) -> int:
                return int(g.V(long(p + 1)).out().count().next())

            lat, wall = measure(lambda: embedded, probes, expected, 1)
            rows.append(Row("hugelite EmbeddedConnection (in-process bytecode)", 1, lat, wall))
            print(render(rows, args.size, w, []).splitlines()[-2], flush=True)
        finally:
            conn.close()

        if not args.no_peer:
            from bench.gremlite_peer import GremlitePeer

            t0 = time.perf_counter()
            peer = GremlitePeer(workdir / "gremlite.db")
            peer.load(w)
            notes.append(f"- gremlite loaded the same workload in {time.perf_counter() - t0:.1f} s "
                         "(one bytecode round per element; its vertex ids are its own, mapped back).")
            try:
                def gremlite(p: int) -> int:
                    return int(peer.g.V(peer.ids[p]).out().count().next())

                lat, wall = measure(lambda: gremlite, probes, expected, 1)
                rows.append(Row("gremlite (in-process bytecode)", 1, lat, wall))
            finally:
                peer.close()

    text = render(rows, args.size, w, notes)
    out = args.out or RESULTS / f"wire-{args.size}-{time.strftime('%Y%m%d-%H%M%S')}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)
    print(f"(written to {out})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
