"""Light traverser requests: a GET k-out / k-neighbor as the reads and the answer alone.

A k-out of depth 1 reads two index ranges (the source's id, its adjacency: ~30 us of SQL),
yet the general run of its step spent four times that around them: the request map checked
again (`_Options`, `get_step`, the label looked up), a `StoreAccess` and its schema bridge,
a `Walker`, a `Vertex` built for the source only to take its key, and the answer walked by
`load_results`. Everything but the reads is a function of the request's parameters and the
schema, so this module settles it once and remembers it:

* `settle`: per schema snapshot (the service replaces its snapshot object on any change),
  the checked options of a parameter set (`KoutStep.settle` / `KneighborStep.settle`: the
  very checks of the general run, so a bad parameter raises the same 400 in the same
  order, and is never remembered) and the edge label ids its step reads;
* `answer`: the source's key by one indexed read (`tx.vertex_key`), then the BFS of the
  general run itself (`KoutStep._walk`, `neighbors.reach`, `_layer`) over `KeyNodes` with
  a walker that holds only what they ask for (the cancel token, the row budget of a
  bounded run, the counters of `measure`), and the answer's ids with no vertex rows built:
  read with the answer's layers from the adjacency index where it covers the far ids
  (`tx.adjacent_key_id_lists`, direction OUT in layout v3: the keys and their ids as two
  lists, from one row of two JSON arrays where storage can: a 100-row layer as rows cost
  pysqlite a step and a tuple per row), else from (key, id) pairs
  (`tx.vertex_ids_of`, a `vertices` probe each).

Same answers, same order, same errors, same `measure` counters as the general run; it
takes only requests where that is plain: the GET form (no `steps`), no `skip_degree`,
and a source id given as an integer (or, outside auto mode, a string, which auto mode
resolves with numeric alternates). Anything else returns `SLOW` and the caller runs the
step as before, in the same read.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import Int, Long

from . import budget as budgets
from .base import KeyNodes, Walker, _show
from .neighbors import KneighborStep, KoutStep, reach
from .steps import NO_LIMIT

#: "run the step as before": this request is not one `answer` takes
SLOW: Any = object()

#: the steps `answer` may take
NAMES = frozenset({"hg_kout", "hg_kneighbor"})

_PLAIN_IDS: ContextVar[Any] = ContextVar("hugelite_light_plain_ids", default=None)


class plain_ids:
    """Runs the block (`with plain_ids():`) with light answers listing integer ids as plain
    ints instead of `Long`s: for a caller that only writes the answer as JSON (the REST
    traverser handlers), where both are the same number and no Java type travels. Building
    a `Long` per id was ~8% of a k-out depth-2 listing's instructions (callgrind, ~300
    ids). String and UUID ids, counts and every other answer are unchanged; so is every
    call outside the block (Gremlin answers keep their `Long`s). A context variable, as
    `budget.bounded`: a worker thread running the request sees it (`context.run` copies
    the context).

    `checked` is then the last id list a light answer made of plain ints alone (that very
    list object, or None): the caller writing JSON may skip its own walk over the ids'
    types (a pass over every id, about as long as encoding them)."""

    __slots__ = ("token", "checked")

    def __enter__(self) -> plain_ids:
        self.checked: list[Any] | None = None
        self.token = _PLAIN_IDS.set(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _PLAIN_IDS.reset(self.token)


class bounded_plain_ids(plain_ids):
    """`with plain_ids() as plain, budget.bounded(rows):` as ONE object and one block (`with
    bounded_plain_ids(rows) as plain:`): the REST handlers' inline attempt of a light
    request enters both for every request, and one object with one enter and exit costs
    less than two. The same two context variables are set and reset, in the same order."""

    __slots__ = ("budget", "budget_token")

    def __init__(self, rows: int) -> None:
        self.budget = budgets.RowBudget(rows)

    def __enter__(self) -> bounded_plain_ids:
        self.checked = None
        self.token = _PLAIN_IDS.set(self)
        self.budget_token = budgets._CURRENT.set(self.budget)
        return self

    def __exit__(self, *exc: object) -> None:
        budgets._CURRENT.reset(self.budget_token)
        _PLAIN_IDS.reset(self.token)


_INT_ONLY = frozenset({int})

_MEMO_MAX = 256  # parameter sets remembered per schema snapshot (a handler sends few shapes)


class _Lean:
    """The walker `KeyNodes` and the BFS loops ask for: a cancel token as `ctx` (they call
    `ctx.check()`), the bounded run's budget, and the counters and clock of `measure`."""

    __slots__ = ("ctx", "budget", "vertex_iterations", "edge_iterations", "started")

    measure = Walker.measure

    def __init__(self, token: Any) -> None:
        self.started = time.perf_counter_ns()
        self.ctx = token
        self.budget = budgets.current()
        self.vertex_iterations = 0
        self.edge_iterations = 0


