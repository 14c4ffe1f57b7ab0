"""/metrics and its sections carry real, changing figures."""

from __future__ import annotations

import httpx


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
    assert g["hugelite.graph.hugegraph.store_bytes"]["value"] > 0
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
    assert b["hugegraph"]["backend"] == "sqlite"
    assert local["disk_usage"] > 0
    assert local["estimate_num_keys"] == local["vertices"] + local["edges"]


def test_statistics_json_and_prometheus(http: httpx.Client) -> None:
    http.get("/versions")
    stats = http.get("/metrics/statistics/", params={"type": "json"}).json()
    row = stats["/versions/GET"]
    assert row["TOTAL_REQUEST"] == row["SUCCESS_REQUEST"] + row["FAILED_REQUEST"] >= 1
    assert row["MAX_RESPONSE_TIME"] >= row["MEAN_RESPONSE_TIME"] > 0
    text = http.get("/metrics/statistics").text
    assert 'hugelite_api_total_request{path="/versions",method="GET"}' in text
    prom = http.get("/metrics")
    assert prom.headers["content-type"].startswith("text/plain")
    assert 'hugelite_http_requests_total{method="GET",route="/versions",status="200"}' in prom.text
    assert "hugelite_process_rss_bytes " in prom.text
