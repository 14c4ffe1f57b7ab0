"""Issue 16 item 3: every request is bounded in time, and the bound is the server's.

On a 10k-vertex graph (30k edges, six per vertex both ways) `rays` at depth 8, customized
paths of 8 BOTH steps and `count` of 8 steps without dedup ran 27 s, 7.6 s and 18 s with no
limit at all (REST traversers ran with none); a WebSocket `evaluationTimeout` of 10**9 was
honoured; async Gremlin jobs ran until cancelled. Now REST calls take the server's
`gremlinserver.evaluation_timeout_ms` (3 s here) and end with HugeGraph's TimeoutException,
a 400 as HugeGraph maps it; a WebSocket request may only lower the limit; jobs have
`gremlinserver.job_timeout_ms`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.protocol import GremlinServerError

from tests.conftest import RunningServer, ServerFactory
from tests.hostile.conftest import MODERN_GRAPH, Watch

N = 10_000
TIMEOUT = "java.util.concurrent.TimeoutException"


@pytest.fixture(scope="module")
def big(hostile_server: RunningServer) -> str:
    """The 10k-vertex graph, in the hostile server's sqlite graph, by REST batches (~6 s)."""
    with httpx.Client(base_url=f"{hostile_server.base_url}/graphs/hugegraph", timeout=60) as c:
        for path, body in (
            ("propertykeys", {"name": "n", "data_type": "INT", "cardinality": "SINGLE"}),
            ("vertexlabels", {"name": "v", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["n"]}),
            ("edgelabels", {"name": "e", "source_label": "v", "target_label": "v", "frequency": "SINGLE"}),
        ):
            assert c.post(f"/schema/{path}", json=body).status_code in (201, 202)
        for lo in range(0, N, 500):
            batch = [{"id": i, "label": "v", "properties": {"n": i}} for i in range(lo, lo + 500)]
            assert c.post("/graph/vertices/batch", json=batch).status_code == 201
        edges = [(i, (i * k + k * k) % N) for k in (3, 7, 13) for i in range(N)]
        for lo in range(0, len(edges), 500):
            batch = [{"label": "e", "outV": a, "inV": b, "outVLabel": "v", "inVLabel": "v", "properties": {}}
                     for a, b in edges[lo:lo + 500]]
            assert c.post("/graph/edges/batch", json=batch).status_code == 201
    return "/graphs/hugegraph/traversers"


BOTH = {"direction": "BOTH", "degree": -1, "sample": -1}
#: the issue's requests made deeper: at depth 8 (1.7M paths) the one executor now answers inside
#: 3 s on a quiet host, and this is about the bound, not the speed
REQUESTS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "rays": ("GET", "rays", {"source": 0, "max_depth": 10, "direction": "BOTH", "limit": -1,
                             "capacity": -1, "max_degree": -1}),
    "customizedpaths": ("POST", "customizedpaths", {"sources": {"ids": [0]}, "steps": [BOTH] * 10,
                                                    "limit": -1, "capacity": -1}),
    "count": ("POST", "count", {"source": 0, "steps": [{"direction": "BOTH", "degree": -1, "skip_degree": 0}] * 12,
                                "dedup_size": 0}),
}


@pytest.mark.parametrize("name", list(REQUESTS))
def test_a_traverser_stops_at_the_servers_timeout(client: httpx.Client, watch: Watch, big: str, name: str) -> None:
    method, path, req = REQUESTS[name]
    with watch:
        if method == "GET":
            answer = client.get(f"{big}/{path}", params=req)
        else:
            answer = client.post(f"{big}/{path}", json=req)
    assert answer.status_code == 400, answer.text[:300]
    body = answer.json()
    assert body["exception"].endswith(TIMEOUT)
    assert "3000 ms" in body["message"]
    watch.assert_held(rss_ceiling_mb=700)


def test_a_websocket_timeout_can_only_lower_the_servers(hostile_server: RunningServer, watch: Watch) -> None:
    url = hostile_server.base_url.replace("http://", "ws://") + "/gremlin"
    client = Client(url, "modern")
    try:
        for asked in (10**9, 0):  # more than the server's 3 s, and "no limit"
            started = time.monotonic()
            with watch, pytest.raises(GremlinServerError) as err:
                client.submit("g.inject(1).repeat(__.identity()).times(1000000000).count()",
                              request_options={"evaluationTimeout": asked}).all().result()
            assert err.value.status_code == 598
            assert "3000 ms" in str(err.value)
            assert time.monotonic() - started < 30  # the server's 3 s, not the request's 10**9 ms
        with pytest.raises(GremlinServerError) as err:
            client.submit("g.inject(1).repeat(__.identity()).times(1000000000).count()",
                          request_options={"evaluationTimeout": 200}).all().result()
        assert "200 ms" in str(err.value)  # a lower limit is honoured
    finally:
        client.close()
    watch.assert_held(rss_ceiling_mb=700)


@pytest.fixture(scope="module")
def job_server(server_factory: ServerFactory) -> Iterator[RunningServer]:
    running = server_factory.start(graphs={"modern": MODERN_GRAPH},
                                   server={"gremlinserver.job_timeout_ms": "1500"})
    yield running
    running.stop()


def test_an_async_gremlin_job_has_its_own_limit(job_server: RunningServer) -> None:
    with httpx.Client(base_url=f"{job_server.base_url}/graphs/modern", timeout=30) as c:
        posted = c.post("/jobs/gremlin", json={"gremlin": "g.inject(1).repeat(__.identity()).times(1000000000).count()"})
        assert posted.status_code == 201, posted.text
        task_id = posted.json()["task_id"]
        for _ in range(300):
            task = c.get(f"/tasks/{task_id}").json()
            if task["task_status"] not in ("new", "queued", "running"):
                break
            time.sleep(0.1)
    assert task["task_status"] == "failed", task
    assert "1500 ms" in task["task_result"]
