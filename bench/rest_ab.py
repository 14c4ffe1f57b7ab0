"""A/B of a light REST request's server CPU: two servers (two source trees), one request list.

    git worktree add --detach /tmp/ab-base HEAD~1      # the "before" tree
    cp STORE /tmp/a.db; cp STORE /tmp/b.db             # one copy per server: never share a file
    python -m bench.rest_ab /tmp/ab-base /tmp/a.db /work/main /tmp/b.db \\
        [--mode strict|auto] [--graph bench] [--rounds 20] [--n 200] [--ops getv kout1 ...] [--cold K] [--ids N]

Why this shape: on a shared machine wall clock (and req/s) mostly measures the other load.
Here each tree gets its own `python -m rest_adapter serve` (PYTHONPATH = the tree) over its
own copy of the store, one keep-alive socket each; the same paths go to both in alternating
order (A B, B A, ...), and the figure is the server's CPU per request: the sum of its
threads' run time (`/proc/<pid>/task/*/schedstat`, ns) around each round, median over the
rounds. Before timing, every path is sent once to both and the answers compared: status and
body (a traverser's `cost(ns)` stripped) and the response head up to its date line, so a
faster tree that answers differently shows `bodies same: False`.

`--cold K` sends the paths in bursts of K and walks 16 MiB between bursts (the client's
other work evicting the CPU caches), as `bench.traversers` probes arrive; without it every
request finds the caches warm. Operations (`--ops`, over a `bench.engine` workload store:
person ids 1..100000, `knows` edges; `getvs` reads string ids "1:p<i>" of a strict store):
kout1, kout2, kneighbor2 (count_only), kout1ids, getv, getvs, versions.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.server import connect_when_up

_COST = re.compile(rb'"cost\(ns\)":\d+')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One `rest_adapter serve` of `tree` over `store`, and a keep-alive connection to it."""

    def __init__(self, tree: str, store: str, mode: str, graph: str) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="rest-ab-"))
        self.port = _free_port()
        conf = self.base / "conf"
        (conf / "graphs").mkdir(parents=True)
        (conf / "rest-server.properties").write_text(
            f"restserver.url=http://127.0.0.1:{self.port}\ngraphs={conf / 'graphs'}\n"
            "gremlinserver.evaluation_timeout_ms=0\n")
        (conf / "graphs" / f"{graph}.properties").write_text(f"backend=sqlite\nstore={store}\nschema.mode={mode}\n")
        self.log = (self.base / "server.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rest_adapter", "serve", "--conf", str(conf), "--port", str(self.port),
             "--log-level", "warning"],
            cwd=self.base, env={**os.environ, "PYTHONPATH": tree}, stdout=self.log, stderr=subprocess.STDOUT)
        self.sock = connect_when_up(self.proc, self.port, 60, (self.base / "server.log").read_text)
        self.buf = b""

    #: request header lines sent after Host (a subclass can send a client's own)
    HEADERS = ""

    def get(self, path: str) -> tuple[int, bytes, bytes]:
        """(status, head, body) of one GET (Content-Length answers only: what these paths give).
        A gzipped body comes back decoded, its head cut before Content-Length (which then
        differs between servers that compress at different sizes)."""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.HEADERS}\r\n".encode())
        while b"\r\n\r\n" not in self.buf:
            self.buf += self.sock.recv(65536)
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        while len(rest) < length:
            rest += self.sock.recv(65536)
        body, self.buf = rest[:length], rest[length:]
        if b"\r\ncontent-encoding: gzip" in head.lower():
            return int(head[9:12]), head.split(b"\r\ncontent-length")[0], gzip.decompress(body)
        return int(head[9:12]), head, body

    def cpu_ns(self) -> int:
        """CPU time of all the server's threads so far (schedstat's first field)."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                pass  # a thread that ended meanwhile
        return total

    def stop(self) -> None:
        self.sock.close()
        self.proc.terminate()
        self.proc.wait(timeout=15)


def paths(op: str, n: int, graph: str, ids: int = 100_000) -> list[str]:
    """`n` request paths of `op`, the same list for both servers (a fixed seed)."""
    rnd = random.Random(44)
    trav = f"/graphs/{graph}/traversers"
    common = "direction=OUT&label=knows&count_only=true&max_degree=-1"
    forms = {
        "kout1": lambda v: f"{trav}/kout?source={v}&max_depth=1&{common}&capacity=-1&limit=-1",
        "kout2": lambda v: f"{trav}/kout?source={v}&max_depth=2&{common}&capacity=-1&limit=-1",
        "kneighbor2": lambda v: f"{trav}/kneighbor?source={v}&max_depth=2&{common}&limit=-1",
        "kout1ids": lambda v: f"{trav}/kout?source={v}&max_depth=1&direction=OUT&label=knows",
        "getv": lambda v: f"/graphs/{graph}/graph/vertices/{v}",
        "getvs": lambda v: f'/graphs/{graph}/graph/vertices/"1:p{v % 10_000}"',
        "versions": lambda v: "/versions",
    }
    form = forms[op]
    return [form(rnd.randrange(ids) + 1) for _ in range(n)]


def _same(a: list[tuple[int, bytes, bytes]], b: list[tuple[int, bytes, bytes]]) -> tuple[bool, bool]:
    bodies = all((x[0], _COST.sub(b"", x[2])) == (y[0], _COST.sub(b"", y[2])) for x, y in zip(a, b, strict=True))
    heads = all(x[1].split(b"\r\ndate:")[0] == y[1].split(b"\r\ndate:")[0] for x, y in zip(a, b, strict=True))
    return bodies, heads


def _round(server: Server, ps: list[str], cold: int, junk: bytearray) -> float:
    """Server CPU per request (us) for one pass over `ps`."""
    if not cold:
        t0 = server.cpu_ns()
        for p in ps:
            server.get(p)
        return (server.cpu_ns() - t0) / len(ps) / 1000
    spent = 0
    for i in range(0, len(ps), cold):
        for k in range(0, len(junk), 64):  # the client's other work: the caches evicted
            junk[k] = (junk[k] + 1) & 255
        t0 = server.cpu_ns()
        for p in ps[i:i + cold]:
            server.get(p)
        spent += server.cpu_ns() - t0
    return spent / len(ps) / 1000


def compare(servers: dict[str, Server], op: str, ps: list[str], rounds: int, cold: int) -> None:
    """One op's A/B: a warm-up pass that also cross-checks the two servers' answers, then
    `rounds` rounds alternating which server goes first; prints the medians."""
    junk = bytearray(16 << 20)
    answers = {name: [s.get(p) for p in ps] for name, s in servers.items()}
    bodies, heads = _same(answers["A"], answers["B"])
    per: dict[str, list[float]] = {"A": [], "B": []}
    for r in range(rounds):
        for name in ("A", "B") if r % 2 == 0 else ("B", "A"):
            per[name].append(_round(servers[name], ps, cold, junk))
    ma, mb = statistics.median(per["A"]), statistics.median(per["B"])
    print(f"{op:12s} A {ma:7.1f} us  B {mb:7.1f} us  B/A {mb / ma:.3f}  bodies same: {bodies}  "
          f"heads same: {heads}  status {answers['A'][0][0]}  load {os.getloadavg()[0]:.2f}", flush=True)


def ab_parser(doc: str, rounds: int) -> argparse.ArgumentParser:
    """The arguments every two-server A/B takes: two trees, their stores, rounds, cold bursts."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name in ("a_tree", "a_store", "b_tree", "b_store"):
        ap.add_argument(name)
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--cold", type=int, default=0, help="requests per burst, caches evicted between bursts")
    return ap


def main() -> None:
    ap = ab_parser(__doc__, 20)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--ops", nargs="*", default=["kout1", "kout2", "kneighbor2", "getv"])
    ap.add_argument("--mode", default="auto")
    ap.add_argument("--graph", default="bench")
    ap.add_argument("--ids", type=int, default=100_000, help="person ids drawn from 1..IDS (10000 at small)")
    args = ap.parse_args()
    servers = {"A": Server(args.a_tree, args.a_store, args.mode, args.graph),
               "B": Server(args.b_tree, args.b_store, args.mode, args.graph)}
    try:
        for op in args.ops:
            compare(servers, op, paths(op, args.n, args.graph, args.ids), args.rounds, args.cold)
    finally:
        for s in servers.values():
            s.stop()


if __name__ == "__main__":
    main()
