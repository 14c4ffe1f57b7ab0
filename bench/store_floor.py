"""A read transaction's own cost: open (`store.read()`), one read, close, beside the same
statement over the bare driver, in one process, for each kind of read a point traversal makes.

    PYTHONPATH=$PWD .venv/bin/python -m bench.store_floor [--vertices 10000] [--degree 10] [--runs 7]
    PYTHONPATH=$PWD .venv/bin/python -m bench.store_floor --pg postgresql+psycopg://postgres@127.0.0.1:PORT/postgres

The reads (`--kinds`, all by default), each the storage call a traversal's fused step makes:

* ``point``: ``tx.elements.find(Lookup.VERTICES_BY_IDS, [id])`` (`g.V(id)`);
* ``adjacency``: ``tx.adjacency.from_id(AdjacencyQuery('out', (knows,)), id)``
  (`g.V(id).out('knows').id()`);
* ``index``: ``tx.index.read(IndexQuery(name index, project=VERTICES), [name])``
  (`g.V().has('person', 'name', n)`);
* ``walk``: ``tx.aggregates.count(WalkCount(2 hops out knows, WalkStart.ID), id, stop)``
  (`g.V(id).out('knows').out('knows').count()`).

SQLite (a file store of `--vertices` vertices, the `small` workload's count, each with
`--degree` out-edges and one name index entry): thread CPU per call of a tight loop
(`time.thread_time_ns`; the machine's other work does not count), best and median of
`--runs` runs, the probes cycled over `--probes` ids. Beside the store's two kinds of read
(``store.read()``: BEGIN / statement / ROLLBACK; ``store.read(single=True)``: the statement
alone), on a plain `sqlite3` connection to the same file, the same statement text: the lone
statement (autocommit) and BEGIN / statement / ROLLBACK; the ratios say what the store adds.
The store's reads build their rows (`VertexRow`s), the raw ones take the driver's tuples.

PostgreSQL (`--pg`, a server URL; a database of its own is created and dropped): wall time
per call, since what a read pays there is round trips, beside psycopg's own statement and
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY / statement / ROLLBACK (``point`` only).

Cases run interleaved (one run of each in turn), so drift of the shared machine falls on all
of them alike.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage import (
    AdjacencyQuery,
    IndexProject,
    IndexQuery,
    Lookup,
    Store,
    WalkCount,
    WalkStart,
    drop_database,
    ensure_database,
    open_store,
)
from storage.engine import CACHE_KIB
from storage.values import encode

KNOWS, NAME_INDEX = 1, 1
#: the statements each read runs, as the store writes them (raw sqlite3 runs the same text)
SQL = {
    "point": "SELECT key, id, label_id, props FROM vertices WHERE id = ?",
    "adjacency": "SELECT s.key, e.in_id FROM vertices AS s CROSS JOIN edges AS e ON e.out_key = s.key "
    f"AND e.label_id = {KNOWS} WHERE s.id = ? ORDER BY e.label_id, e.sort_values, e.in_key, e.dup",
    "index": "SELECT v.key, v.id, v.label_id, v.props FROM index_entries AS ie CROSS JOIN vertices AS v "
    "ON v.key = ie.elem_key WHERE ie.index_id = ? AND ie.value = ? ORDER BY ie.elem_key",
    "walk": "SELECT count(*) AS c FROM vertices AS s CROSS JOIN edges AS e0 ON e0.out_key = s.key "
    f"AND e0.label_id = {KNOWS} CROSS JOIN edges AS e1 ON e1.out_key = e0.in_key AND e1.label_id = {KNOWS} "
    "WHERE s.id = ?1",
}
KINDS = tuple(SQL)
Case = Callable[[str], Any]


def _fill(store: Store, n: int, degree: int) -> list[str]:
    ids = [f"v{i}" for i in range(n)]
    with store.write() as tx:
        keys = tx.elements.vertices_insert([(i, 1, f'{{"name":"n{i}","age":{k % 90}}}') for k, i in enumerate(ids)])
        tx.elements.edges_insert([(None, KNOWS, keys[k], keys[(k * 7 + 13 * j + 1) % n], "", None)
                                  for k in range(n) for j in range(degree)])
        tx.index.index_add_many([(NAME_INDEX, f"n{i}", key, "v") for i, key in zip(ids, keys, strict=True)])
    return ids


def _params(kind: str, i: str) -> tuple[Any, ...]:
    return (NAME_INDEX, f"n{i}") if kind == "index" else (i,)


def _store_reads(kind: str) -> Callable[[Any, str], Any]:
    """The storage call of `kind` on an open transaction, for id `i`."""
    if kind == "point":
        lookup = Lookup.VERTICES_BY_IDS
        return lambda tx, i: tx.elements.find(lookup, [i])
    if kind == "adjacency":
        aq = AdjacencyQuery("out", (KNOWS,))
        return lambda tx, i: tx.adjacency.from_id(aq, i)
    if kind == "index":
        iq = IndexQuery(NAME_INDEX, project=IndexProject.VERTICES)
        return lambda tx, i: tx.index.read(iq, [f"n{i}"])
    wq = WalkCount((("out", (KNOWS,)), ("out", (KNOWS,))), WalkStart.ID)

    def stop() -> bool:  # what the engine's deadline check answers while it runs
        return False

    return lambda tx, i: tx.aggregates.count(wq, i, stop)


def _store_cases(store: Store, kind: str) -> dict[str, Case]:
    call = _store_reads(kind)

    def read(i: str) -> Any:
        with store.read() as tx:
            return call(tx, i)

    def single(i: str) -> Any:
        with store.read(single=True) as tx:
            return call(tx, i)

    return {f"{kind}: store.read": read, f"{kind}: store.read(single)": single}


def _sqlite_cases(path: str, kind: str) -> dict[str, Case]:
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    con.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # the store's page cache: the same pages stay cached
    ex, sql = con.execute, SQL[kind]

    def select(i: str) -> Any:
        return ex(sql, _params(kind, i)).fetchall()

    def txn(i: str) -> Any:
        ex("BEGIN")
        rows = ex(sql, _params(kind, i)).fetchall()
        ex("ROLLBACK")
        return rows

    return {f"{kind}: sqlite3": select, f"{kind}: sqlite3 BEGIN/../ROLLBACK": txn}


def _pg_cases(url: str) -> dict[str, Case]:
    import psycopg
    from sqlalchemy.engine import make_url

    info = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    con = psycopg.connect(info, autocommit=True, prepare_threshold=2)
    sql = SQL["point"].replace("?", "%s")

    def select(i: str) -> Any:
        return con.execute(sql, (encode(i),)).fetchone()

    def txn(i: str) -> Any:
        con.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        row = con.execute(sql, (encode(i),)).fetchone()
        con.execute("ROLLBACK")
        return row

    return {"point: psycopg": select, "point: psycopg BEGIN RR RO/../ROLLBACK": txn}


def _time(fn: Case, probes: list[str], calls: int, clock: Callable[[], int]) -> float:
    """Microseconds per call of `calls` calls cycling over `probes`."""
    n = len(probes)
    start = clock()
    for k in range(calls):
        fn(probes[k % n])
    return (clock() - start) / calls / 1000.0


def measure(cases: dict[str, Case], probes: list[str], calls: int, runs: int,
            clock: Callable[[], int]) -> dict[str, list[float]]:
    for fn in cases.values():  # warm: statement caches, pooled connections, server plans
        _time(fn, probes, max(calls // 10, 50), clock)
    out: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, fn in cases.items():
            out[name].append(_time(fn, probes, calls, clock))
    return out


def report(title: str, unit: str, results: dict[str, list[float]], base: Callable[[str], str]) -> None:
    print(f"\n{title} ({unit} per call: best / median; ratio of medians to the raw statement of its kind)")
    for name, xs in results.items():
        med, ref = statistics.median(xs), statistics.median(results[base(name)])
        print(f"  {name:42s} {min(xs):7.2f} / {med:7.2f}   x{med / ref:5.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vertices", type=int, default=10_000)
    ap.add_argument("--degree", type=int, default=10, help="out-edges (label knows) per vertex")
    ap.add_argument("--probes", type=int, default=1000)
    ap.add_argument("--calls", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    ap.add_argument("--pg", help="a PostgreSQL server URL: measure there (wall time) instead of SQLite")
    args = ap.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    if args.pg:
        from sqlalchemy.engine import make_url

        url = make_url(args.pg).set(database=f"hl_floor_{uuid.uuid4().hex[:8]}").render_as_string(hide_password=False)
        ensure_database(url)
        try:
            with open_store(url) as store:
                store.initialise()
                ids = _fill(store, args.vertices, args.degree)
                probes = ids[:: max(1, len(ids) // args.probes)]
                cases = _pg_cases(url)
                for kind in kinds:
                    cases |= _store_cases(store, kind)
                results = measure(cases, probes, args.calls // 10, args.runs, time.perf_counter_ns)
                report(f"PostgreSQL, {args.vertices} vertices", "us wall", results, lambda _name: "point: psycopg")
        finally:
            drop_database(url)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "floor.db")
        with open_store(path) as store:
            store.initialise()
            ids = _fill(store, args.vertices, args.degree)
            probes = ids[:: max(1, len(ids) // args.probes)]
            cases: dict[str, Case] = {}
            for kind in kinds:
                cases |= _sqlite_cases(path, kind) | _store_cases(store, kind)
            results = measure(cases, probes, args.calls, args.runs, time.thread_time_ns)
            report(f"SQLite file, {args.vertices} vertices, {args.degree} edges each", "us thread CPU", results,
                   lambda name: name.split(":")[0] + ": sqlite3")


if __name__ == "__main__":
    main()
