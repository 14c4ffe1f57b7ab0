"""The seam between the traversal machine (steps) and the graph runtime (storage + schema).

Steps never see SQL or storage rows: they call a `GraphAccess`, always with whole batches,
so that the runtime can answer each call with one storage query (DESIGN.md, set-at-a-time).
`gremlin_engine/runtime/` implements it over `storage` and the schema service; a step may
rely on nothing else about the graph.

Conditions are `(key, P)` pairs where key is a property name or a `T` token (`T.id`,
`T.label`); the runtime pushes what it can into index lookups and filters the rest itself,
so callers may pass any predicate.

Optional attribute: `import_dir` (a `Path` or None), the folder `g.io(path).read()` may
read from; an access without it refuses `io()`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeGuard

from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.traversal.tokens import Cardinality, Direction

Condition = tuple[Any, Any]  # (property key | T token, P predicate)


class GraphAccess(Protocol):
    schema_mode: str  # "strict" (HugeGraph rules) or "auto" (TinkerGraph-like)

    # ---- reads -------------------------------------------------------------------------
    def vertices(
        self,
        ids: Sequence[Any] | None = None,
        labels: Sequence[str] | None = None,
        conditions: Sequence[Condition] = (),
        limit: int | None = None,
    ) -> Iterator[Vertex]:
        """`g.V(ids).hasLabel(labels).has(conditions).limit(n)` as one query where possible.
        With `ids`, results follow the order of `ids` (duplicates repeated), unknown ids skipped."""
        ...

    def edges(
        self,
        ids: Sequence[Any] | None = None,
        labels: Sequence[str] | None = None,
        conditions: Sequence[Condition] = (),
        limit: int | None = None,
    ) -> Iterator[Edge]: ...

    def count(self, kind: str, labels: Sequence[str] | None = None, conditions: Sequence[Condition] = ()) -> int:
        """`COUNT(*)` of 'vertex' or 'edge' elements."""
        ...

    def adjacent_vertices(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[tuple[int, Vertex]]:
        """For a batch, the neighbour vertices as (index into `vertices`, neighbour) pairs, in
        input order and then edge order. Neighbours have ids/labels, properties unloaded.
        An access may also take a keyword `limit_per_vertex: int | None`, capping the
        neighbours returned per input vertex; the traverser algorithms look for it in the
        method's signature (`algorithms/base.py`) and apply their degree limits themselves
        where it is missing (a filtering view: a cap there would count what it filters out)."""
        ...

    def adjacent_edges(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[tuple[int, Edge]]:
        """Incident edges as (index into `vertices`, edge) pairs; edges come with their
        properties loaded and both end vertices set (unloaded). `limit_per_vertex` as above."""
        ...

    # Optional capabilities: the protocols below (`CountsAccess`, ...), each offered when the
    # access's *class* defines the method (`offers_counts(access)`, ...).

    def load(self, elements: Iterable[Element]) -> None:
        """Fills the properties of every unloaded element in the batch (one query per kind)."""
        ...

    # ---- writes (inside the current transaction) ------------------------------------
    def add_vertex(self, label: str | None, id: Any = None, properties: Sequence[tuple[Any, ...]] = ()) -> Vertex:
        """properties: (key, value) or (key, value, Cardinality, meta dict) tuples."""
        ...

    def add_edge(
        self, label: str, out_v: Vertex, in_v: Vertex, id: Any = None, properties: Sequence[tuple[str, Any]] = ()
    ) -> Edge: ...

    def set_property(
        self,
        element: Element,
        key: str,
        value: Any,
        cardinality: Cardinality | None = None,
        meta: dict[str, Any] | None = None,
    ) -> VertexProperty | Property | None:
        """The property set, or None when `value` is None and the key was removed instead."""
        ...

    def set_meta_property(self, vp: VertexProperty, key: str, value: Any) -> Property: ...

    def remove_property(self, prop: VertexProperty | Property) -> None: ...

    def drop(self, elements: Sequence[Element]) -> None: ...


# ---- optional capabilities ------------------------------------------------------------------
# An access offers one when its class defines the method: filtering views (`traversal/views.py`)
# wrap an access through `__getattr__` and never offer one, so a step can never read past their
# filters. Steps test with the `offers_*` guards, which narrow the type for the call.
Stop = Callable[[], bool]  # polled by long storage calls: True interrupts, the method returns None
Hops = Sequence[tuple[Direction, Sequence[str]]]


class CountsAccess(GraphAccess, Protocol):
    def adjacent_counts(self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()) -> list[int]:
        """Per input vertex, len() of what adjacent_vertices would give it."""
        ...


class HeadsAccess(GraphAccess, Protocol):
    def adjacent_heads(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = ()
    ) -> list[tuple[int, Vertex]]:
        """Like adjacent_vertices, but the neighbours carry only id and label (their
        property JSON is not read): `out().id()`, `out().label()`."""
        ...


class PropertyValuesAccess(GraphAccess, Protocol):
    def property_values(self, elements: Sequence[Element], key: str, missing: Any = None) -> list[Any]:
        """The first value of `key` on each element (`missing` if none), leaving unloaded
        elements unloaded when only that key is needed (groupCount().by(key))."""
        ...


class WalkCountAccess(GraphAccess, Protocol):
    def walk_count(self, starts: Sequence[tuple[Vertex, int]], hops: Hops, stop: Stop | None = None) -> int | None:
        """starts: (vertex, bulk) pairs; hops: (Direction, edge labels) pairs. The number of
        walks the hops make (what summing the bulk after the vertex steps gives), or None
        when it cannot answer or `stop()` became true (`out().out().count()`,
        `repeat(out()).times(k).count()`)."""
        ...

    def walk_count_all(self, labels: Sequence[str] | None, hops: Hops, stop: Stop | None = None) -> int | None:
        """`walk_count` starting once at every vertex with one of `labels` (None: all)."""
        ...

    def walk_count_from_id(self, ident: Any, hops: Hops, stop: Stop | None = None) -> int | None:
        """`walk_count` from the one vertex `V(ident)` (0 when it is missing), None when it
        cannot answer."""
        ...


class GroupCountsAccess(GraphAccess, Protocol):
    def group_counts(
        self, kind: str, labels: Sequence[str] | None, key: Any, missing: Any, stop: Stop | None = None
    ) -> list[tuple[Any, int]] | None:
        """(value, count) per distinct first value of property `key` (`missing` where
        absent) or per label (`key` is T.label) over `V()/E()[.hasLabel(labels)]`, in
        scan order of first occurrence; equal values may repeat (the caller merges). None
        when it cannot answer (`V().groupCount().by(key)`)."""
        ...


class PointAccess(GraphAccess, Protocol):
    """One-statement reads for the fused point steps (`traversal/steps/point.py`); each
    answers None when the caller must take the general path."""

    def point_vertex(self, ident: Any) -> tuple[Any, ...] | None: ...

    def point_neighbour_ids(self, ident: Any, direction: Any, labels: Sequence[str] = ()) -> list[Any] | None: ...

    def point_index_ids(self, labels: Sequence[str] | None, conditions: Sequence[Any]) -> list[Any] | None: ...


def offers_counts(access: GraphAccess) -> TypeGuard[CountsAccess]:
    return callable(getattr(type(access), "adjacent_counts", None))


def offers_heads(access: GraphAccess) -> TypeGuard[HeadsAccess]:
    return callable(getattr(type(access), "adjacent_heads", None))


def offers_property_values(access: GraphAccess) -> TypeGuard[PropertyValuesAccess]:
    return callable(getattr(type(access), "property_values", None))


def offers_walk_count(access: GraphAccess) -> TypeGuard[WalkCountAccess]:
    return callable(getattr(type(access), "walk_count", None))


def offers_group_counts(access: GraphAccess) -> TypeGuard[GroupCountsAccess]:
    return callable(getattr(type(access), "group_counts", None))


def offers_point(access: GraphAccess) -> TypeGuard[PointAccess]:
    return callable(getattr(type(access), "point_vertex", None))
