"""A REST `GET .../vertices/{id}` split into its two halves, in one process, no sockets.

    python -m bench.rest_get_floor STORE [--graph bench] [--mode strict] [--n 3000] [--rounds 7]
        [--ids 10000] [--profile worker|loop]

Why: through a server (`bench.rest_floor`) a GET by id's CPU is the HTTP floor, the hop to
the worker pool, our stack on the event loop and the engine on the worker, and only the sum
(split by thread) is seen. Here the app (`create_app` over a copy of STORE, its lifespan
run) is driven in process:

* `worker`: what the handler has the pool run, in a tight loop on this thread: the IR
  (`point_ir("V", id)`), `Graph.traverse` with the request's `ExecutionContext` (strict, the
  anonymous administrator, a cancel token), and the vertex's JSON dict
  (`one_vertex_json`), then its bytes (`json_bytes`); CPU per call (`thread_time`);
* `asgi`: the whole app called with a prepared HTTP scope, on uvloop, awaited request by
  request; CPU per request of the whole process (`process_time`: the loop and the pool);
* `loop`: `asgi` minus `worker`: middleware, routing, the handler, the hop, the response.

Medians over `--rounds` rounds; the two halves alternate round by round. The line ends
with how many threads the app's pool started for requests sent one at a time (a
`ThreadPoolExecutor` starts a thread when none is idle at the moment of a submit, and the
loop submits the next request as soon as the worker hands over its answer). `--profile`
prints a cProfile of one half (the `asgi` profile sees only the loop thread's calls).
Run from the tree under test (cwd, `PYTHONPATH`).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from gremlin_engine.context import REST, ExecutionContext
from gremlin_engine.limits import CancelToken
from rest_adapter.app import create_app
from rest_adapter.auth import ANONYMOUS_ADMIN
from rest_adapter.context import json_bytes
from rest_adapter.resources import _element_common as c
from rest_adapter.resources.vertices import _missing
from rest_adapter.settings import Settings


def _conf(base: Path, store: Path, graph: str, mode: str) -> Settings:
    conf = base / "conf"
    (conf / "graphs").mkdir(parents=True)
    (conf / "rest-server.properties").write_text(
        f"restserver.url=http://127.0.0.1:1\ngraphs={conf / 'graphs'}\ngremlinserver.evaluation_timeout_ms=0\n")
    (conf / "graphs" / f"{graph}.properties").write_text(f"backend=sqlite\nstore={store}\nschema.mode={mode}\n")
    return Settings.load(conf)


def worker_half(app: Any, graph_name: str, ids: list[int]) -> None:
    """The pool's share of each GET, as `vertices.get_one` has it run (`run_watched`)."""
    graph = app.registry.get(graph_name)
    for vid in ids:
        ctx = ExecutionContext(ANONYMOUS_ADMIN, REST, cancel=CancelToken(), strict_reads=True)
        result = graph.traverse(c.point_ir("V", c.vertex_id_param(str(vid))), ctx=ctx)
        if not result:
            raise _missing(vid)
        json_bytes(c.one_vertex_json(graph, result[0]))


def _pool_threads() -> int:
    """The REST pool's threads alive (`app.Workers` names them `hugelite-rest-N`)."""
    return sum(t.name.startswith("hugelite-rest") for t in threading.enumerate())


def _scope(app: Any, path: str) -> dict[str, Any]:
    return {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": b"", "headers": [(b"host", b"127.0.0.1"), (b"accept", b"*/*")],
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 1), "app": app,
    }


async def asgi_half(app: Any, paths: list[str]) -> None:
    """Each GET through the whole app, as uvicorn calls it (one request, one scope)."""
    sent: list[Any] = []
    read: list[bool] = []
    never = asyncio.Event()

    async def receive() -> dict[str, Any]:
        """The empty body once, then nothing until the end, as a server's `receive` does
        while the client stays (a GET whose call outlives `context.WATCH_AFTER_S` watches it)."""
        if read:
            await never.wait()
        read.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    for path in paths:
        sent.clear()
        read.clear()
        await app(_scope(app, path), receive, send)
        if sent[0]["status"] != 200:
            raise AssertionError(f"{path}: {sent[0]['status']} {sent[1].get('body')!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("store")
    ap.add_argument("--graph", default="bench")
    ap.add_argument("--mode", default="strict")
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--ids", type=int, default=10_000)
    ap.add_argument("--profile", choices=["worker", "loop"])
    args = ap.parse_args()

    import uvloop

    base = Path(tempfile.mkdtemp(prefix="rest-get-floor-"))
    try:
        store = base / "hl.db"
        shutil.copy(args.store, store)
        settings = _conf(base, store, args.graph, args.mode)
        app = create_app(settings)
        rnd = random.Random(44)
        ids = [rnd.randrange(args.ids) + 1 for _ in range(args.n)]
        paths = [f"/graphs/{args.graph}/graph/vertices/{v}" for v in ids]
        uvloop.install()
        asyncio.run(_run(app, args, ids, paths))
    finally:
        shutil.rmtree(base, ignore_errors=True)


async def _run(app: Any, args: argparse.Namespace, ids: list[int], paths: list[str]) -> None:
    async with app.router.lifespan_context(app):
        worker_half(app, args.graph, ids[:300])  # warm
        await asgi_half(app, paths[:300])
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            if args.profile == "worker":
                worker_half(app, args.graph, ids)
            else:
                await asgi_half(app, paths)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(35)
            return
        worker, whole = [], []
        for _ in range(args.rounds):
            t = time.thread_time_ns()
            worker_half(app, args.graph, ids)
            worker.append((time.thread_time_ns() - t) / len(ids) / 1000)
            t = time.process_time_ns()
            await asgi_half(app, paths)
            whole.append((time.process_time_ns() - t) / len(paths) / 1000)
        w, a = statistics.median(worker), statistics.median(whole)
        print(f"worker {w:.1f} us  asgi {a:.1f} us  loop {a - w:.1f} us  (medians of {args.rounds} rounds of {len(ids)};"
              f" worker {min(worker):.1f}-{max(worker):.1f}, asgi {min(whole):.1f}-{max(whole):.1f};"
              f" pool threads started {_pool_threads()})", flush=True)


if __name__ == "__main__":
    main()
