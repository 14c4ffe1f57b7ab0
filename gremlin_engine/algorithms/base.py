"""What every traverser algorithm step shares: the step shell, the walker and the limits.

An algorithm step (`hg_kout`, `hg_paths`, ...) is an ordinary traversal step: its input
traversers carry HugeGraph request maps (`g.inject({...}).hg_kout()`, built by the REST
handlers), and for each it emits one result map. The step itself never walks the graph by
hand: it asks a `Walker` for whole frontiers at a time, and the walker makes one batched
`GraphAccess` adjacency call per `BATCH` vertices, exactly like `out()`/`bothE()` do.

The walker applies HugeGraph's per-vertex knobs in HugeGraph's order (reference §7):
edge property rules first, then `skip_degree` (a vertex with at least that many edges counts
as having none), then `max_degree` (the first n edges in adjacency order: OUT before IN,
then label, sort values, other vertex), then `sample` (n edges picked at random, seeded by the
request: `Walker.sample`), then vertex rules. It also counts
`edge_iterations` / `vertice_iterations` for the `measure` object.
"""

from __future__ import annotations

import inspect
import itertools
import random
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from gremlin_engine.errors import HugeliteError, IllegalArgument
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.traverser import Context, Traverser, checked
from storage import AdjacencyQuery, Lookup, Project, Tx

from .steps import NO_LIMIT, EdgeStep, check_vertex_label, conditions, rule_matches

BATCH = 1000  # frontier vertices per adjacency call
CHECK_EVERY_ITEMS = 1024  # items of a result loop between two checks of the run's token
_T = TypeVar("_T")


class CapacityExceeded(HugeliteError):
    """A traversal visited more vertices than its `capacity` allows (HugeException, 400)."""


def reach_capacity(capacity: int, remaining_depth: int) -> CapacityExceeded:
    return CapacityExceeded(f"Reach capacity '{capacity}' while remaining depth '{remaining_depth}'")


def check_capacity(capacity: int, count: int, what: str) -> None:
    if capacity != NO_LIMIT and count > capacity:
        raise CapacityExceeded(f"Exceed capacity '{capacity}' while finding {what}")


def vertex_values(v: Vertex) -> dict[str, Any]:
    """A loaded vertex's properties as key -> first value (what property rules test)."""
    return {k: vps[0].value for k, vps in (v._props or {}).items() if vps}


def other_end(e: Edge, v: Vertex) -> Vertex:
    return e.in_v if e.out_v.id == v.id else e.out_v


