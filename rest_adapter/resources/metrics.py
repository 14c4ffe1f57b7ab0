"""`/metrics` and its sub-resources, with real figures.

* request counters, meters, latency histograms and timers per route, from
  `rest_adapter.telemetry` (collected by its middleware);
* gauges: process memory, CPU time, threads, uptime, and per graph the element counts and
  the store's size on disk (`Graph.stats()`);
* `/metrics/system`: HugeGraph's section names (`basic`, `heap`, `nonheap`, `thread`,
  `class_loading`, `garbage_collector`) filled with what a Python process has;
* `/metrics/backend`: per graph, HugeGraph's backend shape.

Who may read them: HugeGraph's `MetricsAPI` allows the administrator and whoever holds READ
on METRICS (`@RolesAllowed({"admin", "$owner= $action=metrics_read"})`): the figures are
the server's, across every graph and user (request rates per route, element counts per
graph), so they are not filtered per user but refused, 403 `User not authorized.` as
Jersey words it, to anyone else. With auth off everyone is the administrator.

`GET /metrics` and `/metrics/statistics` answer Prometheus text unless `type=json`, like
HugeGraph; the text is written by `prometheus_client` (`rest_adapter/prometheus.py`). hugegraph-python asks for `/metrics/?type=json` (trailing slash: tolerated).
"""

from __future__ import annotations

import functools
import gc
import os
import resource
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gremlin_engine.auth.permissions import permissions_of
from rest_adapter import prometheus
from rest_adapter.context import json_response, principal_of, registry_of, run
from rest_adapter.errors import HttpError

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _telemetry(request: Request) -> Any:
    return request.app.state.telemetry


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _vm_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _meminfo() -> dict[str, int]:
    out: dict[str, int] = {}
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                key, _, rest = line.partition(":")
                parts = rest.split()
                if parts:
                    out[key] = int(parts[0]) * 1024
    except OSError:
        pass
    return out


def _process() -> dict[str, Any]:
    t = os.times()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "rss_bytes": _rss_bytes(),
        "vm_bytes": _vm_bytes(),
        "max_rss_bytes": usage.ru_maxrss * 1024,
        "cpu_user_seconds": t.user,
        "cpu_system_seconds": t.system,
        "threads": threading.active_count(),
    }


def _graph_stats(request: Request) -> dict[str, dict[str, Any]]:
    out = {}
    for graph in registry_of(request).graphs():
        try:
            out[graph.name] = graph.stats()
        except Exception as e:  # a graph being dropped or busy must not break /metrics
            out[graph.name] = {"backend": graph.backend, "error": str(e)}
    return out


def _gauges(request: Request, stats: dict[str, dict[str, Any]]) -> dict[str, Any]:
    proc = _process()
    tel = _telemetry(request)
    gauges: dict[str, Any] = {
        f"hugelite.process.{k}": {"value": v} for k, v in proc.items()
    }
    gauges["hugelite.uptime_seconds"] = {"value": time.time() - tel.started}
    gauges["hugelite.graphs"] = {"value": len(stats)}
    for name, s in stats.items():
        for key in ("vertices", "edges", "store_bytes"):
            if key in s:
                gauges[f"hugelite.graph.{name}.{key}"] = {"value": s[key]}
    return gauges


def _all_json(request: Request) -> dict[str, Any]:
    tel = _telemetry(request)
    return {
        "gauges": _gauges(request, _graph_stats(request)),
        "counters": tel.counters(),
        "histograms": tel.histograms(),
        "meters": tel.meters(),
        "timers": tel.timers(),
    }


async def metrics(request: Request) -> Response:
    if request.query_params.get("type") == "json":
        return json_response(await run(request, _all_json, request))
    tel = _telemetry(request)
    stats = await run(request, _graph_stats, request)
    text = prometheus.metrics_text(_process(), time.time() - tel.started, stats, tel.route_snapshot())
    return Response(text, media_type=prometheus.CONTENT_TYPE)


