"""The graph as a vertex program walks it: one vertex list, and per vertex the indexes of
the vertices its messages reach through the program's edge traversal.

A plain `outE/inE/bothE(labels...)` edge traversal (every default, and what the corpus
passes) is read through the HugeGraph traversers' adjacency (`algorithms.base.Walker`), one
storage call per chunk of vertices, on storage keys when the store can answer; any other
edge traversal runs once per vertex, as TinkerPop runs it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gremlin_engine.algorithms.base import Walker
from gremlin_engine.algorithms.steps import NO_LIMIT, EdgeStep
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.traversal.executor import CompiledTraversal, results
from gremlin_engine.traversal.tokens import Direction
from gremlin_engine.traversal.traverser import Context

CHUNK = 5000


@dataclass
class Topology:
    vertices: list[Vertex]  # every vertex, in scan order
    index: dict[Any, int]  # vertex id -> position
    adj: list[list[int]]  # position -> positions its messages reach (one entry per edge)


def simple_edges(edges: CompiledTraversal) -> tuple[Direction, tuple[str, ...]] | None:
    """(direction, labels) when the edge traversal is one `outE/inE/bothE(labels...)`."""
    if len(edges.steps) != 1:
        return None
    step = edges.steps[0]
    if getattr(step, "returns", None) != "edge" or step.labels:
        return None
    return step.direction, tuple(step.edge_labels)  # type: ignore[attr-defined]


def base_context(ctx: Context) -> Context:
    """The context the program reads topology through: the view's own base access (the
    computed properties do not matter to the walk, and the runtime's access can answer it on
    storage keys)."""
    base = getattr(ctx.access, "base", None)
    return replace(ctx, access=base) if base is not None and hasattr(ctx.access, "publish") else ctx


def all_vertices(ctx: Context) -> list[Vertex]:
    out = []
    for i, v in enumerate(ctx.access.vertices()):
        if i % CHUNK == 0:
            ctx.check()
        out.append(v)
    return out


#: an edge traversal: a compiled one, or (direction, labels) for `toE(direction, labels...)`
Edges = CompiledTraversal | tuple[Direction, tuple[str, ...]]


def plain_edges(edges: Edges) -> tuple[Direction, tuple[str, ...]] | None:
    return edges if isinstance(edges, tuple) else simple_edges(edges)


def load(ctx: Context, edges: Edges) -> Topology:
    """Every vertex and its message-scope adjacency along `edges`."""
    bctx = base_context(ctx)
    vertices = all_vertices(bctx)
    index = {v.id: i for i, v in enumerate(vertices)}
    plain = plain_edges(edges)
    if plain is not None:
        adj = neighbours(bctx, vertices, plain[0], plain[1])
    else:
        assert not isinstance(edges, tuple)
        adj = [[] for _ in vertices]
        for i, v in enumerate(vertices):
            if i % 256 == 0:
                ctx.check()
            for t in results(edges, ctx.new_traverser(v), ctx):
                e = t.obj
                if isinstance(e, Edge):
                    other = e.in_v if e.out_v.id == v.id else e.out_v
                    j = index.get(other.id)
                    if j is not None:
                        adj[i].append(j)
    return Topology(vertices, index, adj)


def neighbours(ctx: Context, vertices: list[Vertex], direction: Direction, labels: tuple[str, ...]
               ) -> list[list[int]]:
    """Per vertex, the positions of its neighbours in `direction` over `labels` (all edges,
    no degree limit), read by the traversers' walker: on storage keys, the out-edges once
    (each row is an out-neighbour of one end and an in-neighbour of the other), else through
    the access's adjacency."""
    walker = Walker(ctx)
    nodes = walker.nodes(EdgeStep(direction=direction, labels=labels, max_degree=NO_LIMIT))
    starts = [nodes.start(v) for v in vertices]
    key = nodes.key
    at = {key(n): i for i, n in enumerate(starts)}
    adj: list[list[int]] = [[] for _ in vertices]
    pairs = getattr(nodes, "pairs", None)  # storage keys (KeyNodes) only
    rows = None if pairs is None else pairs(starts, EdgeStep(direction=Direction.OUT, labels=labels, max_degree=NO_LIMIT))
    if rows is None:
        step = EdgeStep(direction=direction, labels=labels, max_degree=NO_LIMIT)
        for node, found in nodes.expand(starts, step):
            adj[at[key(node)]] = [at[k] for k in map(key, found) if k in at]
        return adj
    forward, backward = direction in (Direction.OUT, Direction.BOTH), direction in (Direction.IN, Direction.BOTH)
    for chunk in rows:
        for frm, to in chunk:
            i, j = at.get(frm), at.get(to)
            if i is None or j is None:
                continue
            if forward:
                adj[i].append(j)
            if backward:
                adj[j].append(i)
    return adj
