"""Loading every element a result holds before its transaction ends.

Serialisers (REST JSON, GraphSON, GraphBinary) run after the store transaction has closed,
so they must never need storage. Before a call returns, `load_results` walks the results
(lists, maps, sets, paths, trees, properties) and loads all unloaded vertices and edges in
batches: one storage call per batch rather than one per element.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Byte, Float, Int, Long, Short
from gremlin_engine.structure.result_size import check_result_size

BATCH = 1000

#: exact types that hold no element (the loop below skips them): a result list of only
#: these (the ids a REST batch write returns) is answered without looking at each value
_ATOMS = frozenset({str, int, float, bool, type(None), Int, Long, Float, Byte, Short})


def elements_in(values: Iterable[Any]) -> list[Any]:
    """Unloaded vertices and edges anywhere inside `values` (iteratively, no recursion).

    Each container is visited once (by id): `fold()` of `union(identity(), identity())`
    nested 26 times holds 52 lists in memory but 2**26 leaves once expanded, and a walk
    of the expanded tree would hang."""
    if type(values) is list and _ATOMS.issuperset(map(type, values)):
        return []
    found: list[Any] = []
    seen: set[int] = set()
    top = values if type(values) is list else list(values)
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
                continue
            seen.add(k)
            if t is list:
                if not _ATOMS.issuperset(map(type, v)):  # a list of ids (a k-out listing): scanned in C
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
                continue
            seen.add(id(v))
            if isinstance(v, Path):
                stack.extend(v.objects)
            elif isinstance(v, dict):
                stack.extend(v.keys())
                stack.extend(v.values())
            else:
                stack.extend(v)
    return found


def load_results(access: Any, values: Iterable[Any]) -> None:
    """Loads the properties of every element inside `values`, in batches, then weighs the
    results as a serializer would write them (`check_result_size`: MAX_RESULT_BYTES)."""
    top = values if type(values) is list else list(values)
    kinds = set(map(type, top))
    if kinds <= _ATOMS:  # a listing of ids, names or counts: nothing to load
        check_result_size(top, kinds)
        return
    pending = elements_in(top)
    for start in range(0, len(pending), BATCH):
        access.load(pending[start:start + BATCH])
    check_result_size(top)
