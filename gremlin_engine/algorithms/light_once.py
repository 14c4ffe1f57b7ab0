"""Depth-1 and 2 light requests: the source lookup and its adjacency read joined in ONE statement.

A GET k-out / k-neighbor of depth 1 read through `light.answer` costs four statements:
``BEGIN``, the source's key (`tx.vertex_key`), its adjacency range, ``ROLLBACK``. The two
reads are one index probe and one index range, so storage answers them as one statement
(`tx.source_adjacency`), which in autocommit mode is its own consistent snapshot: no
transaction, and one pysqlite step instead of four. This module decides, before any read,
whether a request is one it can answer that way, and then builds the very answer
`light.answer` builds (same ids in the same order, same counts, same `measure` counters,
same errors, same row budget of a bounded run) from that one row:

* only what `light.answer` takes (the GET form, an integer source or, outside auto mode,
  a string one), whose checked parameters are already in `light.settle`'s memo (the first
  request of a parameter set goes the general way, which checks and remembers it: this
  path reads no schema), of depth 1 or 2, one direction ('out' or 'in'), one label or none;
  a listing only where the adjacency index holds the far ids (`tx.far_ids_covered`);
* the first layer is `KoutStep._walk` / `neighbors.reach`'s, written out: the layer is
  the source's other ends in adjacency order, each once, the source itself left out, cut
  at the bound those functions compute (limit, capacity), and counted as a set when only
  counted without a bound;
* a bounded run (`budget.py`) reads at most one row past what is left, as
  `RowBudget.adjacency` does, and stops with `OverBudget` when there are more.

Depth 2 reads the source and its first layer the same way, then the second layer through
the very read `light._Nodes` makes (`tx.adjacent_key_id_lists` for a listing,
`tx.adjacent_targets` for a count, through `RowBudget.adjacency` in a bounded run), inside
one ``BEGIN``/``ROLLBACK`` (two statements: `snapshot`): three statements where the
general path takes four, and none of its walker, node and generator layers (callgrind,
k-out depth 2 ids at 100k/1M over HTTP: 841k -> 741k instructions a request). A listing's
second layer, where no per-vertex limit can bind, is deduplicated by id instead of by key
(ids and keys are one to one: the source and the first layer are left out by their ids)
and reads its ids alone (`tx.adjacent_far_ids`: one JSON array instead of two, no
key -> id dict): 741k -> 643k. Its
capacity check, bounds, `nearest`, dedup and answer order are `KoutStep._walk`'s and
`neighbors.reach`'s, written out for two layers (`_second`).

Anything else returns `SLOW` having read nothing, and the caller runs `light.answer`
(or the step) inside its snapshot as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument

from .base import KeyNodes, _show, reach_capacity
from .light import SLOW, _Lean, _Nodes, memo_settled, stored_source
from .steps import NO_LIMIT

CHUNK = KeyNodes.CHUNK  # keys per layer read, as `light._Nodes` reads them


def prepare(graph: Any, name: str, req: Mapping[str, Any], auto: bool) -> Any:
    """What `answer` needs of the GET k-out / k-neighbor `req` (its settled options, the
    source's stored form), or SLOW when it cannot take it: decided without a read, so a
    request it declines costs no connection checkout. `snapshot(prepared)` says whether its
    read needs one (depth 2: two statements)."""
    depth = req.get("max_depth")
    if "steps" in req or (depth != 1 and depth != 2):
        return SLOW
    settled = memo_settled(graph, name, req)
    if settled is None or settled is SLOW:
        return SLOW
    got = _DERIVED.get(id(settled))
    if got is None or got[0] is not settled:
        got = _derive(name, settled)
    derived = got[1]
    if derived is SLOW:
        return SLOW
    sid = stored_source(req.get("source"), auto)
    if sid is SLOW:
        return SLOW
    opts, cap, nearest, lids, kout, two, far_once = derived
    return opts, cap, nearest, lids, sid, kout, two, far_once


#: id(settled) -> (settled, what `prepare` derives from it but the source, or SLOW): a
#: function of the settled options alone, which the light memo keeps per parameter set and
#: schema snapshot, so it is worked out once per set (the identity check keeps an id reused
#: after a snapshot's memo went away from answering for another object). Cleared when full.
_DERIVED: dict[int, tuple[Any, Any]] = {}
_DERIVED_MAX = 1024


def _derive(name: str, settled: Any) -> tuple[Any, Any]:
    """`prepare`'s checks and flags of one settled parameter set, remembered in `_DERIVED`."""
    opts, cap, nearest, lids = settled
    direction = opts.step.direction
    derived: Any
    if (opts.max_depth > 2 or (lids is not None and len(lids) != 1)
            or str(getattr(direction, "name", direction)).lower() == "both"):
        derived = SLOW
    elif name == "hg_kneighbor" and opts.limit == 1:
        derived = SLOW  # `reach` reads nothing then
    else:
        kout = name == "hg_kout"
        # a depth-2 count that cuts no layer (no limit, capacity or per-vertex limit) counts
        # both layers as sets: read by one statement (`_two_sets`)
        two = (opts.max_depth == 2 and opts.count_only and opts.limit == NO_LIMIT
               and opts.step.max_degree == NO_LIMIT and (not kout or cap == NO_LIMIT))
        # a depth-2 listing with no per-vertex limit reads both layers by one statement too
        # (`_far_row`), its second layer's ids alone
        far_once = opts.max_depth == 2 and not opts.count_only and opts.step.max_degree == NO_LIMIT
        derived = (opts, cap, nearest, lids, kout, two, far_once)
    if len(_DERIVED) >= _DERIVED_MAX:
        _DERIVED.clear()
    got = _DERIVED[id(settled)] = (settled, derived)
    return got


def snapshot(prepared: Any) -> bool:
    """Whether `answer` reads `prepared` with more than one statement (a second layer
    read apart from the first)."""
    return prepared[0].max_depth > 1 and not prepared[6] and not prepared[7]  # type: ignore[no-any-return]


def answer(tx: Any, prepared: Any, req: Mapping[str, Any], token: Any) -> Any:
    """The result map of a request `prepare` took: the source and its first layer by one
    statement, a second layer (depth 2) by the general path's own layer read; SLOW (nothing
    read) when `tx` cannot read it so (a listing whose far ids the index does not hold)."""
    opts, cap, nearest, lids, sid, kout, two, far_once = prepared
    if two:
        return _two_sets(tx, opts, nearest, lids, sid, kout, req, token)
    step = opts.step
    direction = step.direction
    read = getattr(tx, "source_adjacency", None)
    listing = not opts.count_only
    if read is None or (listing and not tx.far_ids_covered(direction)):
        return SLOW
    depth = opts.max_depth
    walker = _Lean(token)
    limit = None if step.max_degree == NO_LIMIT else step.max_degree
    budget = walker.budget
    cap_rows = limit
    if budget is not None and not (limit is not None and limit <= budget.left):
        cap_rows = budget.left + 1 if limit is None else min(limit, budget.left + 1)
    token.check()
    far = None
    if far_once:
        # both layers by ONE statement where that is the chunked read's very answer
        row = _far_row(tx, opts, cap, kout, sid, direction, lids, cap_rows, budget)
        if row is False:
            return SLOW
        key, tos, ids, far = _source_row(walker, row, req)
    else:
        # a listing reads the first layer's ids too: k-neighbor lists them, and a second layer
        # deduplicated by id (`_second`) leaves them out by id
        key, tos, ids = _source_row(walker, read(sid, direction, lids, cap_rows, listing), req)
    # the bound of the first layer, as `KoutStep._walk` / `neighbors.reach` compute it
    if kout:
        remaining = NO_LIMIT if cap == NO_LIMIT else cap - 1
        bound = remaining
        if depth == 1 and opts.limit != NO_LIMIT and (remaining == NO_LIMIT or opts.limit < remaining):
            bound = opts.limit
    else:
        remaining = bound = NO_LIMIT if opts.limit == NO_LIMIT else opts.limit - 1
    first, kept = _first_layer(key, tos, ids, bound, listing, depth)
    if depth == 2:
        return _second(tx, walker, opts, cap, nearest, lids, limit, key, sid, first, kept, kout, remaining, far)
    if not listing:
        return {"vertices_size": len(first) if kout else len(first) + 1, "measure": walker.measure()}
    raws = kept[:len(first)]
    if not kout:
        raws.insert(0, sid)  # k-neighbor lists the source first
    return {"vertices": _Nodes._public(raws), "measure": walker.measure()}


def _far_row(tx: Any, opts: Any, cap: int, kout: bool, sid: Any, direction: Any, lids: Any, cap_rows: Any,
             budget: Any) -> Any:
    """A depth-2 listing with no per-vertex limit, read by ONE statement
    (`tx.source_far_ids`: the source's row, its first layer with ids, the second layer's
    ids), or False (the caller declines; nothing charged) where that would not be the
    chunked read's answer: no such read, a first layer that repeats an end (parallel
    edges), or one of more than `CHUNK` ends under a bound (the chunked loop may stop after
    a chunk). In a bounded run the second layer is capped at the rows the budget had
    before the first (plus one), as `_two_sets` caps it."""
    read = getattr(tx, "source_far_ids", None)
    if read is None:
        return False
    row = read(sid, direction, lids, cap_rows, None if budget is None else budget.left + 1)
    if not row:
        return row  # None: no such source (`_source_row` raises); False: declined
    # a first layer cut by its bound never reaches the second read (k-out: the capacity
    # error; k-neighbor: the limit is reached), so only the chunked loop's early stop differs
    if len(row[1]) > CHUNK and (opts.limit != NO_LIMIT or (kout and cap != NO_LIMIT)):
        return False
    return row


def _source_row(walker: Any, row: Any, req: Mapping[str, Any]) -> Any:
    """The one-statement read's (source key, first-layer keys, third part) row, its first
    layer charged to a bounded run's budget and counted as `Walker` counts it; a missing
    source is HugeGraph's 400."""
    if row is None:
        raise IllegalArgument(f"The source vertex with id '{_show(req.get('source'))}' does not exist")
    tos = row[1]
    if walker.budget is not None:
        walker.budget.take(len(tos))
    walker.vertex_iterations = 1
    walker.edge_iterations = len(tos)
    return row


def _two_sets(tx: Any, opts: Any, nearest: bool, lids: Any, sid: Any, kout: bool, req: Mapping[str, Any],
              token: Any) -> Any:
    """A depth-2 count that cuts no layer (`prepare`'s `two`), both layers by ONE statement
    (`tx.source_two_layers`), in autocommit mode its own snapshot: the same count,
    `measure`, errors and bounded-run outcome as `answer`'s first layer and `_second`. In a
    bounded run the second layer's read is capped at the rows the budget had before the
    first (plus one): it can tell "more than what is left" after the first layer too."""
    read = getattr(tx, "source_two_layers", None)
    if read is None:
        return SLOW  # the caller reads it the general way, in a snapshot
    walker = _Lean(token)
    budget = walker.budget
    cap_rows = None if budget is None else budget.left + 1
    token.check()
    key, tos, far = _source_row(walker, read(sid, opts.step.direction, lids, cap_rows, cap_rows), req)
    first, _ = _first_layer(key, tos, [], NO_LIMIT, False, 2)
    if not first:  # the walk ended before its last layer
        return {"vertices_size": 0 if kout else 1, "measure": walker.measure()}
    walker.ctx.check()
    walker.vertex_iterations += len(first)
    if budget is not None:  # as `RowBudget.adjacency` reads the layer
        budget.take(len(far))
    walker.edge_iterations += len(far)
    reached = set(far)
    if kout:
        reached.difference_update((key, *first) if nearest else (key,))
        return {"vertices_size": len(reached), "measure": walker.measure()}
    reached.difference_update((key, *first))
    return {"vertices_size": 1 + len(first) + len(reached), "measure": walker.measure()}


def _first_layer(key: int, tos: list[int], ids: list[Any], bound: int, listing: bool,
                 depth: int) -> tuple[list[int], list[Any]]:
    """`neighbors._layer` over the source's one read: the keys reached first (each once,
    the source left out, at most `bound`), and their ids where they were read."""
    if not listing and bound == NO_LIMIT:  # counted as a set, built as `_layer` builds it
        reached: set[int] = set()
        reached.update(tos)
        reached.difference_update((key,))
        return list(reached), []
    fresh = dict(zip(tos, ids, strict=True)) if ids else dict.fromkeys(tos)
    fresh.pop(key, None)  # the source: seen before the layer
    new = list(fresh)
    if bound != NO_LIMIT:
        del new[bound:]
    return new, (list(fresh.values()) if ids else [])


def _second(tx: Any, walker: Any, opts: Any, cap: int, nearest: bool, lids: Any, limit: int | None, key: int,
            sid: Any, first: list[int], kept: list[Any], kout: bool, remaining: int,
            far_ids: list[Any] | None = None) -> dict[str, Any]:
    """The rest of a depth-2 walk after its first layer, as `KoutStep._walk` and
    `neighbors.reach` run it: the capacity check, the second layer read through the row
    budget exactly as `light._Nodes` reads it, and the answer. `far_ids`: that layer's ids
    already read with the first (`_far_row`: one chunk's read, by id), charged here as the
    chunk's read is."""
    listing = not opts.count_only
    if kout:
        if cap != NO_LIMIT:
            remaining -= len(first)
            if remaining <= 0:
                raise reach_capacity(cap, 1)
        if not first:  # the walk ended before its last layer
            return {"vertices_size": 0, "measure": walker.measure()} if not listing else {
                "vertices": [], "measure": walker.measure()}
        bound = remaining
        if opts.limit != NO_LIMIT and (remaining == NO_LIMIT or opts.limit < remaining):
            bound = opts.limit
        seen = {key, *first} if nearest else {key}
        seen_ids = {sid, *kept[:len(first)]} if nearest else {sid}
    else:
        count = 1 + len(first)
        bound = NO_LIMIT if opts.limit == NO_LIMIT else opts.limit - count
        if bound == 0 or not first:  # `reach` stops: nothing more to read
            return _kneighbor_answer(walker, listing, count, sid, kept[:len(first)], [])
        seen = {key, *first}
        seen_ids = {sid, *kept[:len(first)]}
    direction = opts.step.direction
    shape = "key_id_lists" if listing else "targets"
    budget = walker.budget
    reader = tx.adjacent_key_id_lists if listing else tx.adjacent_targets
    # a listing's last layer deduplicated by id (ids and keys are one to one): its ids alone
    # are read (`tx.adjacent_far_ids`, half the text), where no per-vertex limit can bind;
    # in a bounded run a limit above the rows left cannot (the read stops first)
    by_id = listing and (limit is None or (budget is not None and limit > budget.left))
    if by_id:
        seen = seen_ids
    fresh: dict[Any, Any] = {}
    reached: set[Any] = set()
    step = CHUNK if far_ids is None else len(first)  # read with the first layer: one chunk of it all
    for start in range(0, len(first), step):
        walker.ctx.check()
        chunk = first[start:start + step]
        walker.vertex_iterations += len(chunk)
        if by_id:  # as `RowBudget.adjacency` reads a capped ordered layer
            far = far_ids if far_ids is not None else tx.adjacent_far_ids(
                chunk, direction, lids, None if budget is None else budget.left + 1)
            if budget is not None:
                budget.take(len(far))
            walker.edge_iterations += len(far)
            firsts = dict.fromkeys(far)
        else:
            rows = reader(chunk, direction, lids, limit) if budget is None else budget.adjacency(
                tx, chunk, direction, lids, limit, shape)
            if listing:
                keys, ids = rows
                walker.edge_iterations += len(keys)
                firsts = dict(zip(keys, ids, strict=True))
            else:
                walker.edge_iterations += len(rows)
                if bound == NO_LIMIT:
                    reached.update(rows)
                    continue
                firsts = dict.fromkeys(rows)
        for k in seen.intersection(firsts):
            del firsts[k]
        fresh.update(firsts)
        if bound != NO_LIMIT and len(fresh) >= bound:
            break
    if not listing and bound == NO_LIMIT:
        reached.difference_update(seen)
        size = len(reached)
    else:
        size = min(len(fresh), bound) if bound != NO_LIMIT else len(fresh)
    if kout:
        if not listing:
            return {"vertices_size": size, "measure": walker.measure()}
        raws = list(fresh) if by_id else list(fresh.values())
        del raws[size:]
        return {"vertices": _Nodes._public(raws), "measure": walker.measure()}
    second = (list(fresh) if by_id else list(fresh.values()))[:size] if listing else []
    return _kneighbor_answer(walker, listing, 1 + len(first) + size, sid, kept[:len(first)], second)


def _kneighbor_answer(walker: Any, listing: bool, count: int, sid: Any, first_ids: list[Any],
                      second_ids: list[Any]) -> dict[str, Any]:
    if not listing:
        return {"vertices_size": count, "measure": walker.measure()}
    return {"vertices": _Nodes._public([sid, *first_ids, *second_ids]), "measure": walker.measure()}
