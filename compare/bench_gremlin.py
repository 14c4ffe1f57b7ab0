"""The Gremlin half of the shared benchmark (issue 18): the `bench/` workload written through
gremlinpython bytecode (`mergeV`/`mergeE`, 500 rows a request) into Gremlin Server's TinkerGraph (the anchor's empty `g` graph) and into
hugelite (a sqlite graph in `auto` mode, keeping the user ids), then the same Gremlin
operations over the same client, alternating the two servers round by round.

`python -m compare.bench_gremlin [--size small] [--rounds 5] [--probes 20]` (Gremlin Server
must be running: `make anchors`; it is restarted first so that `g` starts empty).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import GraphTraversalSource, __
from gremlin_python.process.traversal import Direction, T

from bench.workload import workload
from compare import anchors
from compare.bench import HUGELITE_PORT, peak_rss_mib, start_hugelite
from compare.procs import running
from compare.releases import GREMLIN_SERVER_PORT

CHUNK = 500


def cpu_ns(pid: int) -> int:
    """The process's user + system CPU from `/proc/<pid>/stat`, in ns (10 ms ticks). Not the
    per-thread schedstat sum `compare.bench` uses: hugelite runs WebSocket requests on threads
    that end, and an ended thread's time leaves `/proc/<pid>/task` (it measured 0.04 s where
    the process had used 0.28 s); the process total keeps it."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def load(g: GraphTraversalSource, size: str) -> float:
    """Writes the workload, CHUNK elements a request as `inject(maps).unfold().mergeV()` /
    `mergeE()` (one short traversal carrying its rows: chaining hundreds of `addV` steps into
    one traversal makes hugelite's planner recurse too deep, see known.md); seconds it took."""
    started = time.perf_counter()
    w = workload(size)
    vertices = [{T.id: i + 1, T.label: "person", "name": n, "age": a, "city": c} for i, n, a, c in w.vertices()]
    for s in range(0, len(vertices), CHUNK):
        g.inject(vertices[s:s + CHUNK]).unfold().merge_v(__.identity()).iterate()
    edges = [{T.label: "knows", Direction.OUT: o + 1, Direction.IN: i + 1, "weight": wt} for o, i, wt in w.edges()]
    for s in range(0, len(edges), CHUNK):
        g.inject(edges[s:s + CHUNK]).unfold().merge_e(__.identity()).iterate()
    return time.perf_counter() - started


OPS: dict[str, Callable[[GraphTraversalSource, int], Any]] = {
    "point lookup g.V(id).values('name')": lambda g, v: g.V(v + 1).values("name").to_list(),
    "1-hop g.V(id).out().count()": lambda g, v: g.V(v + 1).out().count().next(),
    "2-hop g.V(id).out().out().count()": lambda g, v: g.V(v + 1).out().out().count().next(),
    "3-hop repeat(out()).times(3).count()": lambda g, v: g.V(v + 1).repeat(__.out()).times(3).count().next(),
    "indexless has('name') lookup": lambda g, v: g.V().has("person", "name", f"p{v}").id_().to_list(),
}
#: one call over the whole graph, not per probe
GLOBAL = {"groupCount().by('city')": lambda g: len(g.V().group_count().by("city").next())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compare.bench_gremlin", description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="small", choices=("small",))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--probes", type=int, default=20)
    args = ap.parse_args(argv)
    anchors.stop("tinkerpop")
    anchors.start("tinkerpop")
    gs_pid = running(anchors.CACHE / "run" / "tinkerpop.pid")
    assert gs_pid is not None
    probes = workload(args.size).probe_vertices(args.probes)
    with tempfile.TemporaryDirectory(prefix="hugelite-anchor-gbench-") as tmp:
        proc = start_hugelite(Path(tmp), mode="auto")
        conns = {"Gremlin Server": DriverRemoteConnection(f"ws://127.0.0.1:{GREMLIN_SERVER_PORT}/gremlin", "g"),
                 "hugelite": DriverRemoteConnection(f"ws://127.0.0.1:{HUGELITE_PORT}/gremlin", "hugegraph")}
        pids = {"Gremlin Server": gs_pid, "hugelite": proc.pid}
        try:
            gs = {name: traversal().with_(c) for name, c in conns.items()}
            for name, g in gs.items():
                cpu0 = cpu_ns(pids[name])
                wall = load(g, args.size)
                print(f"{name}: loaded in {wall:.1f} s ({(cpu_ns(pids[name]) - cpu0) / 1e9:.1f} s server CPU)", flush=True)
            rows = run_rounds(gs, pids, probes, args.rounds)
            rss = {name: peak_rss_mib(pid) for name, pid in pids.items()}
            print(report(args, rows, rss))
        finally:
            for c in conns.values():
                c.close()
            proc.terminate()
            proc.wait(timeout=15)
            anchors.stop("tinkerpop")
    return 0


def run_rounds(gs: dict[str, GraphTraversalSource], pids: dict[str, int], probes: list[int],
               rounds: int) -> dict[str, dict[str, tuple[float, float]]]:
    names = list(gs)
    out: dict[str, dict[str, tuple[float, float]]] = {}
    calls: dict[str, Callable[[GraphTraversalSource], list[Any]]] = {
        op: (lambda g, f=f: [f(g, v) for v in probes]) for op, f in OPS.items()}
    calls.update({op: (lambda g, f=f: [f(g) for _ in range(3)]) for op, f in GLOBAL.items()})
    for op, call in calls.items():
        answers = {name: call(g) for name, g in gs.items()}  # warm-up, answers cross-checked
        label = op if answers[names[0]] == answers[names[1]] else f"{op} (ANSWERS DIFFER)"
        samples: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
        n_calls = len(answers[names[0]])
        for r in range(rounds):
            for name in (names if r % 2 == 0 else names[::-1]):
                cpu0, t0 = cpu_ns(pids[name]), time.perf_counter()
                call(gs[name])
                samples[name].append(((time.perf_counter() - t0) * 1000 / n_calls,
                                      (cpu_ns(pids[name]) - cpu0) / 1e6 / n_calls))
        out[label] = {n: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
                      for n, s in samples.items()}
    return out


def report(args: argparse.Namespace, rows: dict[str, dict[str, tuple[float, float]]], rss: dict[str, float]) -> str:
    lines = [f"size {args.size}, {args.probes} probe vertices, median of {args.rounds} alternating rounds, "
             "gremlinpython bytecode over GraphBinary", "",
             "| operation | Gremlin Server wall ms | hugelite wall ms | wall ratio | Gremlin Server CPU ms | "
             "hugelite CPU ms | CPU ratio |", "|---|---|---|---|---|---|---|"]
    for op, per in rows.items():
        (gw, gc), (lw, lc) = per["Gremlin Server"], per["hugelite"]
        lines.append(f"| {op} | {gw:.2f} | {lw:.2f} | {lw / gw:.2f} | {gc:.2f} | {lc:.2f} | {lc / max(gc, 1e-9):.2f} |")
    lines.append(f"\npeak RSS: Gremlin Server {rss['Gremlin Server']:.0f} MiB, hugelite {rss['hugelite']:.0f} MiB; "
                 "ratios are hugelite / Gremlin Server")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
