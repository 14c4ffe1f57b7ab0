"""Paths that follow a pattern of steps: customized paths, template paths and customized
crosspoints (`hg_customizedpaths`, `hg_templatepaths`, `hg_customizedcrosspoints`).

Each grows every path of a layer by one step (one adjacency call per batch of distinct end
vertices, through the shared `Walker`), never revisiting a vertex on the same path, and
counts the path nodes it creates against `capacity`.

* customized paths: the steps in order; with `sort_by` INCR/DECR each edge weighs its
  `weight_by` property (or `default_weight`, 0 when neither applies) and paths are sorted by
  the sum; `sample` keeps n of a vertex's passing edges picked at random (HugeGraph's uniform
  sample, seeded by the request so a request always answers alike; adjacency order kept).
* template paths: step i may repeat 1..`max_times` times; a path counts when its last step
  has been taken at least once and it ends at a target (`with_ring` allows revisits).
* customized crosspoints: every pattern is walked from every source; the crosspoints are
  the vertices every source reaches (through any pattern), HugeGraph's intersection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import Vertex

from .base import AlgorithmStep, Walker, check_capacity, result_vertices
from .paths import MAX_VERTICES
from .shortest import path_edges
from .steps import (
    DEFAULT_CAPACITY,
    DEFAULT_PATHS_LIMIT,
    NO_LIMIT,
    EdgeStep,
    as_int,
    capacity,
    get_bool,
    get_int,
    limit,
    parse_step,
)

SORTS = ("NONE", "INCR", "DECR")


def _steps(walker: Walker, body: Any, name: str, **kw: Any) -> list[EdgeStep]:
    if not isinstance(body, list) or not body:
        raise IllegalArgument(f"The {name} can't be empty")
    return [parse_step(walker.schema, s, name, **kw) for s in body]


def _edges_response(walker: Walker, req: Mapping[str, Any], paths: Sequence[Sequence[Any]],
                    steps: Sequence[EdgeStep]) -> list[Any]:
    with_edge = get_bool(req, "with_edge", False)
    out, seen = [], set()
    for step in {(s.direction, s.labels): s for s in steps}.values():
        for e in path_edges(walker, paths, step):
            if e.id not in seen:
                seen.add(e.id)
                out.append(e if with_edge else e.id)
    return out


class CustomizedPathsStep(AlgorithmStep):
    name = "hg_customizedpaths"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        steps = _steps(walker, req.get("steps"), "steps", weights=True, sample=True)
        sort_by = str(req.get("sort_by") or "NONE").upper()
        if sort_by not in SORTS:
            raise IllegalArgument(f"The sort_by must be one of {list(SORTS)}, but got '{req.get('sort_by')}'")
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        sources = walker.select(req.get("sources"), "source")
        weighted = sort_by != "NONE"
        layer: list[tuple[Vertex, tuple[Any, ...], tuple[float, ...]]] = [(s, (s.id,), ()) for s in sources]
        nodes = len(layer)
        for step in steps:
            ends = list({v.id: v for v, _, _ in layer}.values())
            adj = dict(walker.adjacency(ends, step, edges=True))
            new = []
            for v, path, weights in walker.checked(layer, 256):
                for e, n in adj.get(v, ()):
                    if n.id in path:
                        continue
                    w = weights
                    if weighted:
                        w = (*weights, _edge_weight(e, step))
                    new.append((n, (*path, n.id), w))
                    nodes += 1
                    check_capacity(cap, nodes, "customized paths")
            layer = new
        if weighted:
            layer.sort(key=lambda x: sum(x[2]), reverse=sort_by == "DECR")
        if lim != NO_LIMIT:
            layer = layer[:lim]
        paths = [p for _, p, _ in layer]
        entries = [{"objects": list(p), "weights": list(w)} if weighted else {"objects": list(p)}
                   for _, p, w in walker.checked(layer)]
        ids = list(dict.fromkeys(x for p in walker.checked(paths) for x in p))
        return {"paths": entries,
                "vertices": result_vertices(walker, ids, get_bool(req, "with_vertex", False)),
                "edges": _edges_response(walker, req, paths, steps),
                "measure": walker.measure()}


def _edge_weight(edge: Any, step: EdgeStep) -> float:
    if step.weight_by is not None:
        value = (edge._props or {}).get(step.weight_by)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        return 0.0
    return step.default_weight if step.default_weight is not None else 0.0


class TemplatePathsStep(AlgorithmStep):
    name = "hg_templatepaths"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        body = req.get("steps")
        steps = _steps(walker, body, "steps")
        times = [as_int((s or {}).get("max_times", 1), "max_times") for s in body]
        for t in times:
            if t <= 0:
                raise IllegalArgument(f"The max_times must be > 0, but got {t}")
        with_ring = get_bool(req, "with_ring", False)
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        sources = walker.select(req.get("sources"), "source")
        targets = {t.id for t in walker.select(req.get("targets"), "target")}
        for what, n in (("source", len(sources)), ("target", len(targets))):
            if n > MAX_VERTICES:
                raise IllegalArgument(f"The number of {what} vertices can't exceed {MAX_VERTICES}, but got {n}")
        # a state: (end vertex, path, index of the step just taken, times it was taken)
        layer: list[tuple[Vertex, tuple[Any, ...], int, int]] = [(s, (s.id,), -1, 0) for s in sources]
        found: dict[tuple[Any, ...], None] = {}
        nodes = len(layer)
        last = len(steps) - 1
        while layer:
            moves: dict[int, list[tuple[Vertex, tuple[Any, ...], int]]] = {}
            for v, path, i, t in layer:
                if i >= 0 and t < times[i]:
                    moves.setdefault(i, []).append((v, path, t + 1))
                if i < last:
                    moves.setdefault(i + 1, []).append((v, path, 1))
            new = []
            for i, group in sorted(moves.items()):
                ends = list({v.id: v for v, _, _ in group}.values())
                adj = dict(walker.neighbors(ends, steps[i]))
                for v, path, t in group:
                    for n in dict.fromkeys(adj.get(v, ())):
                        if not with_ring and n.id in path:
                            continue
                        p = (*path, n.id)
                        if i == last and n.id in targets and p not in found:
                            found[p] = None
                            if lim != NO_LIMIT and len(found) >= lim:
                                return self._response(walker, req, list(found), steps)
                        new.append((n, p, i, t))
                        nodes += 1
                        check_capacity(cap, nodes, "template paths")
            layer = new
        return self._response(walker, req, list(found), steps)

    @staticmethod
    def _response(walker: Walker, req: Mapping[str, Any], paths: list[tuple[Any, ...]], steps: list[EdgeStep]
                  ) -> dict[str, Any]:
        ids = list(dict.fromkeys(x for p in paths for x in p))
        return {"paths": [{"objects": list(p)} for p in paths],
                "vertices": result_vertices(walker, ids, get_bool(req, "with_vertex", False)),
                "edges": _edges_response(walker, req, paths, steps),
                "measure": walker.measure()}


class CustomizedCrosspointsStep(AlgorithmStep):
    name = "hg_customizedcrosspoints"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        patterns = req.get("path_patterns")
        if not isinstance(patterns, list) or not patterns:
            raise IllegalArgument("The path_patterns can't be empty")
        pattern_steps = [_steps(walker, (p or {}).get("steps") if isinstance(p, Mapping) else None, "steps")
                         for p in patterns]
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        with_path = get_bool(req, "with_path", False)
        with_vertex = get_bool(req, "with_vertex", False)
        sources = walker.select(req.get("sources"), "source")
        paths: list[tuple[Any, ...]] = []
        nodes = 0
        for steps in pattern_steps:
            layer = [(s, (s.id,)) for s in sources]
            for step in steps:
                ends = list({v.id: v for v, _ in layer}.values())
                adj = dict(walker.neighbors(ends, step))
                new = []
                for v, path in layer:
                    for n in dict.fromkeys(adj.get(v, ())):
                        if n.id in path:
                            continue
                        new.append((n, (*path, n.id)))
                        nodes += 1
                        check_capacity(cap, nodes, "customized crosspoints")
                layer = new
            paths.extend(p for _, p in layer)
        ends_by_source: dict[Any, dict[Any, None]] = {}
        for p in paths:
            ends_by_source.setdefault(p[0], {})[p[-1]] = None
        crosspoints: list[Any] = []
        if len(ends_by_source) == len({s.id for s in sources}):
            common: dict[Any, None] | None = None
            for ends in ends_by_source.values():
                common = dict(ends) if common is None else {x: None for x in common if x in ends}
            crosspoints = list(common or {})
        if lim != NO_LIMIT:
            crosspoints = crosspoints[:lim]
        keep = set(crosspoints)
        chosen = list(dict.fromkeys(p for p in paths if p[-1] in keep)) if with_path else []
        ids = list(dict.fromkeys(x for p in chosen for x in p)) if with_path else crosspoints
        all_steps = [s for steps in pattern_steps for s in steps]
        return {"crosspoints": crosspoints,
                "paths": [{"objects": list(p)} for p in chosen],
                "vertices": result_vertices(walker, ids, with_vertex),
                "edges": _edges_response(walker, req, chosen, all_steps) if with_path else [],
                "measure": walker.measure()}
