"""The floor of a REST batch load: plain sqlite3 doing exactly the server's writes.

    python -m bench.load_floor --size small|large [--cache-mib 32] [--mmap-mib 0]
                               [--autocheckpoint 20000] [--batch 500] [--big-tx]

Why: issue 4 asks for >= 50k elements/s over REST at `large` with one durable transaction
per request. Raw sqlite3's row in `bench.rest_load` (one transaction, indexes built after the
rows) is not that workload, so it says nothing about whether the target is reachable. This
is: one thread, one connection, a store made by hugelite itself (`Store.initialise`: our
DDL and meta rows) with `storage.engine`'s pragmas, and per 500 elements one
``BEGIN IMMEDIATE`` ... ``COMMIT`` holding the statements a server batch runs (traced from
a real server: the next-key probe, the end-vertex lookup of an edge batch as one row of
JSON arrays, one multi-row ``INSERT OR IGNORE`` padded to its row bucket). The request
bodies, ids and JSON texts are built before the clock starts; only the SQL and the little
Python that feeds the lookup's keys into the edge rows are timed. What it prints: el/s, and
this thread's CPU per element split into user and kernel (`RUSAGE_THREAD`); the kernel part
is SQLite's WAL writes and checkpoint syncs.

The knobs (`--cache-mib`, `--mmap-mib`, `--autocheckpoint`, `--journal-limit`) try
`storage.engine`'s pragmas at the floor, where nothing else moves the figures; `--big-tx`
runs everything in one transaction (what per-request commits cost on top);
`--checkpoint-every` with `--background`/`--assist` tries checkpoints on a thread of their own.

Measured (seventh session, shared 2-core host, load 1-4; CPU figures are this thread's):
at `large` the floor is ~21-24k el/s, 32-34 µs CPU an element (user ~19-20, kernel ~13-14)
with a 20,000-page WAL; 29-30 µs (kernel ~10) with 40,000-60,000 pages; one big
transaction 56k el/s, 17.5 µs. Checkpoints run in the writer's thread every 13 commits took
7.6 µs an element and a third of the wall time; moved to a thread of their own they did not
lower the writer's CPU (its kernel time rose instead) and added their own. The page cache
(32 or 256 MiB) made no difference. At `small`: ~45-51k el/s, 16 µs (one transaction: 99k, 10 µs).
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import tempfile
import threading
import time
from itertools import chain
from pathlib import Path
from typing import Any

import orjson

from bench.workload import SIZES, workload
from storage import open_store
from storage.engine import CACHE_KIB, JOURNAL_SIZE_LIMIT, WAL_AUTOCHECKPOINT_PAGES
from storage.tx_base import ROW_BUCKETS

NEXT_KEY = ("SELECT (SELECT seq FROM sqlite_sequence WHERE name = '{t}'), (SELECT max(key) FROM {t}), "
            "(SELECT 1 FROM meta WHERE key = 'edges.v1_rows')")
LOOKUP = ("SELECT json_group_array(v.key), json_group_array(k.key), json_group_array(v.label_id) "
          "FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.id = k.value")
V_HEAD, V_ROW = "INSERT OR IGNORE INTO vertices (key, id, label_id, props)", "(?,?,?,?)"
E_HEAD = "INSERT OR IGNORE INTO edges (key, id, label_id, out_key, in_key, sort_values, props, out_id, in_id, dup)"
E_ROW = "(?,?,?,?,?,?,?,?,?,?)"


def values_sql(head: str, row: str, n: int) -> str:
    return f"{head} VALUES " + ",".join([row] * n)


def bucket(n: int) -> int:
    return next(b for b in ROW_BUCKETS if b >= n)


def connect(path: Path, cache_mib: int, mmap_mib: int, autocheckpoint: int, journal_limit: int) -> sqlite3.Connection:
    """A connection with `storage.engine`'s pragmas (cache, mmap and checkpoint as asked)."""
    con = sqlite3.connect(path, isolation_level=None, cached_statements=512)
    for pragma in ("busy_timeout = 5000", "foreign_keys = ON", "synchronous = NORMAL", f"cache_size = -{cache_mib * 1024}",
                   "journal_mode = WAL", f"wal_autocheckpoint = {autocheckpoint}", f"journal_size_limit = {journal_limit}",
                   f"mmap_size = {mmap_mib * 1024 * 1024}"):
        con.execute(f"PRAGMA {pragma}")
    return con


