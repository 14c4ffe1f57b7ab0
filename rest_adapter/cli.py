"""The `hugelite` command: serve, init-store, version; load/backup/restore/snapshot (`cli_data.py`).

`serve` opens every configured graph before it binds the port, so an uninitialised or
mismatched store stops it at once with a message naming the graph and the fix (HugeGraph
refuses to start in that case too) and a non-zero exit code.

Which graphs `serve` serves (datasette's habit for files, HugeGraph's for folders):

* `hugelite serve people.db other.db`: those SQLite files, each a graph named by its file
  stem, in the schema mode the store recorded (a missing file is created and initialised, in
  `auto` mode, as `EmbeddedConnection` does); `--conf DIR` then only supplies server settings;
* `hugelite serve --conf DIR` (or a `./conf` folder): the graphs of that folder, whose stores
  must be initialised (`hugelite init-store`);
* neither: the shipped defaults, one strict graph `hugegraph` in `./data/hugegraph.db`,
  created when missing, so that `hugelite serve` works from any directory.
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

from gremlin_engine import GraphConfig, GraphRegistry, HugeliteError, IllegalArgument, StoreNotReady
from gremlin_engine.limits import cancel_running
from rest_adapter import cli_data, cli_users
from rest_adapter.head_deadline import GuardedHttp
from rest_adapter.resources.versions import API, GREMLIN, HUGEGRAPH_CORE
from rest_adapter.settings import Settings, SettingsError, check_graph_name

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
      `restserver.http_parser=h11` takes uvicorn's h11 protocol instead;
    * either protocol behind `head_deadline.GuardedHttp`: a connection that sends nothing
      is closed after `restserver.connection_idle_timeout`, one whose request head takes
      longer than `restserver.request_header_timeout` is answered 408, a head over
      `restserver.max_header_size` 431 (h11 bounds its own buffer to that size too), and a
      head that does not parse uvicorn's 400 with HugeGraph's body;
    * an idle keep-alive connection is closed after `restserver.connection_idle_timeout`;
    * at most `restserver.max_connections` connections at once (kept by the guard, which
      answers a connection beyond it 503 with HugeGraph's body; an HTTP/1.1 connection runs
      one request at a time, so this bounds requests too);
    * WebSocket pings only when `gremlinserver.ws_ping_interval` is set (`gremlin_ws.py`
      says why they are off by default);
    * no proxy-header rewriting (no proxy in front: it only rewrote the client address);
    * no uvicorn access log: the app logs each request itself at info level
      (`middleware.TelemetryMiddleware`: method, path, status and duration);
    * no `server: uvicorn` header (HugeGraph's responses carry none); `date` is kept, as
      HTTP/1.1 asks of servers with a clock.
    """
    ping = settings.ws_ping_interval_s or None
    options: dict[str, Any] = {
        "log_level": log_level,
        "access_log": False,
        "loop": "uvloop",
        "http": GuardedHttp(settings.http_parser, settings.connection_idle_timeout_s,
                            settings.request_header_timeout_s, settings.max_header_bytes,
                            settings.max_connections),
        "proxy_headers": False,
        "server_header": False,
        "date_header": True,
        "timeout_keep_alive": settings.connection_idle_timeout_s,
        "ws_ping_interval": ping,
        "ws_ping_timeout": settings.ws_ping_timeout_s if ping else None,
    }
    if settings.http_parser == "h11":
        options["h11_max_incomplete_event_size"] = settings.max_header_bytes
    return options


def _version_line() -> str:
    return f"hugelite {_package_version()} (HugeGraph core {HUGEGRAPH_CORE}, api {API}, TinkerPop {GREMLIN})"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(message=_version_line(), package_name="hugelite", prog_name="hugelite")
def main() -> None:
    """hugelite: a HugeGraph-compatible graph server over SQLite."""


