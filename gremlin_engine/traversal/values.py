"""Result value types the steps produce beyond plain Python collections.

`Tree` is what `tree()` yields (a map of object -> subtree), `BulkSet` what `aggregate`
and `store` collect (a list that remembers bulk; serialisers may send it as a list or a
GraphBinary BulkSet). Serialisers in `rest_adapter` import these names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine.traversal.compare import hashable


class Tree(dict[Any, "Tree"]):
    """`tree()`: nested maps keyed by path objects."""

    def add_path(self, objs: list[Any]) -> None:
        node = self
        for o in objs:
            node = node.setdefault(o, Tree())

    def merge(self, other: Tree) -> None:
        for k, sub in other.items():
            self.setdefault(k, Tree()).merge(sub)


class BulkSet(list[Any]):
    """An insertion-ordered multiset; behaves as the list of its items (bulk expanded)."""


class MapEntry(dict[Any, Any]):
    """One entry of a map, as `unfold()` of a map yields it (Java's Map.Entry).

    It is a one-entry dict, so serialisers and comparisons treat it as the map TinkerPop
    sends for an entry; `select(keys|values)` and `by(keys|values)` read its key or value
    directly instead of a one-element collection."""

    def __init__(self, key: Any = None, value: Any = None, /, *rest: Any) -> None:
        super().__init__({key: value} if not rest else dict(*rest))

    @property
    def key(self) -> Any:
        return next(iter(self))

    @property
    def value(self) -> Any:
        return next(iter(self.values()))


class LinkedSet(set[Any]):
    """A set that iterates in insertion order (Java's LinkedHashSet): what `select(keys)`,
    `dedup(local)` and the set-valued list steps return, so a later `unfold()` keeps the
    order TinkerPop gives."""

    def __init__(self, items: Any = ()) -> None:
        super().__init__()
        self._order: list[Any] = []
        for x in items:
            self.add(x)

    def add(self, x: Any) -> None:
        if x not in self:
            super().add(x)
            self._order.append(x)

    def update(self, *others: Any) -> None:
        for other in others:
            for x in other:
                self.add(x)

    def discard(self, x: Any) -> None:
        if x in self:
            super().discard(x)
            self._order.remove(x)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._order))

    def __repr__(self) -> str:
        return "{" + ", ".join(map(repr, self._order)) + "}"


class KeyMap(dict[Any, Any]):
    """A map used as a key of another map (`group().by(select('a','b'))`): a dict that
    hashes by its contents. It must not be changed once used as a key."""

    def __hash__(self) -> int:  # type: ignore[override]

        return hash(hashable(dict(self)))


class Subgraph:
    """What `subgraph(key)` collects: the edges it saw and their end vertices (TinkerPop
    hands back a TinkerGraph; this is its element view). Serialisers may send it as
    `{"vertices": [...], "edges": [...]}`."""

    def __init__(self) -> None:
        self._vertices: dict[Any, Any] = {}
        self._edges: dict[Any, Any] = {}

    def add_edge(self, edge: Any) -> None:
        self._edges.setdefault(edge.id, edge)
        for v in (edge.out_v, edge.in_v):
            self._vertices.setdefault(v.id, v)

    @property
    def vertices(self) -> list[Any]:
        return list(self._vertices.values())

    @property
    def edges(self) -> list[Any]:
        return list(self._edges.values())

    def __repr__(self) -> str:
        return f"subgraph[vertices:{len(self._vertices)} edges:{len(self._edges)}]"


def dedup_items(items: Iterable[Any]) -> list[Any]:
    seen: set[Any] = set()
    out = []
    for x in items:
        k = hashable(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def as_set(items: Iterable[Any]) -> Any:
    """`items` without repeats as a `LinkedSet` (a list when some item is unhashable):
    what set-valued steps answer (`dedup(local)`, `select(keys)`, the set list steps)."""
    items = dedup_items(items)
    try:
        return LinkedSet(items)
    except TypeError:
        return items
