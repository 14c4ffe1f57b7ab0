"""Recommendation ranks: personal rank and neighbor rank (`hg_personalrank`,
`hg_neighborrank`).

Personal rank (bipartite graphs, one edge label linking two vertex labels): the rank starts
as 1.0 on the source; each of `max_depth` rounds every seed passes `alpha` of its rank,
split evenly, to its neighbours (seeds on the source's side walk OUT, the other side IN when
the source is the label's source side, and the reverse otherwise), a seed without neighbours
keeps its rank, and the source gets `1 - alpha` back. The source and its direct neighbours
are dropped from the result, which `with_label` filters to one side, sorted by rank
(descending) when `sorted`, cut at `limit`. Each seed's neighbours are read once (one
batched adjacency call per round for the new seeds) and kept for the later rounds.

Neighbor rank: layer by layer along `steps`, a vertex passes `alpha` times its rank, split
over its degree, to the new vertices of the next layer; edges back into the current layer
or an earlier one add to those ranks instead (HugeGraph counts each earlier layer once in
the degree, and lets same-layer contributions land before passing on). Each layer keeps its
`top` best, descending.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.traversal.tokens import Direction

from .base import AlgorithmStep, KeyNodes, Walker, check_capacity
from .steps import (
    DEFAULT_CAPACITY,
    NO_LIMIT,
    EdgeStep,
    as_float,
    as_int,
    capacity,
    check_edge_labels,
    degree,
    get_bool,
    get_int,
    limit,
    parse_step,
)

WITH_LABELS = ("SAME_LABEL", "OTHER_LABEL", "BOTH_LABEL")
MAX_TOP = 1000


def _alpha(req: Mapping[str, Any], default: float | None) -> float:
    value = req.get("alpha", default)
    if value is None:
        raise IllegalArgument("The alpha of rank request can't be null")
    alpha = as_float(value, "alpha")
    if not 0 < alpha <= 1:
        raise IllegalArgument(f"The alpha of rank request must be in range (0, 1], but got '{alpha}'")
    return alpha


def _start_direction(walker: Walker, source: Vertex, label: str) -> Direction:
    schema = walker.schema
    if schema is None or getattr(schema, "auto", False):
        return Direction.OUT
    el = schema.edge_label(label)
    links = set(getattr(el, "links", ()) or ())
    if el.source_label and el.target_label:
        links.add((el.source_label, el.target_label))
    mine = [lk for lk in links if source.label in lk]
    if not mine:
        raise IllegalArgument(f"The vertex '{source.id}' doesn't link with edge label '{label}'")
    out_label, in_label = mine[0]
    if out_label == in_label:
        raise IllegalArgument("The edge label for personal rank must link different vertex labels")
    return Direction.OUT if out_label == source.label else Direction.IN


class PersonalRankStep(AlgorithmStep):
    name = "hg_personalrank"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[Any, float]:
        label = req.get("label")
        if not label:
            raise IllegalArgument("The edge label can't be null")
        check_edge_labels(walker.schema, [label])
        alpha = _alpha(req, 0.85)
        max_diff = as_float(req.get("max_diff", 0.0001), "max_diff")
        if not 0 < max_diff <= 1:
            raise IllegalArgument(f"The max_diff of rank request must be in range (0, 1], but got '{max_diff}'")
        max_degree = degree(get_int(req, "max_degree", 10_000))
        lim = limit(get_int(req, "limit", 100))
        depth = get_int(req, "max_depth", 5)
        if not 2 <= depth <= 50:
            raise IllegalArgument(f"The max_depth of rank request must be in range [2, 50], but got '{depth}'")
        with_label = str(req.get("with_label") or "BOTH_LABEL").upper()
        if with_label not in WITH_LABELS:
            raise IllegalArgument(f"The with_label must be one of {list(WITH_LABELS)}, but got '{req.get('with_label')}'")
        ordered = get_bool(req, "sorted", True)
        source = walker.vertex(req.get("source"))
        start = _start_direction(walker, source, label)
        steps = {Direction.OUT: EdgeStep(Direction.OUT, (label,), max_degree=max_degree),
                 Direction.IN: EdgeStep(Direction.IN, (label,), max_degree=max_degree)}
        nodes = walker.nodes(steps[Direction.OUT])
        key = nodes.key
        by_key = isinstance(nodes, KeyNodes)  # nodes are their own keys: no key() per edge
        root = nodes.start(source)
        rk = key(root)
        seeds: dict[Direction, dict[Any, Any]] = {Direction.OUT: {}, Direction.IN: {}}
        seeds[start][rk] = root
        # each side's neighbour lists by node key (one dict per direction: no tuple keys to hash)
        adjacency: dict[Direction, dict[Any, list[Any]]] = {Direction.OUT: {}, Direction.IN: {}}
        ranks: dict[Any, float] = {rk: 1.0}
        root_adjacent: set[Any] = set()
        for i in range(depth):
            new: dict[Any, float] = {}
            get = new.get
            found: dict[Direction, dict[Any, Any]] = {Direction.OUT: {}, Direction.IN: {}}
            for d in (Direction.OUT, Direction.IN):
                adj = adjacency[d]
                todo = [v for k, v in seeds[d].items() if k not in adj]
                for v, items in nodes.expand(todo, steps[d]):
                    adj[key(v)] = items
                reached = found[Direction.IN if d is Direction.OUT else Direction.OUT]
                # later rounds find every adjacency cached: no adjacency call checks the token
                for k in walker.checked(seeds[d]):
                    old = ranks.get(k, 0.0)
                    nbrs = adj[k]
                    if not nbrs:
                        new[k] = old
                        continue
                    incr = old * alpha / len(nbrs)
                    if by_key:
                        reached.update(zip(nbrs, nbrs, strict=True))  # an existing key keeps its place
                        for nk in nbrs:
                            new[nk] = get(nk, 0.0) + incr
                        continue
                    for n in nbrs:
                        nk = key(n)
                        reached.setdefault(nk, n)
                        new[nk] = get(nk, 0.0) + incr
            for d in (Direction.OUT, Direction.IN):
                side = seeds[d]
                for k, v in found[d].items():
                    side.setdefault(k, v)
            new[rk] = new.get(rk, 0.0) + (1 - alpha)
            ranks = new
            if i == 0:
                root_adjacent = set(ranks)
        for k in root_adjacent:
            ranks.pop(k, None)
        same_side = seeds[start]
        other_side = seeds[Direction.IN if start is Direction.OUT else Direction.OUT]
        if with_label == "SAME_LABEL":
            ranks = {k: r for k, r in ranks.items() if k not in other_side}
        elif with_label == "OTHER_LABEL":
            ranks = {k: r for k, r in ranks.items() if k not in same_side}
        items = list(ranks.items())
        if ordered:
            items.sort(key=lambda x: x[1], reverse=True)
        if lim != NO_LIMIT:
            items = items[:lim]
        keyed = {k: n for side in seeds.values() for k, n in side.items()}
        ids = nodes.ids([keyed[k] for k, _ in items])
        return dict(zip(ids, (r for _, r in items), strict=True))


class NeighborRankStep(AlgorithmStep):
    name = "hg_neighborrank"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        alpha = _alpha(req, None)
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        body = req.get("steps")
        if not isinstance(body, list) or not body:
            raise IllegalArgument("The steps can't be empty")
        steps: list[tuple[EdgeStep, int]] = []
        for s in body:
            step = parse_step(walker.schema, s, "step")
            top = as_int((s or {}).get("top", 100), "top")
            if not 0 < top <= MAX_TOP:
                raise IllegalArgument(f"The top of each layer must be in (0, {MAX_TOP}], but got {top}")
            steps.append((step, top))
        source = walker.vertex(req.get("source"))
        ranks: list[dict[Any, float]] = [{source.id: 1.0}]
        sources: dict[Any, tuple[Vertex, list[tuple[Any, ...]]]] = {source.id: (source, [(source.id,)])}
        access = 0
        for step, _ in steps:
            last = ranks[-1]
            same_incr: dict[Any, float] = {}
            passes: list[tuple[Any, list[Any], int]] = []
            new_sources: dict[Any, tuple[Vertex, list[tuple[Any, ...]]]] = {}
            for v, items in walker.neighbors([x for x, _ in sources.values()], step):
                same: dict[Any, None] = {}
                prev: dict[int, dict[Any, None]] = {}
                nodes: list[Any] = []
                for n in items:
                    if n.id in sources:
                        same[n.id] = None
                        continue
                    layer = next((i for i in range(len(ranks) - 2, 0, -1) if n.id in ranks[i]), None)
                    if layer is not None:
                        prev.setdefault(layer, {})[n.id] = None
                        continue
                    for p in sources[v.id][1]:
                        if n.id in p:
                            continue
                        nodes.append(n.id)
                        entry = new_sources.setdefault(n.id, (n, []))
                        entry[1].append((*p, n.id))
                        access += 1
                        check_capacity(cap, access, "neighbor rank")
                deg = len(same) + len(prev) + len(nodes)  # HugeGraph counts layers, not vertices
                if deg == 0:
                    continue
                incr = last.get(v.id, 0.0) * alpha / deg
                for t in same:
                    same_incr[t] = same_incr.get(t, 0.0) + incr
                for i, members in prev.items():
                    for t in members:
                        ranks[i][t] += incr
                passes.append((v.id, nodes, deg))
            for t, inc in same_incr.items():
                last[t] = last.get(t, 0.0) + inc
            new_layer: dict[Any, float] = {}
            for vid, nodes, deg in passes:
                share = last[vid] * alpha / deg
                for t in nodes:
                    new_layer[t] = new_layer.get(t, 0.0) + share
            ranks.append(new_layer)
            sources = new_sources
        out = [ranks[0]]
        for layer, (_, top) in zip(ranks[1:], steps, strict=True):
            items = sorted(layer.items(), key=lambda x: x[1], reverse=True)
            out.append(dict(items[:top]))
        return {"ranks": out}
