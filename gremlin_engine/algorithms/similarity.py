"""Neighbourhood similarity: same neighbours, Jaccard, fusiform similarity, Adamic-Adar and
resource allocation (`hg_sameneighbors`, `hg_jaccardsimilarity`, `hg_fusiformsimilarity`,
`hg_adamicadar`, `hg_resourceallocation`).

Neighbour sets come from one batched adjacency call for all the vertices involved and keep
adjacency order, so `limit`/`top` ties break the way HugeGraph's iteration does.

* Jaccard POST scores every vertex one or two steps from the source (the source excluded)
  against the source's neighbours, sorted by score (stable), `top` 0 meaning all.
* Adamic-Adar sums 1/ln(d) and resource allocation 1/d over the common neighbours, d being
  the neighbour's edge count in the same direction and labels (a common neighbour with one
  edge has ln(d) = 0 and is skipped by Adamic-Adar).
* Fusiform: a source with at least `min_neighbors` neighbours; every vertex sharing
  neighbours with it scores shared/|neighbours|; those >= `alpha` are similar, at least
  `min_similars` of them, the `top` best, and with `group_property` at least `min_groups`
  distinct values of it among the source and its similars.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import Vertex

from .base import AlgorithmStep, Walker, check_capacity, result_vertices, vertex_values
from .steps import (
    DEFAULT_CAPACITY,
    DEFAULT_ELEMENTS_LIMIT,
    DEFAULT_PATHS_LIMIT,
    NO_LIMIT,
    EdgeStep,
    as_float,
    as_int,
    capacity,
    check_edge_labels,
    degree,
    direction,
    get_bool,
    get_int,
    get_step,
    limit,
    parse_step,
)


def neighbor_sets(walker: Walker, vertices: Sequence[Vertex], step: EdgeStep) -> dict[Any, dict[Any, Vertex]]:
    """vertex id -> {neighbour id: neighbour} (insertion = adjacency order)."""
    out: dict[Any, dict[Any, Vertex]] = {v.id: {} for v in vertices}
    for v, items in walker.neighbors(vertices, step):
        d = out[v.id]
        for n in items:
            d.setdefault(n.id, n)
    return out


def jaccard(a: Mapping[Any, Any], b: Mapping[Any, Any]) -> float:
    union = len(a.keys() | b.keys())
    return len(a.keys() & b.keys()) / union if union else 0.0


def _two(walker: Walker, req: Mapping[str, Any]) -> tuple[Vertex, Vertex]:
    return walker.vertex(req.get("vertex"), "source vertex"), walker.vertex(req.get("other"), "target vertex")


class SameNeighborsStep(AlgorithmStep):
    name = "hg_sameneighbors"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        post = "vertex_list" in req
        lim = limit(get_int(req, "limit", DEFAULT_ELEMENTS_LIMIT))
        if post:
            step = parse_step(walker.schema, {k: req.get(k) for k in ("direction", "labels", "max_degree")})
            ids = req.get("vertex_list")
            if not isinstance(ids, list) or len(ids) < 2:
                raise IllegalArgument("vertex_list size can't be less than 2")
            vertices = [walker.vertex(i, "vertex") for i in ids]
        else:
            step = get_step(walker.schema, req)
            vertices = list(_two(walker, req))
        sets = neighbor_sets(walker, vertices, step)
        common = list(sets[vertices[0].id])
        for v in vertices[1:]:
            other = sets[v.id]
            common = [x for x in common if x in other]
        if lim != NO_LIMIT:
            common = common[:lim]
        if not post:
            return {"same_neighbors": common, "measure": walker.measure()}
        ids_all = list(dict.fromkeys([*common, *(v.id for v in vertices)]))
        return {"same_neighbors": common,
                "vertices": result_vertices(walker, ids_all, get_bool(req, "with_vertex", False)),
                "measure": walker.measure()}


class JaccardSimilarityStep(AlgorithmStep):
    name = "hg_jaccardsimilarity"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        if "step" in req:
            return self._top(req, walker)
        step = get_step(walker.schema, req)
        a, b = _two(walker, req)
        sets = neighbor_sets(walker, [a, b], step)
        return {"jaccard_similarity": jaccard(sets[a.id], sets[b.id]), "measure": walker.measure()}

    @staticmethod
    def _top(req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step = parse_step(walker.schema, req.get("step"))
        top = get_int(req, "top", 100)
        if top < 0:
            raise IllegalArgument(f"The top must be >= 0, but got: {top}")
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        source = walker.vertex(req.get("vertex"))
        mine = neighbor_sets(walker, [source], step)[source.id]
        candidates: dict[Any, Vertex] = {k: v for k, v in mine.items() if k != source.id}
        for _, items in walker.neighbors(list(mine.values()), step):
            for n in items:
                if n.id != source.id:
                    candidates.setdefault(n.id, n)
            check_capacity(cap, len(candidates), "jaccard similar")
        theirs = neighbor_sets(walker, list(candidates.values()), step)
        scores = [(vid, jaccard(mine, theirs[vid])) for vid in candidates]
        scores.sort(key=lambda x: x[1], reverse=True)
        if top > 0:
            scores = scores[:top]
        return {"jaccard_similarity": dict(scores), "measure": walker.measure()}


class _Prediction(AlgorithmStep):
    key = ""

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        step = get_step(walker.schema, req)
        limit(get_int(req, "limit", DEFAULT_ELEMENTS_LIMIT))
        a, b = _two(walker, req)
        if a.id == b.id:
            raise IllegalArgument("The source and target vertex id can't be same")
        sets = neighbor_sets(walker, [a, b], step)
        common = [n for k, n in sets[a.id].items() if k in sets[b.id]]
        degrees = {v.id: len(items) for v, items in walker.neighbors(common, step)}
        return {self.key: sum(self.score(degrees.get(n.id, 0)) for n in common)}

    def score(self, d: int) -> float:
        raise NotImplementedError


class AdamicAdarStep(_Prediction):
    name = "hg_adamicadar"
    key = "adamic_adar"

    def score(self, d: int) -> float:
        return 1.0 / math.log(d) if d > 1 else 0.0


class ResourceAllocationStep(_Prediction):
    name = "hg_resourceallocation"
    key = "resource_allocation"

    def score(self, d: int) -> float:
        return 1.0 / d if d > 0 else 0.0


class FusiformSimilarityStep(AlgorithmStep):
    name = "hg_fusiformsimilarity"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        labels = [req["label"]] if req.get("label") else []
        check_edge_labels(walker.schema, labels)
        max_degree = degree(get_int(req, "max_degree", 10_000))
        step = EdgeStep(direction(req.get("direction")), tuple(labels), max_degree=max_degree)
        min_neighbors = as_int(req.get("min_neighbors", 0), "min_neighbors")
        if min_neighbors <= 0:
            raise IllegalArgument(f"The min neighbor count must be > 0, but got: {min_neighbors}")
        if req.get("alpha") is None:
            raise IllegalArgument("The alpha parameter can't be null")
        alpha = as_float(req.get("alpha"), "alpha")
        if not 0 < alpha <= 1:
            raise IllegalArgument(f"The alpha of fusiform similarity must be in (0, 1], but got {alpha}")
        min_similars = get_int(req, "min_similars", 1)
        if min_similars <= 0:
            raise IllegalArgument(f"The min similar count must be > 0, but got: {min_similars}")
        top = get_int(req, "top", 0)
        if top < 0:
            raise IllegalArgument(f"The top must be >= 0, but got: {top}")
        group = req.get("group_property")
        min_groups = get_int(req, "min_groups", 0)
        if group is not None and min_groups <= 0:
            raise IllegalArgument("Must set min group count when group property set")
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        lim = limit(get_int(req, "limit", DEFAULT_PATHS_LIMIT))
        with_inter = get_bool(req, "with_intermediary", False)
        sources = walker.select(req.get("sources"), "source")
        results: dict[Any, list[dict[str, Any]]] = {}
        accessed = 0
        back = step.reverse()
        for source in sources:
            accessed += 1
            check_capacity(cap, accessed, "fusiform similarity")
            neighbors = neighbor_sets(walker, [source], step)[source.id]
            if len(neighbors) < min_neighbors:
                continue
            counts: dict[Any, int] = {}
            inter: dict[Any, list[Any]] = {}
            for n, items in walker.neighbors(list(neighbors.values()), back):
                accessed += 1
                for node in dict.fromkeys(x.id for x in items):
                    if node not in counts:
                        accessed += 1
                    counts[node] = counts.get(node, 0) + 1
                    if with_inter:
                        inter.setdefault(node, []).append(n.id)
                check_capacity(cap, accessed, "fusiform similarity")
            counts.pop(source.id, None)
            matched = [(k, c / len(neighbors)) for k, c in counts.items() if c / len(neighbors) >= alpha]
            if not matched or len(matched) < min_similars:
                continue
            if top > 0:
                matched = sorted(matched, key=lambda x: x[1], reverse=True)[:top]
            if group is not None:
                vs = [source, *walker.vertices([k for k, _ in matched])]
                walker.load(vs)
                if len({repr(vertex_values(v).get(group)) for v in vs}) < min_groups:
                    continue
            results[source.id] = [{"id": k, "score": s, "intermediaries": inter.get(k, []) if with_inter else []}
                                  for k, s in matched]
            if lim != NO_LIMIT and len(results) >= lim:
                break
        ids = list(dict.fromkeys([*results, *(s["id"] for v in results.values() for s in v),
                                  *(i for v in results.values() for s in v for i in s["intermediaries"])]))
        return {"similars": results,
                "vertices": result_vertices(walker, ids, get_bool(req, "with_vertex", False)),
                "measure": walker.measure()}
