"""One system's measurement, in two worker processes of its own (`bench/run.py --worker`).

Phase 1 loads the workload into a fresh store (load time, loading peak RSS: the workload
rows plus the system's load path). Phase 2 is a new process that opens the stored file, as a
server does after a restart, and runs the operations; its peak RSS is what serving the graph
costs, free of anything the load left behind (CPython keeps freed arenas, SQLite its page
cache). Memory is the kernel's high-water mark (`VmHWM`, what `ru_maxrss` reports); phase 2
resets it (`/proc/self/clear_refs` <- "5") once the system is open and the probes are drawn.

Timing: every call is timed alone with `perf_counter_ns` (wall) and `process_time_ns` (CPU
of this process). On a shared machine the wall figure carries other processes' noise; the
CPU figure does not, so the report shows both.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.workload import workload

# (op key, label in the table, per-probe?, call(system, probe index))
OPS: list[tuple[str, str, bool, Callable[[Any, int], Any]]] = [
    ("point_lookup", "point lookup `V(id).values('name')`", True, lambda s, i: s.point_lookup(i)),
    ("lookup_by_property", "indexed lookup `has('person','name',x).id()`", True, lambda s, i: s.lookup_by_property(i)),
    ("one_hop", "1-hop `V(id).out('knows').id()`", True, lambda s, i: s.one_hop(i)),
    ("two_hop_count", "`V(id).out().out().count()`", True, lambda s, i: s.two_hop_count(i)),
    ("group_count_city", "`V().groupCount().by('city')`", False, lambda s, i: s.group_count_city()),
    ("k_hop2", "`V(id).repeat(out()).times(2).count()`", True, lambda s, i: s.k_hop(i, 2)),
    ("k_hop3", "`V(id).repeat(out()).times(3).count()`", True, lambda s, i: s.k_hop(i, 3)),
]

#: the issue's bar
TARGETS = {"vs_raw_max": 3.0, "vs_gremlite_min": 10.0, "memory_vs_raw_max": 2.0}


def hwm_kib() -> int:
    """The process's peak resident set size so far, in KiB."""
    try:
        m = re.search(r"VmHWM:\s+(\d+)", Path("/proc/self/status").read_text())
        if m:
            return int(m.group(1))
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def rss_kib() -> int:
    try:
        m = re.search(r"VmRSS:\s+(\d+)", Path("/proc/self/status").read_text())
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


def reset_hwm() -> bool:
    """Starts a new peak-RSS window; False where the kernel does not allow it."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


#: the PostgreSQL server (a SQLAlchemy URL without a database) the `hugelite-pg` system uses;
#: `bench.run` sets it, starting a throw-away cluster when it is not set
PG_URL_ENV = "HUGELITE_BENCH_PG_URL"


def pg_server(stack: contextlib.ExitStack) -> str:
    """The PostgreSQL server a PostgreSQL bench runs on (a URL without a database):
    `$HUGELITE_BENCH_PG_URL`'s, else a throw-away cluster (`tests/postgres_cluster.py`)
    stopped when `stack` closes."""
    server = os.environ.get(PG_URL_ENV)
    if server:
        return server
    from tests import postgres_cluster

    return str(stack.enter_context(postgres_cluster.cluster()).url("").rstrip("/"))


def open_system(system: str, workdir: Path, gremlite_budget: float, fresh: bool) -> Any:
    """The system over `workdir/<system>.db`: emptied first when `fresh` (the load phase),
    else as the load phase left it (the query phase)."""
    path = workdir / f"{system}.db"
    if system == "raw":
        from bench.raw_sqlite import RawSqlite

        if fresh:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        return RawSqlite(path)
    if system == "hugelite":
        from bench.engine import HugeliteEngine

        return HugeliteEngine(path, fresh=fresh)
    if system == "hugelite-pg":  # the same engine on PostgreSQL (`bench.run --backend postgresql`)
        from bench.engine import HugeliteEngine

        return HugeliteEngine(path, fresh=fresh, server_url=os.environ[PG_URL_ENV])
    from bench.gremlite_peer import GremlitePeer

    return GremlitePeer(path, budget_s=gremlite_budget, fresh=fresh)


def _summary(ns: list[int]) -> dict[str, float]:
    ordered = sorted(ns)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median_ms": statistics.median(ordered) / 1e6, "p95_ms": p95 / 1e6, "n": len(ordered)}


def run_load(system: str, size: str, workdir: Path, gremlite_budget: float) -> dict[str, Any]:
    """Phase 1 (its own process): loads the workload into a fresh store; time and peak RSS."""
    report: dict[str, Any] = {"system": system, "size": size, "loadavg_start": os.getloadavg(),
                              "measured_at": time.strftime("%Y-%m-%d %H:%M:%S")}
    w = workload(size)
    sut = open_system(system, workdir, gremlite_budget, fresh=True)
    report["name"] = sut.name
    report["rss_open_kib"] = rss_kib()
    started = time.perf_counter()
    cpu0 = time.process_time()
    try:
        sut.load(w)
    except Exception as exc:  # a time-boxed peer: report what it managed
        report["load_error"] = str(exc)
    report["load_s"] = time.perf_counter() - started
    report["load_cpu_s"] = time.process_time() - cpu0
    report["load_peak_kib"] = hwm_kib()
    database_bytes = getattr(sut, "database_bytes", None)
    report["store_bytes"] = (database_bytes() if system == "hugelite-pg" and database_bytes else
                             sum(p.stat().st_size for p in workdir.glob(f"{system}.db*")))
    sut.close()
    return report


def run_queries(system: str, size: str, repeat: int, n_probes: int, workdir: Path) -> dict[str, Any]:
    """Phase 2 (a fresh process, as after a server restart): opens the loaded store and
    times every op over the probes; the peak RSS here is what serving the graph costs."""
    report: dict[str, Any] = {"loadavg_queries": os.getloadavg()}
    sut = open_system(system, workdir, 0.0, fresh=False)
    report["rss_reopen_kib"] = rss_kib()
    probes = workload(size).probe_vertices(n_probes)
    gc.collect()
    report["hwm_reset"] = reset_hwm()
    ops: dict[str, Any] = {}
    for key, _label, per_probe, call in OPS:
        targets = probes if per_probe else [probes[0]]
        # warm-up, untimed, the same for every system: parse and statement caches, and the
        # page cache for every probe's pages (one probe alone left the first timed pass
        # reading the others' pages from the OS, a third of the samples cold). An op that
        # fails is reported as failed (its first line), and the other ops still run.
        try:
            for idx in targets:
                call(sut, idx)
        except Exception as exc:  # any failure of the system under test
            ops[key] = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"}
            continue
        wall: list[int] = []
        cpu: list[int] = []
        answers: list[Any] = []
        passes = repeat if per_probe else max(3, repeat)
        for r in range(passes):
            for idx in targets:
                c0, t0 = time.process_time_ns(), time.perf_counter_ns()
                answer = call(sut, idx)
                t1, c1 = time.perf_counter_ns(), time.process_time_ns()
                wall.append(t1 - t0)
                cpu.append(c1 - c0)
                if r == 0:
                    answers.append(answer)
        ops[key] = {"wall": _summary(wall), "cpu": _summary(cpu), "answers": answers,
                    "total_s": sum(wall) / 1e9}
    report["ops"] = ops
    report["query_peak_kib"] = hwm_kib()
    report["ru_maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report["loadavg_end"] = os.getloadavg()
    report["emulated"] = getattr(sys.modules[type(sut).__module__], "EMULATED", {})
    sut.close()
    return report
