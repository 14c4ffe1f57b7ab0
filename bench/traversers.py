"""Traversers over REST beside raw sqlite3 and networkx, in one run.

    python -m bench.traversers --size small|large [--probes N] [--keep DIR] [--tree TREE]
    python -m bench.traversers --size small --backend postgresql

`--backend postgresql`: the hugelite store (served over REST and opened in process) is the
database `bench` of a PostgreSQL server: `$HUGELITE_BENCH_PG_URL` (a SQLAlchemy URL without
a database), else a throw-away cluster started for the run (`tests/postgres_cluster.py`)
and stopped after it. Raw sqlite3 and networkx stay the reference. The server CPU column is
then hugelite's process only; PostgreSQL's own processes (the cluster's, summed from /proc
clock ticks) get a column of their own. `--keep` is for SQLite stores only.

`--keep DIR` builds the stores in DIR and keeps them; a later run with the same DIR (and
size) reuses them instead of loading again (the large load takes minutes). A store built by
an older store layout is reused as it is (it must still open: stores migrate).

1. Builds the workload's hugelite store with `bench/engine.py` (strict schema, person ids
   i + 1, `knows` edges), then serves it from a real server (`python -m rest_adapter serve`)
   with `schema.mode=auto`: personal rank needs an edge label joining two vertex labels in
   strict mode, and the workload has one label; auto mode walks it as a bipartite view (the
   source side OUT, the other side IN), which is the recurrence the other systems run too.
2. Runs over REST (httpx, one client): k-out depth 1-4 and k-neighbor depth 2-3 (`OUT`,
   label `knows`, `count_only`, 20 probes), the same k-out depth 1-2 and k-neighbor depth 2
   as listings (`count_only=false`: the vertex ids, what clients mostly ask for; rows marked
   "ids"), shortest path for 100 probe pairs (`OUT`,
   max_depth 6), personal rank (max_depth 5), and k-out depth 6 once (the large graph's
   capacity check). Each operation runs several rounds on every system in turn (light ones
   50), and the table shows the median round.
3. Runs the same operations as hand-written frontier BFS / bidirectional BFS / the
   rank recurrence over plain `sqlite3` on `bench/raw_sqlite.py`'s tables, and over an
   in-memory networkx DiGraph.
4. Runs the same requests in this process through `Graph.traverse` on the same store (the
   IR the REST handlers build), so the table shows where a REST request's time goes: the
   engine's share (in-process), the server's CPU seconds (engine + HTTP stack, summed over
   its threads from /proc/<pid>/task/*/schedstat, in nanoseconds) and this client's CPU
   seconds (httpx and JSON decoding).
5. Cross-checks every answer (counts, listed id sets, path lengths, rank keys) and prints one table of CPU
   seconds (wall clock beside them) with the ratios to raw sqlite3, plus peak RSS of the
   server and of this process. CPU time is the figure to compare: on a shared machine wall
   clock mostly measures the other load.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bench.engine import HugeliteEngine
from bench.measure import PG_URL_ENV
from bench.raw_sqlite import RawSqlite
from bench.server import BenchServer
from bench.workload import Workload, workload

CHUNK = 900  # sqlite parameters per IN (...) list
T = "/graphs/bench/traversers"


# ---- the server --------------------------------------------------------------------------------


class Server(BenchServer):
    """The traverser target: an auto-mode graph on the store the bench loaded (the SQLite
    file `store`, or with `pg_url` the database `bench` of that PostgreSQL server), served
    from `tree` (default: this one; `--tree` measures another source tree with this bench)."""

    def __init__(self, base: Path, store: Path, tree: str | None = None, pg_url: str | None = None) -> None:
        where = (f"backend=postgresql\nstore=bench\nsqlalchemy.url={pg_url}\n" if pg_url
                 else f"backend=sqlite\nstore={store}\n")
        super().__init__(base, "bench", f"{where}schema.mode=auto\n", timeout_ms=0, tree=tree)

    def threads_ns(self) -> dict[str, int]:
        """Per live thread of the server, the nanoseconds it has run on a CPU (user + system,
        `/proc/<pid>/task/<tid>/schedstat`): exact, where `/proc/<pid>/stat` counts 10 ms ticks."""
        out = {}
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                out[task.name] = int((task / "schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue  # the thread ended meanwhile
        return out

    def cpu_since(self, before: dict[str, int], ticks_before: float) -> float:
        """Server CPU seconds since `before` (`threads_ns`); when a thread that ran then has
        ended since (its nanoseconds are gone from /proc), the 10 ms tick count instead."""
        now = self.threads_ns()
        if any(tid not in now for tid in before):
            return self.cpu_s() - ticks_before
        return sum(ns - before.get(tid, 0) for tid, ns in now.items()) / 1e9


class Rest:
    name = "hugelite REST"

    def __init__(self, url: str) -> None:
        self.client = httpx.Client(base_url=url, timeout=3600)

    def _get(self, path: str, **params: Any) -> Any:
        r = self.client.get(f"{T}/{path}", params=params)
        if r.status_code != 200:
            raise RuntimeError(r.text)
        return r.json()

    def kout(self, v: int, k: int) -> int:
        return self._get("kout", source=str(v), max_depth=k, direction="OUT", label="knows", count_only="true",
                         max_degree=-1, capacity=-1, limit=-1)["vertices_size"]

    def kneighbor(self, v: int, k: int) -> int:
        return self._get("kneighbor", source=str(v), max_depth=k, direction="OUT", label="knows", count_only="true",
                         max_degree=-1, limit=-1)["vertices_size"] - 1  # the GET form counts the source

    def kout_ids(self, v: int, k: int) -> list[Any]:
        return self._get("kout", source=str(v), max_depth=k, direction="OUT", label="knows", count_only="false",
                         max_degree=-1, capacity=-1, limit=-1)["vertices"]

    def kneighbor_ids(self, v: int, k: int) -> list[Any]:
        return self._get("kneighbor", source=str(v), max_depth=k, direction="OUT", label="knows",
                         count_only="false", max_degree=-1, limit=-1)["vertices"]  # the source among them

    def shortest(self, a: int, b: int, depth: int) -> int:
        path = self._get("shortestpath", source=str(a), target=str(b), max_depth=depth, direction="OUT",
                         label="knows", max_degree=-1, capacity=-1)["path"]
        return len(path) - 1 if path else -1

    def personal_rank(self, v: int, depth: int) -> list[int]:
        r = self.client.post(f"{T}/personalrank", json={"source": v, "label": "knows", "max_depth": depth,
                                                        "max_degree": -1, "limit": 20})
        if r.status_code != 200:
            raise RuntimeError(r.text)
        return [int(k) for k in r.json()]


class InProcess(Rest):
    """The same requests as `Rest`, run in this process by `Graph.traverse` on the
    same store (`inject(request).hg_<step>()`, the IR the REST handlers build, by the entry
    they call): the engine's share of a REST request, with no HTTP, JSON or
    client in the way."""

    name = "engine in-process"

    def __init__(self, store: Path, pg_url: str | None = None) -> None:
        from gremlin_engine import GraphConfig, GraphRegistry

        self.registry = GraphRegistry(evaluation_timeout_ms=0)
        config = (GraphConfig(name="bench", backend="postgresql", store="bench", schema_mode="auto",
                              extra={"sqlalchemy.url": pg_url}) if pg_url
                  else GraphConfig(name="bench", backend="sqlite", store=str(store), schema_mode="auto"))
        self.graph = self.registry.open(config)

    def _run(self, step: str, req: dict[str, Any]) -> Any:
        from gremlin_engine.structure.numbers import Long
        from gremlin_engine.traversal.ir import Instruction, TraversalIR

        for k in ("source", "target"):
            if k in req:  # what the REST layer's id parser makes of `"123"` / `123`
                req[k] = Long(int(req[k]))
        return self.graph.traverse(TraversalIR((), (Instruction("inject", (req,)), Instruction(step, ()))))[0]

    def _get(self, path: str, **params: Any) -> Any:
        req = {k: (v == "true") if v in ("true", "false") else v for k, v in params.items()}
        return self._run(f"hg_{path}", req)

    def personal_rank(self, v: int, depth: int) -> list[int]:
        got = self._run("hg_personalrank", {"source": v, "label": "knows", "max_depth": depth, "max_degree": -1,
                                            "limit": 20})
        return [int(k) for k in got]

    def close(self) -> None:
        self.registry.close_all()


# ---- raw sqlite3: the same algorithms by hand over plain SQL ---------------------------------


class Raw:
    name = "raw sqlite3"

    def __init__(self, db: RawSqlite) -> None:
        self.con = db.con

    def _adj(self, keys: list[int], out: bool) -> list[tuple[int, int]]:
        this, other = ("o", "i") if out else ("i", "o")
        rows: list[tuple[int, int]] = []
        for s in range(0, len(keys), CHUNK):
            part = keys[s:s + CHUNK]
            rows += self.con.execute(
                f"SELECT {this}, {other} FROM e WHERE label = 1 AND {this} IN ({','.join('?' * len(part))})",
                part).fetchall()
        return rows

    def _levels(self, v: int, k: int) -> list[set[int]]:
        seen = {v}
        frontier = [v]
        levels = []
        for _ in range(k):
            nxt = []
            for _, t in self._adj(frontier, True):
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
            levels.append(set(nxt))
            frontier = nxt
        return levels

    def kout(self, v: int, k: int) -> int:
        return len(self._levels(v, k)[-1])

    def kneighbor(self, v: int, k: int) -> int:
        return sum(len(x) for x in self._levels(v, k))

    def kout_ids(self, v: int, k: int) -> list[int]:
        return list(self._levels(v, k)[-1])

    def kneighbor_ids(self, v: int, k: int) -> list[int]:
        return [v, *(t for level in self._levels(v, k) for t in level)]  # as HugeGraph's GET: the source too

    def shortest(self, a: int, b: int, depth: int) -> int:
        if a == b:
            return 0
        dist = [{a: 0}, {b: 0}]
        fronts = [[a], [b]]
        for d in range(depth):
            side = d % 2
            new = []
            for _, t in self._adj(fronts[side], side == 0):
                if t in dist[side]:
                    continue
                dist[side][t] = d // 2 + 1
                if t in dist[1 - side]:
                    return dist[0][t] + dist[1][t]
                new.append(t)
            fronts[side] = new
            if not new:
                return -1
        return -1

    def personal_rank(self, v: int, depth: int) -> list[int]:
        return rank_recurrence(v, depth, lambda keys, out: self._adj(keys, out))


# ---- networkx ---------------------------------------------------------------------------------


class NetworkX:
    name = "networkx"

    def __init__(self, w: Workload) -> None:
        import networkx as nx

        self.nx = nx
        self.g = nx.DiGraph()
        self.g.add_nodes_from(range(1, w.n_vertices + 1))
        self.g.add_edges_from((o + 1, i + 1) for o, i, _ in w.edges())

    def kout(self, v: int, k: int) -> int:
        d = self.nx.single_source_shortest_path_length(self.g, v, cutoff=k)
        return sum(1 for x in d.values() if x == k)

    def kneighbor(self, v: int, k: int) -> int:
        return len(self.nx.single_source_shortest_path_length(self.g, v, cutoff=k)) - 1

    def kout_ids(self, v: int, k: int) -> list[int]:
        d = self.nx.single_source_shortest_path_length(self.g, v, cutoff=k)
        return [x for x, n in d.items() if n == k]

    def kneighbor_ids(self, v: int, k: int) -> list[int]:
        return list(self.nx.single_source_shortest_path_length(self.g, v, cutoff=k))

    def shortest(self, a: int, b: int, depth: int) -> int:
        try:
            n = len(self.nx.bidirectional_shortest_path(self.g, a, b)) - 1
        except self.nx.NetworkXNoPath:
            return -1
        return n if n <= depth else -1

    def personal_rank(self, v: int, depth: int) -> list[int]:
        succ, pred = self.g.succ, self.g.pred

        def adj(keys: list[int], out: bool) -> list[tuple[int, int]]:
            table = succ if out else pred
            return [(k, t) for k in keys for t in table[k]]

        return rank_recurrence(v, depth, adj)


def rank_recurrence(src: int, depth: int, adj: Callable[[list[int], bool], list[tuple[int, int]]],
                    alpha: float = 0.85, top: int = 20) -> list[int]:
    """HugeGraph's personal rank (source side walks OUT, the other side IN), top ids."""
    ranks = {src: 1.0}
    seeds = {True: {src}, False: set()}
    cache: dict[tuple[bool, int], list[int]] = {}
    first: set[int] = set()
    for i in range(depth):
        new: dict[int, float] = {}
        reached: dict[bool, set[int]] = {True: set(), False: set()}
        for out in (True, False):
            todo = [s for s in seeds[out] if (out, s) not in cache]
            for s in todo:
                cache[(out, s)] = []
            for s, t in adj(todo, out):
                cache[(out, s)].append(t)
            for s in seeds[out]:
                nbrs = cache[(out, s)]
                if not nbrs:
                    new[s] = ranks.get(s, 0.0)
                    continue
                share = ranks.get(s, 0.0) * alpha / len(nbrs)
                for t in nbrs:
                    new[t] = new.get(t, 0.0) + share
                    reached[not out].add(t)
        seeds[True] |= reached[True]
        seeds[False] |= reached[False]
        new[src] = new.get(src, 0.0) + 1 - alpha
        ranks = new
        if i == 0:
            first = set(ranks)
    items = sorted(((k, r) for k, r in ranks.items() if k not in first), key=lambda x: x[1], reverse=True)
    return [k for k, _ in items[:top]]