class Walker:
    """Batched adjacency over a `GraphAccess`, with HugeGraph's degree rules and counters."""

    _limit_support: ClassVar[dict[type, bool]] = {}

    def __init__(self, ctx: Context, seed: int = 0, request: Mapping[str, Any] | None = None) -> None:
        """`request`: the request map whose content seeds sampling (`request_seed`, worked
        out on the first sample only: most requests never sample); else `seed`."""
        self.ctx = ctx
        self.access = ctx.access
        self.schema = getattr(ctx.access, "schema", None)
        self.edge_iterations = 0
        self.vertex_iterations = 0
        self.started = time.perf_counter_ns()
        self.seed = seed
        self._request = request
        self._rng: random.Random | None = None
        # the runtime's own store access, whose storage reaches below are safe; a filtering
        # view (SubgraphStrategy, a user's permissions) wraps it and is not one (reaching
        # through a view would read what it filters out)
        self.store = ctx.access if isinstance(ctx.access, StoreAccess) else None

    def sample(self, items: list[Any], n: int) -> list[Any]:
        """`n` of `items` picked uniformly at random (HugeGraph's `sample`), kept in adjacency
        order. The generator is seeded from the request (`request_seed`), so one request
        always samples alike (tests, retries) while different requests differ."""
        if self._rng is None:
            if self._request is not None:
                self.seed = request_seed(self._request)
            self._rng = random.Random(self.seed)
        return [items[i] for i in sorted(self._rng.sample(range(len(items)), n))]

    def checked(self, items: Iterable[_T], every: int = CHECK_EVERY_ITEMS) -> Iterator[_T]:
        """`items`, checking the run's token every `every` of them: the loops over a result
        (paths, ids, edges) grow with the answer, past any adjacency call's own check (a
        depth-7 `rays` spent 6 s after its last adjacency call building 93k paths)."""
        check = self.ctx.check
        for i, item in enumerate(items):
            if not i % every:
                check()
            yield item

    def measure(self) -> dict[str, int]:
        return {
            "edge_iterations": self.edge_iterations,
            "vertice_iterations": self.vertex_iterations,
            "cost(ns)": time.perf_counter_ns() - self.started,
        }

    # ---- vertices -----------------------------------------------------------------------
    def vertex(self, vid: Any, what: str = "source vertex") -> Vertex:
        """The vertex with id `vid`; 400 naming `what` when it is missing or does not exist."""
        if vid is None:
            raise IllegalArgument(f"The '{what} id' can't be null")
        if isinstance(vid, Vertex):
            vid = vid.id
        store = self.store
        if store is not None and not (isinstance(vid, str) and self.schema.auto):
            # `V(id)` alone, without planning a query (auto mode's "1" -> 1 alternates
            # concern string ids only)
            store._trim()
            found = next(store._one_vertex(vid, None), None)
        else:
            found = next(iter(self.access.vertices(ids=[vid])), None)
        if found is None:
            raise IllegalArgument(f"The {what} with id '{_show(vid)}' does not exist")
        return found

    def vertices(self, ids: Sequence[Any]) -> list[Vertex]:
        """Existing vertices of `ids` in order, unknown ids skipped, duplicates dropped."""
        seen: set[Any] = set()
        out = []
        for v in self.access.vertices(ids=list(ids)):
            if v.id not in seen:
                seen.add(v.id)
                out.append(v)
        return out

    def select(self, selector: Any, what: str = "source") -> list[Vertex]:
        """A `sources`/`targets`/`vertices` selector: `{"ids": [...]}` or
        `{"label": l, "properties": {...}}` (a property value may be a list: any of them)."""
        if not isinstance(selector, Mapping):
            raise IllegalArgument(f"The {what} vertices can't be null")
        ids = selector.get("ids") or []
        label = selector.get("label")
        props = selector.get("properties") or {}
        if ids and (label is not None or props):
            which = "label" if label is not None else "properties"
            raise IllegalArgument(f"Just provide one of ids or {which} of {what} vertices")
        if ids:
            found = self.vertices([_vertex_id(i) for i in ids])
            if not found:
                raise IllegalArgument(f"Not exist {what} vertices with ids {_show_list(ids)}")
            return found
        if label is None and not props:
            raise IllegalArgument(f"No {what} vertices provided")
        if label is not None:
            check_vertex_label(self.schema, label)
        conds = []
        for key, value in props.items():
            if isinstance(value, list):
                conds.append((key, _within(value)))
            else:
                conds.extend(conditions(self.schema, {key: value}))
        found = list(self.access.vertices(labels=[label] if label is not None else None, conditions=conds))
        if not found:
            raise IllegalArgument(f"Not exist {what} vertex with label '{label}' and properties '{dict(props)}'")
        return found

    def load(self, elements: Sequence[Any]) -> None:
        need = [e for e in elements if not e.loaded]
        if need:
            self.access.load(need)

    # ---- adjacency ----------------------------------------------------------------------
    def _supports_limit(self) -> bool:
        kind = type(self.access)
        ok = self._limit_support.get(kind)
        if ok is None:
            try:
                params = inspect.signature(self.access.adjacent_edges).parameters
                ok = "limit_per_vertex" in params and "limit_per_vertex" in inspect.signature(
                    self.access.adjacent_vertices).parameters
            except (TypeError, ValueError):
                ok = False
            self._limit_support[kind] = ok
        return ok

    def _fetch(self, chunk: Sequence[Vertex], step: EdgeStep, edges: bool) -> list[tuple[int, Any]]:
        kwargs: dict[str, Any] = {}
        if not step.edge_rules and self._supports_limit():
            lim = step.skip_degree if step.skip_degree > 0 else step.max_degree
            if lim != NO_LIMIT:
                kwargs["limit_per_vertex"] = lim
        if edges or step.edge_rules:
            return self.access.adjacent_edges(chunk, step.direction, step.labels, **kwargs)  # type: ignore[no-any-return]
        return self.access.adjacent_vertices(chunk, step.direction, step.labels, **kwargs)  # type: ignore[no-any-return]

    def adjacency(self, frontier: Sequence[Vertex], step: EdgeStep, edges: bool = False
                  ) -> Iterator[tuple[Vertex, list[Any]]]:
        """For each frontier vertex (in order): its passing neighbours, as `Vertex`es, or as
        `(Edge, Vertex)` pairs with `edges=True`. One adjacency call per `BATCH` vertices."""
        want_edges = edges or bool(step.edge_rules)
        for start in range(0, len(frontier), BATCH):
            self.ctx.check()
            chunk = frontier[start:start + BATCH]
            grouped: list[list[Any]] = [[] for _ in chunk]
            for i, item in self._fetch(chunk, step, edges):
                grouped[i].append(item)
            self.vertex_iterations += len(chunk)
            per_vertex = [self._apply(chunk[i], items, step, want_edges) for i, items in enumerate(grouped)]
            if step.vertex_rules:
                self.load([n for items in per_vertex for n in _ends(items, want_edges)])
                per_vertex = [
                    [x for x in items if rule_matches(step.vertex_rules, _end(x, want_edges).label,
                                                      vertex_values(_end(x, want_edges)))]
                    for items in per_vertex
                ]
            for i, items in enumerate(per_vertex):
                if want_edges and not edges:
                    items = [n for _, n in items]
                yield chunk[i], items

    def _apply(self, v: Vertex, items: list[Any], step: EdgeStep, want_edges: bool) -> list[Any]:
        if want_edges:
            items = [(e, other_end(e, v)) for e in items]
            if step.edge_rules:
                items = [(e, n) for e, n in items if rule_matches(step.edge_rules, e.label, e._props)]
        self.edge_iterations += len(items)
        if step.skip_degree > 0 and len(items) >= step.skip_degree:
            return []
        if step.max_degree != NO_LIMIT and len(items) > step.max_degree:
            items = items[:step.max_degree]
        if step.sample != NO_LIMIT and len(items) > step.sample:
            items = self.sample(items, step.sample)
        return items

    def neighbors(self, frontier: Sequence[Vertex], step: EdgeStep) -> Iterator[tuple[Vertex, list[Vertex]]]:
        return self.adjacency(frontier, step, edges=False)

    # ---- the key-level fast path ----------------------------------------------------------
    def nodes(self, step: EdgeStep) -> Nodes:
        """How a BFS over `step` should hold its vertices: as storage keys when the runtime's
        index-only adjacency can answer the step (no property rules), else as `Vertex`es."""
        store = self.store
        if store is not None and not step.edge_rules and not step.vertex_rules:
            return KeyNodes(self, store.tx)
        return VertexNodes(self)


