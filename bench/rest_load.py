"""REST bulk load and GET-by-id throughput, beside raw sqlite3, in one run.

    python -m bench.rest_load --size small|large [--get-requests N] [--concurrency C]
                              [--only load|get] [--rounds R] [--get-clients httpx raw]
                              [--load-client httpx|raw]
    python -m bench.rest_load --ab TREE_A TREE_B [--ab-env 1:VAR=VALUE] [--rounds R] [--clients 1 4]

1. Starts a real server (`python -m rest_adapter serve`, uvicorn) on a temp-file sqlite
   graph with the workload's schema (person PRIMARY_KEY name; knows person->person).
2. Loads the workload over REST with `POST .../vertices/batch` and `POST .../edges/batch`,
   500 elements per request, first with one client, then (graph cleared, schema rebuilt)
   with four concurrent clients (httpx, one thread each).
3. Measures `GET .../vertices/{id}` throughput and p50/p99 latency with C concurrent
   clients and with one, twice: with httpx (asyncio) and with a hand-written keep-alive
   socket client, since httpx itself costs ~2 ms of CPU per request here and caps a run
   near 450 req/s whatever the server does.
4. Inserts the same rows with raw sqlite3 in-process (`bench/raw_sqlite.py`): the limit.
5. Prints one table: elements/s, ratio to raw sqlite3, req/s, latencies, peak RSS of the
   server process (`VmHWM`) and of this process.

Targets (issue 4): REST batch load >= 50k elements/s, GET by id >= 3,000 req/s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson

from bench.raw_sqlite import RawSqlite
from bench.server import BenchServer
from bench.workload import SIZES, Workload, workload

BATCH = 500
GRAPH = "bench"
P = f"/graphs/{GRAPH}"
TARGET_LOAD = 50_000
TARGET_GET = 3_000
_JSON = {"content-type": "application/json"}


# ---- the server ------------------------------------------------------------------------------


class Server(BenchServer):
    """The REST load target: a strict graph on a temp sqlite file (served from `tree`, with
    `env`: see `BenchServer`)."""

    def __init__(self, base: Path, tree: str | None = None, env: dict[str, str] | None = None) -> None:
        props = f"backend=sqlite\nstore={base / 'bench.db'}\nschema.mode=strict\n"
        super().__init__(base, GRAPH, props, timeout_ms=600000, init_store=True, tree=tree, env=env)


def make_schema(client: httpx.Client, graph_path: str = P) -> None:
    """Clears the graph at `graph_path` and declares the workload's schema over REST (also the
    schema `compare/bench.py` gives the real HugeGraph, so both servers load the same graph)."""
    r = client.delete(f"{graph_path}/clear", params={"confirm_message": "I'm sure to delete all data"})
    assert r.status_code == 204, r.text
    for name, dt in (("name", "TEXT"), ("age", "INT"), ("city", "TEXT"), ("weight", "DOUBLE")):
        r = client.post(f"{graph_path}/schema/propertykeys", json={"name": name, "data_type": dt})
        assert r.status_code < 300, r.text  # 202 here (a task), 201 or 202 on HugeGraph
    r = client.post(f"{graph_path}/schema/vertexlabels", json={
        "name": "person", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"],
        "properties": ["name", "age", "city"], "nullable_keys": ["age", "city"]})
    assert r.status_code == 201, r.text
    r = client.post(f"{graph_path}/schema/edgelabels", json={
        "name": "knows", "source_label": "person", "target_label": "person",
        "properties": ["weight"], "nullable_keys": ["weight"]})
    assert r.status_code == 201, r.text


# ---- request bodies ----------------------------------------------------------------------------


def vid(i: int) -> str:
    return f"1:p{i}"  # person is vertex label 1, PRIMARY_KEY id "<label id>:<name>"


def vertex_batches(w: Workload) -> Iterator[list[dict[str, Any]]]:
    rows = w.vertices()
    for start in range(0, len(rows), BATCH):
        yield [{"label": "person", "properties": {"name": n, "age": a, "city": c}} for _i, n, a, c in rows[start:start + BATCH]]


def edge_batches(w: Workload) -> Iterator[list[dict[str, Any]]]:
    rows = w.edges()
    for start in range(0, len(rows), BATCH):
        yield [{"label": "knows", "outV": vid(o), "inV": vid(i), "outVLabel": "person", "inVLabel": "person",
                "properties": {"weight": wt}} for o, i, wt in rows[start:start + BATCH]]


# ---- load ----------------------------------------------------------------------------------------


def _raw_post_worker(port: int, path: str, batches: list[list[dict[str, Any]]], errors: list[str]) -> None:
    """POSTs `batches` in turn (each encoded as it is sent) on one keep-alive socket, written and read by hand (as
    `_raw_worker` GETs): ~1 µs of client CPU per element where httpx costs ~4-5, so on this
    2-core machine the clients take less CPU from the server (`--load-client raw`)."""
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buf = b""
        for batch in batches:
            body = orjson.dumps(batch)
            sock.sendall(b"%s%d\r\n\r\n%s" % (head.encode(), len(body), body))
            while b"\r\n\r\n" not in buf:
                buf += sock.recv(65536)
            end = buf.index(b"\r\n\r\n") + 4
            length = 0
            for line in buf[:end].split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            while len(buf) < end + length:
                buf += sock.recv(65536)
            status, answer, buf = buf[9:12], buf[end:end + length], buf[end + length:]
            if status != b"201":
                errors.append(answer[:300].decode(errors="replace"))
                return


def _post_all(url: str, path: str, batches: list[list[dict[str, Any]]], clients: int, raw: bool = False) -> None:
    """Posts every batch, `clients` threads each with its own keep-alive connection, taking
    turns. Each body is encoded once, when it is sent, with orjson: a real loader pays one
    encoding per request too, in a fast encoder (hugegraph-loader uses Jackson); httpx's
    `json=` would use the stdlib encoder, ~3.5 µs of client CPU per edge on this machine,
    which the clients' share of the two cores then takes from the server."""
    errors: list[str] = []

    def worker(k: int) -> None:
        if raw:
            _raw_post_worker(int(url.rsplit(":", 1)[1]), path, batches[k::clients], errors)
            return
        with httpx.Client(base_url=url, timeout=600, headers=_JSON) as c:
            for n in range(k, len(batches), clients):
                r = c.post(path, content=orjson.dumps(batches[n]))
                if r.status_code != 201:
                    errors.append(r.text[:300])
                    return

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(errors[0])


