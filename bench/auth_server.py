"""What authorization costs a real server (issue 19): server CPU per request of a `GET`
vertex by id and a k-out (depth 2), with authentication off beside authentication on, as
the administrator and as a user whose READ target is property-conditioned.

    python -m bench.auth_server [--people 5000] [--degree 4] [--rounds 7] [--calls 300] [--trees A B]

Two server processes over the same data (a strict `person` label, `name` primary key, a
fifth of the people in Beijing, `knows` edges): one with auth off, one with HugeGraph's
StandardAuthenticator. On the second, a user `beijing` reads through one group and one
target, `{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}` plus every
edge. Requests go one at a time over a kept-alive httpx client with HTTP Basic (a verified
password is remembered until the auth records change, so no request pays bcrypt); each
round measures the server's thread CPU (`/proc/<pid>/task/*/schedstat`) over `calls`
requests, rounds alternate between the three callers, and the figures are medians. The
source vertices are Beijing people, so every caller gets answers. `--trees` serves the pair
from each source tree given (an A/B of two trees: six callers, alternating).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import httpx

from bench.server import BenchServer

ADMIN_PW = "bench-admin-pw"
G = "/graphs/bench"
SCHEMA = (
    "s = graph.schema(); s.propertyKey('name').asText().ifNotExist().create(); "
    "s.propertyKey('city').asText().ifNotExist().create(); "
    "s.vertexLabel('person').properties('name', 'city').primaryKeys('name').ifNotExist().create(); "
    "s.edgeLabel('knows').sourceLabel('person').targetLabel('person').ifNotExist().create(); 'ok'"
)
PROPS = "backend=sqlite\nstore=bench.db\nschema.mode=strict\n"
AUTH_PROPS = "auth.authenticator=org.apache.hugegraph.auth.StandardAuthenticator;auth.graph_store=bench"


def seed(url: str, auth: Any, people: int, degree: int) -> list[str]:
    """Schema and data through REST; the ids of the Beijing people."""
    with httpx.Client(base_url=url, auth=auth, timeout=120) as c:
        r = c.post("/gremlin", json={"gremlin": SCHEMA, "aliases": {"graph": "bench", "g": "__g_bench"}})
        r.raise_for_status()
        ids: list[str] = []
        beijing: list[str] = []
        rng = random.Random(7)
        for start in range(0, people, 500):
            batch = [{"label": "person", "properties": {"name": f"p{i}", "city": "Beijing" if i % 5 == 0 else "Lima"}}
                     for i in range(start, min(people, start + 500))]
            got = c.post(f"{G}/graph/vertices/batch", json=batch)
            got.raise_for_status()
            ids.extend(got.json())
            beijing.extend(v for v, item in zip(got.json(), batch, strict=True) if item["properties"]["city"] == "Beijing")
        edges = [{"label": "knows", "outV": ids[i], "inV": ids[rng.randrange(people)], "outVLabel": "person",
                  "inVLabel": "person", "properties": {}} for i in range(people) for _ in range(degree)]
        for start in range(0, len(edges), 500):
            c.post(f"{G}/graph/edges/batch", json=edges[start:start + 500]).raise_for_status()
    return beijing


def grant_beijing_reader(url: str) -> None:
    with httpx.Client(base_url=url, auth=("admin", ADMIN_PW), timeout=30) as c:
        def made(path: str, body: dict[str, Any]) -> Any:
            r = c.post(f"{G}/auth/{path}", json=body)
            r.raise_for_status()
            return r.json()["id"]

        user = made("users", {"user_name": "beijing", "user_password": "beijing-pw"})
        group = made("groups", {"group_name": "readers"})
        made("belongs", {"user": user, "group": group})
        target = made("targets", {"target_name": "beijing-people", "target_graph": "bench", "target_url": "local",
                                  "target_resources": [{"type": "VERTEX", "label": "person",
                                                        "properties": {"city": "Beijing"}}, {"type": "EDGE"}]})
        made("accesses", {"group": group, "target": target, "access_permission": "READ"})


def cpu_per_request(server: BenchServer, client: httpx.Client, paths: list[str]) -> float:
    before = server.cpu_ns()
    for p in paths:
        r = client.get(p)
        if r.status_code != 200:
            raise RuntimeError(f"{p}: {r.status_code} {r.text[:200]}")
    return (server.cpu_ns() - before) / len(paths) / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--people", type=int, default=5000)
    ap.add_argument("--degree", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--trees", nargs="*", default=[None],
                    help="source trees to serve from, side by side (default: this one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        servers: list[BenchServer] = []
        callers: dict[str, tuple[BenchServer, Any]] = {}
        try:
            sources: list[str] = []
            for i, tree in enumerate(args.trees):
                off, on = _pair(Path(tmp) / str(i), tree)
                servers += [off, on]
                sources = seed(off.url, None, args.people, args.degree)
                assert seed(on.url, ("admin", ADMIN_PW), args.people, args.degree) == sources
                grant_beijing_reader(on.url)
                tag = f"{Path(tree).name}: " if tree else ""
                callers.update({f"{tag}auth off": (off, None), f"{tag}auth on, admin": (on, ("admin", ADMIN_PW)),
                                f"{tag}auth on, beijing user": (on, ("beijing", "beijing-pw"))})
            rng = random.Random(11)
            ops = {
                "GET vertex by id": [f'{G}/graph/vertices/"{rng.choice(sources)}"' for _ in range(args.calls)],
                "k-out depth 2": [f'{G}/traversers/kout?source="{rng.choice(sources)}"&max_depth=2&direction=OUT'
                                  f"&label=knows" for _ in range(args.calls)],
            }
            clients = {name: httpx.Client(base_url=srv.url, auth=auth, timeout=60) for name, (srv, auth) in callers.items()}
            print(f"server CPU per request, µs (median of {args.rounds} rounds of {args.calls}; "
                  f"{args.people} people, {args.degree} knows each; load {os.getloadavg()[0]:.1f})")
            for op, paths in ops.items():
                for name in callers:  # warm: caches, connections, the remembered password
                    cpu_per_request(callers[name][0], clients[name], paths[:50])
                samples: dict[str, list[float]] = {name: [] for name in callers}
                for r in range(args.rounds):
                    order = list(callers) if r % 2 == 0 else list(reversed(callers))
                    for name in order:
                        samples[name].append(cpu_per_request(callers[name][0], clients[name], paths))
                base = statistics.median(next(iter(samples.values())))
                cells = "  ".join(f"{name}: {statistics.median(v):7.1f} ({statistics.median(v) / base:.2f}x)"
                                  for name, v in samples.items())
                print(f"{op:18} {cells}")
            for c in clients.values():
                c.close()
        finally:
            for server in servers:
                server.stop()


def _pair(base: Path, tree: str | None) -> tuple[BenchServer, BenchServer]:
    """An auth-off and an auth-on server of `tree`."""
    off = BenchServer(base / "off", "bench", PROPS, 30000, init_store=True, tree=tree)
    os.environ["HUGELITE_BENCH_SERVER_PROPS"] = AUTH_PROPS
    try:
        on = BenchServer(base / "on", "bench", PROPS, 30000, init_store=True, tree=tree,
                         env={"HUGELITE_ADMIN_PASSWORD": ADMIN_PW})
    except BaseException:
        off.stop()
        raise
    finally:
        del os.environ["HUGELITE_BENCH_SERVER_PROPS"]
    return off, on


if __name__ == "__main__":
    main()
