"""k-out and k-neighbor: frontier-at-a-time BFS (`hg_kout`, `hg_kneighbor`).

Both keep only the current frontier and a visited set (plus, when paths are asked for, one
parent entry per discovered vertex), so memory follows the number of vertices reached, never
the number of paths. `capacity` bounds the vertices visited: reaching it with depth still to
go is HugeGraph's 400 `Reach capacity 'C' while remaining depth 'D'`; `limit` truncates
the last layer (k-out) or the whole result (k-neighbor) in discovery order, which is
adjacency order (OUT before IN, then label, sort values, other vertex).

Semantics (spec "Traversers", reference §7.1–7.4):

* k-out, `nearest=true`: vertices whose shortest distance from the source is exactly
  `max_depth`; `nearest=false`: vertices at the end of any walk of that length (cycles
  allowed, the source itself excluded).
* k-neighbor: every vertex within `max_depth` steps. The GET form lists the source first
  (the spec and HugeGraph's documented example); the POST form does not (1.5).
* The POST forms take `VESteps` (edge and vertex rules), `count_only`, `with_path`,
  `with_vertex`, `with_edge`; paths are the BFS-tree (shortest) paths to each result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Long

from .base import AlgorithmStep, KeyNodes, Nodes, VertexNodes, Walker, reach_capacity, result_vertices
from .steps import (
    DEFAULT_CAPACITY,
    DEFAULT_ELEMENTS_LIMIT,
    NO_LIMIT,
    capacity,
    get_bool,
    get_int,
    get_step,
    limit,
    parse_vesteps,
    positive,
)

TRAVERSE_MODES = ("breadth_first_search", "depth_first_search")

# parents[level][vertex id] = (parent id, edge or None): enough to rebuild one shortest path
Parents = list[dict[Any, tuple[Any, Any]]]


class _Options:
    """The flags shared by both algorithms, checked once."""

    def __init__(self, req: Mapping[str, Any], schema: Any, what: str) -> None:
        self.post = "steps" in req
        self.step = parse_vesteps(schema, req["steps"]) if self.post else get_step(schema, req)
        self.max_depth = positive(get_int(req, "max_depth", 0), f"{what} max_depth")
        self.count_only = get_bool(req, "count_only", False)
        self.with_vertex = get_bool(req, "with_vertex", False)
        self.with_path = get_bool(req, "with_path", False)
        self.with_edge = get_bool(req, "with_edge", False)
        self.limit = limit(get_int(req, "limit", DEFAULT_ELEMENTS_LIMIT))
        if self.count_only and (self.with_vertex or self.with_path or self.with_edge):
            raise IllegalArgument("Can't return vertex, edge or path when count only")
        mode = req.get("traverse_mode", TRAVERSE_MODES[0])
        if mode not in TRAVERSE_MODES:
            raise IllegalArgument(f"The traverse mode must be one of {list(TRAVERSE_MODES)}, but got '{mode}'")
        self.track = self.post and self.with_path


def _path(parents: Parents, level: int, vid: Any) -> tuple[list[Any], list[Any]]:
    """The vertex ids and edges from the source to `vid` found at `level`."""
    ids, edges = [vid], []
    while level > 0:
        prev, edge = parents[level - 1][vid]
        if edge is not None:
            edges.append(edge)
        ids.append(prev)
        vid = prev
        level -= 1
    ids.reverse()
    edges.reverse()
    return ids, edges


def _post_result(key: str, found: list[tuple[int, Any]], parents: Parents, opts: _Options,
                 walker: Walker) -> dict[str, Any]:
    if opts.count_only:
        return {key: [], "size": len(found), "paths": [], "vertices": [], "edges": [], "measure": walker.measure()}
    result_ids = [vid for _, vid in found]
    paths: list[dict[str, Any]] = []
    vertex_ids = list(result_ids)
    edges: list[Any] = []
    if opts.with_path:
        seen = set(result_ids)
        edge_seen: set[Any] = set()
        for level, vid in found:
            ids, path_edges = _path(parents, level, vid)
            paths.append({"objects": ids})
            for x in ids:
                if x not in seen:
                    seen.add(x)
                    vertex_ids.append(x)
            for e in path_edges:
                if e.id not in edge_seen:
                    edge_seen.add(e.id)
                    edges.append(e if opts.with_edge else e.id)
    return {
        key: result_ids,
        "size": len(result_ids),
        "paths": paths,
        "vertices": result_vertices(walker, vertex_ids, opts.with_vertex),
        "edges": edges,
        "measure": walker.measure(),
    }


#: parameter sets whose settled options one schema snapshot keeps per step (then emptied)
SETTLED_MAX = 256


def settled(name: str, settle: Any, req: Mapping[str, Any], schema: Any) -> Any:
    """`settle(req, schema)`, kept on the schema snapshot per parameter set (the request
    without its `source`): the checks and options are a function of those alone, and the
    snapshot is replaced on every schema change. A failing check raises and is never kept;
    a request whose parameters cannot be keyed exactly is settled afresh."""
    derived = getattr(getattr(schema, "service", None), "derived", None)
    key = _params_key(req)
    if derived is None or key is None:
        return settle(req, schema)
    memo: dict[Any, Any] = derived(("algorithm options", name), dict)
    found = memo.get(key)
    if found is None:
        found = settle(req, schema)
        if len(memo) >= SETTLED_MAX:
            memo.clear()
        memo[key] = found
    return found


def _params_key(req: Mapping[str, Any]) -> Any:
    """The request's parameters but `source`, with each value's exact type (1, 1.0, True
    and "1" check differently), or None when a value is not a plain one.

    A GET's map (scalars only, keys in the order its query string gave them) is keyed in C,
    as its names, values and value types in that order: a client repeats one query string
    with another source, so the order is the same each time (another order is another
    key, settled once more, never a wrong one). Maps holding containers (POST bodies) are
    keyed by the sorted, frozen walk below."""
    if type(req) is dict:
        names = tuple(req)
        values = list(req.values())
        if "source" in req:
            i = names.index("source")
            names = names[:i] + names[i + 1:]
            del values[i]
        kinds = tuple(map(type, values))
        if _SCALARS.issuperset(kinds):
            return names, tuple(values), kinds
    try:
        return tuple(sorted((k, _frozen(v)) for k, v in req.items() if k != "source"))
    except (TypeError, _Unkeyable):
        return None


#: value types `_params_key` keys as they are (hashable, compared by value and type)
_SCALARS = frozenset({str, int, float, bool, type(None), Long})


class _Unkeyable(Exception):
    pass


def _frozen(v: Any) -> Any:
    t = type(v)
    if t is list or t is tuple:
        return (t.__name__, tuple(_frozen(x) for x in v))
    if t is dict:
        return ("dict", tuple(sorted((k, _frozen(x)) for k, x in v.items())))
    if v is None or t in (str, int, float, bool) or isinstance(v, int):
        return (t, v)
    raise _Unkeyable


class KoutStep(AlgorithmStep):
    name = "hg_kout"

    @staticmethod
    def settle(req: Mapping[str, Any], schema: Any) -> tuple[_Options, int, bool]:
        """The request's checked options, capacity and `nearest`: every 400 of a bad
        parameter, in this order, before the source is looked up. A function of the
        request's parameters and the schema alone."""
        opts = _Options(req, schema, "k-out")
        cap = capacity(get_int(req, "capacity", DEFAULT_CAPACITY))
        if not opts.post and cap != NO_LIMIT and (opts.limit == NO_LIMIT or opts.limit > cap):
            raise IllegalArgument(f"Capacity can't be less than limit, but got capacity '{cap}' and limit '{opts.limit}'")
        return opts, cap, get_bool(req, "nearest", True)

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        opts, cap, nearest = settled(self.name, self.settle, req, walker.schema)
        source = walker.vertex(req.get("source"))
        nodes = _nodes(walker, opts)
        found, parents = self._walk(walker, nodes, source, opts, cap, nearest)
        if opts.count_only:
            if opts.post:
                return _post_result("kout", [(opts.max_depth, None)] * len(found), parents, opts, walker)
            return {"vertices_size": len(found), "measure": walker.measure()}
        ids = nodes.ids(found)
        if opts.post:
            return _post_result("kout", [(opts.max_depth, vid) for vid in ids], parents, opts, walker)
        return {"vertices": ids, "measure": walker.measure()}

    @staticmethod
    def _walk(walker: Walker, nodes: Nodes, source: Vertex, opts: _Options, cap: int, nearest: bool
              ) -> tuple[list[Any], Parents]:
        start = nodes.start(source)
        skey = nodes.key(start)
        key = nodes.key
        visited = {skey}
        latest = [start]
        parents: Parents = []
        remaining = NO_LIMIT if cap == NO_LIMIT else cap - 1
        done = 0
        for depth_left in range(opts.max_depth - 1, -1, -1):
            bound = remaining
            if depth_left == 0 and opts.limit != NO_LIMIT and (remaining == NO_LIMIT or opts.limit < remaining):
                bound = opts.limit
            level: dict[Any, tuple[Any, Any]] = {}
            new: list[Any] = []
            seen = visited if nearest else {skey}
            if not opts.track:  # the hot loop: keys (or ids) only, no parent records
                new = _layer(nodes, latest, opts, seen, bound, listed=depth_left == 0)
                if nearest:
                    visited.update(new if isinstance(nodes, KeyNodes) else map(key, new))
            else:
                for v, items in _expand(walker, nodes, latest, opts):
                    vk = key(v)
                    for item in items:
                        edge, n = item if isinstance(item, tuple) else (None, item)
                        k = key(n)
                        if k in seen or k in level:
                            continue
                        level[k] = (vk, edge)
                        new.append(n)
                        if bound != NO_LIMIT and len(new) >= bound:
                            break
                    if bound != NO_LIMIT and len(new) >= bound:
                        break
                if nearest:
                    visited.update(level)
                parents.append(level)
            if cap != NO_LIMIT:
                remaining -= len(new)
                if remaining <= 0 and depth_left > 0:
                    raise reach_capacity(cap, depth_left)
            latest = new
            done += 1
            if not latest:
                break
        return (latest if done == opts.max_depth else []), parents