class Nodes:
    """A frontier representation for breadth-first algorithms: `start(vertex)` makes a node,
    `key(node)` is hashable and unique per vertex, `expand(nodes, step)` yields each node's
    neighbours (batched), `ids(nodes)` turns nodes into vertex ids at the end."""

    def __init__(self, walker: Walker) -> None:
        self.walker = walker

    def start(self, v: Vertex) -> Any:
        raise NotImplementedError

    def key(self, node: Any) -> Any:
        raise NotImplementedError

    def expand(self, nodes: Sequence[Any], step: EdgeStep) -> Iterator[tuple[Any, list[Any]]]:
        raise NotImplementedError

    def ids(self, nodes: Sequence[Any]) -> list[Any]:
        raise NotImplementedError

    def vertices(self, nodes: Sequence[Any]) -> list[Vertex]:
        raise NotImplementedError

    def flat(self, nodes: Sequence[Any], step: EdgeStep, ordered: bool = True,
             with_ids: bool = False) -> Iterator[list[Any]] | None:
        """Neighbours of whole chunks, flat (see `KeyNodes.flat`); None: use `expand`."""
        return None

    def path_edges(self, paths: Sequence[Sequence[Any]], step: EdgeStep) -> list[Edge]:
        """The first edge joining each consecutive pair of nodes of every path (see
        `KeyNodes.path_edges`), from each path vertex's whole adjacency."""
        pairs = {(self.key(a), self.key(b)) for p in paths for a, b in itertools.pairwise(p)}
        if not pairs:
            return []
        starts = self.vertices(list({self.key(a): a for p in paths for a in p[:-1]}.values()))
        first: dict[tuple[Any, Any], Edge] = {}
        for v, items in self.walker.adjacency(starts, step, edges=True):
            for e, n in items:
                if (v.id, n.id) in pairs and (v.id, n.id) not in first:
                    first[(v.id, n.id)] = e
        out, seen = [], set()
        for p in self.walker.checked(paths):
            for a, b in itertools.pairwise(p):
                e = first.get((self.key(a), self.key(b)))
                if e is not None and e.id not in seen:
                    seen.add(e.id)
                    out.append(e)
        return out


