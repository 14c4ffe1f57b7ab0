"""How many items a result's nested collections hold once a serializer writes them out.

Results may share collections: `fold()` of `union(identity(), identity())` nested n deep
holds 2n lists in memory and 2**n items written out, and scripts can build the same from
literals. `MAX_RESULT_SIZE` bounds what is written out; this module weighs it without
expanding anything (each distinct collection once, iteratively), for the interpreter's
results and the engine's alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine import limits
from gremlin_engine.errors import LimitExceeded
from gremlin_engine.structure.elements import Path


def expanded_size(value: Any, memo: dict[int, int], cap: int) -> int:
    """How many items a serializer writes for `value`'s nested collections: 1 for a
    scalar or an element, the sum of the items' sizes for a list, set, map (keys and
    values) or path (at least 1), a collection shared N times counted N times. Iterative
    (a result may nest deeper than Python recursion), each distinct collection weighed
    once (`memo`, by id), and stops counting past `cap`."""
    if not isinstance(value, _COLLECTIONS):
        return 1
    stack: list[tuple[Any, bool]] = [(value, False)]
    opened: set[int] = set()  # weighing started, not finished: met again, it holds itself
    while stack:
        v, ready = stack.pop()
        if id(v) in memo:
            continue
        items = _items(v)
        if ready:
            total = 0
            for item in items:
                # a collection holding itself never ends once written out
                total += memo.get(id(item), cap + 1) if isinstance(item, _COLLECTIONS) else 1
                if total > cap:
                    total = cap + 1
                    break
            memo[id(v)] = max(total, 1)
            continue
        if id(v) in opened:
            continue  # a cycle: its own ready marker below will find no weight for it
        opened.add(id(v))
        stack.append((v, True))
        stack.extend((item, False) for item in items if isinstance(item, _COLLECTIONS) and id(item) not in memo)
    return memo[id(value)]


_COLLECTIONS = (list, tuple, set, frozenset, dict, Path)


def _items(v: Any) -> list[Any]:
    if isinstance(v, dict):
        return [*v.keys(), *v.values()]
    if isinstance(v, Path):
        return list(v.objects)
    return list(v)


def check_result_size(values: Iterable[Any]) -> None:
    """Refuses results whose nested collections, written out, hold more than
    `MAX_RESULT_SIZE` items: the one rule for a script's results (the interpreter) and
    every result the engine hands out (`runtime/materialize.load_results`: bytecode,
    REST, streams)."""
    limit = limits.MAX_RESULT_SIZE
    memo: dict[int, int] = {}
    total = 0
    for item in values:
        if isinstance(item, _COLLECTIONS):
            total += expanded_size(item, memo, limit)
            if total > limit:
                raise LimitExceeded(
                    "the results are too large to send: their nested collections hold more than "
                    f"MAX_RESULT_SIZE ({limit:,}) items, counting shared ones in full"
                )
