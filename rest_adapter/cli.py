"""The `hugelite` command: serve, init-store, version; load/backup/restore/snapshot (`cli_data.py`).

`serve` opens every configured graph before it binds the port, so an uninitialised or
mismatched store stops it at once with a message naming the graph and the fix (HugeGraph
refuses to start in that case too) and a non-zero exit code.
"""

from __future__ import annotations

import gc
import logging
import os
import socket
import sys
import time
from typing import Any

import click

from gremlin_engine import GraphRegistry, HugeliteError, IllegalArgument, StoreNotReady
from gremlin_engine.limits import cancel_running
from rest_adapter import cli_data
from rest_adapter.resources.versions import API, GREMLIN, HUGEGRAPH_CORE
from rest_adapter.settings import Settings, SettingsError

#: the collector's thresholds while serving (CPython's are 700, 10, 10). A REST batch of 500
#: elements keeps ~5,000 container objects alive while it is written (item dicts, vertices,
#: edges, row tuples): at 700 allocations a young collection fires seven times per request,
#: promotes them all, and the promoted ones trigger full collections. Collecting every
#: 20,000 allocations lets a request's objects die by reference count first; the collector
#: cost of a 10k/100k REST load fell from ~6 µs to ~0.2 µs per element. Garbage cycles are
#: still collected, a little later.
GC_THRESHOLDS = (20_000, 20, 20)

#: the interpreter's thread switch interval while serving, in ms (CPython's default is 5);
#: `HUGELITE_SWITCH_INTERVAL_MS` in the environment overrides it
SWITCH_INTERVAL_MS: float | None = None


def set_switch_interval() -> float:
    """Set the thread switch interval (`sys.setswitchinterval`) for serving; returns it (s).

    Why: SQLite releases the GIL for every step of a statement and retakes it after, and a
    thread that wants the GIL back waits until the running thread yields it, which a thread
    busy in Python (another request's JSON, parsing, ids) does only every switch interval.
    The writer's statements then wait behind the request threads' Python. Measured with
    the batch inserts as one statement per batch (2026-11-22, `bench.rest_load`-shaped A/B
    of servers alternating, 4 clients, 4 rounds): 5 ms 27.5k el/s / 23.8 µs server CPU per
    element, 1 ms 26.3k / 23.1 µs, 0.2 ms 24.2k / 26.0 µs; so the default stays CPython's
    and the variable is there for A/B runs on other machines."""
    value = os.environ.get("HUGELITE_SWITCH_INTERVAL_MS")
    ms = float(value) if value else SWITCH_INTERVAL_MS
    if ms is not None and ms > 0:
        sys.setswitchinterval(ms / 1000)
    return sys.getswitchinterval()


CONF_HELP = "configuration folder holding rest-server.properties and graphs/ (default: ./conf)"


def _load_settings(conf: str) -> Settings:
    try:
        return Settings.load(conf)
    except SettingsError as e:
        raise click.ClickException(str(e)) from None


def _package_version() -> str:
    try:
        from importlib.metadata import version

        return version("hugelite")
    except Exception:
        return "unknown"


def server_options(settings: Settings, log_level: str) -> dict[str, Any]:
    """uvicorn's settings: its stock protocols, and the connection bounds of `settings`
    (README "Configuration"; issue 16 item 6):

    * uvloop's event loop and httptools' parser (both installed with `uvicorn[standard]`),
      named explicitly so a missing one fails loudly instead of silently falling back;
      `restserver.http_parser=h11` takes uvicorn's h11 protocol instead, the one that bounds
      the request line and headers (`restserver.max_header_size`; httptools has no such
      knob: its floor is in the README);
    * an idle keep-alive connection is closed after `restserver.connection_idle_timeout`;
    * at most `restserver.max_connections` connections and requests at once (uvicorn's
      `limit_concurrency`: beyond it, a plain-text 503);
    * WebSocket pings only when `gremlinserver.ws_ping_interval` is set (`gremlin_ws.py`
      says why they are off by default);
    * no proxy-header rewriting (no proxy in front: it only rewrote the client address);
    * the access log only at `--log-level debug` (one log record per request otherwise);
    * no `server: uvicorn` header (HugeGraph's responses carry none); `date` is kept, as
      HTTP/1.1 asks of servers with a clock.
    """
    ping = settings.ws_ping_interval_s or None
    options: dict[str, Any] = {
        "log_level": log_level,
        "access_log": log_level == "debug",
        "loop": "uvloop",
        "http": settings.http_parser,
        "proxy_headers": False,
        "server_header": False,
        "date_header": True,
        "timeout_keep_alive": settings.connection_idle_timeout_s,
        "limit_concurrency": settings.max_connections,
        "ws_ping_interval": ping,
        "ws_ping_timeout": settings.ws_ping_timeout_s if ping else None,
    }
    if settings.http_parser == "h11":
        options["h11_max_incomplete_event_size"] = settings.max_header_bytes
    return options


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """hugelite: a HugeGraph-compatible graph server over SQLite."""


