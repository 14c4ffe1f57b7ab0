"""Result value types the steps produce beyond plain Python collections.

`Tree` is what `tree()` yields (a map of object -> subtree), `BulkSet` what `aggregate`
and `store` collect (a list that remembers bulk; serialisers may send it as a list or a
GraphBinary BulkSet). Serialisers in `rest_adapter` import these names.
"""

from __future__ import annotations

from typing import Any


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
