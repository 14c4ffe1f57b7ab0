"""Depth-1 light requests in ONE statement: the source lookup and its adjacency read joined.

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
  path reads no schema), of depth 1, one direction ('out' or 'in'), one label or none;
  a listing only where the adjacency index holds the far ids (`tx.far_ids_covered`);
* the walk is `KoutStep._walk` / `neighbors.reach` at depth 1, written out: the layer is
  the source's other ends in adjacency order, each once, the source itself left out, cut
  at the bound those functions compute (limit, capacity), and counted as a set when only
  counted without a bound;
* a bounded run (`budget.py`) reads at most one row past what is left, as
  `RowBudget.adjacency` does, and stops with `OverBudget` when there are more.

Anything else returns `SLOW` having read nothing, and the caller runs `light.answer`
(or the step) inside its snapshot as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument

from .base import _show
from .budget import OverBudget
from .light import SLOW, _Lean, _Nodes, memo_settled, stored_source
from .steps import NO_LIMIT


def prepare(graph: Any, name: str, req: Mapping[str, Any], auto: bool) -> Any:
    """What `answer` needs of the GET k-out / k-neighbor `req` (its settled options, the
    source's stored form, the layer's bound), or SLOW when it cannot take it: decided
    without a read, so a request it declines costs no connection checkout."""
    if "steps" in req:
        return SLOW
    settled = memo_settled(graph, name, req)
    if settled is None or settled is SLOW:
        return SLOW
    opts, cap, _nearest, lids = settled
    if opts.max_depth != 1 or (lids is not None and len(lids) != 1):
        return SLOW
    direction = opts.step.direction
    if str(getattr(direction, "name", direction)).lower() == "both":
        return SLOW
    kout = name == "hg_kout"
    if kout:
        remaining = NO_LIMIT if cap == NO_LIMIT else cap - 1
        bound = opts.limit if opts.limit != NO_LIMIT and (remaining == NO_LIMIT or opts.limit < remaining) else remaining
    else:
        bound = NO_LIMIT if opts.limit == NO_LIMIT else opts.limit - 1
        if bound == 0:
            return SLOW  # `reach` reads nothing then
    sid = stored_source(req.get("source"), auto)
    if sid is SLOW:
        return SLOW
    return opts, lids, sid, bound, kout


def answer(tx: Any, prepared: Any, req: Mapping[str, Any], token: Any) -> Any:
    """The result map of a request `prepare` took, by one read through `tx`; SLOW (nothing
    read) when `tx` cannot read it in one statement (a listing whose far ids the index does
    not hold)."""
    opts, lids, sid, bound, kout = prepared
    step = opts.step
    direction = step.direction
    read = getattr(tx, "source_adjacency", None)
    listing = not opts.count_only
    if read is None or (listing and not tx.far_ids_covered(direction)):
        return SLOW
    walker = _Lean(token)
    limit = None if step.max_degree == NO_LIMIT else step.max_degree
    budget = walker.budget
    cap_rows = limit
    if budget is not None and not (limit is not None and limit <= budget.left):
        cap_rows = budget.left + 1 if limit is None else min(limit, budget.left + 1)
    token.check()
    row = read(sid, direction, lids, cap_rows, listing)
    if row is None:
        raise IllegalArgument(f"The source vertex with id '{_show(req.get('source'))}' does not exist")
    key, tos, ids = row
    if budget is not None:
        if len(tos) > budget.left:
            raise OverBudget
        budget.left -= len(tos)
    walker.vertex_iterations = 1
    walker.edge_iterations = len(tos)
    if not listing and bound == NO_LIMIT:  # counted as a set, as `_layer` counts it
        reached = set(tos)
        reached.discard(key)
        size = len(reached)
        return {"vertices_size": size if kout else size + 1, "measure": walker.measure()}
    fresh = dict(zip(tos, ids, strict=True)) if listing else dict.fromkeys(tos)
    fresh.pop(key, None)  # the source: seen before the layer
    new = list(fresh)
    if bound != NO_LIMIT:
        del new[bound:]
    if not listing:
        return {"vertices_size": len(new) if kout else len(new) + 1, "measure": walker.measure()}
    raws = list(fresh.values())
    del raws[len(new):]
    if not kout:
        raws.insert(0, sid)  # k-neighbor lists the source first
    return {"vertices": _Nodes._public(raws), "measure": walker.measure()}