def _file_graphs(files: tuple[str, ...]) -> list[GraphConfig]:
    """One sqlite graph per file, named by its stem, in the mode its store recorded (`auto`
    for a new file); a missing file is created and initialised."""
    graphs = []
    for name in files:
        path = os.path.abspath(name)
        stem = os.path.splitext(os.path.basename(path))[0]
        try:
            check_graph_name(stem)
        except IllegalArgument as e:
            raise click.BadParameter(f"{name}: {e} (the file's name is the graph's)", param_hint="FILES") from None
        if stem in {g.name for g in graphs}:
            raise click.BadParameter(f"{name}: a second file named '{stem}'", param_hint="FILES")
        mode = GraphRegistry.recorded_schema_mode(path) if os.path.exists(path) else None
        cfg = GraphConfig(name=stem, backend="sqlite", store=path, schema_mode=mode or "auto")
        GraphRegistry.init_store(cfg)
        graphs.append(cfg)
    return graphs


def _serve_settings(conf: str | None, files: tuple[str, ...]) -> Settings:
    """The server's settings and graphs: see the module docstring for the three cases."""
    folder = conf if conf is not None else ("conf" if os.path.isdir("conf") else None)
    settings = _load_settings(folder) if folder is not None else Settings()
    if files:
        settings.graphs = _file_graphs(files)
    elif folder is None:
        shipped = GraphConfig(name="hugegraph", backend="sqlite", store="data/hugegraph.db", schema_mode="strict")
        GraphRegistry.init_store(shipped)
        settings.graphs = [shipped]
    return settings


@main.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--conf", default=None, help=CONF_HELP)
@click.option("--host", default=None, help="address to bind (default: from restserver.url)")
@click.option("-p", "--port", default=None, type=int,
              help="port to bind (default: from restserver.url; 0: a free port, printed)")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--cors", "cors", multiple=True, metavar="ORIGIN",
              help="allow browser pages from ORIGIN (repeatable; off by default)")
@click.option("-w", "--workers", default=None, type=click.IntRange(min=1),
              help="server processes over the same stores, e.g. one per core (default: restserver.workers, else 1)")
def serve(files: tuple[str, ...], conf: str | None, host: str | None, port: int | None, log_level: str,
          cors: tuple[str, ...], workers: int | None) -> None:
    """Serve the REST interface, /gremlin and the Gremlin WebSocket for FILES (SQLite stores,
    each a graph named by its file) or for every graph of the configuration folder."""
    import uvicorn

    from rest_adapter import workers as multi
    from rest_adapter.app import create_app, open_registry

    started = time.perf_counter()
    try:
        settings = _serve_settings(conf, files)
        settings.workers = workers = workers or settings.workers
        multi.refuse_memory_graphs(settings, workers)
        registry = open_registry(settings, resume_jobs=workers == 1)
    except StoreNotReady as e:
        folder = conf or "conf"
        click.echo(f"hugelite: cannot start: {str(e).replace('--conf DIR', f'--conf {folder}')}", err=True)
        sys.exit(2)
    except (HugeliteError, multi.WorkersRefused) as e:
        click.echo(f"hugelite: cannot start: {e}", err=True)
        sys.exit(2)
    settings.cors_origins = list(cors)
    host = host or settings.host
    port = port if port is not None else settings.port
    ports = [port] if not settings.gremlin_port or settings.gremlin_port == port else [port, settings.gremlin_port]
    sockets = [_bind(host, p, reuse_port=workers > 1) for p in ports]  # before "serving ...": a busy port ends here, in one line
    port = sockets[0].getsockname()[1]  # the port bound (`--port 0` asks for any free one)
    names = registry.names()
    if workers > 1:  # every process opens the graphs itself (`rest_adapter/workers.py`)
        registry.close_all()
        app = None
    else:
        app = create_app(settings, registry=registry)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    click.echo(
        f"hugelite {_package_version()} serving {', '.join(names) or 'no graphs'} "
        f"(opened in {(time.perf_counter() - started) * 1000:.0f} ms"
        f"{f'; {workers} worker processes' if workers > 1 else ''})\n"
        f"  REST:      http://{host}:{port}\n"
        f"  Gremlin:   ws://{host}:{port}/gremlin\n"
        f"  try:       curl http://{host}:{port}/graphs",
        err=True,
    )
    options = server_options(settings, log_level)
    if workers > 1:
        multi.share_token_secret(settings, workers)
        if len(sockets) > 1:
            click.echo(f"  Gremlin Server port {settings.gremlin_port}: ws://{host}:{settings.gremlin_port}/gremlin",
                       err=True)
        multi.serve_workers(settings, log_level, options, sockets, workers)
        return
    assert app is not None
    tune_process()
    if len(sockets) == 1:
        _cancelling_on_exit(uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options))).run(sockets=sockets)
        return
    # gremlinserver.port: the same app (WebSocket /gremlin included) on a second port, as
    # HugeGraph runs its Gremlin Server beside the REST server; one lifespan for both
    import asyncio

    rest = _cancelling_on_exit(uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options)))
    gremlin = uvicorn.Server(uvicorn.Config(app, host=host, port=settings.gremlin_port, **options, lifespan="off"))
    click.echo(f"  Gremlin Server port {settings.gremlin_port}: ws://{host}:{settings.gremlin_port}/gremlin", err=True)

    async def both() -> None:
        await asyncio.gather(rest.serve(sockets[:1]), gremlin.serve(sockets[1:]))

    with asyncio.Runner(loop_factory=rest.config.get_loop_factory()) as runner:  # uvloop, as uvicorn.run
        runner.run(both())


