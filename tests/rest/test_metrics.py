"""/metrics and its sections carry real, changing figures."""

from __future__ import annotations

from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.backends import STORED_BACKEND


def test_metrics_json_sections_and_trailing_slash(http: httpx.Client) -> None:
    for path in ("/metrics", "/metrics/"):
        r = http.get(path, params={"type": "json"})
        assert r.status_code == 200
        body = r.json()
        assert list(body) == ["gauges", "counters", "histograms", "meters", "timers"]


def test_request_counters_and_latency_histograms_grow(http: httpx.Client) -> None:
    name = "GET /graphs/{graph}/variables"
    before = http.get("/metrics/timers").json().get(name, {"count": 0})["count"]
    for _ in range(5):
        assert http.get("/graphs/memgraph/variables").status_code == 200
    timers = http.get("/metrics/timers").json()
    t = timers[name]
    assert t["count"] == before + 5
    assert 0 < t["min"] <= t["p50"] <= t["p95"] <= t["p99"] <= t["max"]
    assert t["mean"] > 0
    assert t["duration_units"] == "milliseconds"
    hist = http.get("/metrics/histograms").json()[name + ".latency_ms"]
    assert hist["count"] >= before + 5
    counters = http.get("/metrics/counters").json()
    assert counters[name + ".success"]["count"] + counters[name + ".failed"]["count"] >= before + 5
    assert counters[name + ".status.200"]["count"] >= 5
    meters = http.get("/metrics/meters").json()
    assert meters[name]["count"] >= before + 5
    assert meters[name]["mean_rate"] > 0


def test_failed_requests_are_counted(http: httpx.Client) -> None:
    http.get("/graphs/missing_graph/variables")
    counters = http.get("/metrics/counters").json()
    assert counters["GET /graphs/{graph}/variables.failed"]["count"] >= 1
    assert counters["GET /graphs/{graph}/variables.status.404"]["count"] >= 1
    http.get("/no/such/route")
    assert http.get("/metrics/counters").json()["GET (unmatched).status.404"]["count"] >= 1


def test_gauges_show_process_and_graph_figures(http: httpx.Client) -> None:
    g = http.get("/metrics/gauges").json()
    assert g["hugelite.process.rss_bytes"]["value"] > 10_000_000
    assert g["hugelite.process.threads"]["value"] >= 1
    assert g["hugelite.uptime_seconds"]["value"] > 0
    assert g["hugelite.graph.hugegraph.vertices"]["value"] >= 0
    assert g["hugelite.graph.hugegraph.store_bytes"]["value"] > 0  # a file's, or a database's size
    assert g["hugelite.graph.memgraph.store_bytes"]["value"] == 0


def test_system_and_backend(http: httpx.Client) -> None:
    s = http.get("/metrics/system").json()
    assert list(s)[:6] == ["basic", "heap", "nonheap", "thread", "class_loading", "garbage_collector"]
    assert s["basic"]["processors"] >= 1
    assert s["basic"]["mem_total"] > s["basic"]["mem_free"] > 0
    assert s["heap"]["used"] > 0
    b = http.get("/metrics/backend").json()
    assert b["memgraph"] == {"backend": "memory", "nodes": 1}
    local = b["hugegraph"]["servers"]["local"]
    assert b["hugegraph"]["backend"] == STORED_BACKEND
    assert local["disk_usage"] > 0
    assert local["estimate_num_keys"] == local["vertices"] + local["edges"]


def test_statistics_json_and_prometheus(http: httpx.Client) -> None:
    http.get("/versions")
    stats = http.get("/metrics/statistics/", params={"type": "json"}).json()
    row = stats["/versions/GET"]
    assert row["TOTAL_REQUEST"] == row["SUCCESS_REQUEST"] + row["FAILED_REQUEST"] >= 1
    assert row["MAX_RESPONSE_TIME"] >= row["MEAN_RESPONSE_TIME"] > 0
    families = _parsed(http.get("/metrics/statistics"))
    total = families["hugelite_api_total_request"]
    assert total.type == "counter" and total.documentation
    versions = [s for s in total.samples if s.labels == {"path": "/versions", "method": "GET"}]
    assert versions and versions[0].name == "hugelite_api_total_request_total"
    assert versions[0].value >= 1
    mean = families["hugelite_api_mean_response_time_seconds"]
    mean_versions = [s.value for s in mean.samples if s.labels["path"] == "/versions"]
    assert mean_versions == [row["MEAN_RESPONSE_TIME"] / 1000]


def test_prometheus_text_is_valid_exposition_with_labels(http: httpx.Client) -> None:
    http.get("/versions")
    http.get("/graphs/memgraph/graph/vertices", params={"limit": 1})
    families = _parsed(http.get("/metrics"))
    requests = families["hugelite_http_requests"]
    assert requests.type == "counter"
    labelled = {(s.labels["method"], s.labels["route"], s.labels["status"]) for s in requests.samples}
    assert ("GET", "/versions", "200") in labelled
    assert ("GET", "/graphs/{graph}/graph/vertices", "200") in labelled
    durations = families["hugelite_http_request_duration_seconds"]
    assert durations.type == "summary"
    sums = [s.value for s in durations.samples if s.name.endswith("_sum") and s.labels["route"] == "/versions"]
    assert sums and 0 < sums[0] < 60
    graphs = families["hugelite_graph_vertices"]
    assert {s.labels["graph"] for s in graphs.samples} >= {"hugegraph", "memgraph"}
    rss = families["hugelite_process_rss_bytes"]
    assert rss.type == "gauge" and rss.samples[0].value > 10 * 2**20


def _parsed(response: httpx.Response) -> dict[str, Any]:
    """Families by name, parsed by prometheus_client's own text parser (it rejects bad exposition)."""
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {family.name: family for family in text_string_to_metric_families(response.text)}
