"""The benchmark runner: raw sqlite3, hugelite and gremlite on one workload, in one run.

    python -m bench.run --size small|large [--repeat N] [--probes P] [--systems raw,hugelite,gremlite]
    python -m bench.run --size small --backend postgresql   # raw, hugelite on SQLite and on PostgreSQL

`--backend postgresql` adds the system `hugelite-pg` (the same engine and operations on a
PostgreSQL-backed graph) and, unless `$HUGELITE_BENCH_PG_URL` names a server, starts a
throw-away cluster for the run (`tests/postgres_cluster.py`) and stops it afterwards; the
report then has a PostgreSQL ÷ SQLite table per op.

Each system runs in subprocesses of its own (`--worker`), one after another and never in
parallel, so that its peak RSS is its own and it does not share the two cores with a rival:
one loads the workload (timed), a second opens the stored file and runs every operation over
the fixed probe vertices `repeat` times; they hand back per-call wall and CPU times, the
answers and the memory (`bench/measure.py`). This process cross-checks every answer against raw sqlite3's, and
prints (and writes to `bench/results/<size>-<timestamp>.md`, measurements beside it as .json) the side-by-side table with the
ratios the issue sets as targets: hugelite / raw sqlite3 <= 3, gremlite / hugelite >= 10,
peak memory <= 2x raw sqlite3's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.measure import PG_URL_ENV, run_load, run_queries
from bench.report import render_report

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SYSTEMS = ("raw", "hugelite", "gremlite", "hugelite-pg")


def _worker(system: str, phase: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any] | str:
    """Runs one phase of one system in a subprocess; its JSON report, or an error text."""
    out = workdir / f"{system}-{phase}.json"
    cmd = [
        sys.executable, "-m", "bench.run", "--worker", system, "--phase", phase, "--size", args.size,
        "--repeat", str(args.repeat), "--probes", str(args.probes), "--workdir", str(workdir),
        "--json", str(out), "--gremlite-budget", str(args.gremlite_budget),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(cmd, env=env, cwd=ROOT)
    if done.returncode != 0 or not out.exists():
        return f"{phase} worker exited with {done.returncode}"
    return json.loads(out.read_text())


def _spawn(system: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Loads (one process), then queries (another), and merges the two reports."""
    started = time.perf_counter()
    print(f"[bench] {system}: loading ({args.size}) ...", file=sys.stderr, flush=True)
    report = _worker(system, "load", args, workdir)
    if isinstance(report, str):
        return {"system": system, "error": report}
    if "load_error" not in report:
        print(f"[bench] {system}: loaded in {report['load_s']:.0f} s; querying ...", file=sys.stderr, flush=True)
        queries = _worker(system, "query", args, workdir)
        if isinstance(queries, str):
            return {**report, "error": queries}
        report.update(queries)
    print(f"[bench] {system}: done in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return report


def _reused(p: argparse.ArgumentParser, specs: list[str], size: str) -> dict[str, Any]:
    """`SYSTEM=FILE` pairs -> that system's report from FILE (a run's .json, or a worker's)."""
    out: dict[str, Any] = {}
    for spec in specs:
        system, _, path = spec.partition("=")
        if system not in SYSTEMS or not path:
            p.error(f"--reuse wants SYSTEM=FILE.json with SYSTEM in {list(SYSTEMS)}, not {spec!r}")
        data = json.loads(Path(path).read_text())
        rep = data.get(system, data) if "system" not in data else data
        if rep.get("system") != system or rep.get("size") != size:
            p.error(f"{path} holds no {size} measurements of {system}")
        rep["reused_from"] = str(path)
        out[system] = rep
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=("small", "large"), default="small")
    p.add_argument("--repeat", type=int, default=3, help="passes over the probe vertices per op")
    p.add_argument("--probes", type=int, default=100, help="probe vertices (bench/workload.py)")
    p.add_argument("--systems", default=None, help="comma list of raw,hugelite,gremlite,hugelite-pg "
                   "(default: raw,hugelite,gremlite; with --backend postgresql: raw,hugelite,hugelite-pg)")
    p.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                   help="postgresql: hugelite on SQLite and on PostgreSQL side by side")
    p.add_argument("--gremlite-budget", type=float, default=1800.0, help="seconds gremlite may take to load")
    p.add_argument("--out", type=Path, default=RESULTS, help="folder for the markdown report")
    p.add_argument("--reuse", action="append", default=[], metavar="SYSTEM=FILE.json",
                   help="take SYSTEM's measurements from an earlier run's .json instead of running it "
                        "(gremlite's large load takes half an hour and does not change with our code)")
    p.add_argument("--worker", choices=SYSTEMS, help=argparse.SUPPRESS)
    p.add_argument("--phase", choices=("load", "query"), help=argparse.SUPPRESS)
    p.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--json", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.worker:
        if args.phase == "load":
            report = run_load(args.worker, args.size, args.workdir, args.gremlite_budget)
        else:
            report = run_queries(args.worker, args.size, args.repeat, args.probes, args.workdir)
        args.json.write_text(json.dumps(report))
        return 0

    chosen = args.systems or ("raw,hugelite,hugelite-pg" if args.backend == "postgresql" else "raw,hugelite,gremlite")
    systems = [s.strip() for s in chosen.split(",") if s.strip()]
    unknown = sorted(set(systems) - set(SYSTEMS))
    if unknown:
        p.error(f"unknown systems {unknown}; choose from {list(SYSTEMS)}")
    reused = _reused(p, args.reuse, args.size)
    started = time.strftime("%Y%m%d-%H%M%S")
    reports: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        if "hugelite-pg" in systems and "hugelite-pg" not in reused and not os.environ.get(PG_URL_ENV):
            from tests import postgres_cluster

            pg = stack.enter_context(postgres_cluster.cluster())
            os.environ[PG_URL_ENV] = pg.url("").rstrip("/")  # the workers inherit it
            print(f"[bench] PostgreSQL {pg.url()} (a throw-away cluster)", file=sys.stderr, flush=True)
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="hugelite-bench-"))
        for s in systems:
            reports[s] = reused[s] if s in reused else _spawn(s, args, Path(tmp))
    text = render_report(args.size, args.repeat, args.probes, reports)
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.size}-{started}.md"
    path.write_text(text)
    # the raw measurements too, so a report can be re-rendered or compared later
    path.with_suffix(".json").write_text(json.dumps(reports, indent=1))
    print(f"[bench] report written to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
