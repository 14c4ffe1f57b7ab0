"""The Starlette application: routes, middleware and the graph registry's life cycle.

`create_app(settings)` is a factory with no import-time state, so tests can build as many
independent apps as they like. Resources are discovered, not listed: every module in
`rest_adapter/resources/` may expose

* `routes`: graph-scoped routes with paths relative to the graph (`/schema/propertykeys`;
  `/` is the graph itself). Each is served twice, under `/graphs/{graph}` and under
  `/graphspaces/DEFAULT/graphs/{graph}` (hugegraph-python 1.7's layout);
* `server_routes`: absolute routes (`/versions`, `/gremlin`, `/metrics`, ...).

`rest_adapter.gremlin_ws`, when present, contributes `websocket_routes` (the Gremlin Server
protocol on `/gremlin`).

An HTTP request goes from the server straight into `front_door.FrontDoor`, which does in
one frame what a middleware chain did: trailing-slash tolerance (a path ending in `/` is
routed as without it, no redirect), request telemetry, gzip for large 2xx bodies, and the
answers of the one error table of `rest_adapter/errors.py`; then `routing.IndexedRouter`
finds the route by table lookup. WebSocket and lifespan scopes take Starlette's usual stack
(its error middlewares around the trailing-slash rule).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import pkgutil
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp

from gremlin_engine import GraphRegistry
from gremlin_engine.limits import cancel_running
from rest_adapter import resources as resources_pkg
from rest_adapter.compression import GZIP_LEVEL, GZIP_MINIMUM_SIZE
from rest_adapter.errors import exception_handlers
from rest_adapter.front_door import FrontDoor, TrailingSlashMiddleware
from rest_adapter.login_throttle import LoginThrottle
from rest_adapter.routing import IndexedRouter
from rest_adapter.settings import Settings
from rest_adapter.telemetry import Telemetry

log = logging.getLogger("hugelite.rest")

GRAPH_PREFIXES = ("/graphs/{graph}", "/graphspaces/DEFAULT/graphs/{graph}")
# gzip: 2xx bodies of at least 16 KiB, level 1 (the figures: `compression.py`)


class HugeliteApp(Starlette):
    """Starlette, with `FrontDoor` in front of its middleware stack for HTTP requests."""

    telemetry: Telemetry
    #: the served registry, also `app.state.registry` (read per request: see `context.registry_of`)
    registry: GraphRegistry | None = None

    def build_middleware_stack(self) -> ASGIApp:
        stack = super().build_middleware_stack()
        if self.max_body_size is not None:  # Starlette's body limit: keep its own stack
            return stack
        return FrontDoor(self.router, stack, self.telemetry, dict(self.exception_handlers), GZIP_MINIMUM_SIZE,
                         GZIP_LEVEL)


def _resource_modules() -> list[Any]:
    mods = []
    for info in sorted(pkgutil.iter_modules(resources_pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{resources_pkg.__name__}.{info.name}"))
    return mods


def build_routes() -> list[BaseRoute]:
    server: list[BaseRoute] = []
    scoped: list[Route] = []
    for mod in _resource_modules():
        server.extend(getattr(mod, "server_routes", ()))
        scoped.extend(getattr(mod, "routes", ()))
    out: list[BaseRoute] = list(server)
    for prefix in GRAPH_PREFIXES:
        if prefix != GRAPH_PREFIXES[0]:
            # `GET /graphspaces/DEFAULT/graphs` lists graphs too
            out += [
                Route(prefix.rsplit("/", 1)[0] + r.path[len("/graphs"):], r.endpoint, methods=r.methods)
                for r in server
                if isinstance(r, Route) and r.path == "/graphs"
            ]
        for r in scoped:
            path = prefix if r.path == "/" else prefix + r.path
            out.append(Route(path, r.endpoint, methods=r.methods, name=None))
    try:
        ws = importlib.import_module("rest_adapter.gremlin_ws")
    except ModuleNotFoundError as e:
        if e.name != "rest_adapter.gremlin_ws":
            raise
    else:
        out.extend(getattr(ws, "websocket_routes", ()))
    return out


def open_registry(settings: Settings) -> GraphRegistry:
    """Opens every configured graph; raises `StoreNotReady` naming the graph and the fix."""
    registry = GraphRegistry(evaluation_timeout_ms=settings.evaluation_timeout_ms, import_dir=settings.import_dir,
                             job_timeout_ms=settings.job_timeout_ms)
    try:
        for cfg in settings.graphs:
            registry.open(cfg)
    except BaseException:
        registry.close_all()
        raise
    return registry


def create_app(settings: Settings | None = None, registry: GraphRegistry | None = None) -> Starlette:
    """The ASGI app. With `registry`, that (already open) registry is served and closed at
    shutdown; otherwise the lifespan opens the graphs of `settings`."""
    settings = settings or Settings()
    telemetry = Telemetry()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        reg = registry if registry is not None else open_registry(settings)
        app.state.registry = reg
        if isinstance(app, HugeliteApp):
            app.registry = reg
        try:
            yield
        finally:
            cancel_running()  # what still runs stops at its next check (cli.py cancels at the signal)
            reg.close_all()

    app = HugeliteApp(
        routes=build_routes(),
        middleware=[Middleware(TrailingSlashMiddleware)],
        exception_handlers=exception_handlers(),
        lifespan=lifespan,
    )
    app.telemetry = telemetry
    # same routes and semantics, but a request's routes are found by table lookup
    # (`routing.py`): Starlette alone tries ~200 patterns in turn
    app.router = IndexedRouter(app.router.routes, lifespan=lifespan)
    app.state.settings = settings
    app.state.telemetry = telemetry
    app.state.login_throttle = LoginThrottle()  # every door that checks a password shares it
    if registry is not None:
        app.state.registry = registry
        app.registry = registry
    return app
