"""`hugelite load` beside raw sqlite3 and the REST batch load, on the same rows.

    python -m bench.loader --size small|large [--only raw,csv-raw,loader,loader-rest,rest-batch]

The workload (`bench/workload.py`) is written as CSV files (`people.csv`: name, age, city;
`knows.csv`: source, target, weight) with a hugegraph-loader `struct.json` and the schema
`bench/rest_load.py` makes (person PRIMARY_KEY name, knows person->person). Each system runs
in a subprocess of its own, one after the other, so each peak RSS is its own:

* `raw`: plain sqlite3 inserting the rows (already in memory) in one transaction, then the
  same indexes (`bench/raw_sqlite.py`): the storage floor;
* `csv-raw`: the same, reading the rows from the CSV files with the `csv` module first:
  the floor of a CSV load, parsing included;
* `loader`: `run_load` in process (what `hugelite load --store` runs), default batch size;
* `loader-rest`: `run_load` over REST into a real server (`hugelite load --url`), 500 per
  request; the server's CPU and peak RSS are read from /proc;
* `rest-batch`: `bench/rest_load.py`'s REST batch load (one httpx client, bodies made in
  memory), for reference.

It prints one markdown table: wall time and elements/s, CPU seconds (client plus server
over REST) and the ratio to raw sqlite3's CPU seconds, peak RSS.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.raw_sqlite import RawSqlite
from bench.workload import SIZES, Workload, workload

SCHEMA = """
schema.propertyKey("name").asText().ifNotExist().create()
schema.propertyKey("age").asInt().ifNotExist().create()
schema.propertyKey("city").asText().ifNotExist().create()
schema.propertyKey("weight").asDouble().ifNotExist().create()
schema.vertexLabel("person").properties("name", "age", "city").primaryKeys("name")
      .nullableKeys("age", "city").ifNotExist().create()
schema.edgeLabel("knows").sourceLabel("person").targetLabel("person").properties("weight")
      .nullableKeys("weight").ifNotExist().create()
"""
STRUCT = {"version": "2.0", "structs": [
    {"id": "people", "input": {"path": "people.csv"}, "vertices": [{"label": "person"}]},
    {"id": "knows", "input": {"path": "knows.csv"},
     "edges": [{"label": "knows", "source": ["source"], "target": ["target"],
                "field_mapping": {"source": "name", "target": "name"}}]},
]}
SYSTEMS = ("raw", "csv-raw", "loader", "loader-rest", "rest-batch")


def write_inputs(w: Workload, folder: Path) -> None:
    with open(folder / "people.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "age", "city"])
        out.writerows((n, a, c) for _i, n, a, c in w.vertices())
    with open(folder / "knows.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["source", "target", "weight"])
        out.writerows((f"p{o}", f"p{i}", wt) for o, i, wt in w.edges())
    (folder / "struct.json").write_text(json.dumps(STRUCT))
    (folder / "schema.groovy").write_text(SCHEMA)


def _peak_kib() -> int:
    """This process's peak RSS (`VmHWM`). Not `ru_maxrss`: Linux keeps that across `exec`, so
    a child started by this runner (which holds the workload's rows) would report the
    runner's peak."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# ---- the systems (each runs in its own process: `--child NAME DIR`) ------------------------------


def run_raw(w: Workload, folder: Path) -> dict[str, float]:
    raw = RawSqlite(folder / "raw.db")
    t0 = time.perf_counter()
    raw.load(w)
    took = time.perf_counter() - t0
    raw.close()
    return {"seconds": took}


def run_csv_raw(w: Workload, folder: Path) -> dict[str, float]:
    import sqlite3

    t0 = time.perf_counter()
    con = sqlite3.connect(folder / "csvraw.db")
    con.executescript("""PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
        CREATE TABLE v (k INTEGER PRIMARY KEY, name TEXT UNIQUE, age INT, city TEXT);
        CREATE TABLE e (k INTEGER PRIMARY KEY, o INT, i INT, label INT, weight REAL);""")
    with con, open(folder / "people.csv", newline="") as vf, open(folder / "knows.csv", newline="") as ef:
        rows = csv.reader(vf)
        next(rows)
        con.executemany("INSERT INTO v (name, age, city) VALUES (?,?,?)", ((n, int(a), c) for n, a, c in rows))
        keys = dict(con.execute("SELECT name, k FROM v"))
        rows = csv.reader(ef)
        next(rows)
        con.executemany("INSERT INTO e (o, i, label, weight) VALUES (?,?,1,?)",
                        ((keys[s], keys[t], float(wt)) for s, t, wt in rows))
        con.executescript("CREATE INDEX e_out ON e (o, label, i); CREATE INDEX e_in ON e (i, label, o);")
    con.close()
    return {"seconds": time.perf_counter() - t0}


def run_loader(w: Workload, folder: Path) -> dict[str, float]:
    from gremlin_engine import GraphConfig, GraphRegistry
    from gremlin_engine.io.load_job import LoadOptions, run_load
    from gremlin_engine.io.mapping import read_mapping
    from gremlin_engine.io.sink import GraphWriter

    cfg = GraphConfig(name="bench", backend="sqlite", store=str(folder / "loader.db"))
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=None)
    graph = registry.open(cfg)
    t0 = time.perf_counter()
    summary = run_load(GraphWriter(graph), read_mapping(folder / "struct.json"),
                       LoadOptions(schema_script=SCHEMA, max_parse_errors=0, max_insert_errors=0))
    took = time.perf_counter() - t0
    assert summary.elements == w.n_vertices + w.n_edges, summary.lines()
    registry.close_all()
    return {"seconds": took}


