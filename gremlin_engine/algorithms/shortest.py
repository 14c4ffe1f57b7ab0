"""Shortest paths: unweighted (bidirectional BFS), all shortest, weighted (Dijkstra),
single-source and multi-node (`hg_shortestpath`, `hg_allshortestpaths`,
`hg_weightedshortestpath`, `hg_singlesourceshortestpath`, `hg_multinodeshortestpath`).

The unweighted search alternates a forward layer from the source and a backward layer (the
opposite direction) from the target, one layer per unit of `max_depth`, as HugeGraph does,
and stops at the first meeting: memory is the two visited maps. Dijkstra settles vertices in
weight order; it fetches adjacency for the next `BATCH` unsettled queued vertices at once
(in queue order), so even a weighted search makes one storage call per batch. An edge
without the weight property costs 1.0 (HugeGraph's rule); `capacity` bounds the vertices
reached in every search.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import Edge, Vertex

from .base import (
    BATCH,
    AlgorithmStep,
    KeyNodes,
    Nodes,
    Walker,
    check_capacity,
    reach_capacity,
    result_vertices,
)
from .steps import (
    DEFAULT_CAPACITY,
    NO_LIMIT,
    EdgeStep,
    capacity,
    get_bool,
    get_int,
    get_step,
    limit,
    parse_step,
    positive,
    skip_degree,
)

MAX_VERTICES = 10


def bidirectional(walker: Walker, source: Vertex, target: Vertex, step: EdgeStep, max_depth: int,
                  cap: int) -> list[Any]:
    """One shortest path (vertex ids) from source to target within `max_depth`, or []."""
    nodes = walker.nodes(step)
    return nodes.ids(shortest_nodes(nodes, source, target, step, max_depth, cap))


def shortest_nodes(nodes: Nodes, source: Vertex, target: Vertex, step: EdgeStep, max_depth: int,
                   cap: int) -> list[Any]:
    """`bidirectional` as nodes of `nodes` (storage keys on the fast path), or []."""
    s, t = nodes.start(source), nodes.start(target)
    key = nodes.key
    if key(s) == key(t):
        return [s]
    fwd: dict[Any, Any] = {key(s): None}
    bwd: dict[Any, Any] = {key(t): None}
    node_of: dict[Any, Any] = {key(s): s, key(t): t}
    fronts = [[s], [t]]
    steps = (step, step.reverse())
    for depth in range(max_depth):
        side = depth % 2
        mine, theirs = (fwd, bwd) if side == 0 else (bwd, fwd)
        new, meet = _grow(nodes, fronts[side], steps[side], mine, theirs, node_of)
        if meet is not None:
            path = _join(fwd, bwd, meet)
            return path if isinstance(nodes, KeyNodes) else [node_of[x] for x in path]
        fronts[side] = new
        if cap != NO_LIMIT and len(fwd) + len(bwd) > cap:
            raise reach_capacity(cap, max_depth - depth - 1)
        if not new:
            return []
    return []


def _grow(nodes: Nodes, front: list[Any], step: EdgeStep, mine: dict[Any, Any], theirs: dict[Any, Any],
          node_of: dict[Any, Any]) -> tuple[list[Any], Any]:
    """One layer of one side: records each new vertex's parent in `mine`; returns the new
    layer and the first vertex the other side has reached (None when they have not met)."""
    new: list[Any] = []
    rows = nodes.pairs(front, step) if isinstance(nodes, KeyNodes) else None
    if rows is not None:  # keys: the adjacency rows as they come, no per-vertex lists
        for chunk in rows:
            for vk, k in chunk:
                if k in mine:
                    continue
                mine[k] = vk
                if k in theirs:
                    return new, k
                new.append(k)
        return new, None
    key = nodes.key
    for v, items in nodes.expand(front, step):
        vk = key(v)
        for n in items:
            k = key(n)
            if k in mine:
                continue
            mine[k] = vk
            node_of[k] = n
            if k in theirs:
                return new, k
            new.append(n)
    return new, None


def _join(fwd: dict[Any, Any], bwd: dict[Any, Any], meet: Any) -> list[Any]:
    left = []
    x = meet
    while x is not None:
        left.append(x)
        x = fwd[x]
    left.reverse()
    x = bwd[meet]
    while x is not None:
        left.append(x)
        x = bwd[x]
    return left


def path_edges(walker: Walker, paths: Sequence[Sequence[Any]], step: EdgeStep) -> list[Edge]:
    """The first edge (adjacency order) joining each consecutive pair of every path (paths
    of vertex ids), each edge once, in path order."""
    if not any(len(p) > 1 for p in paths):
        return []
    nodes = walker.nodes(step)
    found = {v.id: v for v in walker.vertices(list(dict.fromkeys(x for p in paths for x in p)))}
    return nodes.path_edges([[nodes.start(found[x]) for x in p] for p in paths], step)


def _extras(walker: Walker, req: Mapping[str, Any], paths: Sequence[Sequence[Any]], step: EdgeStep
            ) -> tuple[list[Any], list[Any]]:
    """The `vertices` and `edges` members of a path response."""
    ids = list(dict.fromkeys(x for p in paths for x in p))
    with_edge = get_bool(req, "with_edge", False)
    edges = path_edges(walker, paths, step)
    return (result_vertices(walker, ids, get_bool(req, "with_vertex", False)),
            [e if with_edge else e.id for e in edges])


def _node_extras(walker: Walker, req: Mapping[str, Any], nodes: Nodes, path: list[Any], step: EdgeStep
                 ) -> tuple[list[Any], list[Any], list[Any]]:
    """`_extras` for one path of nodes: (path ids, vertices, edges), its vertices built once."""
    vertices = nodes.vertices(path)
    ids = [v.id for v in vertices]
    edges = nodes.path_edges([path], step) if len(path) > 1 else []
    if get_bool(req, "with_vertex", False):
        walker.load(vertices)
        shown: list[Any] = vertices
    else:
        shown = ids
    return ids, shown, [e if get_bool(req, "with_edge", False) else e.id for e in edges]


def _shortest_args(req: Mapping[str, Any], walker: Walker) -> tuple[EdgeStep, int, int, Vertex, Vertex]:
    """(step, capacity, max depth, source, target) of a source-to-target shortest path
    request, checked in HugeGraph's order (the 400 names the first bad parameter)."""
    step = get_step(walker.schema, req)
    cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
    skip_degree(step.skip_degree, step.max_degree, cap)
    depth = get_int(req, "max_depth", 0)
    positive(depth, "max depth")
    source = walker.vertex(req.get("source"))
    target = walker.vertex(req.get("target"), "target vertex")
    return step, cap, depth, source, target


