"""ShortestPathVertexProgram's search: from each source, every shortest path to every
vertex, as TinkerPop's `shortestPath()` finds them.

The program is message passing: a vertex that learns a path from a source no longer than
the best it knows extends it over each edge of the edge traversal to a vertex not yet on
the path, one superstep per hop; a longer one is dropped, a shorter one replaces the set.
Distances are hop counts or the edge distance (a property or traversal; an edge without
one counts 0). `maxDistance` stops hop searches early and filters weighted answers at the
end; the target filter picks the paths kept. Each superstep reads the edges of all the
vertices it extends with one adjacency call per batch (`access.adjacent_edges`) and checks
the run's cancel token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gremlin_engine.structure.elements import Edge, Path, Vertex
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result, results
from gremlin_engine.traversal.tokens import Direction
from gremlin_engine.traversal.traverser import Context

BATCH = 500


@dataclass
class Search:
    edges: CompiledTraversal | None  # None: bothE()
    plain: tuple[Direction, tuple[str, ...]] | None  # the edge traversal as one vertex step
    distance: str | CompiledTraversal | None  # None: hops
    max_distance: Any
    include_edges: bool
    target: Callable[[Vertex], bool]
    #: vertex id -> its (edge, other end, distance) steps: each vertex's edges are read once
    #: per step run, however many paths pass through it
    steps: dict[Any, list[tuple[Edge | None, Vertex, Any]]] = field(default_factory=dict)


def shortest_paths(ctx: Context, source: Vertex, search: Search) -> list[Path]:
    """The shortest paths from `source` that end at a target, grouped by end vertex."""
    hops = search.distance is None
    best: dict[Any, tuple[Any, dict[tuple[Any, ...], None]]] = {}  # vertex id -> (distance, paths)
    ends: dict[Any, Vertex] = {source.id: source}
    start = (source,)
    best[source.id] = (0, {start: None})
    pending = _extend(ctx, [(source, start, 0)], search)
    while pending:
        ctx.check()
        forward: list[tuple[Vertex, tuple[Any, ...], Any]] = []
        for vertex, path, dist in pending:
            known = best.get(vertex.id)
            if known is not None:
                if dist > known[0]:
                    continue
                if dist < known[0]:
                    known = best[vertex.id] = (dist, {})
                known[1][path] = None
            elif hops and search.max_distance is not None and dist > search.max_distance:
                continue
            else:
                best[vertex.id] = (dist, {path: None})
                ends[vertex.id] = vertex
            forward.append((vertex, path, dist))
        pending = _extend(ctx, forward, search)
    out: list[Path] = []
    for vid, (dist, paths) in best.items():
        if not search.target(ends[vid]):
            continue
        if hops or search.max_distance is None or dist <= search.max_distance:
            out.extend(Path(tuple(frozenset() for _ in p), p) for p in paths)
    return out


def _extend(ctx: Context, frontier: list[tuple[Vertex, tuple[Any, ...], Any]], search: Search
            ) -> list[tuple[Vertex, tuple[Any, ...], Any]]:
    """The messages of one superstep: each path extended over each edge to a new vertex."""
    known = search.steps
    missing = list({v.id: v for v, _, _ in frontier if v.id not in known}.values())
    for start in range(0, len(missing), BATCH):
        _read_steps(ctx, missing[start:start + BATCH], search)
    out = []
    include = search.include_edges
    for n, (vertex, path, dist) in enumerate(frontier):
        if n % 4096 == 4095:
            ctx.check()  # a superstep may hold many paths: the deadline and memory bound still hold
        on_path = {o.id for o in path if isinstance(o, Vertex)}
        for e, other, d in known[vertex.id]:
            if other.id in on_path:
                continue
            out.append((other, path + ((e, other) if include else (other,)), dist + d))
    return out


def _read_steps(ctx: Context, vertices: list[Vertex], search: Search) -> None:
    """Each vertex's (edge, other end, distance) steps, with one adjacency call for the batch.
    A plain edge step is read from the view's base access (no private copies, and without
    the edges' properties when neither paths nor distances show them); the other ends are
    then the view's vertices, so later steps still see computed properties."""
    known = search.steps
    view = ctx.access
    fresh = getattr(view, "fresh", None)
    plain = search.plain
    if plain is not None:
        base = getattr(view, "base", view) if fresh is not None else view
        grouped: list[list[tuple[Any, Vertex, Any]]] = [[] for _ in vertices]
        if not search.include_edges and search.distance is None:
            for i, other in base.adjacent_vertices(vertices, plain[0], plain[1]):
                grouped[i].append((None, fresh(other) if fresh else other, 1))
        else:
            for i, e in base.adjacent_edges(vertices, plain[0], plain[1]):
                v = vertices[i]
                other = e.in_v if e.in_v.id != v.id else e.out_v
                grouped[i].append((e, fresh(other) if fresh else other, _distance(ctx, e, search)))
        for v, steps in zip(vertices, grouped, strict=True):
            known[v.id] = steps
        return
    assert search.edges is not None
    for v in vertices:
        found: list[tuple[Edge | None, Vertex, Any]] = []
        for t in results(search.edges, ctx.new_traverser(v), ctx):
            e = t.obj
            if isinstance(e, Edge):
                found.append((e, e.in_v if e.in_v.id != v.id else e.out_v, _distance(ctx, e, search)))
        known[v.id] = found


def _distance(ctx: Context, e: Edge, search: Search) -> Any:
    d = search.distance
    if d is None:
        return 1
    if isinstance(d, str):
        if not e.loaded:
            ctx.load([e])
        return e._props.get(d, 0) if e._props is not None else 0
    found = first_result(d, ctx.new_traverser(e), ctx)
    return 0 if found is NOTHING else found