# ---- the run ----------------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def _spread(xs: list[float]) -> float:
    """The standard error of the median of `xs`, relative to it: 1.25 sigma / sqrt(n), sigma
    estimated robustly from the interquartile range (IQR / 1.35), so one burst of other load
    does not inflate it (for fewer than 4 rounds: half the range)."""
    med = statistics.median(xs) if xs else 0.0
    if not med:
        return 0.0
    if len(xs) < 4:
        return (max(xs) - min(xs)) / 2 / med
    q1, _, q3 = statistics.quantiles(xs, n=4)
    return 1.2533 * (q3 - q1) / 1.349 / len(xs) ** 0.5 / med


class PgCpu:
    """CPU seconds of a local PostgreSQL cluster's server processes (the postmaster's
    children: the backends serving hugelite's connections), from /proc's clock ticks; 0.0
    without a local cluster (`$HUGELITE_BENCH_PG_URL`). A backend that ends between two
    readings takes its ticks with it; hugelite's pools keep theirs open."""

    def __init__(self, data: Path | None) -> None:
        self.postmaster = int((data / "postmaster.pid").read_text().split()[0]) if data else None
        self.tick = os.sysconf("SC_CLK_TCK")

    def seconds(self) -> float:
        if self.postmaster is None:
            return 0.0
        pid = self.postmaster
        total = 0
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            try:
                fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / self.tick


