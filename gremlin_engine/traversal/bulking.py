"""Bulk merging: TinkerPop's TraverserSet semantics for `barrier()` and `repeat()`.

Two traversers are *equal* when they stand at the same object with the same loop counters
and (when paths are tracked) the same path; when no sack merge operator is configured
their sacks must match too. Equal traversers merge into one whose bulk is the sum (or 1
under `withBulk(false)`), and whose sack is the merge operator applied to both sacks.
Merging keeps the position of the first occurrence, so result order follows TinkerPop's
insertion-ordered set.

This is what keeps `g.V().repeat(out()).times(8).count()` linear: each level's frontier
holds one traverser per distinct vertex, however many walks reached it.

A bulk is a Java `long` in TinkerPop: past `MAX_BULK` a merge raises `LimitExceeded` rather
than growing a Python integer without end (`g.V().repeat(both()).times(100000)` doubles the
walks per level: 2**100000 has 30,000 digits, more than Python writes out as text).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine.errors import LimitExceeded
from gremlin_engine.limits import MAX_BULK
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.operators import apply_operator
from gremlin_engine.traversal.traverser import ROOT, Context, PathNode, Traverser, checked


def _path_key(t: Traverser, full: bool) -> Any:
    """The part of the path that tells traversers apart: every entry when some step reads
    whole paths, else only the labelled ones (what TinkerPop's PathRetractionStrategy keeps)."""
    if t.path is None:
        return None
    if full:
        return _whole_path_key(t.path)
    return tuple((hashable(e.obj), e.labels) for e in t.path_entries() if e.labels)


def _whole_path_key(node: PathNode) -> Any:
    """``(parent's key, object, labels)``, nested from the first entry: equal exactly when
    the entries are. Each node makes its key once and keeps it (`PathNode.key`), so a
    repeat() level merged on whole paths hashes one new entry per traverser, not its whole
    path again (a loop, not recursion: a path may be thousands of entries long)."""
    pending: list[PathNode] = []
    n: PathNode | None = node
    while n is not None and n is not ROOT and n.key is None:
        pending.append(n)
        n = n.parent
    key = None if n is None or n is ROOT else n.key
    for p in reversed(pending):
        key = p.key = (key, hashable(p.obj), p.labels)
    return key


def merge_traversers(items: Iterable[Traverser], ctx: Context) -> list[Traverser]:
    """Equal traversers merged, first occurrence order kept. A repeat() level may hold
    millions, each keyed on its whole path: the run's checks go on as they are merged."""

    merger = ctx.sack_merge
    out: dict[Any, Traverser] = {}
    for t in checked(items, ctx):
        key = (hashable(t.obj), t.loops, _path_key(t, ctx.full_paths), None if merger is not None else hashable(t.sack))
        have = out.get(key)
        if have is None:
            out[key] = t
            continue
        if have is t:
            continue
        bulk = have.bulk + t.bulk if ctx.bulk else 1
        if bulk > MAX_BULK:
            raise LimitExceeded(
                f"more than Long.MAX_VALUE ({MAX_BULK:,}) traversers reached one object: "
                "a traverser's bulk is a Long (limit the walk, or dedup() it)"
            )
        merged = Traverser(have.obj, bulk, have.path, have.loops, have.sack)
        if merger is not None and have.sack is not None:
            merged.sack = apply_operator(merger, have.sack, t.sack)
        out[key] = merged
    return list(out.values())


def normalize_sacks(items: list[Traverser]) -> list[Traverser]:
    """`barrier(Barrier.normSack)`: each sack divided by the bulk-weighted total, so the
    sacks of the barrier's traversers sum to 1."""
    import decimal

    total: Any = 0
    for t in items:
        total = total + t.sack * t.bulk
    if not total:
        return items
    out = []
    for t in items:
        n = t.clone()
        if isinstance(t.sack, int) and not isinstance(t.sack, bool) and isinstance(total, int):
            n.sack = decimal.Decimal(t.sack) / decimal.Decimal(total)
        elif isinstance(t.sack, decimal.Decimal) or isinstance(total, decimal.Decimal):
            n.sack = decimal.Decimal(t.sack) / decimal.Decimal(total)
        else:
            n.sack = float(t.sack) / float(total)
        out.append(n)
    return out
