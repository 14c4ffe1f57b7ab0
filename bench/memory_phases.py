"""Where the querying process's peak RSS comes from, phase by phase (issue #3).

    python -m bench.memory_phases [--hugelite DB] [--raw DB] [--size small] [--probes 100]
                                  [--repeat 3] [--trace] [--importtime] [--unused]

`bench.run`'s querying process (`bench/measure.py`, `run_queries`) opens a stored file and
runs every probe; its peak (`VmHWM`) is the figure the issue's `<= 2x raw` bar judges. That
one number cannot say what to cut, so this script replays the same process in fresh
subprocesses and prints VmHWM and VmRSS after each phase: the harness, the third-party
imports (SQLAlchemy, Lark, orjson), our own imports, the open, and each operation (its
untimed warm-up plus `--repeat` passes over the probes, as the runner does). Raw sqlite3 gets
the same phases, and so does the floor: raw's process with SQLAlchemy, Lark and orjson
imported first, what any engine on the design card's dependencies reaches with no byte of
its own. Optional views, each in its own process because tracing inflates memory:

* `--trace`: `tracemalloc`, the Python memory each of our modules' import keeps (its own
  module body, not the modules it imports), summed per package, then what the open and the
  queries keep, by source file;
* `--importtime`: `-X importtime` of our modules (self time, microseconds);
* `--unused`: our modules imported by the time the probes have run that no function of
  which ran during the open or a query (`sys.setprofile`): candidates for lazy imports.

The stores are copied into a temporary folder first (never written in place); without
`--hugelite`/`--raw` the workload is loaded fresh there by the runner's load phase.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: our top-level packages: what "our share" means
OURS = ("gremlin_engine", "grammar", "storage", "rest_adapter")


def _status() -> tuple[float, float]:
    """(VmHWM, VmRSS) in MiB."""
    hwm = rss = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            hwm = int(line.split()[1]) / 1024
        elif line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return hwm, rss


def _ours_loaded() -> list[str]:
    return sorted(m for m in sys.modules if m.split(".")[0] in OURS)


# ---- the worker: one system's phases in this (fresh) process ------------------------------
def _open(system: str, path: Path) -> Any:
    if system in ("raw", "floor"):
        from bench.raw_sqlite import RawSqlite

        return RawSqlite(path)
    from bench.engine import HugeliteEngine

    return HugeliteEngine(path, fresh=False)


def _run_ops(sut: Any, size: str, repeat: int, n_probes: int, after_op: Any) -> None:
    """Every op as `run_queries` runs it: one untimed warm-up pass, then `repeat` passes."""
    from bench.measure import OPS
    from bench.workload import workload

    probes = workload(size).probe_vertices(n_probes)
    for key, _label, per_probe, call in OPS:
        targets = probes if per_probe else [probes[0]]
        passes = 1 + (repeat if per_probe else max(3, repeat))
        for _ in range(passes):
            for idx in targets:
                call(sut, idx)
        after_op(key)


def worker(system: str, path: Path, size: str, repeat: int, n_probes: int) -> list[dict[str, Any]]:
    """VmHWM/VmRSS after each phase, with the count of our modules loaded by then."""
    import bench.measure  # the runner's harness: the same baseline

    rows: list[dict[str, Any]] = []

    def mark(phase: str) -> None:
        hwm, rss = _status()
        rows.append({"phase": phase, "hwm": hwm, "rss": rss, "ours": len(_ours_loaded())})

    mark("harness (interpreter + bench.measure)")
    if system == "floor":
        # raw sqlite3's process with the design card's dependencies imported: the peak any
        # engine built on them reaches before a byte of its own
        import lark
        import orjson
        import sqlalchemy

        mark("import sqlalchemy, lark, orjson")
    if system in ("raw", "floor"):
        import sqlite3  # noqa: F401

        mark("import sqlite3")
    else:
        import lark  # noqa: F401
        import orjson  # noqa: F401
        import sqlalchemy  # noqa: F401

        mark("import sqlalchemy, lark, orjson")
        import bench.engine  # noqa: F401

        mark("import our modules (bench.engine)")
    sut = _open(system, path)
    mark("open the store")
    _run_ops(sut, size, repeat, n_probes, lambda key: mark(f"op {key}"))
    sut.close()
    return rows


def trace_worker(path: Path, size: str, n_probes: int) -> dict[str, Any]:
    """tracemalloc: what each of our modules' import keeps (exclusive of nested imports),
    then what the open and the queries keep, by file."""
    import importlib.abc
    import tracemalloc

    import lark  # noqa: F401
    import orjson  # noqa: F401
    import sqlalchemy  # noqa: F401

    tracemalloc.start(1)
    own: dict[str, int] = {}
    stack: list[list[int]] = []  # [traced at start, bytes kept by nested imports]

    class _Measured(importlib.abc.Loader):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def create_module(self, spec: Any) -> Any:
            return self.inner.create_module(spec)

        def exec_module(self, module: Any) -> None:
            stack.append([tracemalloc.get_traced_memory()[0], 0])
            try:
                self.inner.exec_module(module)
            finally:
                start, nested = stack.pop()
                total = tracemalloc.get_traced_memory()[0] - start
                own[module.__name__] = total - nested
                if stack:
                    stack[-1][1] += total

    class _Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path_: Any = None, target: Any = None) -> Any:
            if name.split(".")[0] not in OURS:
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path_, target)
                if spec is not None:
                    if spec.loader is not None:
                        spec.loader = _Measured(spec.loader)
                    return spec
            return None

    sys.meta_path.insert(0, _Finder())
    import bench.engine  # noqa: F401

    sys.meta_path.pop(0)
    per_package: dict[str, int] = {}
    for name, kept in own.items():
        parts = name.split(".")
        key = ".".join(parts[:2]) if parts[0] == "gremlin_engine" and len(parts) > 1 else parts[0]
        per_package[key] = per_package.get(key, 0) + kept
    snap0 = tracemalloc.take_snapshot()
    sut = _open("hugelite", path)
    snap1 = tracemalloc.take_snapshot()
    _run_ops(sut, size, 1, n_probes, lambda key: None)
    snap2 = tracemalloc.take_snapshot()

    def by_file(a: Any, b: Any) -> list[tuple[str, int]]:
        stats = b.compare_to(a, "filename")
        return [(s.traceback[0].filename.replace(str(ROOT) + "/", ""), s.size_diff) for s in stats[:15]]

    return {
        "imports_total": sum(own.values()),
        "per_package": sorted(per_package.items(), key=lambda kv: -kv[1]),
        "top_modules": sorted(own.items(), key=lambda kv: -kv[1])[:200],
        "open": by_file(snap0, snap1),
        "queries": by_file(snap1, snap2),
    }


def unused_worker(path: Path, size: str, n_probes: int) -> dict[str, Any]:
    """Our modules imported by the end whose functions never ran during open or queries."""
    import bench.engine  # noqa: F401

    used: set[str] = set()
    files = {}

    def profile(frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            used.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        sut = _open("hugelite", path)
        _run_ops(sut, size, 0, n_probes, lambda key: None)
    finally:
        sys.setprofile(None)
    for name in _ours_loaded():
        f = getattr(sys.modules[name], "__file__", None)
        if f:
            files[name] = f
    unused = sorted(n for n, f in files.items() if f not in used and not f.endswith("__init__.py"))
    return {"loaded": len(files), "unused": unused}


def importtime(size: str) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) for our modules under `-X importtime`."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import bench.engine"],
        cwd=ROOT, env=_env(), capture_output=True, text=True, check=True,
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [p.strip() for p in line[len("import time:"):].split("|")]
        if not parts[0].isdigit():
            continue
        name = parts[2]
        if name.split(".")[0] in OURS:
            rows.append((name, int(parts[0]), int(parts[1])))
    return rows


# ---- the parent: subprocesses, stores, the printout -----------------------------------------
def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _sub(mode: str, path: Path, args: argparse.Namespace) -> Any:
    cmd = [sys.executable, "-m", "bench.memory_phases", "--worker", mode, "--db", str(path),
           "--size", args.size, "--repeat", str(args.repeat), "--probes", str(args.probes)]
    done = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{mode} worker failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def _copy_store(src: Path | None, system: str, size: str, tmp: Path) -> Path:
    """A private copy of `src` (the -wal beside it too), or a fresh load into `tmp`."""
    dst = tmp / f"{system}.db"
    if src is None:
        subprocess.run([sys.executable, "-m", "bench.run", "--worker", system, "--phase", "load",
                        "--size", size, "--workdir", str(tmp), "--json", str(tmp / f"{system}-load.json")],
                       cwd=ROOT, env=_env(), check=True)
        return dst
    for suffix in ("", "-wal"):
        if Path(f"{src}{suffix}").exists():
            shutil.copyfile(f"{src}{suffix}", f"{dst}{suffix}")
    return dst


def _print_phases(system: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{system}: {'phase':<42} {'VmHWM':>8} {'+HWM':>7} {'VmRSS':>8} {'ours':>5}")
    prev = None
    for r in rows:
        delta = "" if prev is None else f"{r['hwm'] - prev:+.2f}"
        print(f"{'':<{len(system) + 2}}{r['phase']:<42} {r['hwm']:8.2f} {delta:>7} {r['rss']:8.2f} {r['ours']:5d}")
        prev = r["hwm"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.memory_phases", description=__doc__.split("\n\n")[0])
    p.add_argument("--hugelite", type=Path, help="a loaded hugelite store (copied first)")
    p.add_argument("--raw", type=Path, help="a loaded raw sqlite3 store (copied first)")
    p.add_argument("--size", choices=("small", "large"), default="small")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--probes", type=int, default=100)
    p.add_argument("--trace", action="store_true", help="tracemalloc attribution of our share")
    p.add_argument("--importtime", action="store_true", help="-X importtime of our modules")
    p.add_argument("--unused", action="store_true", help="our modules imported but never run")
    p.add_argument("--worker", choices=("raw", "floor", "hugelite", "trace", "unused"), help=argparse.SUPPRESS)
    p.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.worker:
        if args.worker == "trace":
            out: Any = trace_worker(args.db, args.size, args.probes)
        elif args.worker == "unused":
            out = unused_worker(args.db, args.size, args.probes)
        else:
            out = worker(args.worker, args.db, args.size, args.repeat, args.probes)
        print(json.dumps(out))
        return 0

    with tempfile.TemporaryDirectory(prefix="hugelite-memory-") as tmp:
        stores = {s: _copy_store(getattr(args, s), s, args.size, Path(tmp)) for s in ("raw", "hugelite")}
        stores["floor"] = stores["raw"]
        results = {s: _sub(s, stores[s], args) for s in ("raw", "floor", "hugelite")}
        for s in ("raw", "floor", "hugelite"):
            _print_phases(s, results[s])
        raw_peak, hl_peak = results["raw"][-1]["hwm"], results["hugelite"][-1]["hwm"]
        print(f"\npeak: hugelite {hl_peak:.2f} MiB, raw {raw_peak:.2f} MiB, ratio {hl_peak / raw_peak:.2f}x "
              f"(bar: <= 2x, {2 * raw_peak:.2f} MiB); floor (raw's process with SQLAlchemy, Lark and "
              f"orjson imported) {results['floor'][-1]['hwm']:.2f} MiB")
        if args.trace:
            t = _sub("trace", stores["hugelite"], args)
            print(f"\ntracemalloc: our imports keep {t['imports_total'] / 2**20:.2f} MiB of Python memory")
            for name, kept in t["per_package"]:
                print(f"  {name:<40} {kept / 2**10:9.1f} KiB")
            print("  heaviest modules (own body):")
            for name, kept in t["top_modules"]:
                print(f"    {name:<52} {kept / 2**10:9.1f} KiB")
            for phase in ("open", "queries"):
                print(f"  {phase}, kept by file:")
                for name, kept in t[phase]:
                    print(f"    {name:<60} {kept / 2**10:+9.1f} KiB")
        if args.unused:
            u = _sub("unused", stores["hugelite"], args)
            print(f"\nof our {u['loaded']} loaded modules, never run during open + queries ({len(u['unused'])}):")
            for name in u["unused"]:
                print(f"  {name}")
    if args.importtime:
        rows = importtime(args.size)
        print(f"\n-X importtime, our {len(rows)} modules: {sum(r[1] for r in rows) / 1000:.1f} ms self")
        for name, self_us, _cum in sorted(rows, key=lambda r: -r[1])[:15]:
            print(f"  {name:<56} {self_us:7d} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
