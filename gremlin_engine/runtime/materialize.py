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

BATCH = 1000


def elements_in(values: Iterable[Any]) -> list[Any]:
    """Unloaded vertices and edges anywhere inside `values` (iteratively, no recursion)."""
    found: list[Any] = []
    seen: set[int] = set()
    stack: list[Any] = list(values)
    while stack:
        v = stack.pop()
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
        elif isinstance(v, Path):
            stack.extend(v.objects)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list | tuple | set | frozenset):
            stack.extend(v)
    return found


def load_results(access: Any, values: Iterable[Any]) -> None:
    """Loads the properties of every element inside `values`, in batches."""
    pending = elements_in(values)
    for start in range(0, len(pending), BATCH):
        access.load(pending[start:start + BATCH])
