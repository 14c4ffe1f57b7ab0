"""`hugelite serve --workers N`: N server processes over the same stores, one per core.

uvicorn's own supervisor (`uvicorn.supervisors.Multiprocess`, what `uvicorn --workers N`
runs) spawns the processes, hands each the sockets bound by `serve`, replaces one that dies
and stops them all on SIGTERM or Ctrl-C. Each process then listens on a socket of its own
on the same address (`own_listeners`: `SO_REUSEPORT`, so the kernel balances connections). Each process builds its app with `ServedApp` (a picklable factory: the
settings travel with uvicorn's config) and opens the graphs in the app's lifespan: stores,
schema snapshots, task managers and thread pools are per process.

What the processes share is what is in the store, so that is where they agree:

* **schema**: a generation counter bumped by every schema write (`storage.generations`),
  checked at the start of each transaction (`SchemaService.sync`); graph mode, read mode
  and variables are read from the store on every use anyway;
* **tasks**: a lease per task (`gremlin_engine/tasks/leases.py`): the submitting process
  runs it once, any process reads, cancels or deletes it, a dead process's tasks fail;
* **auth**: users, grants and logged-out tokens are store records (with a generation the
  authenticator checks per request); login tokens must verify in every process, so without
  `auth.token_secret` one secret is drawn here for all of them (tokens then end with the
  server, as they do with one process). Failed logins are counted in the store too
  (`login_throttle.py`), so N processes give a client no more attempts than one.

What stays with one process: a WebSocket connection (and its Gremlin sessions) lives on the
process that accepted it, as any connection does; a `memory` graph lives inside one process,
so serving one with N > 1 is refused (`refuse_memory_graphs`); and a graph created or
dropped over REST would exist in one process only, so that is refused too
(`resources/graphs.py`): declare it in `conf/graphs/` and restart.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
from typing import Any

from starlette.applications import Starlette

from gremlin_engine.limits import cancel_running
from rest_adapter.settings import Settings


class WorkersRefused(Exception):
    """`--workers N` cannot serve this configuration; the message says why and what to do."""


def refuse_memory_graphs(settings: Settings, workers: int) -> None:
    """A memory graph is a graph per process: N processes would answer N different graphs."""
    if workers <= 1:
        return
    memory = [g.name for g in settings.graphs if g.backend == "memory"]
    if memory:
        names = ", ".join(f"'{n}'" for n in memory)
        raise WorkersRefused(
            f"graph {names} has backend=memory, which lives inside one process: with --workers {workers} "
            f"each process would serve a different, empty graph. Serve it with --workers 1, or give it a "
            f"store (backend=sqlite and store=data/{memory[0]}.db in its .properties, then hugelite init-store)")


def share_token_secret(settings: Settings, workers: int) -> None:
    """One login-token secret for every process (each would draw its own otherwise, and a
    token issued by one would be refused by the others)."""
    if workers > 1 and not settings.raw.get("auth.token_secret"):
        settings.raw["auth.token_secret"] = secrets.token_hex(32)


class ServedApp:
    """The app factory every worker process calls (uvicorn's `factory=True`): picklable, so
    uvicorn's spawned processes receive it with their config. `addresses`: those of the
    listening sockets, which each process makes its own (`own_listeners`)."""

    def __init__(self, settings: Settings, log_level: str, addresses: list[tuple[str, int]]) -> None:
        self.settings = settings
        self.log_level = log_level
        self.addresses = addresses

    def __call__(self) -> Starlette:
        from rest_adapter import cli
        from rest_adapter.app import create_app

        logging.basicConfig(level=self.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        own_listeners(self.addresses)
        app = create_app(self.settings)  # its lifespan opens this process's graphs
        _cancel_on_exit()
        cli.tune_process()
        return app


def own_listeners(addresses: list[tuple[str, int]]) -> int:
    """Gives this worker process a listening socket of its own on each of `addresses`, in
    place of the one uvicorn's supervisor handed every process; returns how many it replaced.

    Why: processes sharing one listening socket race for new connections, and the winner
    takes every connection waiting, so a client opening its pool of 8 in one burst often
    had all 8 on one process (`bench/workers.py` measured the busier process doing all the
    work in most rounds). Sockets of their own, bound with `SO_REUSEPORT` (as `serve` bound
    the parent's), are balanced by the kernel across processes. uvicorn's supervisor has no
    such option, so the factory, which runs in the worker before uvicorn listens, puts a new
    socket under the inherited one's descriptor (`os.dup2`); uvicorn then listens on it.
    Linux only (`/proc/self/fd`); elsewhere the shared socket stays."""
    if not hasattr(socket, "SO_REUSEPORT") or not os.path.isdir("/proc/self/fd"):
        return 0
    replaced = 0
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if not os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
                continue
            probe = socket.socket(fileno=os.dup(fd))
        except OSError:
            continue
        with probe:
            try:
                address = tuple(probe.getsockname()[:2])
                listening = probe.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
            except OSError:
                continue
            family, kind = probe.family, probe.type
        if listening or kind != socket.SOCK_STREAM or address not in addresses:
            continue
        own = socket.socket(family, socket.SOCK_STREAM)
        own.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        own.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        own.bind(address)
        os.dup2(own.fileno(), fd)
        own.close()
        replaced += 1
    return replaced


def _cancel_on_exit() -> None:
    """Chains `limits.cancel_running` before the exit handler uvicorn installed in this
    process (the factory runs inside uvicorn's signal capture), as `cli._cancelling_on_exit`
    does for one process: running scripts stop at once instead of holding shutdown."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def cancelling(signum: int, frame: Any, previous: Any = previous) -> None:
            cancel_running()
            previous(signum, frame)

        signal.signal(sig, cancelling)


def serve_workers(settings: Settings, log_level: str, options: dict[str, Any], sockets: list[socket.socket],
                  workers: int) -> None:
    """Runs `workers` server processes on `sockets` until a signal stops them."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    addresses = [tuple(sock.getsockname()[:2]) for sock in sockets]
    config = uvicorn.Config(ServedApp(settings, log_level, addresses), factory=True, workers=workers, **options)
    Multiprocess(config, sockets=sockets).run()
