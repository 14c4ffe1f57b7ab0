"""The Starlette application: routes, middleware, the worker pool and the registry's life cycle.

`create_app(settings)` is a factory with no import-time state, so tests can build as many
independent apps as they like. Resources are discovered, not listed: every module in
`rest_adapter/resources/` may expose

* `routes`: graph-scoped routes with paths relative to the graph (`/schema/propertykeys`;
  `/` is the graph itself). They are mounted once, with Starlette's `Mount`, under each of
  `/graphs/{graph}` and `/graphspaces/DEFAULT/graphs/{graph}` (hugegraph-python 1.7's
  layout); the graph itself (`/`) is a plain route at each prefix, since a `Mount` only
  matches paths below it;
* `server_routes`: absolute routes (`/versions`, `/gremlin`, `/metrics`, ...).

`rest_adapter.gremlin_ws`, when present, contributes `websocket_routes` (the Gremlin Server
protocol on `/gremlin`).

A request goes through Starlette's own stack: its `ServerErrorMiddleware` (a bug is a
logged 500 with HugeGraph's body), then ours (`middleware.py`: trailing-slash tolerance,
request telemetry, the request body's size and time bounds; `auth.py`: the request's
principal, or a 401/400 when auth is on and the credentials are missing or wrong; `compression.py`: gzip for
large 2xx bodies), its `ExceptionMiddleware` with the one error table of
`rest_adapter/errors.py`, and its router. Handlers never run engine work on the event
loop: `context.run` hands it to the app's one worker pool (`Workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import pkgutil
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute, Mount, Route

from gremlin_engine import GraphRegistry
from gremlin_engine.auth import AuthRecords, StandardAuthenticator
from gremlin_engine.limits import cancel_running
from rest_adapter import resources as resources_pkg
from rest_adapter.auth import AuthMiddleware, build_authenticator
from rest_adapter.compression import GZIP_LEVEL, GZIP_MINIMUM_SIZE, GzipMiddleware
from rest_adapter.context import in_pool
from rest_adapter.errors import exception_handlers
from rest_adapter.head_deadline import HeadDeadlineMiddleware
from rest_adapter.login_throttle import LoginThrottle
from rest_adapter.middleware import BodyBoundsMiddleware, TelemetryMiddleware, TrailingSlashMiddleware
from rest_adapter.settings import Settings
from rest_adapter.telemetry import Telemetry

log = logging.getLogger("hugelite.rest")

GRAPH_PREFIXES = ("/graphs/{graph}", "/graphspaces/DEFAULT/graphs/{graph}")


class Workers:
    """The app's thread pools, made with the app and shut down by its lifespan.

    `rest`: every blocking engine call of a REST handler (`context.run`); `ws`: sessionless
    Gremlin WebSocket requests (`gremlin_ws`). Two pools so that a flood of one kind cannot
    take every thread of the other. A `ThreadPoolExecutor` starts its threads on first use,
    so building an app (tests, the CLI's other commands) starts none."""

    def __init__(self, rest_threads: int, ws_threads: int) -> None:
        self.rest = ThreadPoolExecutor(max_workers=rest_threads, thread_name_prefix="hugelite-rest")
        self.ws = ThreadPoolExecutor(max_workers=ws_threads, thread_name_prefix="gremlin-ws")

    def shutdown(self) -> None:
        """Queued calls are dropped; running ones end on their own (their tokens are cancelled
        by the registry's shutdown)."""
        self.rest.shutdown(wait=False, cancel_futures=True)
        self.ws.shutdown(wait=False, cancel_futures=True)


class HugeliteApp(Starlette):
    """Starlette, with the attributes every request reads as plain attributes (`State`
    answers through `__getattr__`)."""

    telemetry: Telemetry
    workers: Workers
    #: the served registry, also `app.state.registry` (read per request: see `context.registry_of`)
    registry: GraphRegistry | None = None
    #: the authenticator (None: auth off), also `app.state.authenticator` (read per request:
    #: `auth.authenticator_of`)
    authenticator: Any = None


class GraphRoute(Route):
    """A route inside a `Mount` (graph-scoped, or a grouped server route), knowing its full
    template (`/graphs/{graph}/schema`, `/metrics/system`) for the request telemetry, which
    sees the route inside its `Mount`."""

    def __init__(self, template: str, path: str, endpoint: Any, methods: Any) -> None:
        super().__init__(path, endpoint, methods=methods, name=None)
        self.template = template


def _resource_modules() -> list[Any]:
    mods = []
    for info in sorted(pkgutil.iter_modules(resources_pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{resources_pkg.__name__}.{info.name}"))
    return mods


_READS = frozenset({"GET", "HEAD"})


def _reads_first(routes: list[Route]) -> list[Route]:
    """`routes` with the read routes (GET) first, each kind in its order. Starlette's router
    takes the first route that matches both path and method, and a read route and a write
    route share no method, so never both match one request: every request is answered by
    the route it was before, and a read (the common request: a GET by id is matched against
    4 patterns in `/graph`, not 12) stops sooner. Only the `Allow` of a 405 may name other
    methods (those of the first route whose path matches). A route serving both reads and
    writes would break the argument: then the order is kept."""
    reads = [r for r in routes if r.methods and r.methods <= _READS]
    writes = [r for r in routes if not (r.methods or _READS) & _READS]
    return reads + writes if len(reads) + len(writes) == len(routes) else routes


def _graph_mount(prefix: str, scoped: list[Route]) -> Mount:
    """The graph-scoped routes (but `/`) under `prefix`, one `Mount` per first path segment
    (`/graph`, `/schema`, `/traversers`, ...): Starlette's router tries its routes in turn,
    so a request is matched against a dozen patterns instead of all ~90."""
    groups: dict[str, list[Route]] = {}
    for r in _reads_first(scoped):
        if r.path != "/":
            groups.setdefault("/" + r.path.split("/")[1], []).append(r)
    inner: list[BaseRoute] = []
    for head, routes in sorted(groups.items(), key=lambda kv: kv[0] != "/graph"):  # elements first
        inner += [GraphRoute(prefix + r.path, r.path, r.endpoint, r.methods) for r in routes if r.path == head]
        below = [GraphRoute(prefix + r.path, r.path[len(head):], r.endpoint, r.methods)
                 for r in routes if r.path != head]
        if below:
            inner.append(Mount(head, routes=below))
    return Mount(prefix, routes=inner)


#: a first path segment with at least this many server routes below it gets a `Mount`
MOUNT_AT = 3


def _server_table(server: list[BaseRoute]) -> list[BaseRoute]:
    """The server routes, those below a busy first path segment (`/metrics/...`,
    `/auth/...`, `/graphspaces/DEFAULT/auth/...`) in one `Mount` per segment, as the graph
    routes are: Starlette's router tries its routes in turn, and a flat table of ~60 made
    `/versions`, the last module's, match ~56 patterns (~40 µs of a ~95 µs request).

    Each request is answered by the route it was before: the segments are disjoint, so only
    routes of one segment can match a path, and each keeps its order inside its `Mount`
    (reads first, as the graph mounts do: a read and a write route share no method); the
    route at the segment itself (`/metrics`) stays a plain route before its `Mount`, which
    only matches paths below it. A segment that also holds another kind of route (the
    console's static files under `/console`) is left flat."""
    heads: dict[str, list[BaseRoute]] = {}
    for r in server:
        heads.setdefault("/" + getattr(r, "path", "").split("/")[1], []).append(r)
    out: list[BaseRoute] = []
    for head, group in heads.items():
        below = [r for r in group if type(r) is Route and r.path.startswith(head + "/")]
        if len(below) < MOUNT_AT or any(type(r) is not Route for r in group):
            out += group
            continue
        out += [r for r in group if getattr(r, "path", None) == head]
        inner = [GraphRoute(r.path, r.path[len(head):], r.endpoint, r.methods) for r in _reads_first(below)]
        out.append(Mount(head, routes=inner))
    return out


def build_routes() -> list[BaseRoute]:
    """The graph mounts first (they match only paths below a graph, so the server routes
    are not shadowed), then the graphs themselves, then the server routes."""
    server: list[BaseRoute] = []
    scoped: list[Route] = []
    for mod in _resource_modules():
        server.extend(getattr(mod, "server_routes", ()))
        scoped.extend(getattr(mod, "routes", ()))
    out: list[BaseRoute] = [_graph_mount(prefix, scoped) for prefix in GRAPH_PREFIXES]
    for prefix in GRAPH_PREFIXES:
        out += [GraphRoute(prefix, prefix, r.endpoint, r.methods) for r in scoped if r.path == "/"]
    # `GET /graphspaces/DEFAULT/graphs` lists graphs too
    spaces = GRAPH_PREFIXES[1].rsplit("/", 1)[0]
    server += [Route(spaces + r.path[len("/graphs"):], r.endpoint, methods=r.methods)
               for r in server if isinstance(r, Route) and r.path == "/graphs"]
    out += _server_table(server)
    try:
        ws = importlib.import_module("rest_adapter.gremlin_ws")
    except ModuleNotFoundError as e:
        if e.name != "rest_adapter.gremlin_ws":
            raise
    else:
        out.extend(getattr(ws, "websocket_routes", ()))
    return out


def open_registry(settings: Settings, resume_jobs: bool = True) -> GraphRegistry:
    """Opens every configured graph; raises `StoreNotReady` naming the graph and the fix.
    `resume_jobs=False` only checks the stores (`serve --workers N`'s parent, whose worker
    processes then open them and resume what needs it)."""
    registry = GraphRegistry(evaluation_timeout_ms=settings.evaluation_timeout_ms, import_dir=settings.import_dir,
                             job_timeout_ms=settings.job_timeout_ms, export_dir=settings.export_dir,
                             shared=settings.workers > 1)
    registry.resume_jobs = resume_jobs
    try:
        for cfg in settings.graphs:
            registry.open(cfg)
    except BaseException:
        registry.close_all()
        raise
    return registry


#: how often the lifespan's housekeeping looks for idle Gremlin sessions holding a writer (s)
SESSION_SWEEP_S = 1.0


async def _sweep_sessions(app: Starlette) -> None:
    """Rolls back idle sessions (`ws/sessions.py`: `SessionManager.expire`) every
    `SESSION_SWEEP_S`, so a forgotten transaction frees the graph's writer even when no
    other session request comes to trigger the check."""
    while True:
        await asyncio.sleep(SESSION_SWEEP_S)
        manager = getattr(app.state, "gremlin_sessions", None)
        if manager is not None:
            manager.expire()


#: how often the lifespan's housekeeping looks for auth record changes made by other processes (s)
AUTH_SYNC_S = 1.0


async def _sync_auth_records(app: Starlette, records: AuthRecords, throttle: LoginThrottle) -> None:
    """Every `AUTH_SYNC_S`, folds auth record writes of other processes (`hugelite users` on
    the served store, another process of `--workers N`) into what this one remembers
    (`AuthRecords.sync`), and learns which logins failed lately in any process
    (`LoginThrottle.refresh`): two store reads, on the worker pool. Writes through this
    process are seen at once without it."""

    def sync() -> None:
        records.sync()
        throttle.refresh()

    while True:
        await asyncio.sleep(AUTH_SYNC_S)
        try:
            await in_pool(app.state.workers.rest, sync)
        except Exception:  # a store busy or closing: the next round tries again
            log.debug("auth records sync failed", exc_info=True)


def create_app(settings: Settings | None = None, registry: GraphRegistry | None = None) -> Starlette:
    """The ASGI app. With `registry`, that (already open) registry is served and closed at
    shutdown; otherwise the lifespan opens the graphs of `settings`."""
    settings = settings or Settings()
    telemetry = Telemetry()
    workers = Workers(settings.rest_worker_threads, settings.ws_worker_threads)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        reg = registry if registry is not None else open_registry(settings)
        try:
            app.state.authenticator = build_authenticator(settings, reg)  # None: auth off
        except BaseException:
            if registry is None:
                reg.close_all()
            raise
        app.state.registry = reg
        if isinstance(app, HugeliteApp):
            app.registry = reg
            app.authenticator = app.state.authenticator
        housekeeping = [asyncio.create_task(_sweep_sessions(app))]
        if isinstance(app.state.authenticator, StandardAuthenticator):
            # failed logins counted where every process of `--workers N` sees them
            records = app.state.authenticator.records
            app.state.login_throttle = LoginThrottle.in_store(records.store)
            housekeeping.append(asyncio.create_task(_sync_auth_records(app, records, app.state.login_throttle)))
        try:
            yield
        finally:
            cancel_running()  # what still runs stops at its next check (cli.py cancels at the signal)
            for task in housekeeping:
                task.cancel()
            workers.shutdown()
            reg.close_all()

    # `serve --cors ORIGIN`: Starlette's CORS middleware, outermost so preflights are answered
    # before anything else (off by default: HugeGraph sends no CORS headers)
    cors = [Middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["*"],
                       allow_headers=["*"])] if settings.cors_origins else []
    app = HugeliteApp(
        routes=build_routes(),
        middleware=[
            Middleware(HeadDeadlineMiddleware),  # outermost: it sees every request the server hands over
            *cors,
            Middleware(TrailingSlashMiddleware),
            Middleware(TelemetryMiddleware, telemetry=telemetry),
            Middleware(AuthMiddleware),  # inside telemetry: a refused request is counted too
            Middleware(BodyBoundsMiddleware, max_size=settings.max_request_body_bytes,
                       timeout_s=settings.request_body_timeout_s),
            Middleware(GzipMiddleware, minimum_size=GZIP_MINIMUM_SIZE, level=GZIP_LEVEL),
        ],
        exception_handlers=exception_handlers(),
        lifespan=lifespan,
    )
    app.telemetry = telemetry
    app.workers = workers
    app.state.settings = settings
    app.state.telemetry = telemetry
    app.state.login_throttle = LoginThrottle()  # every door that checks a password shares it
    app.state.workers = workers
    if registry is not None:
        app.state.registry = registry
        app.registry = registry
    return app
