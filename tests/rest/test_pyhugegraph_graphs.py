"""hugegraph-python 1.7.1 against the real server: the version probe, graphs, variables,
metrics and gremlin envelope checks that need no script run."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from pyhugegraph.client import PyHugeClient

from tests.backends import STORED_BACKEND


@pytest.fixture
def client(server_url: str) -> PyHugeClient:
    return PyHugeClient(url=server_url, graph="hugegraph", user="admin", pwd="admin")


def test_probe_selects_graphspace_layout(client: PyHugeClient) -> None:
    assert client.cfg.gs_supported is True
    assert client.cfg.graphspace == "DEFAULT"
    assert tuple(client.cfg.version) >= (1, 7, 0)


def test_graphs_manager(client: PyHugeClient) -> None:
    graphs = client.graphs()
    assert set(json.loads(graphs.get_all_graphs())["graphs"]) >= {"hugegraph", "memgraph"}
    assert json.loads(graphs.get_graph_info()) == {"name": "hugegraph", "backend": STORED_BACKEND}
    assert f"backend={STORED_BACKEND}" in graphs.get_graph_config()
    assert json.loads(graphs.get_version())["versions"]["core"] == "1.7.0"


def test_clear_through_client(server_url: str, http: httpx.Client) -> None:
    name = "pyclear_" + uuid.uuid4().hex[:6]
    assert http.post(f"/graphs/{name}", json={"backend": "memory"}).status_code == 201
    http.put(f"/graphs/{name}/variables/x", json={"data": 1})
    c = PyHugeClient(url=server_url, graph=name, user="u", pwd="p")
    c.graphs().clear_graph_all_data()
    assert http.get(f"/graphs/{name}/variables").json() == {}
    http.delete(f"/graphs/{name}", params={"confirm_message": "I'm sure to drop the graph"})


def test_variables_manager(client: PyHugeClient) -> None:
    v = client.variable()
    assert v.set("pykey", {"a": [1, 2]}) == {"pykey": {"a": [1, 2]}}
    assert v.get("pykey") == {"pykey": {"a": [1, 2]}}
    assert v.all()["pykey"] == {"a": [1, 2]}
    v.remove("pykey")
    assert "pykey" not in v.all()


def test_metrics_manager(client: PyHugeClient) -> None:
    m = client.metrics()
    assert set(m.get_all_basic_metrics()) == {"gauges", "counters", "histograms", "meters", "timers"}
    assert "hugelite.process.rss_bytes" in m.get_gauges_metrics()
    assert isinstance(m.get_counters_metrics(), dict)
    assert isinstance(m.get_meters_metrics(), dict)
    assert isinstance(m.get_timers_metrics(), dict)
    assert isinstance(m.get_statistics_metrics(), dict)
    assert "basic" in m.get_system_metrics()
    assert m.get_backend_metrics()["memgraph"] == {"backend": "memory", "nodes": 1}


def test_gremlin_exec_with_graphspace_aliases(client: PyHugeClient) -> None:
    # the client aliases g -> __g_DEFAULT-hugegraph in graphspace mode
    result = client.gremlin().exec("g.V().limit(1).count()")
    assert result["meta"] == {}
    assert result["data"] in ([0], [1])
    assert client.gremlin().exec("graph.traversal().inject(7)")["data"] == [7]
