"""A read transaction's own cost: open (`store.read()`), one point `find`, close, beside the
same statement over the bare driver, in one process.

    PYTHONPATH=$PWD .venv/bin/python -m bench.store_floor [--vertices 10000] [--runs 7]
    PYTHONPATH=$PWD .venv/bin/python -m bench.store_floor --pg postgresql+psycopg://postgres@127.0.0.1:PORT/postgres

SQLite (a file store of `--vertices` vertices, the `small` workload's count; edges play no
part in a point lookup): thread CPU per call of a tight loop (`time.thread_time_ns`; the
machine's other work does not count), best and median of `--runs` runs, the rows cycled
over `--probes` ids. Beside the store's two kinds of read, on a plain `sqlite3` connection
to the same file: the lone SELECT (autocommit) and BEGIN / SELECT / ROLLBACK, the store's
statements and nothing else; the ratios say what the store adds to them.

PostgreSQL (`--pg`, a server URL; a database of its own is created and dropped): wall time
per call, since what a read pays there is round trips, beside psycopg's own SELECT and
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY / SELECT / ROLLBACK.

Cases run interleaved (one run of each in turn), so drift of the shared machine falls on all
of them alike. Run it with ``PYTHONPATH`` at a tree without single reads (the start tree) and
it leaves the ``single`` case out.
"""

from __future__ import annotations

import argparse
import inspect
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage import Lookup, Store, drop_database, ensure_database, open_store
from storage.values import encode

SELECT = "SELECT key, id, label_id, props FROM vertices WHERE id = ?"


def _fill(store: Store, n: int) -> list[str]:
    ids = [f"v{i}" for i in range(n)]
    with store.write() as tx:
        tx.elements.vertices_insert([(i, 1, f'{{"name":"{i}","age":{k % 90}}}') for k, i in enumerate(ids)])
    return ids


def _store_cases(store: Store, ids: list[str]) -> dict[str, Callable[[str], Any]]:
    lookup = Lookup.VERTICES_BY_IDS

    def read(i: str) -> Any:
        with store.read() as tx:
            return tx.elements.find(lookup, [i])

    cases: dict[str, Callable[[str], Any]] = {"store.read + find": read}
    if "single" in inspect.signature(store.read).parameters:

        def single(i: str) -> Any:
            with store.read(single=True) as tx:
                return tx.elements.find(lookup, [i])

        cases["store.read(single) + find"] = single
    return cases


def _sqlite_cases(path: str) -> dict[str, Callable[[str], Any]]:
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    ex = con.execute

    def select(i: str) -> Any:
        return ex(SELECT, (i,)).fetchone()

    def txn(i: str) -> Any:
        ex("BEGIN")
        row = ex(SELECT, (i,)).fetchone()
        ex("ROLLBACK")
        return row

    return {"sqlite3 SELECT": select, "sqlite3 BEGIN/SELECT/ROLLBACK": txn}


def _pg_cases(url: str) -> dict[str, Callable[[str], Any]]:
    import psycopg
    from sqlalchemy.engine import make_url

    info = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    con = psycopg.connect(info, autocommit=True, prepare_threshold=2)
    sql = SELECT.replace("?", "%s")

    def select(i: str) -> Any:
        return con.execute(sql, (encode(i),)).fetchone()

    def txn(i: str) -> Any:
        con.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        row = con.execute(sql, (encode(i),)).fetchone()
        con.execute("ROLLBACK")
        return row

    return {"psycopg SELECT": select, "psycopg BEGIN RR RO/SELECT/ROLLBACK": txn}


def _time(fn: Callable[[str], Any], probes: list[str], calls: int, clock: Callable[[], int]) -> float:
    """Microseconds per call of `calls` calls cycling over `probes`."""
    n = len(probes)
    start = clock()
    for k in range(calls):
        fn(probes[k % n])
    return (clock() - start) / calls / 1000.0


def measure(cases: dict[str, Callable[[str], Any]], probes: list[str], calls: int, runs: int,
            clock: Callable[[], int]) -> dict[str, list[float]]:
    for fn in cases.values():  # warm: statement caches, pooled connections, server plans
        _time(fn, probes, max(calls // 10, 50), clock)
    out: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, fn in cases.items():
            out[name].append(_time(fn, probes, calls, clock))
    return out


def report(title: str, unit: str, results: dict[str, list[float]], base: str) -> None:
    print(f"\n{title} ({unit} per call: best / median; ratio of medians to {base!r})")
    ref = statistics.median(results[base])
    for name, xs in results.items():
        med = statistics.median(xs)
        print(f"  {name:38s} {min(xs):7.2f} / {med:7.2f}   x{med / ref:5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vertices", type=int, default=10_000)
    ap.add_argument("--probes", type=int, default=1000)
    ap.add_argument("--calls", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--pg", help="a PostgreSQL server URL: measure there (wall time) instead of SQLite")
    args = ap.parse_args()
    if args.pg:
        from sqlalchemy.engine import make_url

        url = make_url(args.pg).set(database=f"hl_floor_{uuid.uuid4().hex[:8]}").render_as_string(hide_password=False)
        ensure_database(url)
        try:
            with open_store(url) as store:
                store.initialise()
                ids = _fill(store, args.vertices)
                probes = ids[:: max(1, len(ids) // args.probes)]
                cases = {**_pg_cases(url), **_store_cases(store, ids)}
                results = measure(cases, probes, args.calls // 10, args.runs, time.perf_counter_ns)
                report(f"PostgreSQL, {args.vertices} vertices", "us wall", results, "psycopg SELECT")
        finally:
            drop_database(url)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "floor.db")
        with open_store(path) as store:
            store.initialise()
            ids = _fill(store, args.vertices)
            probes = ids[:: max(1, len(ids) // args.probes)]
            cases = {**_sqlite_cases(path), **_store_cases(store, ids)}
            results = measure(cases, probes, args.calls, args.runs, time.thread_time_ns)
            report(f"SQLite file, {args.vertices} vertices", "us thread CPU", results, "sqlite3 SELECT")


if __name__ == "__main__":
    main()