def tune_process() -> None:
    """The serving process's collector and thread switch interval (each worker process's
    too): everything made so far (modules, grammar tables, schema caches) lives as long as
    the server: frozen, it is left out of every later collection, which then only walks what
    requests allocate (a full collection otherwise walks ~100k long-lived objects)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    set_switch_interval()


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


def _bind(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A bound socket for uvicorn to listen on. Binding here, before the banner, lets a busy
    port end `serve` with one line that says which port and what to do (uvicorn's own bind
    printed the banner first, and with a second port three tracebacks); exit code 3 is
    uvicorn's for a failed start-up. `reuse_port`: the worker processes of `--workers N`
    bind sockets of their own beside it (`workers.own_listeners`)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as e:
        click.echo(f"hugelite: cannot start: cannot resolve the address {host!r}: {e.strerror or e}", err=True)
        sys.exit(3)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port and hasattr(socket, "SO_REUSEPORT"):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
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
@click.option("--admin-password", default=None,
              help=f"with auth on: the password of the user 'admin' when it is created (else ${cli_users.ADMIN_PASSWORD_ENV}, "
                   "else a prompt)")
def init_store(conf: str, if_needed: bool, admin_password: str | None) -> None:
    """Create the tables of every configured graph's store (idempotent; a PostgreSQL graph's
    database first, when it is missing); with auth on, the user `admin`."""
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
            click.echo(f"{cfg.name}: initialised store {cfg.display_location}")
        elif not if_needed:
            click.echo(f"{cfg.name}: store {cfg.display_location} is already initialised")
    if failed:
        sys.exit(2)
    cli_users.bootstrap_admin(settings, admin_password)


@main.command()
def version() -> None:
    """Print hugelite's version and the HugeGraph / TinkerPop versions it speaks (also `--version`)."""
    click.echo(_version_line())


@main.command()
@click.argument("target")
@click.option("--graph", default=None, help="the graph g means at first (default: hugegraph on a server, "
              "the file's on a store file); :graph NAME changes it")
def console(target: str, graph: str | None) -> None:
    """An interactive Gremlin console on TARGET: a server (ws://host:8080/gremlin) or a store
    file, opened in this process (created when missing)."""
    from rest_adapter.console import ConsoleError, run_console

    try:
        run_console(target, graph)
    except (ConsoleError, HugeliteError, OSError) as e:
        raise click.ClickException(str(e)) from None


main.add_command(cli_data.load)
main.add_command(cli_data.backup_command)
main.add_command(cli_data.restore_command)
main.add_command(cli_data.snapshot_command)
main.add_command(cli_users.users)

if __name__ == "__main__":  # pragma: no cover
    main()
