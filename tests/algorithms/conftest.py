"""Graphs for the algorithm tests: real engine graphs (memory stores) built from plain edge
lists, and a runner for `inject(request).hg_<step>()`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from tests.backends import stored_graph_config


@contextmanager
def file_graph(tmp_path: Path, mode: str, schema: Iterable[tuple[str, dict[str, Any]]]) -> Iterator[Graph]:
    """A file-store graph `g` in `mode` ("strict" creates `schema`'s items, "auto" none),
    closed afterwards."""
    cfg = stored_graph_config("g", tmp_path, mode)  # a file, or a PostgreSQL database
    GraphRegistry.init_store(cfg)
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    g = reg.open(cfg)
    if mode == "strict":
        for kind, body in schema:
            g.schema.create(kind, body)
    try:
        yield g
    finally:
        reg.close_all()


def run_step(graph: Graph, step: str, request: dict[str, Any]) -> Any:
    """The one result map of `g.inject(request).<step>()`."""
    out = graph.traverse(TraversalIR((), (Instruction("inject", (request,)), Instruction(step, ()))))
    assert len(out) == 1
    return out[0]


def load_edges(graph: Graph, n: int, edges: Iterable[tuple[Any, ...]], weights: dict[tuple[int, int], float] | None = None,
               label_of: Any = None, edge_label: str = "e") -> None:
    """Vertices 0..n-1 (ids are the numbers) and one edge per `(u, v)` pair, or per
    `(u, v, label)` triple, in the given order."""
    with graph.store.write() as tx:
        a = StoreAccess.for_graph(graph, tx)
        vs = [a.add_vertex(label_of(i) if label_of else "v", id=i) for i in range(n)]
        for u, v, *label in edges:
            props = [("weight", weights[(u, v)])] if weights and (u, v) in weights else []
            a.add_edge(label[0] if label else edge_label, vs[u], vs[v], properties=props)


@pytest.fixture
def registry() -> Iterator[GraphRegistry]:
    reg = GraphRegistry(evaluation_timeout_ms=60000)
    yield reg
    reg.close_all()


@pytest.fixture
def make_graph(registry: GraphRegistry) -> Any:
    """make_graph(n, edges, ...) -> a fresh auto-mode memory graph holding them."""
    count = [0]

    def make(n: int, edges: Iterable[tuple[int, int]], **kw: Any) -> Graph:
        count[0] += 1
        g = registry.open(GraphConfig(name=f"g{count[0]}", backend="memory", schema_mode="auto"))
        load_edges(g, n, edges, **kw)
        return g

    return make

