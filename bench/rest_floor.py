"""Server CPU per light REST request beside the HTTP floor under it, split by thread, alternating.

    python -m bench.rest_floor STORE TREE [TREE[:VAR=VALUE,...] ...] [--floor starlette starlette+pool]
        [--ops getv versions] [--mode strict] [--rounds 11] [--n 300] [--ids 10000]

Why: `bench.rest_ab` compares two trees, `bench.asgi_floor` the floor apps, each in its own
run; on a shared machine two runs are two loads. Here every server (each tree over its own
copy of STORE, `VAR=VALUE` in its environment, and `bench.asgi_floor`'s apps answering
their one route) gets the same number of keep-alive requests in each round, in alternating
order (forward, then backward), and the figure is the server's CPU per request from
`/proc/<pid>/task/*/schedstat`, median over rounds: in total, on the event loop's thread
(the process's main thread) and on the others (the worker pool: engine calls). So a tree's
cost above the floor, and where it is spent, comes from one run. The trees' answers are
compared before timing (`bodies same`); the floor apps answer a fixed body.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.rest_ab import Server, paths
from bench.server import connect_when_up, free_port


class TreeServer(Server):
    """`rest_ab.Server` of `tree` with extra environment variables."""

    def __init__(self, tree: str, store: str, mode: str, graph: str, env: dict[str, str]) -> None:
        saved = dict(os.environ)
        os.environ.update(env)
        try:
            super().__init__(tree, store, mode, graph)
        finally:
            os.environ.clear()
            os.environ.update(saved)


class FloorServer(Server):
    """One `bench.asgi_floor` app; every request goes to its one route."""

    def __init__(self, app: str) -> None:
        # not Server.__init__, which starts a hugelite server: the same attributes, another process
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.asgi_floor", "--serve", str(self.port), app],
                                     cwd=Path(__file__).resolve().parent.parent)
        self.sock = connect_when_up(self.proc, self.port, 30, lambda: f"the floor app {app} did not start")
        self.buf = b""

    def get(self, path: str) -> tuple[int, bytes, bytes]:
        return super().get("/vertices/1")

    def stop(self) -> None:
        self.sock.close()
        self.proc.terminate()
        self.proc.wait(timeout=15)


def split_ns(server: Server) -> tuple[int, int]:
    """(main thread, other threads) CPU ns of the server so far."""
    main = other = 0
    for task in Path(f"/proc/{server.proc.pid}/task").iterdir():
        try:
            ns = int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):
            continue
        if task.name == str(server.proc.pid):
            main += ns
        else:
            other += ns
    return main, other


def measure(servers: dict[str, Server], op: str, ps: list[str], rounds: int) -> None:
    answers = {name: [s.get(p) for p in ps] for name, s in servers.items() if not isinstance(s, FloorServer)}
    first = next(iter(answers.values()), [])
    same = all([(a[0], a[2]) for a in got] == [(a[0], a[2]) for a in first] for got in answers.values())
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
    names = list(servers)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            s = servers[name]
            m0, o0 = split_ns(s)
            for p in ps:
                s.get(p)
            m1, o1 = split_ns(s)
            got[name].append(((m1 - m0) / len(ps) / 1000, (o1 - o0) / len(ps) / 1000))
    print(f"\n{op}: server CPU per request, µs (medians of {rounds} alternating rounds of {len(ps)}; "
          f"load {os.getloadavg()[0]:.1f}; trees' bodies same: {same})")
    print("| server | total | event loop | other threads |")
    print("|---|---:|---:|---:|")
    for name, values in got.items():
        total = statistics.median(a + b for a, b in values)
        print(f"| {name} | {total:.1f} | {statistics.median(a for a, _ in values):.1f} | "
              f"{statistics.median(b for _, b in values):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store")
    ap.add_argument("trees", nargs="+", help="TREE or TREE:VAR=VALUE,VAR=VALUE")
    ap.add_argument("--floor", nargs="*", default=["starlette", "starlette+pool"])
    ap.add_argument("--ops", nargs="*", default=["getv"])
    ap.add_argument("--mode", default="strict")
    ap.add_argument("--graph", default="bench")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--ids", type=int, default=10_000)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rest-floor-"))
    servers: dict[str, Any] = {}
    try:
        for app in args.floor:
            servers[f"floor: {app}"] = FloorServer(app)
        for i, spec in enumerate(args.trees):
            tree, _, envs = spec.partition(":")
            env = dict(kv.split("=", 1) for kv in envs.split(",") if kv)
            store = work / f"{i}.db"
            shutil.copy(args.store, store)
            servers[spec] = TreeServer(tree, str(store), args.mode, args.graph, env)
        for op in args.ops:
            measure(servers, op, paths(op, args.n, args.graph, args.ids), args.rounds)
    finally:
        for s in servers.values():
            s.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
