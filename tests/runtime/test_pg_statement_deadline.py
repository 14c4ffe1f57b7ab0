"""A traversal answered by one PostgreSQL statement ends at its deadline: the statement is
cancelled in the server (`storage.pg_cancel`), the engine raises its timeout, and the graph
answers the next traversal on the same pooled connection.

`g.V(1).both().both().both().count()` is one join-chain statement on a complete directed
graph of `N` vertices ((2(N-1))**3 walks, ~2.5 s uncancelled on an idle host), far past the
deadlines below. Run by `make test-postgres`, skipped on SQLite.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import psycopg
import pytest

from gremlin_engine.errors import TraversalTimeout
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Long
from tests.backends import postgres_only, server_url, stored_graph_config

pytestmark = postgres_only("the statement runs in the PostgreSQL backend")

N = 200
SLOW = "g.V(1).both().both().both().count()"
#: seconds past the deadline by which the traversal must have raised (a loaded host)
BOUND_S = 1.5


@pytest.fixture(scope="module")
def clique(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Graph]:
    cfg = stored_graph_config("pgstop", tmp_path_factory.mktemp("pgstop"), "strict")
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    graph = registry.open(cfg)
    graph.schema.create("vertexlabel", {"name": "n", "id_strategy": "CUSTOMIZE_NUMBER"})
    graph.schema.create("edgelabel", {"name": "e", "source_label": "n", "target_label": "n"})
    with graph.store.write() as tx:
        a = StoreAccess.for_graph(graph, tx)
        vs = a.add_vertices([("n", Long(i), ()) for i in range(1, N + 1)])
        a.add_edges([("e", u, v, ()) for u in vs for v in vs if u is not v])
    try:
        yield graph
    finally:
        registry.close_all()


def _others_active(graph: Graph) -> list[str]:
    """The statements running in the graph's database besides this query, by another client."""
    url = f"{server_url().replace('postgresql+psycopg', 'postgresql', 1)}/{graph.config.store}"
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND state = 'active'"
            " AND pid <> pg_backend_pid()").fetchall()
    return [r[0] for r in rows]


@pytest.mark.parametrize("timeout_ms", [200, 600])
def test_the_statement_ends_at_the_deadline(clique: Graph, timeout_ms: int) -> None:
    started = time.monotonic()
    with pytest.raises(TraversalTimeout):
        clique.execute(SLOW, timeout_ms=timeout_ms)
    took = time.monotonic() - started
    assert timeout_ms / 1000 <= took < timeout_ms / 1000 + BOUND_S, took
    assert _others_active(clique) == []  # cancelled in the server, not left running there
    assert clique.execute("g.V(1).both().count()") == [2 * (N - 1)]
    assert clique.execute("g.V(2).out().out().count()", timeout_ms=30_000) == [(N - 1) ** 2]


def test_a_cancel_stops_the_statement(clique: Graph) -> None:
    """A run's cancel (a client that left) stops it as its deadline does."""
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    started = time.monotonic()
    with pytest.raises(Exception, match="cancel"):
        clique.execute(SLOW, cancel=token)
    assert time.monotonic() - started < 0.3 + BOUND_S
    assert _others_active(clique) == []
    assert clique.execute("g.V(3).both().count()") == [2 * (N - 1)]