def _layer(nodes: Nodes, front: list[Any], opts: _Options, seen: set[Any], bound: int,
           listed: bool = False) -> list[Any]:
    """The next BFS layer: neighbours of `front` not in `seen`, each once, at most `bound`.
    `listed`: the answer lists this layer's ids (read with the keys, see `KeyNodes.flat`)."""
    flat = nodes.flat(front, opts.step, ordered=not opts.count_only, with_ids=listed and not opts.count_only)
    if flat is not None:  # keys, one flat list per adjacency call: dedup and tests in C
        if opts.count_only and bound == NO_LIMIT:
            # counted, not listed: which keys, not their order (the next layer's reads and
            # counters see the same keys; chunks of another order read the same rows in all)
            reached: set[Any] = set()
            for tos in flat:
                reached.update(tos)
            reached.difference_update(seen)
            return list(reached)
        fresh: dict[Any, Any] = {}
        for tos in flat:
            firsts = dict.fromkeys(tos)  # first appearances, in order
            for k in seen.intersection(firsts):
                del firsts[k]
            fresh.update(firsts)  # a key already in `fresh` keeps its place
            if bound != NO_LIMIT and len(fresh) >= bound:  # the first `bound`, in order
                break
        new = list(fresh)
        if bound != NO_LIMIT:
            del new[bound:]
        return new
    found: set[Any] = set()
    new: list[Any] = []
    by_key = isinstance(nodes, KeyNodes)
    for _, items in nodes.expand(front, opts.step):
        for n in items:
            k = n if by_key else n.id
            if k in seen or k in found:
                continue
            found.add(k)
            new.append(n)
            if bound != NO_LIMIT and len(new) >= bound:
                return new
    return new