class _Nodes(KeyNodes):
    """`KeyNodes` with the step's label ids settled in advance and ids read from vertex
    rows (no `Vertex` objects, no access)."""

    def __init__(self, walker: Any, tx: Any, lids: list[int] | None, ids_from: int) -> None:
        self.walker = walker
        self.tx = tx
        self.lids = lids
        #: the first layer (1-based `flat` call) whose keys are in the answer: from there on an
        #: ordered read of a side whose index holds the far ids reads (key, id) pairs
        self.ids_from = ids_from
        self.layers = 0
        #: key -> stored id known without a probe: the source's (k-neighbor), and the kept
        #: layers' pairs (`keep`), merged in once `ids` needs them by key
        self.id_of: dict[int, Any] = {}
        #: id(list) -> (list, dict) of each layer `neighbors._layer` built from key -> id
        #: chunks: the list it returned (the first len(list) keys of the dict, in order) and
        #: the dict, their ids as its values
        self.kept: dict[int, tuple[list[int], dict[int, Any]]] = {}

    def keep(self, layer: list[int], fresh: dict[int, Any]) -> None:
        """Called by `neighbors._layer` with a layer it built from key -> id chunks: where
        that very list is (part of) the answer, its ids are the dict's first values."""
        self.kept[id(layer)] = (layer, fresh)

    def _kept_ids(self, layer: list[int]) -> list[Any] | None:
        """The stored ids of `layer` in order if `keep` was given that very list, else None."""
        got = self.kept.get(id(layer))
        if got is None or got[0] is not layer:
            return None
        raws = list(got[1].values())
        del raws[len(layer):]
        return raws

    def layers_ids(self, source_id: Any, layers: list[tuple[int, list[int]]]) -> list[Any]:
        """k-neighbor's answer, `ids` of every layer's keys in order (the source's stored id
        given): from the kept layer dicts where every layer after the source has one."""
        raws = [source_id]
        for _, layer in layers[1:]:
            if layer:
                got = self._kept_ids(layer)
                if got is None:
                    return self.ids([n for _, ns in layers for n in ns])
                raws += got
        return self._public(raws)

    def start(self, v: Any) -> int:
        return v  # type: ignore[no-any-return]

    def _label_ids(self, step: Any) -> list[int] | None:
        return self.lids

    def flat(self, nodes: Sequence[int], step: Any, ordered: bool = True) -> Iterator[list[int]] | None:
        """`KeyNodes.flat` for the steps `settle` lets through (no `skip_degree`, no
        `sample`) over a storage tx: the same reads, chunks, counters and budget, without
        its three hops to reach them (one BFS layer of a light request)."""
        self.layers += 1
        read = getattr(self.tx, "adjacent_to_keys" if ordered else "adjacent_targets", None)
        if read is None or step.skip_degree > 0 or step.sample != NO_LIMIT:
            return super().flat(nodes, step, ordered)
        if ordered and self.layers >= self.ids_from and self._covered(step.direction):
            return self._layer_reads(nodes, step, self.tx.adjacent_key_id_lists, "key_id_lists")
        return self._layer_reads(nodes, step, read, "keys" if ordered else "targets")

    def _covered(self, direction: Any) -> bool:
        """Whether the tx reads `direction`'s far ids from its adjacency index (layout v3:
        OUT); 'in' / 'both' keep the `vertices` probe of `ids`."""
        covered = getattr(self.tx, "far_ids_covered", None)
        return covered is not None and hasattr(self.tx, "adjacent_key_id_lists") and covered(direction)  # type: ignore[no-any-return]

    def _layer_reads(self, nodes: Sequence[int], step: Any, read: Any, shape: str) -> Iterator[list[int]]:
        """`KeyNodes._chunked` with the label ids and the read settled."""
        w = self.walker
        lids = self.lids
        lim = None if step.max_degree == NO_LIMIT else step.max_degree
        direction = step.direction
        budget = w.budget
        for start in range(0, len(nodes), self.CHUNK):
            w.ctx.check()
            chunk = nodes[start:start + self.CHUNK]
            w.vertex_iterations += len(chunk)
            if lids is not None and not lids:
                continue
            if budget is None:
                rows = read(chunk, direction, lids, lim)
            else:
                rows = budget.adjacency(self.tx, chunk, direction, lids, lim, shape)
            if shape == "key_id_lists":  # (keys, ids): one dict, the layer's dedup and the ids kept
                keys, ids = rows
                w.edge_iterations += len(keys)
                # no copy into `id_of`: `_layer` keeps the layer's fresh pairs (`keep`), and
                # the keys it drops from `pairs` were seen before (their ids are kept there)
                yield dict(zip(keys, ids, strict=True))  # type: ignore[misc]
                continue
            w.edge_iterations += len(rows)
            yield rows

    def ids(self, nodes: Sequence[int]) -> list[Any]:
        """The ids of `nodes` in order (keys no longer stored left out), as
        `KeyNodes.ids` gives them: one read of (key, id) per chunk, no vertex rows."""
        known = self.id_of
        keys = list(nodes)
        # the layer as `_layer` built it (a k-out's answer): its ids in order
        raws = self._kept_ids(nodes) if type(nodes) is list else None
        try:  # every id read with the layers: C calls alone
            if raws is None:
                for _, fresh in self.kept.values():  # the ids read with the layers
                    known.update(fresh)
                raws = list(map(known.__getitem__, keys))
        except KeyError:
            found = dict(known)
            missing = [k for k in keys if k not in known]
            for start in range(0, len(missing), self.CHUNK):
                found.update(self.tx.vertex_ids_of(missing[start:start + self.CHUNK]))
            raws = [found[k] for k in keys if k in found]
        return self._public(raws)

    @staticmethod
    def _public(raws: list[Any]) -> list[Any]:
        """Stored ids as the answer lists them (plain ints inside `plain_ids`)."""
        # `from_storage` of an int is a Long; other stored forms (str, UUID bytes) go through it
        if set(map(type, raws)) <= _INT_ONLY:
            plain = _PLAIN_IDS.get()
            if plain is None:
                return list(map(Long, raws))
            plain.checked = raws
            return raws
        from_storage = idc.from_storage
        return [Long(raw) if type(raw) is int else from_storage(raw) for raw in raws]