@main.command()
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
@click.option("--host", default=None, help="address to bind (default: from restserver.url)")
@click.option("--port", default=None, type=int, help="port to bind (default: from restserver.url)")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
def serve(conf: str, host: str | None, port: int | None, log_level: str) -> None:
    """Serve the REST interface, /gremlin and the Gremlin WebSocket for every configured graph
    (the `graphs` folder of rest-server.properties, by default CONF/graphs)."""
    import uvicorn

    from rest_adapter.app import create_app, open_registry

    started = time.perf_counter()
    settings = _load_settings(conf)
    try:
        registry = open_registry(settings)
    except StoreNotReady as e:
        click.echo(f"hugelite: cannot start: {str(e).replace('--conf DIR', f'--conf {conf}')}", err=True)
        sys.exit(2)
    except HugeliteError as e:
        click.echo(f"hugelite: cannot start: {e}", err=True)
        sys.exit(2)
    host = host or settings.host
    port = port if port is not None else settings.port
    ports = [port] if not settings.gremlin_port or settings.gremlin_port == port else [port, settings.gremlin_port]
    sockets = [_bind(host, p) for p in ports]  # before "serving ...": a busy port ends here, in one line
    app = create_app(settings, registry=registry)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    click.echo(
        f"hugelite {_package_version()} serving {', '.join(registry.names()) or 'no graphs'} "
        f"on http://{host}:{port} (opened in {(time.perf_counter() - started) * 1000:.0f} ms)",
        err=True,
    )
    options = server_options(settings, log_level)
    # everything made so far (modules, grammar tables, schema caches) lives as long as the
    # server: frozen, it is left out of every later collection, which then only walks what
    # requests allocate (a full collection otherwise walks ~100k long-lived objects)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    set_switch_interval()
    if len(sockets) == 1:
        _cancelling_on_exit(uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options))).run(sockets=sockets)
        return
    # gremlinserver.port: the same app (WebSocket /gremlin included) on a second port, as
    # HugeGraph runs its Gremlin Server beside the REST server; one lifespan for both
    import asyncio

    rest = _cancelling_on_exit(uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options)))
    gremlin = uvicorn.Server(uvicorn.Config(app, host=host, port=settings.gremlin_port, **options, lifespan="off"))
    click.echo(f"hugelite: Gremlin Server port {settings.gremlin_port}", err=True)

    async def both() -> None:
        await asyncio.gather(rest.serve(sockets[:1]), gremlin.serve(sockets[1:]))

    with asyncio.Runner(loop_factory=rest.config.get_loop_factory()) as runner:  # uvloop, as uvicorn.run
        runner.run(both())


def _cancelling_on_exit(server: Any) -> Any:
    """`server` (a uvicorn server) whose exit signal (SIGTERM, Ctrl-C) first cancels every
    running script and traversal (`limits.cancel_running`): uvicorn waits for the requests in
    flight before the app's lifespan hears of the shutdown, and a 30 s script held shutdown
    27 s. Its `handle_exit` is the signal handler uvicorn installs."""
    handle_exit = server.handle_exit

    def cancelling(sig: int, frame: Any) -> None:
        cancel_running()
        handle_exit(sig, frame)

    server.handle_exit = cancelling
    return server


def _bind(host: str, port: int) -> socket.socket:
    """A bound socket for uvicorn to listen on. Binding here, before the banner, lets a busy
    port end `serve` with one line that says which port and what to do (uvicorn's own bind
    printed the banner first, and with a second port three tracebacks); exit code 3 is
    uvicorn's for a failed start-up."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as e:
        click.echo(f"hugelite: cannot start: cannot resolve the address {host!r}: {e.strerror or e}", err=True)
        sys.exit(3)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        click.echo(f"hugelite: cannot start: {host}:{port} is not free ({e.strerror or e}); stop what uses it, "
                   "or choose another port (--port, restserver.url or gremlinserver.port in --conf)", err=True)
        sys.exit(3)
    sock.set_inheritable(True)
    return sock


@main.command("init-store")
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
@click.option("--if-needed", is_flag=True,
              help="only report stores that were initialised now (quiet when all are ready)")
def init_store(conf: str, if_needed: bool) -> None:
    """Create the tables of every configured graph's store (idempotent)."""
    settings = _load_settings(conf)
    failed = False
    for cfg in settings.graphs:
        if cfg.backend == "memory":
            if not if_needed:
                click.echo(f"{cfg.name}: memory backend, nothing to initialise")
            continue
        try:
            created = GraphRegistry.init_store(cfg)
        except (StoreNotReady, IllegalArgument) as e:  # another store version; not a hugelite file
            click.echo(f"hugelite: {e}", err=True)
            failed = True
            continue
        if created:
            click.echo(f"{cfg.name}: initialised store {cfg.store_path}")
        elif not if_needed:
            click.echo(f"{cfg.name}: store {cfg.store_path} is already initialised")
    if failed:
        sys.exit(2)


@main.command()
def version() -> None:
    """Print hugelite's version and the HugeGraph / TinkerPop versions it speaks."""
    click.echo(f"hugelite {_package_version()} (HugeGraph core {HUGEGRAPH_CORE}, api {API}, TinkerPop {GREMLIN})")


main.add_command(cli_data.load)
main.add_command(cli_data.backup_command)
main.add_command(cli_data.restore_command)
main.add_command(cli_data.snapshot_command)

if __name__ == "__main__":  # pragma: no cover
    main()