def prepare(size: str, batch: int) -> tuple[list[list[tuple[Any, ...]]], list[list[tuple[str, str, str, bytes]]]]:
    """Vertex rows (key, id, label, props) and edge parts (edge id, out id, in id, props) per batch."""
    w = workload(size)
    vrows = [(i + 1, f"1:{n}", 1, orjson.dumps({"name": n, "age": a, "city": c}).decode()) for i, n, a, c in w.vertices()]
    eparts = [(f"S1:p{o}>1>1>>S1:p{i}", f"1:p{o}", f"1:p{i}", orjson.dumps({"weight": wt}).decode()) for o, i, wt in w.edges()]
    return ([vrows[s:s + batch] for s in range(0, len(vrows), batch)],
            [eparts[s:s + batch] for s in range(0, len(eparts), batch)])


class Checkpoints:
    """Manual checkpoints every `every` commits (with `wal_autocheckpoint` off): in the
    writer's thread (`background` False, timed apart), or in a thread of their own on their
    own connection (`background` True): a PASSIVE checkpoint outside the writer lock, then,
    when it could not reach the end of the WAL, a second one holding the writer lock, so
    every frame is backfilled and the next writer restarts the WAL from its start (a WAL that
    is never caught up is never restarted, and grows without bound)."""

    def __init__(self, path: Path, every: int, background: bool, catch_up: bool) -> None:
        self.every, self.background, self.catch_up = every, background, catch_up
        self.lock = threading.Lock()  # the writer lock
        self.commits = 0
        self.wall = self.user = self.kernel = 0.0
        self.runs = self.caught_up = 0
        self.con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.con.execute("PRAGMA synchronous = NORMAL")
        self.wake = threading.Event()
        self.stop = False
        self.thread = threading.Thread(target=self._loop, daemon=True) if background else None
        if self.thread:
            self.thread.start()

    def committed(self) -> None:
        self.commits += 1
        if self.commits % self.every == 0:
            if self.background:
                self.wake.set()
            else:
                self._checkpoint()

    def _checkpoint(self) -> tuple[int, int, int]:
        r0, t0 = resource.getrusage(resource.RUSAGE_THREAD), time.perf_counter()
        got = self.con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        r1 = resource.getrusage(resource.RUSAGE_THREAD)
        self.wall += time.perf_counter() - t0
        self.user += r1.ru_utime - r0.ru_utime
        self.kernel += r1.ru_stime - r0.ru_stime
        self.runs += 1
        return got

    def _loop(self) -> None:
        while not self.stop:
            self.wake.wait()
            self.wake.clear()
            if self.stop:
                return
            before = self.commits
            _busy, log, done = self._checkpoint()
            # frames committed while it ran are past its end: without a second pass the
            # WAL is never fully backfilled, so never restarted
            if self.catch_up and (done < log or self.commits != before):
                with self.lock:
                    self._checkpoint()
                    self.caught_up += 1

    def close(self) -> None:
        self.stop = True
        self.wake.set()
        if self.thread:
            self.thread.join()
        self.con.close()