def _param_key(name: str, req: Mapping[str, Any]) -> Any:
    """The request's parameters but the source, in order and typed (`1` and `True` are equal
    keys, not equal requests). Built by C calls alone (a copy, its items, their types):
    this is the per-request cost of a memo hit. Hashing it raises TypeError when a value
    cannot be a dict key."""
    rest = dict(req)
    rest.pop("source", None)
    return name, tuple(rest.items()), tuple(map(type, rest.values()))


def _held(graph: Any) -> tuple[Any, dict[Any, Any]]:
    """The memo of `graph`'s current schema snapshot: (snapshot, {parameter key: settled})."""
    snap = getattr(graph.schema, "_snap", None)
    held = getattr(graph, "_light_memo", None)
    if held is None or held[0] is not snap or snap is None:
        held = (snap, {})
        if snap is not None:
            graph._light_memo = held
    return held  # type: ignore[no-any-return]


def memo_settled(graph: Any, name: str, req: Mapping[str, Any]) -> Any:
    """What `settle` would return from its memo alone (SLOW included), or None when the
    parameter set is not remembered: for a caller that must not read the schema."""
    try:
        return _held(graph)[1].get(_param_key(name, req))
    except TypeError:
        return None


def settle(graph: Any, name: str, req: Mapping[str, Any], schema_of: Any) -> Any:
    """(options, capacity, nearest, label ids) of a GET k-out / k-neighbor request, from
    the memo of the current schema snapshot or checked now (`schema_of()` gives the schema
    the general run would check against); SLOW when `answer` cannot take it."""
    held = _held(graph)
    key = _param_key(name, req)
    try:
        got = held[1].get(key)
    except TypeError:  # an unhashable value (a list): checked each time, never remembered
        key = got = None
    if got is not None:
        return got
    schema = schema_of()
    if name == "hg_kout":
        opts, cap, nearest = KoutStep.settle(req, schema)
    else:
        opts, cap, nearest = KneighborStep.settle(req, schema), 0, True
    step = opts.step
    if opts.post or opts.track or step.skip_degree > 0 or step.sample != -1:
        got = SLOW
    else:
        lids = list(dict.fromkeys(schema.edge_label_ids(list(step.labels)))) if step.labels else None
        got = (opts, cap, nearest, lids)
    if key is not None and len(held[1]) < _MEMO_MAX:
        held[1][key] = got
    return got


