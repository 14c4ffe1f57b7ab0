"""Paths between vertices, crosspoints, rings and rays (`hg_paths`, `hg_crosspoints`,
`hg_rings`, `hg_rays`).

Paths and crosspoints grow simple paths from both ends, one layer per unit of
`max_depth`, alternating sides (source side first), and join a new path end with every path
the other side holds at that vertex: so every simple path of length <= max_depth is found
once, with at most ceil(max_depth/2) edges grown from the source. For `paths` the target side
follows the opposite direction (a path from source to target); for `crosspoints` both sides
follow `direction` (common descendants for OUT, ancestors for IN) and the meeting vertex is
the crosspoint. Rings and rays grow from the source only, with HugeGraph's rules: a ring
closes when an edge returns to a vertex already on the path (only at the source with
`source_in_ring`); going straight back along the same single edge (BOTH) is not a ring; a
ray ends where a vertex has no further edge, or at `max_depth`.

Path counts are bounded by `capacity` (path nodes created: the memory held) and `limit`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.traversal.tokens import Direction

from .base import AlgorithmStep, Walker, check_capacity, result_vertices
from .shortest import path_edges
from .steps import (
    DEFAULT_CAPACITY,
    DEFAULT_PATHS_LIMIT,
    NO_LIMIT,
    EdgeStep,
    capacity,
    get_bool,
    get_int,
    get_step,
    limit,
    parse_step,
)

MAX_DEPTH = 5000
MAX_VERTICES = 10

Path = tuple[Any, ...]


def depth_in_range(value: int) -> int:
    if value <= 0 or value > MAX_DEPTH:
        raise IllegalArgument(f"The depth of request must be in (0, {MAX_DEPTH}], but got: {value}")
    return value


def grow(walker: Walker, layer: list[tuple[Vertex, Path]], step: EdgeStep
         ) -> list[tuple[Vertex, Path, Vertex]]:
    """Extends every path of `layer` by one edge (no vertex twice on a path); one adjacency
    call per batch of distinct end vertices. Returns (end, new path, new end) triples."""
    ends = list({v.id: v for v, _ in layer}.values())
    adj: dict[Any, list[Vertex]] = {}
    for v, items in walker.neighbors(ends, step):
        adj[v.id] = list({n.id: n for n in items}.values())
    out = []
    for v, path in layer:
        for n in adj.get(v.id, ()):
            if n.id not in path:
                out.append((v, (*path, n.id), n))
    return out


def meet_paths(walker: Walker, sources: Sequence[Vertex], targets: Sequence[Vertex], fstep: EdgeStep,
               bstep: EdgeStep, depth: int, cap: int, lim: int, what: str) -> dict[Path, Any]:
    """Simple paths joined where a source-side path meets a target-side one:
    {joined path: meeting vertex id}, in the order found."""
    sides: list[dict[Any, list[Path]]] = [{s.id: [(s.id,)] for s in sources}, {t.id: [(t.id,)] for t in targets}]
    layers: list[list[tuple[Vertex, Path]]] = [[(s, (s.id,)) for s in sources], [(t, (t.id,)) for t in targets]]
    steps = (fstep, bstep)
    found: dict[Path, Any] = {}
    if {s.id for s in sources} & {t.id for t in targets} and len(sources) == len(targets) == 1:
        return found  # source == target: HugeGraph's empty answer
    nodes = len(sources) + len(targets)
    for d in range(depth):
        side = d % 2
        mine, theirs = sides[side], sides[1 - side]
        new_layer = []
        for _, path, n in grow(walker, layers[side], steps[side]):
            for other in theirs.get(n.id, ()):
                joined = path + other[-2::-1] if side == 0 else other + path[-2::-1]
                if len(set(joined)) == len(joined) and joined not in found:
                    found[joined] = n.id
                    if lim != NO_LIMIT and len(found) >= lim:
                        return found
            mine.setdefault(n.id, []).append(path)
            new_layer.append((n, path))
            nodes += 1
            check_capacity(cap, nodes, what)
        layers[side] = new_layer
        if not layers[0] and not layers[1]:
            break
    return found


def _path_response(walker: Walker, req: Mapping[str, Any], key: str, paths: list[Path], entries: list[Any],
                   step: EdgeStep, extras: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {key: entries}
    if extras:
        ids = list(dict.fromkeys(x for p in walker.checked(paths) for x in p))
        out["vertices"] = result_vertices(walker, ids, get_bool(req, "with_vertex", False))
        with_edge = get_bool(req, "with_edge", False)
        out["edges"] = [e if with_edge else e.id for e in path_edges(walker, paths, step)]
    out["measure"] = walker.measure()
    return out


class PathsStep(AlgorithmStep):
    """GET: `source`, `target`; POST: `sources`, `targets` selectors and a `step`."""

    name = "hg_paths"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        post = "sources" in req
        step = parse_step(walker.schema, req.get("step")) if post else get_step(walker.schema, req)
        depth = depth_in_range(get_int(req, "max_depth", 0))
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        if post:
            sources = walker.select(req.get("sources"), "source")
            targets = walker.select(req.get("targets"), "target")
            for what, vs in (("source", sources), ("target", targets)):
                if len(vs) > MAX_VERTICES:
                    raise IllegalArgument(f"The number of {what} vertices can't exceed {MAX_VERTICES}, but got {len(vs)}")
        else:
            sources = [walker.vertex(req.get("source"))]
            targets = [walker.vertex(req.get("target"), "target vertex")]
        found = meet_paths(walker, sources, targets, step, step.reverse(), depth, cap, lim, "paths")
        if get_bool(req, "nearest", False):
            target_ids = {t.id for t in targets}
            found = {p: m for p, m in found.items() if not any(x in target_ids for x in p[1:-1])}
        paths = list(found)
        return _path_response(walker, req, "paths", paths, [{"objects": list(p)} for p in paths], step, extras=post)


class CrosspointsStep(AlgorithmStep):
    name = "hg_crosspoints"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step = get_step(walker.schema, req)
        depth = depth_in_range(get_int(req, "max_depth", 0))
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        source = walker.vertex(req.get("source"))
        target = walker.vertex(req.get("target"), "target vertex")
        found = meet_paths(walker, [source], [target], step, step, depth, cap, lim, "crosspoints")
        entries = [{"crosspoint": m, "objects": list(p)} for p, m in found.items()]
        return {"crosspoints": entries, "measure": walker.measure()}


class _SubGraphPaths(AlgorithmStep):
    rings = False

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step = get_step(walker.schema, req)
        depth = depth_in_range(get_int(req, "max_depth", 0))
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        source_in_ring = get_bool(req, "source_in_ring", True)
        source = walker.vertex(req.get("source"))
        paths = self.walk(walker, source, step, depth, cap, lim, source_in_ring)
        key = "rings" if self.rings else "rays"
        return _path_response(walker, req, key, paths, [{"objects": list(p)} for p in walker.checked(paths)], step)

    def walk(self, walker: Walker, source: Vertex, step: EdgeStep, depth: int, cap: int, lim: int,
             source_in_ring: bool) -> list[Path]:
        what = "rings" if self.rings else "rays"
        found: dict[Path, None] = {}
        accessed = {source.id}
        layer: dict[Any, tuple[Vertex, list[Path]]] = {source.id: (source, [(source.id,)])}

        def add(p: Path) -> bool:
            if self.rings and p[::-1] in found:
                return False
            found[p] = None
            return lim != NO_LIMIT and len(found) >= lim

        for level in range(1, depth + 1):
            new: dict[Any, tuple[Vertex, list[Path]]] = {}
            vertices = [v for v, _ in layer.values()]
            for v, items in walker.checked(walker.adjacency(vertices, step, edges=True), 64):
                paths = layer[v.id][1]
                if not items:
                    if not self.rings:
                        for p in paths:
                            if add(p):
                                return list(found)
                    continue
                single_edge = len(items) == 1
                seen: set[Any] = set()
                for _, n in items:
                    if n.id in seen:
                        continue
                    seen.add(n.id)
                    accessed.add(n.id)
                    for p in paths:
                        if n.id not in p:
                            entry = new.get(n.id)
                            if entry is None:
                                new[n.id] = entry = (n, [])
                            entry[1].append((*p, n.id))
                            continue
                        back = len(p) > 1 and p[-2] == n.id
                        if not self.rings:
                            if back and step.direction is Direction.BOTH and single_edge and add(p):
                                return list(found)
                            continue
                        if source_in_ring and n.id != source.id:
                            continue
                        if back and step.direction is Direction.BOTH and not _out_and_in(items, v.id, n.id):
                            continue
                        if add((*p, n.id)):
                            return list(found)
                check_capacity(cap, len(accessed), what)
            layer = new
            if not self.rings and level == depth:
                for _, paths in walker.checked(layer.values(), 64):
                    for p in paths:
                        if add(p):
                            return list(found)
            if not layer:
                break
        return list(found)


def _out_and_in(items: list[Any], vid: Any, target: Any) -> bool:
    """Both an OUT and an IN edge join `vid` and `target` (a real 2-ring under BOTH)."""
    out = any(e.out_v.id == vid and e.in_v.id == target for e, _ in items)
    inn = any(e.in_v.id == vid and e.out_v.id == target for e, _ in items)
    return out and inn


class RingsStep(_SubGraphPaths):
    name = "hg_rings"
    rings = True


class RaysStep(_SubGraphPaths):
    name = "hg_rays"
    rings = False