class ShortestPathStep(AlgorithmStep):
    name = "hg_shortestpath"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step, cap, depth, source, target = _shortest_args(req, walker)
        nodes = walker.nodes(step)
        path, vertices, edges = _node_extras(walker, req, nodes,
                                             shortest_nodes(nodes, source, target, step, depth, cap), step)
        return {"path": path, "vertices": vertices, "edges": edges, "measure": walker.measure()}


class AllShortestPathsStep(AlgorithmStep):
    name = "hg_allshortestpaths"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step, cap, depth, source, target = _shortest_args(req, walker)
        paths = all_shortest(walker, source, target, step, depth, cap)
        vertices, edges = _extras(walker, req, paths, step)
        return {"paths": [{"objects": p} for p in paths], "vertices": vertices, "edges": edges,
                "measure": walker.measure()}


def all_shortest(walker: Walker, source: Vertex, target: Vertex, step: EdgeStep, max_depth: int,
                 cap: int) -> list[list[Any]]:
    """Every shortest path: a BFS keeping all parents of each vertex at its own level."""
    if source.id == target.id:
        return [[source.id]]
    level_of = {source.id: 0}
    parents: dict[Any, list[Any]] = {source.id: []}
    front = [source]
    for depth in range(1, max_depth + 1):
        new: list[Vertex] = []
        for v, items in walker.neighbors(front, step):
            for n in items:
                lv = level_of.get(n.id)
                if lv is None:
                    level_of[n.id] = depth
                    parents[n.id] = [v.id]
                    new.append(n)
                elif lv == depth and v.id not in parents[n.id]:
                    parents[n.id].append(v.id)
        if target.id in level_of:
            break
        if cap != NO_LIMIT and len(level_of) > cap:
            raise reach_capacity(cap, max_depth - depth)
        front = new
        if not front:
            return []
    if target.id not in level_of:
        return []
    out: list[list[Any]] = []
    stack: list[tuple[Any, list[Any]]] = [(target.id, [target.id])]
    while stack:
        vid, suffix = stack.pop()
        if vid == source.id:
            out.append(list(reversed(suffix)))
            continue
        for p in reversed(parents[vid]):
            stack.append((p, [*suffix, p]))
    return out


# ---- weighted ------------------------------------------------------------------------------


def _weight(edge: Edge, key: str | None) -> float:
    if key is None:
        return 1.0
    value = (edge._props or {}).get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 1.0
    return float(value)


