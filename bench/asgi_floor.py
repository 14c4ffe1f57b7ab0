"""Server CPU per request of trivial apps under stock uvicorn: the floor under every REST figure.

    python -m bench.asgi_floor [--requests N] [--rounds R] [--clients 1 8]

What the HTTP layer alone costs per keep-alive GET, with hugelite's own serve settings
(uvloop, httptools, no access log, no server header, a date header, its connection
bounds), the app answering a ~200-byte JSON body with a content-length as the REST GET by id
does: `asgi`, a bare ASGI callable; `starlette`, a bare Starlette app with one route (what
Starlette's routing, `Request` and `Response` add); `starlette+pool`, the same route
answering after a hop to a worker thread (`loop.run_in_executor`, as `context.run` does).
Each app runs in its own server subprocess; the figure is that process's CPU time (from
/proc) divided by the requests it answered, median over rounds, so other load on the
machine does not inflate it. Apps are run alternately, round by round, for the same reason.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BODY = b'{"id":"1:v1","label":"person","type":"vertex","properties":{"name":"marko","age":29}}' * 2
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]
APPS = ("asgi", "starlette", "starlette+pool")


async def app(scope: Any, receive: Any, send: Any) -> None:
    """The trivial app: answers every HTTP request at once, without reading a body."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})


def starlette_app(pool: bool) -> Any:
    """A bare Starlette app with the one route `GET /vertices/{id}` (and a worker-thread hop)."""
    from concurrent.futures import ThreadPoolExecutor

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    workers = ThreadPoolExecutor(max_workers=8)

    async def vertex(request: Request) -> Response:
        if pool:
            await asyncio.get_running_loop().run_in_executor(workers, len, request.path_params["id"])
        return Response(BODY, media_type="application/json")

    return Starlette(routes=[Route("/vertices/{id}", vertex, methods=["GET"])])


def serve(port: int, name: str) -> None:
    import uvicorn

    from rest_adapter.cli import server_options
    from rest_adapter.settings import Settings

    served: Any = app if name == "asgi" else starlette_app(name.endswith("+pool"))
    uvicorn.run(served, host="127.0.0.1", port=port, **server_options(Settings(), "critical"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    def __init__(self, name: str) -> None:
        self.port = _free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.asgi_floor", "--serve", str(self.port), name],
                                     cwd=Path(__file__).resolve().parent.parent)
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"server for {name} did not start") from None
                time.sleep(0.05)

    def cpu_s(self) -> tuple[float, float]:
        """(user, system) CPU seconds of the server process."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


async def _worker(port: int, count: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = b"GET /vertices/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    try:
        for _ in range(count):
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0])
            await reader.readexactly(length)
    finally:
        writer.close()


async def _run(port: int, requests: int, clients: int) -> None:
    await asyncio.gather(*(_worker(port, requests // clients) for _ in range(clients)))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "APP"), help=argparse.SUPPRESS)
    ap.add_argument("--requests", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clients", type=int, nargs="*", default=[1, 8])
    args = ap.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return
    servers = {name: _Server(name) for name in APPS}
    try:
        figures: dict[tuple[str, int], list[tuple[float, float]]] = {(n, c): [] for n in servers for c in args.clients}
        for server in servers.values():
            asyncio.run(_run(server.port, 1000, 1))  # warm-up
        for _ in range(args.rounds):
            for clients in args.clients:
                for name, server in servers.items():
                    user0, sys0 = server.cpu_s()
                    asyncio.run(_run(server.port, args.requests, clients))
                    user1, sys1 = server.cpu_s()
                    figures[(name, clients)].append(((user1 - user0) / args.requests * 1e6,
                                                     (sys1 - sys0) / args.requests * 1e6))
    finally:
        for server in servers.values():
            server.stop()
    print("| app | clients | server CPU per request (median) | user | system | rounds (user+system) |")
    print("|---|---:|---:|---:|---:|---|")
    for (name, clients), values in figures.items():
        total = [u + s for u, s in values]
        print(f"| {name} | {clients} | {statistics.median(total):.1f} µs | "
              f"{statistics.median(u for u, _ in values):.1f} µs | {statistics.median(s for _, s in values):.1f} µs | "
              f"{' '.join(f'{v:.0f}' for v in total)} |")


if __name__ == "__main__":
    main()
