"""Crash test: `kill -9` a server during concurrent batch loads, restart it, count what survived.

Why: a request's writes are one transaction and the server answers only after its commit
(several concurrent batches may share one commit: group commit, `runtime/batch_commit.py`).
So after a crash every acknowledged batch must be there whole, and no batch may be there in
part, acknowledged or not. Each trial checks exactly that from outside, as a client sees it:

1. a sqlite store (strict schema) with 100 `node` vertices, loaded and acknowledged; the
   same store serves `--per-store` trials in a row (the restart that checks one trial is
   the server the next one loads), and every trial checks the earlier ones are unchanged;
2. LOADERS threads send `POST .../graph/vertices/batch` and `.../graph/edges/batch` (500
   elements each, every element carrying its batch's unique `marker`), and SINGLES threads
   send one vertex per `POST .../graph/vertices`; a batch counts as acknowledged when its
   201 arrived;
3. at a random moment the server gets SIGKILL; `PRAGMA integrity_check` on the store file
   (on PostgreSQL, `amcheck`'s `bt_index_check` of every B-tree index of the graph's database);
4. the server restarts on the same store; one `groupCount()` per kind counts the elements of
   every marker: acknowledged batches must be complete, every present batch complete.

    python -m bench.crash --trials 100 [--seed 1] [--loaders 3] [--singles 2] [--per-store 10] [--keep DIR]
                          [--backend postgresql]

`--backend postgresql` runs the same trials on a PostgreSQL-backed graph, on a throw-away
cluster this starts and stops (`tests/postgres_cluster.py`). `tests/hostile/test_crash.py`
runs a few trials of the same code in `make test`, `tests/hostile/test_crash_postgres.py` in
`make test-postgres`.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.server import BenchServer

GRAPH = "crash"
PROPS = "backend=sqlite\nstore=data/crash.db\nschema.mode=strict\n"
BATCH = 500
NODES = 100


@dataclass
class Trial:
    """What one trial sent, what was acknowledged, and what the restarted server holds."""

    kill_after_s: float
    sent: dict[str, tuple[str, int]] = field(default_factory=dict)  # marker -> (kind, size)
    acked: set[str] = field(default_factory=set)
    refused: dict[str, str] = field(default_factory=dict)  # marker -> a 4xx/5xx answer
    found: dict[str, int] = field(default_factory=dict)  # marker -> elements after restart
    integrity: str = ""
    earlier_changed: list[str] = field(default_factory=list)  # earlier trials' markers whose count changed
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def lost(self) -> list[str]:
        """Acknowledged batches not wholly present after the restart."""
        return sorted(m for m in self.acked if self.found.get(m, 0) != self.sent[m][1])

    @property
    def partial(self) -> list[str]:
        """Batches present in part (acknowledged or not)."""
        return sorted(m for m, n in self.found.items() if m in self.sent and n != self.sent[m][1])

    @property
    def unknown(self) -> list[str]:
        """Markers found that no request of this trial sent."""
        return sorted(m for m in self.found if m not in self.sent)

    def ok(self) -> bool:
        return not (self.lost or self.partial or self.unknown or self.refused or self.earlier_changed) \
            and self.integrity == "ok"

    def summary(self) -> str:
        present = sum(1 for m in self.sent if self.found.get(m))
        return (f"kill at {self.kill_after_s:.2f} s: sent {len(self.sent)}, acknowledged {len(self.acked)}, "
                f"present {present}, lost {len(self.lost)}, partial {len(self.partial)}, "
                f"unknown {len(self.unknown)}, refused {len(self.refused)}, earlier changed {len(self.earlier_changed)}, "
                f"integrity {self.integrity}")


def _check(r: httpx.Response, status: int) -> Any:
    if r.status_code != status:
        raise RuntimeError(f"{r.request.method} {r.request.url} -> {r.status_code} {r.text[:300]}")
    return r.json() if r.content else None


def set_up(client: httpx.Client) -> None:
    """The schema and the 100 nodes edges are loaded between."""
    g = f"/graphs/{GRAPH}"
    for name, dt in (("seq", "TEXT"), ("marker", "TEXT")):
        _check(client.post(f"{g}/schema/propertykeys", json={"name": name, "data_type": dt}), 202)
    _check(client.post(f"{g}/schema/vertexlabels", json={
        "name": "node", "id_strategy": "PRIMARY_KEY", "primary_keys": ["seq"], "properties": ["seq"]}), 201)
    _check(client.post(f"{g}/schema/vertexlabels", json={
        "name": "item", "id_strategy": "PRIMARY_KEY", "primary_keys": ["seq"], "properties": ["seq", "marker"]}),
        201)
    _check(client.post(f"{g}/schema/edgelabels", json={
        "name": "link", "source_label": "node", "target_label": "node", "frequency": "MULTIPLE",
        "sort_keys": ["seq"], "properties": ["seq", "marker"]}), 201)
    nodes = [{"label": "node", "properties": {"seq": str(i)}} for i in range(NODES)]
    _check(client.post(f"{g}/graph/vertices/batch", json=nodes), 201)


def node_id(i: int) -> str:
    return f"1:{i}"  # `node` is the first vertex label: PRIMARY_KEY ids are `<label id>:<seq>`


def vertex_batch(marker: str) -> list[dict[str, Any]]:
    return [{"label": "item", "properties": {"seq": f"{marker}-{i}", "marker": marker}} for i in range(BATCH)]


def edge_batch(marker: str, rng: random.Random) -> list[dict[str, Any]]:
    return [{"label": "link", "outV": node_id(rng.randrange(NODES)), "inV": node_id(rng.randrange(NODES)),
             "outVLabel": "node", "inVLabel": "node", "properties": {"seq": f"{marker}-{i}", "marker": marker}}
            for i in range(BATCH)]


def _loader(url: str, trial: Trial, name: str, seed: int, stop: threading.Event) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as client:
        n = 0
        while not stop.is_set():
            n += 1
            marker = f"{name}-{n}"
            kind = rng.choice(("vertices", "edges"))
            body = vertex_batch(marker) if kind == "vertices" else edge_batch(marker, rng)
            _send(client, trial, marker, kind, len(body), f"/graphs/{GRAPH}/graph/{kind}/batch", body)


def _single_writer(url: str, trial: Trial, name: str, stop: threading.Event) -> None:
    with httpx.Client(base_url=url, timeout=60) as client:
        n = 0
        while not stop.is_set():
            n += 1
            marker = f"{name}-{n}"
            body = {"label": "item", "properties": {"seq": f"{marker}-0", "marker": marker}}
            _send(client, trial, marker, "vertices", 1, f"/graphs/{GRAPH}/graph/vertices", body)


def _send(client: httpx.Client, trial: Trial, marker: str, kind: str, size: int, path: str, body: Any) -> None:
    with trial.lock:
        trial.sent[marker] = (kind, size)
    try:
        r = client.post(path, json=body)
    except httpx.HTTPError:
        return  # the server went away: neither acknowledged nor refused
    with trial.lock:
        if r.status_code == 201:
            trial.acked.add(marker)
        else:
            trial.refused[marker] = f"{r.status_code} {r.text[:200]}"


def count_markers(client: httpx.Client) -> dict[str, int]:
    found: dict[str, int] = {}
    for step in ("V().hasLabel('item')", "E().hasLabel('link')"):
        r = client.post("/gremlin", json={"gremlin": f"g.{step}.values('marker').groupCount()",
                                          "aliases": {"g": f"__g_{GRAPH}"}})
        data = _check(r, 200)["result"]["data"]
        for counts in data:
            for marker, n in counts.items():
                found[marker] = found.get(marker, 0) + int(n)
    return found


def _load_and_kill(server: BenchServer, trial: Trial, rng: random.Random, prefix: str, loaders: int,
                   singles: int) -> None:
    stop = threading.Event()
    threads = [threading.Thread(target=_loader, args=(server.url, trial, f"{prefix}b{i}", rng.randrange(2**32), stop))
               for i in range(loaders)]
    threads += [threading.Thread(target=_single_writer, args=(server.url, trial, f"{prefix}s{i}", stop))
                for i in range(singles)]
    for t in threads:
        t.start()
    time.sleep(trial.kill_after_s)
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait()
    server.log.close()
    stop.set()
    for t in threads:
        t.join(timeout=60)


def postgres_props(server_url: str, database: str) -> str:
    """The crash graph on a PostgreSQL server (`server_url`: a SQLAlchemy URL without a
    database), in `database`, which `init-store` creates."""
    return f"backend=postgresql\nsqlalchemy.url={server_url}\nstore={database}\nschema.mode=strict\n"


def integrity(base: Path, props: str) -> str:
    """'ok', or what the store's own check found: SQLite's `PRAGMA integrity_check` of the
    file; on PostgreSQL, `amcheck`'s `bt_index_check` of every B-tree index of the database
    (the heap is PostgreSQL's to keep; an index that disagrees with it is the damage a
    half-done write could leave)."""
    if "backend=postgresql" not in props:
        with sqlite3.connect(base / "data" / "crash.db") as db:
            return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    import psycopg
    from sqlalchemy.engine import make_url

    values = dict(line.split("=", 1) for line in props.splitlines() if "=" in line)
    url = make_url(values["sqlalchemy.url"])
    with psycopg.connect(host=url.host, port=url.port, user=url.username, password=url.password,
                         dbname=values["store"], autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        indexes = conn.execute(
            "SELECT c.oid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE a.amname = 'btree' AND n.nspname = 'public'").fetchall()
        for (name,) in indexes:
            conn.execute("SELECT bt_index_check(%s::regclass, true)", (name,))
    return "ok" if indexes else "no indexes found"


def run_round(base: Path, rng: random.Random, trials: int, loaders: int = 3, singles: int = 2,
              kill_window_s: tuple[float, float] = (0.3, 3.0), props: str = PROPS) -> list[Trial]:
    """TRIALS crash cycles on one store in the empty folder BASE (`props`: the graph's
    configuration, a sqlite store under BASE by default): the server that counts what
    survived one kill is the one the next trial loads and kills (one start per trial).
    Each trial also checks that no earlier trial's batches changed."""
    done: list[Trial] = []
    before: dict[str, int] = {}
    server = BenchServer(base, GRAPH, props, timeout_ms=60_000, init_store=True)
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            set_up(client)
        for k in range(trials):
            prefix = f"t{k}"
            trial = Trial(kill_after_s=rng.uniform(*kill_window_s))
            _load_and_kill(server, trial, rng, prefix, loaders, singles)
            trial.integrity = integrity(base, props)
            server = BenchServer(base, GRAPH, props, timeout_ms=60_000)
            with httpx.Client(base_url=server.url, timeout=60) as client:
                found = count_markers(client)
            trial.found = {m: n for m, n in found.items() if m.startswith(prefix + "b") or m.startswith(prefix + "s")}
            trial.earlier_changed = sorted(m for m, n in before.items() if found.get(m, 0) != n)
            before = found
            done.append(trial)
    finally:
        if server.proc.poll() is None:
            server.stop()
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loaders", type=int, default=3)
    ap.add_argument("--singles", type=int, default=2)
    ap.add_argument("--per-store", type=int, default=10, help="trials on one store before a fresh one")
    ap.add_argument("--keep", type=Path, help="keep each trial's folder under this one")
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                    help="postgresql: on a throw-away cluster started (and stopped) here")
    args = ap.parse_args()
    if args.backend == "postgresql":
        from tests import postgres_cluster

        with postgres_cluster.cluster() as pg:
            trials(args, lambda r: postgres_props(pg.url("").rstrip("/"), f"crash{r:02d}"))
    else:
        trials(args, lambda r: PROPS)