def run(con: sqlite3.Connection, vbatches: list[list[tuple[Any, ...]]], ebatches: list[list[tuple[str, str, str, bytes]]],
        big_tx: bool, cp: Checkpoints | None = None) -> None:
    """The server's statements, batch by batch."""
    ex = con.execute
    lock = cp.lock if cp else threading.Lock()

    def begin() -> None:
        """A batch's transaction, as a request takes the writer (nothing in one big one)."""
        if not big_tx:
            lock.acquire()
            ex("BEGIN IMMEDIATE")

    def commit() -> None:
        if not big_tx:
            ex("COMMIT")
            lock.release()
            if cp:
                cp.committed()

    if big_tx:
        ex("BEGIN IMMEDIATE")
    for rows in vbatches:
        begin()
        ex(NEXT_KEY.format(t="vertices")).fetchone()
        n = bucket(len(rows))
        params = list(chain.from_iterable(rows))
        params += params[-4:] * (n - len(rows))
        ex(values_sql(V_HEAD, V_ROW, n), params)
        commit()
    key = 0
    for parts in ebatches:
        begin()
        ends = list({p: None for part in parts for p in (part[1], part[2])})
        keys, pos, _labels = ex(LOOKUP, (orjson.dumps(ends).decode(),)).fetchone()
        found = {ends[j]: k for k, j in zip(orjson.loads(keys), orjson.loads(pos), strict=True)}
        ex(NEXT_KEY.format(t="edges")).fetchone()
        params: list[Any] = []
        for eid, out_id, in_id, props in parts:
            key += 1
            params += (key, eid, 1, found[out_id], found[in_id], "", props, out_id, in_id, 0)
        n = bucket(len(parts))
        params += params[-10:] * (n - len(parts))
        ex(values_sql(E_HEAD, E_ROW, n), params)
        commit()
    if big_tx:
        ex("COMMIT")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--cache-mib", type=int, default=CACHE_KIB // 1024)
    ap.add_argument("--mmap-mib", type=int, default=0)
    ap.add_argument("--autocheckpoint", type=int, default=WAL_AUTOCHECKPOINT_PAGES)
    ap.add_argument("--journal-limit", type=int, default=JOURNAL_SIZE_LIMIT, help="bytes; -1: never truncate the WAL")
    ap.add_argument("--big-tx", action="store_true")
    ap.add_argument("--checkpoint-every", type=int, default=0, metavar="COMMITS",
                    help="manual PASSIVE checkpoints every COMMITS commits (sets --autocheckpoint 0)")
    ap.add_argument("--background", action="store_true", help="the manual checkpoints in a thread of their own")
    ap.add_argument("--no-catch-up", action="store_true", help="background: never take the writer lock")
    ap.add_argument("--assist", action="store_true",
                    help="background without the lock, the writer's own wal_autocheckpoint (--autocheckpoint) left on: "
                         "its checkpoint then copies only what the background one has not")
    ap.add_argument("--dir", default=None, help="where the store goes (default: a temp folder)")
    a = ap.parse_args(argv)
    vb, eb = prepare(a.size, a.batch)
    n = sum(map(len, vb)) + sum(map(len, eb))
    with tempfile.TemporaryDirectory(prefix="hugelite-floor-", dir=a.dir) as tmp:
        path = Path(tmp) / "floor.db"
        store = open_store(path)
        store.initialise()
        store.close()
        every = a.checkpoint_every
        auto = a.autocheckpoint if (a.assist or not every) else 0
        con = connect(path, a.cache_mib, a.mmap_mib, auto, a.journal_limit)
        cp = Checkpoints(path, every, a.background or a.assist, not (a.no_catch_up or a.assist)) if every else None
        r0, t0 = resource.getrusage(resource.RUSAGE_THREAD), time.perf_counter()
        run(con, vb, eb, a.big_tx, cp)
        wall, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_THREAD)
        wal_mib = (path.parent / (path.name + "-wal")).stat().st_size / 2**20
        if cp:
            cp.close()
        got = con.execute("SELECT (SELECT count(*) FROM vertices), (SELECT count(*) FROM edges)").fetchone()
        con.close()
    assert got == (sum(map(len, vb)), sum(map(len, eb))), got
    user, kernel = (r1.ru_utime - r0.ru_utime) / n * 1e6, (r1.ru_stime - r0.ru_stime) / n * 1e6
    extra = ""
    if cp:
        if not (a.background or a.assist):  # the writer's own rusage includes them: show them apart
            user, kernel = user - cp.user / n * 1e6, kernel - cp.kernel / n * 1e6
        extra = (f"; checkpoints every {every} commits{' in background' if a.background or a.assist else ''}: {cp.runs} runs "
                 f"({cp.caught_up} caught up under the lock), {cp.wall:.1f} s wall, CPU {(cp.user + cp.kernel) / n * 1e6:.1f} µs/el "
                 f"(user {cp.user / n * 1e6:.1f}, kernel {cp.kernel / n * 1e6:.1f})")
    print(f"floor {a.size} batch={a.batch} cache={a.cache_mib}MiB mmap={a.mmap_mib}MiB autocheckpoint={auto} journal_limit={a.journal_limit}"
          f"{' big-tx' if a.big_tx else ''}: {n / wall:,.0f} el/s, CPU {user + kernel:.1f} µs/el "
          f"(user {user:.1f}, kernel {kernel:.1f}), wall {wall:.1f} s, WAL file {wal_mib:.0f} MiB{extra}")


if __name__ == "__main__":
    main()