def dijkstra(walker: Walker, source: Vertex, step: EdgeStep, weight: str | None, cap: int,
             stop_at: Any = None, max_settled: int = NO_LIMIT):
    """Settles vertices in weight order; yields (vertex id, weight, parent id) per settled
    vertex (the source first). Adjacency is fetched a batch of queued vertices at a time."""
    dist: dict[Any, float] = {source.id: 0.0}
    parent: dict[Any, Any] = {source.id: None}
    queued: dict[Any, Vertex] = {source.id: source}
    adjacency: dict[Any, list[tuple[Edge, Vertex]]] = {}
    settled: set[Any] = set()
    counter = itertools.count()
    heap: list[tuple[float, int, Any]] = [(0.0, next(counter), source.id)]
    while heap:
        d, _, vid = heapq.heappop(heap)
        if vid in settled or d > dist[vid]:
            continue
        settled.add(vid)
        yield vid, d, parent[vid]
        if vid == stop_at:
            return
        if vid not in adjacency:
            batch = [queued[vid]]
            for _, _, other in heapq.nsmallest(BATCH * 2, heap):
                if other not in settled and other not in adjacency and other != vid:
                    batch.append(queued[other])
                    if len(batch) >= BATCH:
                        break
            batch = list({v.id: v for v in batch}.values())
            for v, items in walker.adjacency(batch, step, edges=True):
                adjacency[v.id] = items
        for e, n in adjacency.pop(vid, ()):
            if n.id in settled:
                continue
            nd = d + _weight(e, weight)
            if nd < dist.get(n.id, float("inf")):
                dist[n.id] = nd
                parent[n.id] = vid
                queued[n.id] = n
                heapq.heappush(heap, (nd, next(counter), n.id))
        check_capacity(cap, len(dist), "shortest path")


def _path_to(parent_of: dict[Any, Any], vid: Any) -> list[Any]:
    out = []
    while vid is not None:
        out.append(vid)
        vid = parent_of[vid]
    out.reverse()
    return out


def _weighted_args(req: Mapping[str, Any], walker: Walker) -> tuple[EdgeStep, int]:
    step = get_step(walker.schema, req)
    cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
    skip_degree(step.skip_degree, step.max_degree, cap)
    return step, cap


class WeightedShortestPathStep(AlgorithmStep):
    name = "hg_weightedshortestpath"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step, cap = _weighted_args(req, walker)
        weight = req.get("weight")
        if weight is None or weight == "":
            raise IllegalArgument("The weight property can't be null")
        source = walker.vertex(req.get("source"))
        target = walker.vertex(req.get("target"), "target vertex")
        parents: dict[Any, Any] = {}
        found: float | None = None
        for vid, d, par in dijkstra(walker, source, step, str(weight), cap, stop_at=target.id):
            parents[vid] = par
            if vid == target.id:
                found = d
        if found is None:
            return {"path": {}, "vertices": [], "edges": [], "measure": walker.measure()}
        path = _path_to(parents, target.id)
        vertices, edges = _extras(walker, req, [path], step)
        return {"path": {"weight": found, "vertices": path}, "vertices": vertices, "edges": edges,
                "measure": walker.measure()}


class SingleSourceShortestPathStep(AlgorithmStep):
    name = "hg_singlesourceshortestpath"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step, cap = _weighted_args(req, walker)
        n = limit(get_int(req, "limit", 10))
        weight = req.get("weight") or None
        source = walker.vertex(req.get("source"))
        parents: dict[Any, Any] = {}
        results: dict[Any, dict[str, Any]] = {}
        for vid, d, par in dijkstra(walker, source, step, weight, cap):
            parents[vid] = par
            if vid == source.id:
                continue
            results[vid] = {"weight": d, "vertices": _path_to(parents, vid)}
            if n != NO_LIMIT and len(results) >= n:
                break
        paths = [r["vertices"] for r in results.values()]
        vertices, edges = _extras(walker, req, paths, step)
        return {"paths": results, "vertices": vertices, "edges": edges, "measure": walker.measure()}


class MultiNodeShortestPathStep(AlgorithmStep):
    name = "hg_multinodeshortestpath"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step = parse_step(walker.schema, req.get("step"))
        depth = positive(get_int(req, "max_depth", 0), "max depth")
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        vertices = walker.select(req.get("vertices"), "source")
        if len(vertices) > MAX_VERTICES:
            raise IllegalArgument(f"The number of vertices can't exceed {MAX_VERTICES}, but got {len(vertices)}")
        paths = []
        for a, b in itertools.combinations(vertices, 2):
            p = bidirectional(walker, a, b, step, depth, cap)
            if p:
                paths.append(p)
        vs, edges = _extras(walker, req, paths, step)
        return {"paths": [{"objects": p} for p in paths], "vertices": vs, "edges": edges,
                "measure": walker.measure()}
