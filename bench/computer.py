"""The VertexProgram steps on the workload graph beside networkx on the same edges.

    python -m bench.computer --size small|large [--keep DIR] [--rounds N]

Two operations, each answered in full by both systems:

* PageRank, alpha 0.85, over `knows` out-edges: hugelite's `g.V().pageRank().limit(1).id()`
  (the program alone: the step is a barrier) and
  `g.V().pageRank().order().by(<rank key>, desc).limit(10).id()` (TinkerPop's program: at most
  21 supersteps, stopping once the ranks move less than 1e-5 in total) against
  `networkx.pagerank` (scipy, tolerance 1e-6 per vertex) and its ten best; the two top tens
  are compared (same algorithm, a different stopping rule: the ranks agree to ~1e-6).
* Connected components over both directions: hugelite's `g.V().connectedComponent().limit(1).id()`
  and `g.V().connectedComponent().values(<component key>).dedup().count()` against
  `networkx.number_weakly_connected_components`; the counts must be equal.

Each system runs in a worker process of its own (`--worker`), so its peak RSS is its own:
hugelite opens the store a load phase left (`bench/engine.py`, strict schema, SQLite file),
networkx builds its DiGraph from the workload rows (that build is timed and reported apart,
and its memory is part of networkx's peak: the graph is the structure it computes on).
Times are CPU seconds of the worker (wall beside them), the median of `--rounds`; memory is
the peak RSS growth over the worker's state before the first round (`VmHWM` reset there).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.measure import hwm_kib, reset_hwm, rss_kib
from bench.workload import workload

RANK = "gremlin.pageRankVertexProgram.pageRank"
COMPONENT = "gremlin.connectedComponentVertexProgram.component"
SCRIPTS = {
    # the program alone: every rank computed (the step is a barrier), one vertex handed on
    "pagerank": "g.V().pageRank().limit(1).id()",
    # the same and an answer read from every vertex: the ten best by rank
    "pagerank top 10": f"g.V().pageRank().order().by('{RANK}', desc).limit(10).id()",
    "components": "g.V().connectedComponent().limit(1).id()",
    "components count": f"g.V().connectedComponent().values('{COMPONENT}').dedup().count()",
}


def _timed(fn: Any, rounds: int) -> tuple[Any, dict[str, float]]:
    cpu, wall, answer = [], [], None
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        answer = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return answer, {"cpu_s": statistics.median(cpu), "wall_s": statistics.median(wall)}


def worker_hugelite(store: Path, op: str, rounds: int) -> dict[str, Any]:
    from bench.engine import HugeliteEngine

    engine = HugeliteEngine(store, fresh=False)
    before = rss_kib()
    reset_hwm()
    answer, times = _timed(lambda: engine.graph.execute(SCRIPTS[op]), rounds)
    peak = hwm_kib() - before
    engine.close()
    if op == "pagerank top 10":
        answer = [int(v) - 1 for v in answer]  # workload index = id - 1
    elif op == "components count":
        answer = int(answer[0])
    else:
        answer = None
    return {"answer": answer, "peak_kib": peak, **times}


def worker_networkx(size: str, op: str, rounds: int) -> dict[str, Any]:
    import networkx as nx

    w = workload(size)
    before = rss_kib()
    reset_hwm()
    b0 = time.process_time()
    g = nx.DiGraph()
    g.add_nodes_from(range(w.n_vertices))
    g.add_edges_from((o, i) for o, i, _ in w.edges())
    build = time.process_time() - b0
    if op.startswith("pagerank"):
        def run() -> Any:
            ranks = nx.pagerank(g, alpha=0.85)
            return sorted(ranks, key=lambda k: -ranks[k])[:10]
    else:
        def run() -> Any:
            return nx.number_weakly_connected_components(g)
    answer, times = _timed(run, rounds)
    return {"answer": answer, "peak_kib": hwm_kib() - before, "build_cpu_s": build, **times}


def _worker(args: list[str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "bench.computer", "--worker", *args],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def run(size: str, rounds: int, keep: Path | None) -> None:
    from bench.engine import HugeliteEngine

    w = workload(size)
    base = keep if keep is not None else Path(tempfile.mkdtemp(prefix="hl-computer-"))
    store = base / "bench.db"
    marker = base / f"built-{size}"
    if not marker.exists():
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        t0 = time.perf_counter()
        engine = HugeliteEngine(store)
        engine.load(w)
        engine.close()
        marker.write_text(size)
        print(f"# loaded {size} in {time.perf_counter() - t0:.0f} s")
    print(f"# VertexProgram steps, {size}: {w.n_vertices} vertices / {w.n_edges} edges, median of {rounds}\n")
    print("| operation | hugelite CPU s (wall) | networkx CPU s (wall) | ratio | hugelite peak MiB | "
          "networkx peak MiB | memory ratio | check |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for op in SCRIPTS:
        hl = _worker(["hugelite", str(store), op, str(rounds)])
        nx_ = _worker(["networkx", size, op, str(rounds)])
        if hl["answer"] is None:
            check = "-"
        elif op == "pagerank top 10":
            check = f"top 10 shared: {len(set(hl['answer']) & set(nx_['answer']))}/10"
        else:
            check = "same count" if hl["answer"] == nx_["answer"] else f"DIFFER {hl['answer']} != {nx_['answer']}"
        print(f"| {op} | {hl['cpu_s']:.2f} ({hl['wall_s']:.2f}) | {nx_['cpu_s']:.2f} ({nx_['wall_s']:.2f}); "
              f"graph build {nx_['build_cpu_s']:.2f} | {hl['cpu_s'] / nx_['cpu_s']:.1f}x | "
              f"{hl['peak_kib'] / 1024:.0f} | {nx_['peak_kib'] / 1024:.0f} | "
              f"{hl['peak_kib'] / max(nx_['peak_kib'], 1):.2f}x | {check} |", flush=True)
    if keep is None:
        shutil.rmtree(base, ignore_errors=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        system, where, op, rounds = sys.argv[2:6]
        fn = worker_hugelite if system == "hugelite" else worker_networkx
        result = fn(Path(where) if system == "hugelite" else where, op, int(rounds))  # type: ignore[operator]
        print(json.dumps(result))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=("small", "large"), default="small")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--keep", type=Path, default=None, help="build the store here and reuse it on later runs")
    args = ap.parse_args()
    run(args.size, args.rounds, args.keep)


if __name__ == "__main__":
    main()