def stored_source(vid: Any, auto: bool) -> Any:
    """The stored form of a source id `walker.vertex` would look up by its one indexed
    read: an integer (a `Long`, `Int` or int) as the int; a string as itself outside auto
    mode. SLOW for anything else (None, elements, UUIDs, auto mode's strings)."""
    t = type(vid)
    if t is Long or t is int or t is Int:
        return int(vid)
    if t is str and not auto:
        return vid
    return SLOW


def answer(tx: Any, graph: Any, name: str, req: Mapping[str, Any], token: Any, schema_of: Any, auto: bool) -> Any:
    """The result map of the GET k-out / k-neighbor `req` read through `tx`, or SLOW (the
    caller then runs the step itself; nothing was read that it would miss)."""
    if "steps" in req:
        return SLOW
    walker = _Lean(token)
    settled = settle(graph, name, req, schema_of)
    if settled is SLOW:
        return SLOW
    vid = req.get("source")
    sid = stored_source(vid, auto)
    if sid is SLOW:
        return SLOW
    key = tx.vertex_key(sid)
    if key is None:
        raise IllegalArgument(f"The source vertex with id '{_show(vid)}' does not exist")
    opts, cap, nearest, lids = settled
    # k-out answers its last layer; k-neighbor every layer and the source, whose stored id
    # is the one just looked up (`sid` found it by equality)
    nodes = _Nodes(walker, tx, lids, opts.max_depth if name == "hg_kout" else 1)
    if name == "hg_kout":
        found, _ = KoutStep._walk(walker, nodes, key, opts, cap, nearest)  # type: ignore[arg-type]
        if opts.count_only:
            return {"vertices_size": len(found), "measure": walker.measure()}
        return {"vertices": nodes.ids(found), "measure": walker.measure()}
    nodes.id_of[key] = sid
    layers, count = reach(nodes, key, opts, True)
    if opts.count_only:
        return {"vertices_size": count, "measure": walker.measure()}
    return {"vertices": nodes.layers_ids(sid, layers), "measure": walker.measure()}