def trials(args: argparse.Namespace, props_of: Any) -> None:
    rng = random.Random(args.seed)
    root = args.keep or Path(tempfile.mkdtemp(prefix="hugelite-crash-"))
    failed = acked = batches = present = done = 0
    started = time.perf_counter()
    for r in range((args.trials + args.per_store - 1) // args.per_store):
        base = root / f"store{r:02d}"
        base.mkdir(parents=True, exist_ok=True)
        for trial in run_round(base, rng, min(args.per_store, args.trials - done), args.loaders, args.singles,
                               props=props_of(r)):
            done += 1
            acked += len(trial.acked)
            batches += sum(1 for m in trial.acked if trial.sent[m][1] == BATCH)
            present += sum(1 for m in trial.sent if trial.found.get(m))
            failed += not trial.ok()
            print(f"trial {done:3d}: {'ok  ' if trial.ok() else 'FAIL'} {trial.summary()}", flush=True)
            if not trial.ok():
                print(f"    lost {trial.lost[:5]} partial {trial.partial[:5]} unknown {trial.unknown[:5]} "
                      f"refused {list(trial.refused.items())[:2]} earlier changed {trial.earlier_changed[:5]}")
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print(f"\n{done} trials in {time.perf_counter() - started:.0f} s: {failed} failed; "
          f"{acked} acknowledged requests ({batches} batches of {BATCH}), {present} requests present after restart")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
