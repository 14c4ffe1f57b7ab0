"""Async Gremlin jobs run without a deadline (until cancelled), so their token must carry
the memory bound by request (`CancelToken.guard_memory()`): a job whose traversal grows the
process past `TRAVERSAL_MEMORY_BYTES` ends `failed`, its result naming the limit, and the
graph keeps answering."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gremlin_engine import GraphConfig, GraphRegistry, limits
from gremlin_engine.graph import Graph

BOMB = "g.V().repeat(both()).emit().path().fold()"


@pytest.fixture
def cycle_graph() -> Iterator[Graph]:
    """A two-vertex cycle: `repeat(both()).emit().path()` on it grows without end."""
    reg = GraphRegistry(evaluation_timeout_ms=None)
    graph = reg.create(GraphConfig(name="jobs", backend="memory", schema_mode="auto"))
    graph.execute("g.addV('p').as('a').addV('p').as('b').addE('k').from('a').to('b').addE('k').from('b').to('a').iterate()")
    yield graph
    reg.close_all()


def test_a_gremlin_job_past_the_memory_bound_fails_naming_it(cycle_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "TRAVERSAL_MEMORY_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(limits, "MEMORY_CHECK_INTERVAL_S", 0.0)
    task_id = cycle_graph.tasks.submit_gremlin(BOMB)
    done = cycle_graph.tasks.wait(task_id, timeout_s=120)
    assert done["task_status"] == "failed"
    assert "traversal exceeded its memory limit" in done["task_result"]
    assert "HUGELITE_TRAVERSAL_MEMORY_MB is 64" in done["task_result"]
    assert cycle_graph.execute("g.V().count()") == [2]


def test_a_small_gremlin_job_still_succeeds_under_the_bound(cycle_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "TRAVERSAL_MEMORY_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(limits, "MEMORY_CHECK_INTERVAL_S", 0.0)
    task_id = cycle_graph.tasks.submit_gremlin("g.V().repeat(both()).times(3).count()")
    done = cycle_graph.tasks.wait(task_id, timeout_s=60)
    assert done["task_status"] == "success"
    assert done["task_result"] == "[16]"  # two edges between two vertices: both() doubles