def rest_load(server: Server, w: Workload, clients: int, raw: bool = False) -> dict[str, float]:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        make_schema(c)
    vb, eb = list(vertex_batches(w)), list(edge_batches(w))
    cpu0, client0 = server.cpu_s(), time.process_time()
    t0 = time.perf_counter()
    _post_all(server.url, f"{P}/graph/vertices/batch", vb, clients, raw)
    t1 = time.perf_counter()
    _post_all(server.url, f"{P}/graph/edges/batch", eb, clients, raw)
    t2 = time.perf_counter()
    cpu, client = server.cpu_s() - cpu0, time.process_time() - client0
    with httpx.Client(base_url=server.url, timeout=60) as c:  # cross-check what landed
        probe = w.probe_vertices(1)[0]
        got = c.get(f'{P}/graph/vertices/"{vid(probe)}"').json()
        assert got["properties"]["name"] == f"p{probe}", got
    n = w.n_vertices + w.n_edges
    return {"vertices_s": t1 - t0, "edges_s": t2 - t1, "total_s": t2 - t0, "elements_per_s": n / (t2 - t0),
            "vertices_per_s": w.n_vertices / (t1 - t0), "edges_per_s": w.n_edges / (t2 - t1),
            "per_server_cpu_s": n / cpu, "server_us": cpu / n * 1e6, "client_us": client / n * 1e6,
            "raw_client": float(raw)}


