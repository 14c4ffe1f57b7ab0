"""Prometheus text for `/metrics` and `/metrics/statistics`, written by `prometheus_client`.

The figures themselves live in `telemetry.Telemetry` (per route, kept in HugeGraph's Dropwizard
shapes for `?type=json`) and in the process and graph gauges `resources/metrics.py` gathers. This
module only turns one snapshot of them into metric families, so that the exposition format
(escaping, `# HELP`/`# TYPE` lines, label syntax) is the library's, not ours. Graphs and routes
are labels, never parts of a metric name, so a dashboard can sum over them; durations are in
seconds, as Prometheus' conventions ask.

A fresh `CollectorRegistry` per scrape holds one collector over that snapshot: nothing is
registered globally, so two apps in one process (the tests run several) never share metrics.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    Metric,
    SummaryMetricFamily,
)
from prometheus_client.registry import Collector

from rest_adapter.telemetry import RouteSnapshot

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

_PROCESS_HELP = {
    "rss_bytes": "Resident memory of the server process.",
    "vm_bytes": "Virtual memory of the server process.",
    "max_rss_bytes": "Peak resident memory of the server process.",
    "cpu_user_seconds": "User CPU time of the server process.",
    "cpu_system_seconds": "System CPU time of the server process.",
    "threads": "Live threads in the server process.",
}
_GRAPH_HELP = {
    "vertices": "Vertices stored in the graph.",
    "edges": "Edges stored in the graph.",
    "store_bytes": "Size of the graph's store on disk.",
}
_STATISTICS = {
    "TOTAL_REQUEST": ("hugelite_api_total_request", "counter", "Requests answered, per API."),
    "SUCCESS_REQUEST": ("hugelite_api_success_request", "counter", "Requests answered below 400."),
    "FAILED_REQUEST": ("hugelite_api_failed_request", "counter", "Requests answered with 400 or more."),
    "MEAN_RESPONSE_TIME": ("hugelite_api_mean_response_time_seconds", "gauge", "Mean response time."),
    "MAX_RESPONSE_TIME": ("hugelite_api_max_response_time_seconds", "gauge", "Slowest response time."),
    "P50_RESPONSE_TIME": ("hugelite_api_p50_response_time_seconds", "gauge", "Median response time."),
    "P95_RESPONSE_TIME": ("hugelite_api_p95_response_time_seconds", "gauge", "95th percentile response time."),
    "P99_RESPONSE_TIME": ("hugelite_api_p99_response_time_seconds", "gauge", "99th percentile response time."),
}


class _Snapshot(Collector):
    """Yields the metric families of one scrape (a `prometheus_client` custom collector)."""

    def __init__(self, families: list[Metric]) -> None:
        self._families = families

    def collect(self) -> Iterable[Metric]:
        return self._families


def _render(families: list[Metric]) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Snapshot(families))
    return generate_latest(registry)


def metrics_text(
    process: Mapping[str, float],
    uptime_s: float,
    graphs: Mapping[str, Mapping[str, Any]],
    routes: list[RouteSnapshot],
) -> bytes:
    """`GET /metrics`: process and per-graph gauges, then request counts and latencies per route."""
    return _render(list(_metrics_families(process, uptime_s, graphs, routes)))


def _metrics_families(
    process: Mapping[str, float],
    uptime_s: float,
    graphs: Mapping[str, Mapping[str, Any]],
    routes: list[RouteSnapshot],
) -> Iterator[Metric]:
    for key, value in process.items():
        if key.endswith("_seconds") and key.startswith("cpu_"):
            family: Metric = CounterMetricFamily(f"hugelite_process_{key}", _PROCESS_HELP.get(key, key))
            family.add_metric([], value)
        else:
            family = GaugeMetricFamily(f"hugelite_process_{key}", _PROCESS_HELP.get(key, key), value=value)
        yield family
    yield GaugeMetricFamily("hugelite_uptime_seconds", "Seconds since the server started.", value=uptime_s)
    yield GaugeMetricFamily("hugelite_graphs", "Graphs the server holds.", value=len(graphs))
    for key, help_text in _GRAPH_HELP.items():
        family = GaugeMetricFamily(f"hugelite_graph_{key}", help_text, labels=["graph"])
        for name, stats in graphs.items():
            if key in stats:
                family.add_metric([name], float(stats[key]))
        yield family
    requests = CounterMetricFamily(
        "hugelite_http_requests", "HTTP requests answered, by method, route template and status.",
        labels=["method", "route", "status"],
    )
    durations = SummaryMetricFamily(
        "hugelite_http_request_duration_seconds", "Time to answer an HTTP request, by route template.",
        labels=["method", "route"],
    )
    for route in routes:
        for status, count in sorted(route.statuses.items()):
            requests.add_metric([route.method, route.template, str(status)], count)
        durations.add_metric(
            [route.method, route.template],
            count_value=route.latency["count"],
            sum_value=route.latency_total_ms / 1000,
        )
    yield requests
    yield durations


def statistics_text(statistics: Mapping[str, Mapping[str, float]]) -> bytes:
    """`GET /metrics/statistics`: HugeGraph's per-API figures (`<path>/<METHOD>` keys) as labelled
    families; times are converted from the JSON's milliseconds to seconds."""
    families: dict[str, Metric] = {}
    for key, row in statistics.items():
        path, _, method = key.rpartition("/")
        for metric, value in row.items():
            name, kind, help_text = _STATISTICS[metric]
            family = families.get(name)
            if family is None:
                maker = CounterMetricFamily if kind == "counter" else GaugeMetricFamily
                family = families[name] = maker(name, help_text, labels=["path", "method"])
            seconds = kind == "gauge"
            family.add_metric([path, method], float(value) / 1000 if seconds else float(value))
    return _render(list(families.values()))