class VertexNodes(Nodes):
    def start(self, v: Vertex) -> Vertex:
        return v

    def key(self, node: Vertex) -> Any:
        return node.id

    def expand(self, nodes: Sequence[Vertex], step: EdgeStep) -> Iterator[tuple[Vertex, list[Vertex]]]:
        return self.walker.neighbors(nodes, step)

    def ids(self, nodes: Sequence[Vertex]) -> list[Any]:
        return [v.id for v in nodes]

    def vertices(self, nodes: Sequence[Vertex]) -> list[Vertex]:
        return list(nodes)


class KeyNodes(Nodes):
    """Vertices as storage keys, expanded with the storage's index-only adjacency statement
    (`adjacent_keys`, the one `out()` without edge data uses) with `max_degree` pushed into
    SQL: no vertex row is read until the answer's ids are needed."""

    CHUNK = 5000

    def __init__(self, walker: Walker, tx: Tx) -> None:
        super().__init__(walker)
        self.tx = tx
        #: key -> stored id of the vertices a listed layer reached (`flat(..., with_ids=True)`)
        self._ids: dict[int, Any] = {}

    def start(self, v: Vertex) -> int:
        return int(v.key)  # type: ignore[arg-type]

    def key(self, node: int) -> int:
        return node

    def expand(self, nodes: Sequence[int], step: EdgeStep) -> Iterator[tuple[int, list[int]]]:
        w = self.walker
        lids = self._label_ids(step)
        lim = step.skip_degree if step.skip_degree > 0 else step.max_degree
        for start in range(0, len(nodes), self.CHUNK):
            w.ctx.check()
            chunk = nodes[start:start + self.CHUNK]
            w.vertex_iterations += len(chunk)
            if lids is not None and not lids:
                for k in chunk:
                    yield k, []
                continue
            grouped: dict[int, list[int]] = {}
            query = AdjacencyQuery(step.direction, lids, None if lim == NO_LIMIT else lim, Project.PAIRS)
            for frm, to in self.tx.adjacency.read(query, chunk):
                items = grouped.get(frm)
                if items is None:
                    grouped[frm] = [to]
                else:
                    items.append(to)
            apply = w._apply
            for k in chunk:
                yield k, apply(None, grouped.get(k, []), step, False)  # type: ignore[arg-type]

    def flat(self, nodes: Sequence[int], step: EdgeStep, ordered: bool = True,
             with_ids: bool = False) -> Iterator[list[int]] | None:
        """The neighbour keys of whole chunks of `nodes`, flat and in adjacency order, when no
        per-vertex rule needs them grouped (no `skip_degree`, no `sample`: `max_degree` is
        the per-vertex LIMIT in SQL); else None. The hot loop of k-out / k-neighbor.
        `ordered=False` lets storage skip sorting the rows: for callers that only count
        what they reach, where the order cannot show. `with_ids`: a layer the answer lists
        (ordered): the far ends' ids are read with the keys (`Project.TO_KEY_IDS`) and
        kept for `ids`, so the listing reads no vertex by key afterwards."""
        if step.skip_degree > 0 or step.sample != NO_LIMIT:
            return None
        if with_ids:
            kept = self._ids

            def keys_and_ids(found: tuple[list[int], dict[int, Any]]) -> list[int]:
                kept.update(found[1])
                return found[0]

            return (keys_and_ids(found) for found in self._chunked(nodes, step, Project.TO_KEY_IDS))
        return self._chunked(nodes, step, Project.TO_KEYS if ordered else Project.TARGETS)

    def pairs(self, nodes: Sequence[int], step: EdgeStep) -> Iterator[list[tuple[int, int]]] | None:
        """Like `flat`, as (from key, to key) rows in adjacency order (the rows `expand`
        groups): for searches that record each vertex's parent. None when `flat` is."""
        if step.skip_degree > 0 or step.sample != NO_LIMIT:
            return None
        return self._pairs(nodes, step)

    def _pairs(self, nodes: Sequence[int], step: EdgeStep) -> Iterator[list[tuple[int, int]]]:
        return self._chunked(nodes, step, Project.PAIRS)

    def _chunked(self, nodes: Sequence[int], step: EdgeStep, project: Project) -> Iterator[Any]:
        """The adjacency read of `step` (direction, labels, `max_degree` as the per-vertex
        limit) projecting `project`, over `nodes` in chunks, with the walker's cancellation
        checks and iteration counters kept in one place: one query object for the walk."""
        w = self.walker
        lids = self._label_ids(step)
        lim = None if step.max_degree == NO_LIMIT else step.max_degree
        query = AdjacencyQuery(step.direction, lids, lim, project)
        read = self.tx.adjacency.read
        for start in range(0, len(nodes), self.CHUNK):
            w.ctx.check()
            chunk = nodes[start:start + self.CHUNK]
            w.vertex_iterations += len(chunk)
            if lids is not None and not lids:
                continue
            rows = read(query, chunk)
            w.edge_iterations += len(rows[0] if project is Project.TO_KEY_IDS else rows)
            yield rows

    def _label_ids(self, step: EdgeStep) -> tuple[int, ...] | None:
        """The edge label ids `step` reads (None: every label): `SchemaBridge.edge_label_filter`,
        derived once per schema snapshot and label tuple (every adjacency read asks)."""
        return self.walker.schema.edge_label_filter(step.labels) if step.labels else None

    def vertices(self, nodes: Sequence[int]) -> list[Vertex]:
        """The vertices of `nodes` (in order; keys no longer stored are left out), built from
        their rows with one storage call per chunk; properties stay unloaded."""
        found: dict[int, Vertex] = {}
        keys = list(nodes)
        for start in range(0, len(keys), self.CHUNK):
            found.update(self.walker.access._vertices_by_keys(keys[start:start + self.CHUNK]))
        return [found[k] for k in keys if k in found]

    def ids(self, nodes: Sequence[int]) -> list[Any]:
        """The ids of `nodes` (in order; keys no longer stored are left out): an ids-only
        projection, no vertex row built (a k-out listing's answer is its ids alone). Ids a
        listed layer read with its keys (`flat(..., with_ids=True)`) are used as they are;
        the rest take one storage statement per chunk."""
        kept = self._ids
        keys = list(nodes)
        missing = [k for k in keys if k not in kept]
        for start in range(0, len(missing), self.CHUNK):
            part = missing[start:start + self.CHUNK]
            got = self.tx.elements.find(Lookup.VERTEX_IDS_BY_KEYS, part)
            if len(got) == len(part):
                kept.update(zip(part, got, strict=True))
            else:  # a key without a vertex (left out): looked up one by one
                for k in part:
                    one = self.tx.elements.find(Lookup.VERTEX_IDS_BY_KEYS, [k])
                    if one:
                        kept[k] = one[0]
        from_storage = idc.from_storage
        return [Long(i) if type(i) is int else from_storage(i) for i in (kept[k] for k in keys if k in kept)]

    def path_edges(self, paths: Sequence[Sequence[int]], step: EdgeStep) -> list[Edge]:
        """The first edge (adjacency order) joining each consecutive pair of every path, each
        edge once, in path order: one indexed lookup per pair, never a vertex's other edges."""
        pairs = list(dict.fromkeys(pair for p in self.walker.checked(paths) for pair in itertools.pairwise(p)))
        if not pairs:
            return []
        lids = self._label_ids(step)
        if lids is None:  # every label: name the only one, if so, for storage's one-label probe
            labels = self.walker.schema.edge_labels()
            lids = (labels[0].id,) if len(labels) == 1 else None
        first = self.tx.adjacency.joining(AdjacencyQuery(step.direction, lids), pairs) if lids is None or lids else {}
        rows, seen = [], set()
        for pair in pairs:
            row = first.get(pair)
            if row is not None and row.key not in seen:
                seen.add(row.key)
                rows.append(row)
        return self.walker.access._edges_from_rows(rows)