def _nodes(walker: Walker, opts: _Options) -> Nodes:
    """Paths with edges need `Vertex`/`Edge` objects; everything else can run on keys."""
    return VertexNodes(walker) if opts.track else walker.nodes(opts.step)


def _expand(walker: Walker, nodes: Nodes, front: list[Any], opts: _Options) -> Any:
    if opts.track and opts.with_edge:
        return walker.adjacency(front, opts.step, edges=True)
    return nodes.expand(front, opts.step)


class KneighborStep(AlgorithmStep):
    name = "hg_kneighbor"

    @staticmethod
    def settle(req: Mapping[str, Any], schema: Any) -> _Options:
        """The request's checked options (see `KoutStep.settle`)."""
        return _Options(req, schema, "k-neighbor")

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        opts = settled(self.name, self.settle, req, walker.schema)
        source = walker.vertex(req.get("source"))
        nodes = _nodes(walker, opts)
        start = nodes.start(source)
        include_source = not opts.post
        parents: Parents = []
        if not opts.track:
            layers, count = reach(nodes, start, opts, include_source)
        else:
            layers, count = self._tracked(walker, nodes, start, opts, include_source, parents)
        if opts.count_only and not opts.post:
            return {"vertices_size": count, "measure": walker.measure()}
        found = [(lv, n) for lv, ns in layers for n in ns]
        ids = nodes.ids([n for _, n in found]) if not opts.count_only else [None] * len(found)
        if opts.post:
            return _post_result("kneighbor", [(lv, vid) for (lv, _), vid in zip(found, ids, strict=True)],
                                parents, opts, walker)
        return {"vertices": ids, "measure": walker.measure()}

    @staticmethod
    def _tracked(walker: Walker, nodes: Nodes, start: Any, opts: _Options, include_source: bool,
                 parents: Parents) -> tuple[list[tuple[int, list[Any]]], int]:
        """The layers (and, into `parents`, each vertex's parent) when paths are asked for."""
        key = nodes.key
        layers: list[tuple[int, list[Any]]] = [(0, [start])] if include_source else []  # (depth, vertices)
        count = len(layers)
        seen = {key(start)}
        latest = [start]
        budget = opts.limit
        for depth in range(1, opts.max_depth + 1):
            remaining = NO_LIMIT if budget == NO_LIMIT else budget - count
            if remaining == 0:
                break
            level: dict[Any, tuple[Any, Any]] = {}
            new: list[Any] = []
            for v, items in _expand(walker, nodes, latest, opts):
                vk = key(v)
                for item in items:
                    edge, n = item if isinstance(item, tuple) else (None, item)
                    k = key(n)
                    if k in seen:
                        continue
                    seen.add(k)
                    level[k] = (vk, edge)
                    new.append(n)
                    if remaining != NO_LIMIT and len(new) >= remaining:
                        break
                if remaining != NO_LIMIT and len(new) >= remaining:
                    break
            parents.append(level)
            layers.append((depth, new))
            count += len(new)
            latest = new
            if not latest:
                break
        return layers, count


def reach(nodes: Nodes, start: Any, opts: _Options, include_source: bool) -> tuple[list[tuple[int, list[Any]]], int]:
    """k-neighbor's layers without paths: (depth, vertices) in discovery order (the source
    first at depth 0 when `include_source`), at most `opts.limit` vertices in all, and
    their number: the hot loop of a GET k-neighbor."""
    key = nodes.key
    layers: list[tuple[int, list[Any]]] = [(0, [start])] if include_source else []
    count = len(layers)
    seen = {key(start)}
    latest = [start]
    budget = opts.limit
    by_key = isinstance(nodes, KeyNodes)
    for depth in range(1, opts.max_depth + 1):
        remaining = NO_LIMIT if budget == NO_LIMIT else budget - count
        if remaining == 0:
            break
        new = _layer(nodes, latest, opts, seen, remaining, listed=True)
        seen.update(new if by_key else map(key, new))
        layers.append((depth, new))
        count += len(new)
        latest = new
        if not latest:
            break
    return layers, count