def ab_load(trees: list[str], envs: list[dict[str, str]], w: Workload, clients: list[int], rounds: int,
            raw: bool) -> str:
    """A/B of the batch load: one server per tree (each its own temp store) kept up, and the
    same load (schema rebuilt, vertices, edges) run on each in turn, the order reversed
    every round; per load the el/s and the server's CPU per element (all its threads,
    schedstat), and the kernel's part of it (system time: SQLite's WAL writes and
    checkpoints, ~5 µs an element at small with one client, ~12-14 at large). On a shared machine the wall figures move with the other load; the CPU per
    element, interleaved like this, is the comparable one. Returns the table of medians."""
    vb, eb = list(vertex_batches(w)), list(edge_batches(w))
    n = w.n_vertices + w.n_edges
    results: dict[tuple[int, int], list[tuple[float, float, float]]] = {(i, c): [] for i in range(len(trees)) for c in clients}
    with tempfile.TemporaryDirectory(prefix="hugelite-rest-ab-") as tmp:
        servers = []
        try:
            for i, (tree, env) in enumerate(zip(trees, envs, strict=True)):
                (Path(tmp) / str(i)).mkdir()
                servers.append(Server(Path(tmp) / str(i), tree, env))
            for r in range(rounds):
                for c in clients:
                    for i in range(len(servers)) if r % 2 == 0 else reversed(range(len(servers))):
                        server = servers[i]
                        with httpx.Client(base_url=server.url, timeout=60) as cl:
                            make_schema(cl)
                        cpu0, sys0, t0 = server.cpu_ns(), server.user_sys_s()[1], time.perf_counter()
                        _post_all(server.url, f"{P}/graph/vertices/batch", vb, c, raw)
                        _post_all(server.url, f"{P}/graph/edges/batch", eb, c, raw)
                        wall, cpu = time.perf_counter() - t0, server.cpu_ns() - cpu0
                        kernel = (server.user_sys_s()[1] - sys0) / n * 1e6
                        results[i, c].append((n / wall, cpu / n / 1000, kernel))
                        print(f"round {r + 1}, tree {i}, {c} client(s): {n / wall:,.0f} el/s, "
                              f"{cpu / n / 1000:.1f} µs server CPU/el (kernel {kernel:.1f}), "
                              f"load {os.getloadavg()[0]:.1f}", flush=True)
        finally:
            for server in servers:
                server.stop()
    lines = ["| tree | env | clients | elements/s (median) | server CPU per element (median) | of which kernel |",
             "|---|---|---:|---:|---:|---:|"]
    for c in clients:
        for i, tree in enumerate(trees):
            got = results[i, c]
            lines.append(f"| {tree} | {' '.join(f'{k}={v}' for k, v in envs[i].items())} | {c} | "
                         f"{_fmt(statistics.median(x[0] for x in got))} | {statistics.median(x[1] for x in got):.1f} µs | "
                         f"{statistics.median(x[2] for x in got):.1f} µs |")
    return "\n".join(lines)


# ---- GET by id -----------------------------------------------------------------------------------


