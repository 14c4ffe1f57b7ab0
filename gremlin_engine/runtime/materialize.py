"""Loading every element a result holds before its transaction ends.

Serialisers (REST JSON, GraphSON, GraphBinary) run after the store transaction has closed,
so they must never need storage. Before a call returns, `load_results` walks the results
(lists, maps, sets, paths, trees, properties) and loads all unloaded vertices and edges in
batches: one storage call per batch rather than one per element.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine import limits
from gremlin_engine.errors import LimitExceeded
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Byte, Float, Int, Long, Short

BATCH = 1000

#: exact types that hold no element (the loop below skips them): a result list of only
#: these (the ids a REST batch write returns) is answered without looking at each value
_ATOMS = frozenset({str, int, float, bool, type(None), Int, Long, Float, Byte, Short})


def elements_in(values: Iterable[Any]) -> list[Any]:
    """Unloaded vertices and edges anywhere inside `values` (iteratively, no recursion).

    Each container is visited once (by id): `fold()` of `union(identity(), identity())`
    nested 26 times holds 52 lists in memory but 2**26 leaves once expanded, and a walk
    of the expanded tree would hang. When a container turns out to be shared, the results
    are weighed as a serializer would write them (`check_result_size`)."""
    if type(values) is list and _ATOMS.issuperset(map(type, values)):
        return []
    found: list[Any] = []
    seen: set[int] = set()
    shared = False
    top = values if type(values) is list else list(values)  # walked twice when shared
    stack: list[Any] = list(top)
    pop = stack.pop
    while stack:
        v = pop()
        t = type(v)
        if t in _ATOMS:
            continue
        if t is dict or t is list:  # the common containers, by exact type (valueMap rows)
            k = id(v)
            if k in seen:
                shared = True
                continue
            seen.add(k)
            if t is list:
                stack.extend(v)
            else:
                stack.extend(v.keys())
                stack.extend(v.values())
            continue
        if isinstance(v, Vertex | Edge):
            if not v.loaded and id(v) not in seen:
                seen.add(id(v))
                found.append(v)
        elif isinstance(v, str | int | float | bool) or v is None:
            continue
        elif isinstance(v, VertexProperty):
            if v.vertex is not None:
                stack.append(v.vertex)
        elif isinstance(v, Property):
            if isinstance(v.element, Vertex | Edge | VertexProperty):
                stack.append(v.element)
        elif isinstance(v, Path | dict | list | tuple | set | frozenset):
            # every container is alive for the whole walk (`values` holds it), so ids are
            # unique among them and the elements of `seen`
            if id(v) in seen:
                shared = True
                continue
            seen.add(id(v))
            if isinstance(v, Path):
                stack.extend(v.objects)
            elif isinstance(v, dict):
                stack.extend(v.keys())
                stack.extend(v.values())
            else:
                stack.extend(v)
    if shared:
        check_result_size(top)
    return found


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
    `MAX_RESULT_SIZE` items (the rule the script interpreter applies to a script's
    results, `syntax/value_bounds.py`, here for every result the engine hands out:
    traversals from bytecode and REST too)."""
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


def load_results(access: Any, values: Iterable[Any]) -> None:
    """Loads the properties of every element inside `values`, in batches."""
    pending = elements_in(values)
    for start in range(0, len(pending), BATCH):
        access.load(pending[start:start + BATCH])