def run(size: str, probes: int, keep: Path | None = None, tree: str | None = None,
        pg_url: str | None = None, pg_data: Path | None = None) -> None:
    w = workload(size)
    pv = [p + 1 for p in w.probe_vertices(probes)]
    pairs = list(zip(pv, pv[1:] + pv[:1], strict=True))
    base = keep if keep is not None else Path(tempfile.mkdtemp(prefix="hl-trav-"))
    marker = base / f"built-{size}"
    t0 = time.perf_counter()
    if keep is not None and marker.exists():
        raw_db = RawSqlite(base / "raw.db")
        print(f"# reusing the stores in {base}")
    else:
        if keep is not None:
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir(parents=True)
        engine = HugeliteEngine(base / "bench.db", schema_mode="auto", server_url=pg_url)  # a store keeps the mode it is made in
        engine.load(w)
        engine.close()
        raw_db = RawSqlite(base / "raw.db")
        raw_db.load(w)
        if keep is not None:
            marker.write_text(size)
    nxg = NetworkX(w)
    print(f"# traversers, {size}: {w.n_vertices} vertices / {w.n_edges} edges, {len(pv)} probes "
          f"(setup {time.perf_counter() - t0:.0f} s){'; hugelite on PostgreSQL' if pg_url else ''}\n")
    server = Server(base, base / "bench.db", tree, pg_url)
    rest = Rest(server.url)
    engine_ip = InProcess(base / "bench.db", pg_url)
    pg_cpu = PgCpu(pg_data)
    systems = [rest, engine_ip, Raw(raw_db), nxg]
    # every operation runs `rounds` times on every system, interleaved (A/B: a burst of other
    # load on the shared machine hits all systems alike) after one warm-up round each; the
    # table shows the median round. Server CPU is exact (per-thread schedstat, `threads_ns`),
    # so the light operations need rounds only for the median, not for tick resolution.
    ops: list[tuple[str, Callable[[Any], Any], int]] = []
    n20 = min(len(pv), 20)
    rounds = {"kout 1": 50, "kout 2": 50, "kout 3": 15, "kout 4": 7, "kneighbor 2": 50, "kneighbor 3": 15,
              "shortest": 11, "rank": 3}
    # the light depths also as listings (`count_only=false`, the vertex ids, what clients
    # mostly ask for), each right after its count form, with the same probes and rounds
    for k in (1, 2, 3, 4):
        ops.append((f"kout depth {k} (x{n20})", lambda s, k=k: [s.kout(v, k) for v in pv[:20]], rounds[f"kout {k}"]))
        if k <= 2:
            ops.append((f"kout depth {k}, ids (x{n20})", lambda s, k=k: [s.kout_ids(v, k) for v in pv[:20]],
                        rounds[f"kout {k}"]))
    for k in (2, 3):
        ops.append((f"kneighbor depth {k} (x{n20})", lambda s, k=k: [s.kneighbor(v, k) for v in pv[:20]],
                    rounds[f"kneighbor {k}"]))
        if k == 2:
            ops.append((f"kneighbor depth {k}, ids (x{n20})",
                        lambda s, k=k: [s.kneighbor_ids(v, k) for v in pv[:20]], rounds[f"kneighbor {k}"]))
    ops.append((f"shortest path (x{len(pairs)})", lambda s: [s.shortest(a, b, 6) for a, b in pairs],
                rounds["shortest"]))
    ops.append(("personal rank depth 5 (x5)", lambda s: [s.personal_rank(v, 5) for v in pv[:5]], rounds["rank"]))
    rows = []
    try:
        for label, fn, reps in ops:
            samples: dict[str, dict[str, list[float]]] = {"wall": {}, "cpu": {}}
            answers = {}
            for s in systems:
                answers[s.name] = fn(s)  # warm-up round, and the answer to cross-check
            for rep in range(reps):
                for s in systems:
                    if s is nxg and rep >= 3:
                        continue  # networkx is a reference, not a target: three rounds do
                    cpu0, srv0, ticks0, pg0 = time.process_time(), server.threads_ns(), server.cpu_s(), pg_cpu.seconds()
                    wall_s, _ = timed(lambda s=s, fn=fn: fn(s))
                    cpu_s = time.process_time() - cpu0  # this process: the system itself, or the REST client
                    if s is rest:
                        samples["cpu"].setdefault("server", []).append(server.cpu_since(srv0, ticks0))
                        samples["cpu"].setdefault("postgresql", []).append(pg_cpu.seconds() - pg0)
                    samples["wall"].setdefault(s.name, []).append(wall_s)
                    samples["cpu"].setdefault(s.name, []).append(cpu_s)
            wall = {k: statistics.median(v) for k, v in samples["wall"].items()}
            cpu = {k: statistics.median(v) for k, v in samples["cpu"].items()}
            spread = {k: _spread(v) for k, v in samples["cpu"].items()}
            ref = answers["raw sqlite3"]
            agree = all(a == ref for a in answers.values())
            if label.startswith("personal"):  # ties may order differently: compare the sets
                agree = all([set(x) for x in a] == [set(x) for x in ref] for a in answers.values())
            if ", ids" in label:  # HugeGraph's order is not raw's: the id sets, each without repeats
                agree = all([set(map(int, x)) for x in a] == [set(x) for x in ref]
                            and all(len(set(x)) == len(x) for x in a) for a in answers.values())
            rows.append((f"{label}, {reps} rounds", wall, cpu, agree, spread, len(answers["raw sqlite3"])))
        deep_t, deep = timed(lambda: rest.kout(pv[0], 6))
    finally:
        server_peak = server.peak_rss_kib()
        server.stop()
        engine_ip.close()
        raw_db.close()
        if keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print("CPU seconds of one round, median of the rounds (wall clock in brackets; the machine may be shared, "
          "CPU time is what compares):\n")
    pg_column = pg_data is not None
    print("| operation | REST: server CPU | server CPU per request | "
          + ("REST: PostgreSQL CPU | " if pg_column else "") + "REST: client CPU | engine in-process "
          "| raw sqlite3 | networkx | server / raw | engine / raw | REST wall / raw wall | answers agree |")
    print("|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if pg_column else ""))
    for label, wall, cpu, agree, spread, n in rows:
        r, e, q, x = "hugelite REST", "engine in-process", "raw sqlite3", "networkx"
        pg = f"{cpu['postgresql']:.3f} | " if pg_column else ""
        print(f"| {label} | {cpu['server']:.4f} ±{spread['server']:.0%} ({wall[r]:.3f}) "
              f"| {cpu['server'] / n * 1e6:.0f} µs | {pg}{cpu[r]:.4f} | {cpu[e]:.4f} ±{spread[e]:.0%} ({wall[e]:.3f}) "
              f"| {cpu[q]:.4f} ±{spread[q]:.0%} ({wall[q]:.3f}) | {cpu[x]:.3f} "
              f"| {cpu['server'] / cpu[q]:.2f}x | {cpu[e] / cpu[q]:.2f}x | {wall[r] / wall[q]:.2f}x "
              f"| {'yes' if agree else '**NO**'} |")
    for what, num in (("server CPU", "server"), ("engine in-process", "engine in-process")):
        ratio = statistics.median(c[num] / c["raw sqlite3"] for label, _, c, *_ in rows if ", ids" not in label)
        listed = statistics.median(c[num] / c["raw sqlite3"] for _, _, c, *_ in rows)
        print(f"\nmedian {what} / raw sqlite3 CPU: {ratio:.2f}x without the listing rows, {listed:.2f}x with them "
              "(target <= 2x)", end="")
    print("\nserver CPU: CPU seconds of the server's threads from /proc/<pid>/task/*/schedstat (ns: engine, HTTP "
          "stack, JSON); ± is the standard error of a median (from the rounds' interquartile range); "
          "client CPU: this process while it sent the REST requests (httpx, JSON decoding)")
    print(f"kout depth 6 from vertex {pv[0]}: {deep} vertices in {deep_t:.2f} s (default capacity 10M)")
    print(f"peak RSS: server {server_peak / 1024:.0f} MiB; bench process (raw sqlite3 + networkx graph) "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=("small", "large"), default="small")
    ap.add_argument("--probes", type=int, default=100)
    ap.add_argument("--keep", type=Path, default=None, help="build the stores here and reuse them on later runs")
    ap.add_argument("--tree", default=None,
                    help="serve this source tree (an A/B against another tree: run the bench once per tree, "
                         "alternating, each over its own copy of the stores)")
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                    help="postgresql: hugelite's store in a PostgreSQL database (module docstring)")
    args = ap.parse_args()
    if args.backend != "postgresql":
        run(args.size, args.probes, args.keep, args.tree)
        return
    if args.keep is not None:
        ap.error("--keep is for SQLite stores (a PostgreSQL store lives in the server)")
    with contextlib.ExitStack() as stack:
        url, data = os.environ.get(PG_URL_ENV), None
        if not url:
            from tests import postgres_cluster

            pg = stack.enter_context(postgres_cluster.cluster())
            url, data = pg.url("").rstrip("/"), pg.data
        run(args.size, args.probes, None, args.tree, url, data)


if __name__ == "__main__":
    main()