async def _get_run(url: str, paths: list[str], concurrency: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        queue = iter(paths)

        async def worker() -> None:
            for path in queue:
                t = time.perf_counter()
                r = await client.get(path)
                latencies.append(time.perf_counter() - t)
                if r.status_code != 200:
                    raise RuntimeError(r.text[:300])

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - t0, latencies


async def _raw_worker(port: int, queue: Iterator[str], latencies: list[float]) -> None:
    """HTTP/1.1 keep-alive GETs written and read by hand: a client that costs a fraction of
    httpx's CPU (httpx tops out near 450 req/s on this 2-core machine even against a bare
    'hello' ASGI app), so the server's own capacity shows."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for path in queue:
            t = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - t)
            if head[9:12] != b"200":
                raise RuntimeError(body[:300].decode(errors="replace"))
    finally:
        writer.close()


async def _raw_get_run(port: int, paths: list[str], concurrency: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    queue = iter(paths)
    t0 = time.perf_counter()
    await asyncio.gather(*(_raw_worker(port, queue, latencies) for _ in range(concurrency)))
    return time.perf_counter() - t0, latencies


def get_by_id(server: Server, w: Workload, requests: int, concurrency: int, raw: bool = False,
              rounds: int = 1) -> dict[str, float]:
    """GET-by-id figures: the median over `rounds` runs of `requests` each (a shared machine
    makes single runs noisy). Server and client CPU are the two processes' own CPU time, so
    they show what one request costs each side whatever else the machine runs."""
    import random

    rnd = random.Random(7)
    paths = [f'{P}/graph/vertices/"{vid(rnd.randrange(w.n_vertices))}"' for _ in range(requests)]
    run = (lambda ps: _raw_get_run(server.port, ps, concurrency)) if raw else \
        (lambda ps: _get_run(server.url, ps, concurrency))
    asyncio.run(run(paths[: min(200, requests)]))  # warm-up
    results = []
    for _ in range(rounds):
        cpu0, client0 = server.cpu_s(), time.process_time()
        wall, lat = asyncio.run(run(paths))
        cpu, client = server.cpu_s() - cpu0, time.process_time() - client0
        lat.sort()
        results.append({"req_per_s": requests / wall, "p50_ms": statistics.median(lat) * 1000,
                        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
                        "per_server_cpu_s": requests / max(cpu, 1e-9),
                        "server_us": cpu / requests * 1e6, "client_us": client / requests * 1e6})
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


def load_vertices_only(server: Server, w: Workload) -> None:
    """The vertices (for `--only get`): what GET by id reads, without the edge load."""
    with httpx.Client(base_url=server.url, timeout=60) as c:
        make_schema(c)
    _post_all(server.url, f"{P}/graph/vertices/batch", list(vertex_batches(w)), 1)


# ---- raw sqlite3 -------------------------------------------------------------------------------


def raw_load(w: Workload, base: Path) -> dict[str, float]:
    raw = RawSqlite(base / "raw.db")
    t0 = time.perf_counter()
    raw.load(w)
    elapsed = time.perf_counter() - t0
    t1 = time.perf_counter()
    probes = [rnd_i for rnd_i in w.probe_vertices(100)] * 20
    for i in probes:
        raw.point_lookup(i)
    lookups = len(probes) / (time.perf_counter() - t1)
    raw.close()
    return {"total_s": elapsed, "elements_per_s": (w.n_vertices + w.n_edges) / elapsed, "lookups_per_s": lookups}


# ---- report --------------------------------------------------------------------------------------


def _fmt(x: float) -> str:
    return f"{x:,.0f}"


def report(size: str, w: Workload, loads: dict[int, dict[str, float]], gets: dict[tuple[str, int], dict[str, float]],
           raw: dict[str, float], server_kib: int, self_kib: int, load_before: float) -> str:
    lines = [
        f"# REST load benchmark — size {size}: {w.n_vertices:,} vertices, {w.n_edges:,} edges, {BATCH} per request",
        "",
        "| load | vertices/s | edges/s | elements/s | elements per server CPU-second | server CPU per element "
        "| client CPU per element | total | vs raw sqlite3 | target ≥ 50k/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    if not loads:
        lines = lines[:1]
    for clients, r in loads.items():
        ratio = raw["elements_per_s"] / r["elements_per_s"] if raw else float("nan")
        ok = "met" if r["elements_per_s"] >= TARGET_LOAD else "not met"
        how = " (raw socket)" if r.get("raw_client") else ""
        lines.append(f"| REST, {clients} client{'s' if clients > 1 else ''}{how} | {_fmt(r['vertices_per_s'])} | "
                     f"{_fmt(r['edges_per_s'])} | {_fmt(r['elements_per_s'])} | {_fmt(r['per_server_cpu_s'])} | "
                     f"{r['server_us']:.1f} µs | {r['client_us']:.1f} µs | "
                     f"{r['total_s']:.1f} s | "
                     f"{f'{ratio:.1f}× slower' if raw else '—'} | {ok} |")
    if loads and raw:
        lines.append(f"| raw sqlite3 in-process (`executemany`) | | | {_fmt(raw['elements_per_s'])} | | | | "
                     f"{raw['total_s']:.2f} s | 1× | |")
    lines += ["", "| GET vertex by id | req/s | requests per server CPU-second | server CPU per request "
              "| client CPU per request | p50 | p99 | target ≥ 3,000 req/s |",
              "|---|---:|---:|---:|---:|---:|---:|---|"]
    for (client, conc), r in gets.items():
        ok = "met" if r["req_per_s"] >= TARGET_GET else "not met"
        lines.append(f"| {client}, {conc} concurrent client{'s' if conc > 1 else ''} | {_fmt(r['req_per_s'])} | "
                     f"{_fmt(r['per_server_cpu_s'])} | {r['server_us']:.0f} µs | {r['client_us']:.0f} µs | "
                     f"{r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms | {ok} |")
    if raw:
        lines.append(f"| raw sqlite3 point lookup, in-process | {_fmt(raw['lookups_per_s'])} | | | | | | |")
    lines += ["", f"Peak RSS: server {server_kib / 1024:.0f} MiB (VmHWM), bench process {self_kib / 1024:.0f} MiB.",
              f"Machine: {os.cpu_count()} CPUs shared by server and clients; load average before the run "
              f"{load_before:.1f}; Python {sys.version.split()[0]}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--get-requests", type=int, default=5000)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--clients", type=int, nargs="*", default=[1, 4])
    ap.add_argument("--only", choices=["load", "get"], default=None,
                    help="only the batch loads, or only GET by id (after loading the vertices)")
    ap.add_argument("--rounds", type=int, default=1, help="GET runs per configuration, or --ab alternations (the median is shown)")
    ap.add_argument("--load-client", choices=["httpx", "raw"], default="httpx",
                    help="the batch loads' client: httpx, or a hand-written keep-alive socket (less client CPU)")
    ap.add_argument("--get-clients", nargs="*", choices=["httpx", "raw"], default=["httpx", "raw"])
    ap.add_argument("--ab", nargs="+", metavar="TREE", default=None,
                    help="A/B the batch load between these source trees (`--rounds` alternations; see `ab_load`)")
    ap.add_argument("--ab-env", nargs="*", default=[], metavar="I:VAR=VALUE",
                    help="environment for the I-th --ab tree (0-based), e.g. 1:HUGELITE_SOME_SWITCH=off")
    args = ap.parse_args(argv)
    w = workload(args.size)
    if args.ab:
        envs: list[dict[str, str]] = [{} for _ in args.ab]
        for spec in args.ab_env:
            at, assignment = spec.split(":", 1)
            name, value = assignment.split("=", 1)
            envs[int(at)][name] = value
        print(ab_load(args.ab, envs, w, args.clients, args.rounds, args.load_client == "raw"))
        return
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="hugelite-rest-bench-") as tmp:
        base = Path(tmp)
        server = Server(base)
        try:
            loads = {}
            for clients in args.clients if args.only != "get" else ():
                loads[clients] = rest_load(server, w, clients, args.load_client == "raw")
                print(f"loaded with {clients} client(s): {loads[clients]['elements_per_s']:,.0f} elements/s", flush=True)
            gets = {}
            if args.only != "load":
                if not loads:
                    load_vertices_only(server, w)
                names = {"httpx": "httpx", "raw": "raw socket"}
                gets = {(names[client], c): get_by_id(server, w, args.get_requests, c, raw=client == "raw",
                                                      rounds=args.rounds)
                        for client in args.get_clients for c in (1, args.concurrency)}
            server_kib = server.peak_rss_kib()
        finally:
            server.stop()
        raw = raw_load(w, base) if args.only is None else {}
    self_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(report(args.size, w, loads, gets, raw, server_kib, self_kib, load_before))


if __name__ == "__main__":
    main()