def _section(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        if name == "gauges":
            stats = await run(request, _graph_stats, request)
            return json_response(_gauges(request, stats))
        return json_response(getattr(_telemetry(request), name)())

    endpoint.__name__ = f"metrics_{name}"
    return endpoint


async def statistics(request: Request) -> Response:
    data = _telemetry(request).statistics()
    if request.query_params.get("type") == "json":
        return json_response(data)
    return Response(prometheus.statistics_text(data), media_type=prometheus.CONTENT_TYPE)


def _system(request: Request) -> dict[str, Any]:
    mem = _meminfo()
    proc = _process()
    tel = _telemetry(request)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    total = mem.get("MemTotal", 0)
    free = mem.get("MemAvailable", mem.get("MemFree", 0))
    return {
        "basic": {
            "mem": total,
            "mem_total": total,
            "mem_used": total - free,
            "mem_free": free,
            "mem_unit": "bytes",
            "processors": os.cpu_count() or 1,
            "uptime": int((time.time() - tel.started) * 1000),
            "systemload_average": load[0],
            "python": sys.version.split()[0],
            "pid": os.getpid(),
        },
        "heap": {
            "committed": proc["rss_bytes"],
            "used": proc["rss_bytes"],
            "max": proc["max_rss_bytes"],
            "unit": "bytes",
        },
        "nonheap": {"committed": proc["vm_bytes"], "used": proc["vm_bytes"], "unit": "bytes"},
        "thread": {"count": proc["threads"], "daemon": sum(t.daemon for t in threading.enumerate())},
        "class_loading": {"count": len(sys.modules), "loaded": len(sys.modules)},
        "garbage_collector": {
            f"gen{i}": {"count": s.get("collections", 0), "collected": s.get("collected", 0)}
            for i, s in enumerate(gc.get_stats())
        },
        "cpu": {"user_seconds": proc["cpu_user_seconds"], "system_seconds": proc["cpu_system_seconds"]},
    }


async def system(request: Request) -> Response:
    return json_response(_system(request))


def _readable(n: int) -> tuple[float, str]:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return round(n / size, 3), unit
    return float(n), "B"


async def backend(request: Request) -> Response:
    stats = await run(request, _graph_stats, request)
    out: dict[str, Any] = {}
    for name, s in stats.items():
        if s.get("backend") == "memory":
            out[name] = {"backend": "memory", "nodes": 1}
            continue
        size = int(s.get("store_bytes", 0))
        readable, unit = _readable(size)
        out[name] = {
            "backend": s.get("backend", "sqlite"),
            "nodes": 1,
            "cluster_id": "local",
            "servers": {
                "local": {
                    "mem_used": _rss_bytes() / (1 << 20),
                    "mem_unit": "MB",
                    "disk_usage": size,
                    "disk_usage_readable": readable,
                    "disk_unit": unit,
                    "estimate_num_keys": int(s.get("vertices", 0)) + int(s.get("edges", 0)),
                    "vertices": s.get("vertices", 0),
                    "edges": s.get("edges", 0),
                    "store": s.get("store"),
                }
            },
        }
    return json_response(out)


def _readers_only(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """`endpoint` for the administrator and holders of READ on METRICS (module docstring)."""

    @functools.wraps(endpoint)
    async def guarded(request: Request) -> Response:
        if not permissions_of(principal_of(request.scope)).anywhere("READ", "METRICS"):
            raise HttpError(403, "User not authorized.", "jakarta.ws.rs.ForbiddenException")
        return await endpoint(request)

    return guarded


server_routes = [
    Route("/metrics", _readers_only(metrics), methods=["GET"]),
    Route("/metrics/system", _readers_only(system), methods=["GET"]),
    Route("/metrics/backend", _readers_only(backend), methods=["GET"]),
    Route("/metrics/statistics", _readers_only(statistics), methods=["GET"]),
    *(
        Route(f"/metrics/{name}", _readers_only(_section(name)), methods=["GET"])
        for name in ("gauges", "counters", "histograms", "meters", "timers")
    ),
]
routes: list[Route] = []
