"""Graph elements as the engine and its serialisers see them.

An element knows its public id, its label and its storage key (the integer row key the
adjacency index uses), and holds its properties once they are loaded. Loading is the
engine's job: steps ask `needs_properties()` for a whole batch and fill them in one storage
call (see DESIGN.md, set-at-a-time), so these classes never reach storage themselves.

Equality follows TinkerPop: two vertices (or two edges) are equal when their ids are.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# property values by key, in insertion (or property-key id) order; a key maps to a list
# because vertex properties may be multi-valued (cardinality list/set)
PropertyMap = dict[str, list["VertexProperty"]]


class Element:
    __slots__ = ("id", "label", "key", "_props")
    kind = "element"

    def __init__(self, id: Any, label: str, key: int | None = None, props: Any = None) -> None:
        self.id = id
        self.label = label
        self.key = key  # storage row key; None for detached elements
        self._props = props  # None until loaded

    @property
    def loaded(self) -> bool:
        return self._props is not None

    def properties(self, *keys: str) -> Iterator[VertexProperty | Property]:
        """The loaded properties with one of `keys` (all without keys): a vertex's
        `VertexProperty`s, an edge's `Property`s (each subclass says which)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and other.kind == self.kind and other.id == self.id

    def __hash__(self) -> int:
        return hash((self.kind, self.id))


class Vertex(Element):
    """A vertex. `_props` is a `PropertyMap` once loaded."""

    __slots__ = ()
    kind = "vertex"

    def properties(self, *keys: str) -> Iterator[VertexProperty]:
        if self._props is None:
            raise RuntimeError(f"properties of vertex {self.id!r} are not loaded")
        for k, vps in self._props.items():
            if not keys or k in keys:
                yield from vps

    def value(self, key: str) -> Any:
        for vp in self.properties(key):
            return vp.value
        raise KeyError(key)

    def __repr__(self) -> str:
        return f"v[{self.id}]"


class Edge(Element):
    """An edge. `_props` is a plain dict key -> value once loaded."""

    __slots__ = ("out_v", "in_v")
    kind = "edge"

    def __init__(
        self, id: Any, label: str, out_v: Vertex, in_v: Vertex, key: int | None = None, props: Any = None
    ) -> None:
        self.id = id  # Element's fields set here: edges are made by the thousand (batch loads)
        self.label = label
        self.key = key
        self._props = props
        self.out_v = out_v
        self.in_v = in_v

    def properties(self, *keys: str) -> Iterator[Property]:
        if self._props is None:
            raise RuntimeError(f"properties of edge {self.id!r} are not loaded")
        for k, v in self._props.items():
            if not keys or k in keys:
                yield Property(k, v, self)

    def value(self, key: str) -> Any:
        if self._props is None:
            raise RuntimeError(f"properties of edge {self.id!r} are not loaded")
        return self._props[key]

    def __repr__(self) -> str:
        return f"e[{self.id}][{self.out_v.id}-{self.label}->{self.in_v.id}]"


@dataclass(eq=False)
class VertexProperty:
    """A vertex property; `meta` holds TinkerPop meta-properties (HugeGraph has none)."""

    id: Any
    key: str
    value: Any
    vertex: Vertex | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    kind = "vertex_property"

    @property
    def label(self) -> str:
        return self.key

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, VertexProperty)
            and other.id == self.id
            and other.key == self.key
            and other.value == self.value
        )

    def __hash__(self) -> int:
        return hash(("vp", self.key, _hashable(self.value)))

    def __repr__(self) -> str:
        return f"vp[{self.key}->{self.value!r}]"


@dataclass(eq=False)
class Property:
    """An edge property or a meta-property."""

    key: str
    value: Any
    element: Any = None

    kind = "property"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Property) and other.key == self.key and other.value == self.value

    def __hash__(self) -> int:
        return hash(("p", self.key, _hashable(self.value)))

    def __repr__(self) -> str:
        return f"p[{self.key}->{self.value!r}]"


@dataclass(frozen=True)
class Path:
    """A traverser's history: `objects[i]` was labelled with the names in `labels[i]`."""

    labels: tuple[frozenset[str], ...]
    objects: tuple[Any, ...]

    def __len__(self) -> int:
        return len(self.objects)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.objects)


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((repr(k), _hashable(x)) for k, x in v.items()))
    if isinstance(v, set):
        return frozenset(_hashable(x) for x in v)
    return v