def _end(item: Any, edges: bool) -> Vertex:
    return item[1] if edges else item


def _ends(items: list[Any], edges: bool) -> Iterator[Vertex]:
    for x in items:
        yield _end(x, edges)


def _within(values: list[Any]) -> Any:
    return P("within", list(values))


def _vertex_id(value: Any) -> Any:
    """A body id: numbers are Long, strings as given (ids in JSON bodies are raw values)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise IllegalArgument(f"The vertex id must be formatted as Number/String/UUID, but got '{value}'")
    return idc.lookup_id(value)


def body_vertex_id(value: Any, what: str) -> Any:
    if value is None:
        raise IllegalArgument(f"The '{what} id' can't be null")
    return _vertex_id(value)


def _show(vid: Any) -> str:
    return str(vid)


def _show_list(ids: Sequence[Any]) -> str:
    return "[" + ", ".join(str(i) for i in ids) + "]"


def request_seed(req: Mapping[str, Any]) -> int:
    """A seed that is a function of the request's content (its repr: keys in order, typed
    values), stable across processes unlike `hash()`."""
    return zlib.crc32(repr(req).encode("utf-8", "backslashreplace"))


class AlgorithmStep(Step):
    """A step mapping each request map to one result map (see the module docstring)."""

    name: ClassVar[str] = "algorithm"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            req = t.obj
            if not isinstance(req, Mapping):
                raise IllegalArgument(f"{self.name}() expects a request map, but got {req!r}")
            yield t.split(self.run(req, Walker(ctx, request=req)))

    def run(self, req: Mapping[str, Any], walker: Walker) -> Any:
        raise NotImplementedError


def result_vertices(walker: Walker, ids: Sequence[Any], with_vertex: bool) -> list[Any]:
    """`vertices` of a response: the ids, or the loaded vertices when `with_vertex`."""
    if not with_vertex:
        return list(ids)
    found = walker.vertices(ids)
    walker.load(found)
    return found
