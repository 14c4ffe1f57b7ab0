"""`groupCount().by(key)` on PostgreSQL: the engine's scan against storage's ``GROUP BY``, A/B in one process.

    python -m bench.pg_group_count [--size small|large] [--rounds N] [--edges]

`GroupCountStrategy` swaps a root ``V()/E()[.hasLabel()].groupCount().by(key)`` for one
fused step whose storage method groups the member texts in SQL (on PostgreSQL:
`tx_aggregates._pg_property_groups`); ``withoutStrategies(GroupCountStrategy)`` runs the
original steps, which read and decode every element. Both run here as Gremlin text through
`graph.execute` on the `bench.workload` graph (`bench.engine.HugeliteEngine`, a strict
schema; `--size large` is 100,000 `person` vertices, `city` among 100), alternating fused,
scan, fused, scan... so a burst of other load on the shared machine hits both alike; the
first `WARM` rounds are left out. Every round checks that the two answers are the same map
in the same order. Printed: per query, the median wall time and the median CPU of this
process (the PostgreSQL server's own CPU is not in it), and fused ÷ scan.

Only the vertices are loaded unless `--edges` (then the workload's edges too, and
``E().groupCount().by('weight')`` is measured: 1,000,000 edges at `large`, a load of minutes).
The store is the database `bench` of `$HUGELITE_BENCH_PG_URL`'s server, else of a throw-away
cluster (`tests/postgres_cluster.py`), dropped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import storage
from bench.engine import HugeliteEngine
from bench.measure import pg_server
from bench.workload import workload

WARM = 2  # rounds left out of the medians
SCAN = "g.withoutStrategies(GroupCountStrategy)."
QUERIES = {
    "V().groupCount().by('city')": "g.V().groupCount().by('city')",
    "V().hasLabel('person').groupCount().by('age')": "g.V().hasLabel('person').groupCount().by('age')",
}
EDGE_QUERIES = {"E().groupCount().by('weight')": "g.E().groupCount().by('weight')"}


def _timed(engine: HugeliteEngine, script: str) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = engine.graph.execute(script)
    return time.perf_counter() - wall, time.process_time() - cpu, out


def run(engine: HugeliteEngine, queries: dict[str, str], rounds: int) -> None:
    print("| query | scan wall | fused wall | fused ÷ scan | scan CPU | fused CPU | groups |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, script in queries.items():
        walls: dict[str, list[float]] = {"fused": [], "scan": []}
        cpus: dict[str, list[float]] = {"fused": [], "scan": []}
        groups = 0
        for _ in range(rounds):
            answers = {}
            for mode, text in (("fused", script), ("scan", SCAN + script[2:])):
                wall, cpu, out = _timed(engine, text)
                walls[mode].append(wall)
                cpus[mode].append(cpu)
                answers[mode] = out
            fused, scan = answers["fused"][0], answers["scan"][0]
            if list(fused.items()) != list(scan.items()) or [type(k) for k in fused] != [type(k) for k in scan]:
                raise AssertionError(f"{name}: the fused answer differs from the scan's")
            groups = len(fused)
        w = {m: statistics.median(v[WARM:]) * 1e3 for m, v in walls.items()}
        c = {m: statistics.median(v[WARM:]) * 1e3 for m, v in cpus.items()}
        print(f"| `{name}` | {w['scan']:.1f} ms | {w['fused']:.1f} ms | {w['fused'] / w['scan']:.3f} "
              f"| {c['scan']:.1f} ms | {c['fused']:.1f} ms | {groups} |", flush=True)


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.pg_group_count")
    p.add_argument("--size", choices=("small", "large"), default="large")
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--edges", action="store_true", help="load the edges too and measure E().groupCount()")
    args = p.parse_args(argv)
    with contextlib.ExitStack() as stack:
        server = pg_server(stack)
        engine = HugeliteEngine(Path(tempfile.gettempdir()) / "unused.db", fresh=True, server_url=server)
        stack.callback(storage.drop_database, str(engine.cfg.location))
        stack.callback(engine.close)
        w = workload(args.size)
        started = time.perf_counter()
        engine.load_vertices(w)
        if args.edges:
            engine.load_edges(w)
        print(f"[bench] {args.size}: loaded in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
        run(engine, {**QUERIES, **(EDGE_QUERIES if args.edges else {})}, args.rounds)


if __name__ == "__main__":
    main(sys.argv[1:])
