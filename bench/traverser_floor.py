"""The light traverser requests' engine cost, in process: `Graph.traverse` of the IR the REST
handler builds, without HTTP.

    python -m bench.traverser_floor STORE [--size small|large] [--n 3000] [--best 5] [--profile]

Why: a light traverser GET (k-out depth 1, k-neighbor depth 1-2, small answers) cost ~400 us
of server CPU more than the start tree's; this isolates the engine's part of that (the IR
`rest_adapter.resources.traversers.traversal` makes -> `Graph.traverse` -> the prepared
entry -> the algorithm step -> adjacency reads -> the answer map) and prints its CPU per call
(`thread_time`, best of `--best` loops of `--n` calls over 20 sources), with `--profile` a
cProfile of each row. Run from the tree under test, on a copy of a `bench.traversers` store
(graph `bench`, `person` vertices with `knows` edges).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path
from typing import Any

from bench.engine import HugeliteEngine
from bench.workload import workload
from gremlin_engine.context import ExecutionContext
from gremlin_engine.limits import CancelToken
from gremlin_engine.structure.numbers import Long
from rest_adapter.resources.traversers import traversal


def sources(size: str) -> list[Any]:
    """The first 20 probe vertices of the workload of `size`, as `bench.traversers` and
    `bench.traverser_ab` send them."""
    return [Long(p + 1) for p in workload(size).probe_vertices(100)[:20]]


SOURCES = sources("small")
_COMMON = {"direction": "OUT", "label": "knows", "max_degree": -1, "limit": -1}

#: row -> (step, the request map `query_request` makes of the GET's query string, but the source)
ROWS: dict[str, tuple[str, dict[str, Any]]] = {
    "kout depth 1, ids": ("hg_kout", {**_COMMON, "max_depth": 1, "count_only": False, "capacity": -1}),
    "kout depth 1, count": ("hg_kout", {**_COMMON, "max_depth": 1, "count_only": True, "capacity": -1}),
    "kneighbor depth 1, ids": ("hg_kneighbor", {**_COMMON, "max_depth": 1, "count_only": False}),
    "kneighbor depth 2, ids": ("hg_kneighbor", {**_COMMON, "max_depth": 2, "count_only": False}),
}


def _call(graph: Any, step: str, params: dict[str, Any], source: Any) -> Any:
    """One request as the handler runs it: a fresh request map and context each time, the
    context as `rest_adapter.context.run_watched` makes it (the client's cancel token and the
    server's 30 s evaluation limit, so the run's token is a linked, timed one)."""
    req = {"source": source, **params}
    return graph.traverse(traversal(step, req), ctx=ExecutionContext(timeout_ms=30_000, cancel=CancelToken()))[0]


def _best(graph: Any, step: str, params: dict[str, Any], n: int, best: int) -> float:
    out = []
    for _ in range(best):
        t = time.thread_time_ns()
        for i in range(n):
            _call(graph, step, params, SOURCES[i % 20])
        out.append((time.thread_time_ns() - t) / n / 1000)
    return min(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", type=Path)
    ap.add_argument("--size", default="small", help="the workload the store holds (its probe vertices)")
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--best", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    graph = HugeliteEngine(args.store, fresh=False).graph
    SOURCES[:] = sources(args.size)
    for name, (step, params) in ROWS.items():
        for v in SOURCES:
            _call(graph, step, params, v)
        print(f"{name:28s} {_best(graph, step, params, args.n, args.best):7.1f} us", flush=True)
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            for i in range(args.n):
                _call(graph, step, params, SOURCES[i % 20])
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
