"""Warm CPU ratios, hugelite ÷ raw sqlite3, with both systems alternating in one process.

    python -m bench.warm_ratio --size large HUGELITE_STORE RAW_STORE [--rounds 10] [--ops ...]

Why beside `bench.run`: the runner measures each system in its own process, one after the
other, so on a shared machine a burst of other load lands on one system only, and single
runs of the same code moved by up to 1.8x. Here raw and hugelite take turns, 100 probe calls
each per round, on stores already loaded (`bench.run`'s or `bench.traversers --keep`'s:
the same workload), and the medians of all calls are compared: the ratio the point
operations have once pages and plans are warm. To compare two source trees, run it from each
tree (cwd) on its own copy of the store, alternating: a store of an older layout is upgraded
on open by the newer tree, so never hand one file to both.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.engine import HugeliteEngine
from bench.measure import workload
from bench.raw_sqlite import RawSqlite

PROBE_OPS = ("point_lookup", "lookup_by_property", "one_hop", "two_hop_count")
WHOLE_OPS = ("group_count_city",)


def _cpu_us(fn: Callable[..., Any], *args: Any) -> float:
    t = time.process_time_ns()
    fn(*args)
    return (time.process_time_ns() - t) / 1000


def ratios(hugelite: Path, raw_path: Path, size: str, rounds: int, ops: list[str]) -> None:
    w = workload(size)
    raw = RawSqlite(raw_path)
    eng = HugeliteEngine(hugelite, fresh=False)
    probes = w.probe_vertices(100)
    for op in ops:
        ra, hu = getattr(raw, op), getattr(eng, op)
        args_list = [()] if op in WHOLE_OPS else [(p,) for p in probes]
        for args in args_list[:5]:
            if ra(*args) != hu(*args):
                raise SystemExit(f"{op}{args}: hugelite answered differently from raw sqlite3")
        times: dict[str, list[float]] = {"raw": [], "hugelite": []}
        for _ in range(rounds):
            for name, fn in (("raw", ra), ("hugelite", hu)):
                times[name].extend(_cpu_us(fn, *args) for args in args_list)
        r, h = statistics.median(times["raw"]), statistics.median(times["hugelite"])
        print(f"{op:20s} raw {r:10.1f} us  hugelite {h:10.1f} us  ratio {h / r:5.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hugelite", type=Path, help="a loaded hugelite store (bench workload)")
    ap.add_argument("raw", type=Path, help="the raw sqlite3 store of the same workload")
    ap.add_argument("--size", choices=("small", "large"), default="small")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--ops", nargs="+", default=list(PROBE_OPS), choices=PROBE_OPS + WHOLE_OPS)
    args = ap.parse_args()
    ratios(args.hugelite, args.raw, args.size, args.rounds, args.ops)


if __name__ == "__main__":
    main()