def run_loader_rest(w: Workload, folder: Path) -> dict[str, float]:
    from bench.rest_load import GRAPH, Server
    from gremlin_engine.io.load_job import LoadOptions, run_load
    from gremlin_engine.io.mapping import read_mapping
    from rest_adapter.remote_graph import RemoteGraph

    (folder / "srv").mkdir()
    server = Server(folder / "srv")
    try:
        with RemoteGraph(server.url, GRAPH) as remote:
            cpu0 = server.cpu_s()
            t0 = time.perf_counter()
            summary = run_load(remote, read_mapping(folder / "struct.json"),
                               LoadOptions(batch_size=500, schema_script=SCHEMA, max_parse_errors=0,
                                           max_insert_errors=0))
            took = time.perf_counter() - t0
            cpu = server.cpu_s() - cpu0
        assert summary.elements == w.n_vertices + w.n_edges, summary.lines()
        return {"seconds": took, "server_peak_kib": server.peak_rss_kib(), "server_cpu_s": cpu}
    finally:
        server.stop()


def run_rest_batch(w: Workload, folder: Path) -> dict[str, float]:
    from bench.rest_load import Server, rest_load

    (folder / "srv2").mkdir()
    server = Server(folder / "srv2")
    try:
        cpu0 = server.cpu_s()
        got = rest_load(server, w, clients=1)
        return {"seconds": got["total_s"], "server_peak_kib": server.peak_rss_kib(), "server_cpu_s": server.cpu_s() - cpu0}
    finally:
        server.stop()


RUNNERS = {"raw": run_raw, "csv-raw": run_csv_raw, "loader": run_loader, "loader-rest": run_loader_rest,
           "rest-batch": run_rest_batch}


def child(name: str, size: str, folder: Path) -> None:
    cpu0 = time.process_time()
    result = RUNNERS[name](workload(size), folder)
    # CPU seconds: this machine is shared, and CPU time moves far less than wall time with
    # the load of others; over REST the server's CPU is added
    result["cpu_s"] = time.process_time() - cpu0 + result.get("server_cpu_s", 0.0)
    result["peak_kib"] = _peak_kib()
    print(json.dumps(result))


# ---- the runner ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--only", default=",".join(SYSTEMS), help="comma-separated systems")
    ap.add_argument("--child", nargs=2, metavar=("SYSTEM", "DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child[0], args.size, Path(args.child[1]))
        return
    w = workload(args.size)
    n = w.n_vertices + w.n_edges
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="hugelite-loader-bench-") as tmp:
        folder = Path(tmp)
        write_inputs(w, folder)
        for name in args.only.split(","):
            done = subprocess.run([sys.executable, "-m", "bench.loader", "--size", args.size, "--child", name, tmp],
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(f"{name}: failed\n{done.stderr[-3000:]}", file=sys.stderr)
                continue
            results[name] = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\n### `hugelite load` at `{args.size}` ({w.n_vertices:,} vertices + {w.n_edges:,} edges)\n")
    print("| system | wall s | elements/s | CPU s | elements/CPU s | × raw sqlite3 (CPU) | peak RSS MiB | "
          "server peak RSS MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    base = results.get("raw", {}).get("cpu_s")
    for name, r in results.items():
        ratio = f"{r['cpu_s'] / base:.1f}" if base else "-"
        server = f"{r['server_peak_kib'] / 1024:.0f}" if "server_peak_kib" in r else "-"
        print(f"| {name} | {r['seconds']:.2f} | {n / r['seconds']:,.0f} | {r['cpu_s']:.2f} | {n / r['cpu_s']:,.0f} "
              f"| {ratio} | {r['peak_kib'] / 1024:.0f} | {server} |")


if __name__ == "__main__":
    main()
