"""The shared benchmark (issue 18): the `bench/` workload loaded into Apache HugeGraph (RocksDB,
the running anchor) and into hugelite (SQLite) through the same REST calls by the same client,
then the same REST operations sent to both, the servers alternating round by round.

`python -m compare.bench [--size small] [--rounds 5] [--probes 20]` (HugeGraph must be running:
`make anchors`). Per operation and server: the median over rounds of wall time and server CPU per
call (all threads, `/proc/<pid>/task/*/schedstat`), and each server's peak RSS (`VmHWM`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson

from bench.rest_load import make_schema
from bench.workload import workload
from compare.anchors import CACHE
from compare.procs import http_ok, running, wait_until
from compare.releases import HUGEGRAPH_REST_PORT

ROOT = Path(__file__).resolve().parent.parent
HUGELITE_PORT = 18740
G = "/graphs/hugegraph"
BATCH = 500
SOURCES = {"hugegraph": "__g_DEFAULT-hugegraph", "hugelite": "__g_hugegraph"}
JSON = {"content-type": "application/json"}


def cpu_ns(pid: int) -> int:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):
            pass
    return total


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_hugelite(base: Path, mode: str = "strict") -> subprocess.Popen[bytes]:
    """hugelite from this tree on HUGELITE_PORT, one sqlite graph `hugegraph` in `mode`."""
    conf = base / "conf"
    (conf / "graphs").mkdir(parents=True)
    (conf / "rest-server.properties").write_text(
        f"restserver.url=http://127.0.0.1:{HUGELITE_PORT}\ngraphs={conf / 'graphs'}\n"
        "gremlinserver.evaluation_timeout_ms=600000\n")
    (conf / "graphs" / "hugegraph.properties").write_text(
        f"backend=sqlite\nstore={base / 'bench.db'}\nschema.mode={mode}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "rest_adapter"]
    subprocess.run([*cli, "init-store", "--conf", str(conf)], check=True, cwd=base, env=env, capture_output=True)
    log = (base / "server.log").open("wb")
    proc = subprocess.Popen([*cli, "serve", "--conf", str(conf), "--port", str(HUGELITE_PORT), "--log-level",
                             "warning"], cwd=base, env=env, stdout=log, stderr=subprocess.STDOUT)
    wait_until(http_ok(f"http://127.0.0.1:{HUGELITE_PORT}/versions"), proc.pid, 60, base / "server.log")
    return proc


def load(client: httpx.Client, size: str) -> float:
    """Clears the graph, creates the schema and loads the workload; seconds it took."""
    started = time.perf_counter()
    make_schema(client, G)
    w = workload(size)
    rows = w.vertices()
    for s in range(0, len(rows), BATCH):
        body = [{"label": "person", "properties": {"name": n, "age": a, "city": c}} for _, n, a, c in rows[s:s + BATCH]]
        r = client.post(f"{G}/graph/vertices/batch", content=orjson.dumps(body), headers=JSON)
        assert r.status_code == 201, r.text
    edges = w.edges()
    for s in range(0, len(edges), BATCH):
        body = [{"label": "knows", "outV": f"1:p{o}", "inV": f"1:p{i}", "outVLabel": "person",
                 "inVLabel": "person", "properties": {"weight": wt}} for o, i, wt in edges[s:s + BATCH]]
        r = client.post(f"{G}/graph/edges/batch", content=orjson.dumps(body), headers=JSON)
        assert r.status_code == 201, r.text
    return time.perf_counter() - started


def operations(server: str) -> dict[str, Callable[[httpx.Client, int], Any]]:
    """Each op: one REST call for probe vertex `v`, returning a comparable answer."""
    def kout(k: int) -> Callable[[httpx.Client, int], Any]:
        def call(c: httpx.Client, v: int) -> Any:
            r = c.get(f"{G}/traversers/kout", params={"source": f'"1:p{v}"', "max_depth": k, "direction": "OUT"})
            return len(r.json()["vertices"])
        return call

    def gremlin(script: str) -> Callable[[httpx.Client, int], Any]:
        def call(c: httpx.Client, v: int) -> Any:
            body = {"gremlin": script, "bindings": {"vid": f"1:p{v}"}, "aliases": {"g": SOURCES[server]}}
            return c.post("/gremlin", content=orjson.dumps(body), headers=JSON).json()["result"]["data"]
        return call

    return {
        "GET vertex by id": lambda c, v: c.get(f'{G}/graph/vertices/"1:p{v}"').json()["properties"]["age"],
        "k-out depth 1": kout(1),
        "k-out depth 2": kout(2),
        "k-out depth 3": kout(3),
        "/gremlin out().out().count()": gremlin("g.V(vid).out().out().count()"),
    }


def measure(client: httpx.Client, pid: int, op: Callable[[httpx.Client, int], Any], probes: list[int]) -> tuple[float, float, list[Any]]:
    """(wall ms per call, server CPU ms per call, answers) over the probe vertices."""
    cpu0, t0 = cpu_ns(pid), time.perf_counter()
    answers = [op(client, v) for v in probes]
    wall, cpu = time.perf_counter() - t0, cpu_ns(pid) - cpu0
    return wall * 1000 / len(probes), cpu / 1e6 / len(probes), answers


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compare.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="small", choices=("small",))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--probes", type=int, default=20)
    args = ap.parse_args(argv)
    hg_pid = running(CACHE / "run" / "hugegraph.pid")
    if hg_pid is None:
        print("HugeGraph is not running: `make anchors` first", file=sys.stderr)
        return 1
    probes = workload(args.size).probe_vertices(args.probes)
    with tempfile.TemporaryDirectory(prefix="hugelite-anchor-bench-") as tmp:
        proc = start_hugelite(Path(tmp))
        try:
            servers = {"hugegraph": (f"http://127.0.0.1:{HUGEGRAPH_REST_PORT}", hg_pid),
                       "hugelite": (f"http://127.0.0.1:{HUGELITE_PORT}", proc.pid)}
            clients = {name: httpx.Client(base_url=url, timeout=600) for name, (url, _) in servers.items()}
            loads = {}
            for name, (_, pid) in servers.items():
                cpu0 = cpu_ns(pid)
                loads[name] = (load(clients[name], args.size), (cpu_ns(pid) - cpu0) / 1e9)
                print(f"{name}: loaded in {loads[name][0]:.1f} s ({loads[name][1]:.1f} s server CPU)", flush=True)
            table = run_rounds(servers, clients, probes, args.rounds)
            rss = {name: peak_rss_mib(pid) for name, (_, pid) in servers.items()}
            print(report(args, loads, table, rss))
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    return 0


def run_rounds(servers: dict[str, tuple[str, int]], clients: dict[str, httpx.Client], probes: list[int],
               rounds: int) -> dict[str, dict[str, tuple[float, float]]]:
    names = list(servers)
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for op_name in operations("hugegraph"):
        answers = {}
        for name in names:  # warm-up, and the answers cross-checked
            answers[name] = measure(clients[name], servers[name][1], operations(name)[op_name], probes)[2]
        mismatch = "" if answers["hugegraph"] == answers["hugelite"] else " (ANSWERS DIFFER)"
        for r in range(rounds):
            for name in (names if r % 2 == 0 else names[::-1]):
                wall, cpu, _ = measure(clients[name], servers[name][1], operations(name)[op_name], probes)
                samples.setdefault(op_name + mismatch, {}).setdefault(name, []).append((wall, cpu))
    return {op: {name: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
                 for name, s in per.items()} for op, per in samples.items()}


def report(args: argparse.Namespace, loads: dict[str, tuple[float, float]],
           table: dict[str, dict[str, tuple[float, float]]], rss: dict[str, float]) -> str:
    lines = [f"size {args.size}, {args.probes} probe vertices, median of {args.rounds} alternating rounds",
             "", "| operation | HugeGraph wall ms | hugelite wall ms | wall ratio | HugeGraph CPU ms | "
             "hugelite CPU ms | CPU ratio |", "|---|---|---|---|---|---|---|"]
    hg, hl = loads["hugegraph"], loads["hugelite"]
    lines.append(f"| load (REST batches) | {hg[0] * 1000:.0f} | {hl[0] * 1000:.0f} | {hl[0] / hg[0]:.2f} | "
                 f"{hg[1] * 1000:.0f} | {hl[1] * 1000:.0f} | {hl[1] / max(hg[1], 1e-9):.2f} |")
    for op, per in table.items():
        (hw, hc), (lw, lc) = per["hugegraph"], per["hugelite"]
        lines.append(f"| {op} | {hw:.2f} | {lw:.2f} | {lw / hw:.2f} | {hc:.2f} | {lc:.2f} | {lc / max(hc, 1e-9):.2f} |")
    lines.append(f"\npeak RSS: HugeGraph {rss['hugegraph']:.0f} MiB, hugelite {rss['hugelite']:.0f} MiB "
                 f"(ratio {rss['hugelite'] / rss['hugegraph']:.2f}); ratios are hugelite / HugeGraph")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
