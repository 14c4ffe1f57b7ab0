"""Graph views for the element-filtering strategies: `SubgraphStrategy`, `PartitionStrategy`
and `ReadOnlyStrategy`.

TinkerPop implements these by rewriting every graph-reading step (`out()` becomes
`outE().filter(edges).inV().filter(vertices)` and so on). Here every graph read already
goes through one `GraphAccess`, so the strategy is a wrapper around it instead: the view
answers `vertices/edges/count/adjacent_*` with only the elements the strategy admits and
strips filtered vertex properties on `load`, and no step needs to know. The filter
traversals themselves run against the unfiltered graph, as in TinkerPop.

Vertices handed out by a view with a vertex-property filter are private copies, so the
filtered property maps never leak into the transaction's element cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from gremlin_engine.access import GraphAccess
from gremlin_engine.errors import TraversalError
from gremlin_engine.structure.elements import Edge, Element, Vertex, VertexProperty
from gremlin_engine.traversal import compile_traversal
from gremlin_engine.traversal.executor import produces
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.tokens import Direction

Test = Callable[[Element], bool]
MUTATING = frozenset({"addV", "addE", "property", "drop", "mergeV", "mergeE"})


class FilteredAccess:
    """A `GraphAccess` that admits only the vertices/edges (and vertex properties) its
    tests accept; everything else is delegated to `base` unchanged."""

    def __init__(
        self,
        base: GraphAccess,
        vertex_test: Test | None = None,
        edge_test: Test | None = None,
        property_test: Callable[[VertexProperty], bool] | None = None,
        check_adjacent: bool = True,
    ) -> None:
        self.base = base
        self.vertex_test = vertex_test
        self.edge_test = edge_test
        self.property_test = property_test
        self.check_adjacent = check_adjacent
        self._verdicts: dict[tuple[str, Any], bool] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)

    # ---- admission -------------------------------------------------------------------
    def _admits(self, elem: Element, test: Test | None) -> bool:
        if test is None:
            return True
        key = (elem.kind, elem.id)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = bool(test(elem))
        return verdict

    def admits_vertex(self, v: Vertex) -> bool:
        return self._admits(v, self.vertex_test)

    def admits_edge(self, e: Edge) -> bool:
        if not self._admits(e, self.edge_test):
            return False
        if self.check_adjacent and self.vertex_test is not None:
            return self.admits_vertex(e.out_v) and self.admits_vertex(e.in_v)
        return True

    def _own(self, v: Vertex) -> Vertex:
        """A private copy when vertex properties get filtered (see the module docstring)."""
        if self.property_test is None:
            return v
        return Vertex(v.id, v.label, v.key)

    def _own_edge(self, e: Edge) -> Edge:
        if self.property_test is None:
            return e
        return Edge(e.id, e.label, self._own(e.out_v), self._own(e.in_v), e.key, e._props)

    # ---- reads -------------------------------------------------------------------------
    def vertices(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Vertex]:  # type: ignore[no-untyped-def]
        n = 0
        for v in self.base.vertices(ids, labels, conditions, None if self.vertex_test else limit):
            if limit is not None and n >= limit:
                return
            if self.admits_vertex(v):
                n += 1
                yield self._own(v)

    def edges(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Edge]:  # type: ignore[no-untyped-def]
        filtered = self.edge_test is not None or (self.check_adjacent and self.vertex_test is not None)
        n = 0
        for e in self.base.edges(ids, labels, conditions, None if filtered else limit):
            if limit is not None and n >= limit:
                return
            if self.admits_edge(e):
                n += 1
                yield self._own_edge(e)

    def count(self, kind: str, labels: Sequence[str] | None = None, conditions: Sequence[Any] = ()) -> int:
        source = self.vertices if kind == "vertex" else self.edges
        return sum(1 for _ in source(None, labels, conditions))

    def adjacent_edges(self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = (), **kw: Any) -> list[tuple[int, Edge]]:
        out = []
        for i, e in self.base.adjacent_edges(vertices, direction, labels):
            if not self._admits(e, self.edge_test):
                continue
            if self.vertex_test is not None and self.check_adjacent and not self.admits_vertex(other_end(e, vertices[i], direction)):
                continue
            out.append((i, self._own_edge(e)))
        return out

    def adjacent_vertices(self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = (), **kw: Any) -> list[tuple[int, Vertex]]:
        out = []
        for i, e in self.base.adjacent_edges(vertices, direction, labels):
            if not self._admits(e, self.edge_test):
                continue
            other = other_end(e, vertices[i], direction)
            if self.admits_vertex(other):
                out.append((i, self._own(other)))
        return out

    def load(self, elements: Iterable[Element]) -> None:
        batch = list(elements)
        self.base.load(batch)
        test = self.property_test
        if test is None:
            return
        for el in batch:
            if isinstance(el, Vertex) and el._props is not None:
                el._props = {k: kept for k, vps in el._props.items() if (kept := [vp for vp in vps if test(vp)])}


def other_end(e: Edge, start: Vertex, direction: Direction) -> Vertex:
    """The end of `e` that is not `start`, walking `direction` (BOTH: whichever it is not)."""
    if direction is Direction.OUT:
        return e.in_v
    if direction is Direction.IN:
        return e.out_v
    return e.in_v if e.out_v == start else e.out_v


class PartitionAccess(FilteredAccess):
    """`PartitionStrategy`: reads see elements whose partition key is in `read`; new
    vertices and edges are written to `write`."""

    def __init__(self, base: GraphAccess, key: str, write: Any, read: Sequence[Any]) -> None:
        self.key = key
        self.write = write
        self.read = list(read)
        # TinkerPop's partition filter follows each step: bothE() checks the edge only,
        # the vertex steps check the vertex they reach
        super().__init__(base, self._in_partition, self._in_partition, check_adjacent=False)

    def _in_partition(self, elem: Element) -> bool:
        if not elem.loaded:
            self.base.load([elem])
        return any(p.value in self.read for p in elem.properties(self.key))

    def vertices(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Vertex]:  # type: ignore[no-untyped-def]
        conds = (*conditions, (self.key, P("within", self.read)))
        return self.base.vertices(ids, labels, conds, limit)

    def edges(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Edge]:  # type: ignore[no-untyped-def]
        return self.base.edges(ids, labels, (*conditions, (self.key, P("within", self.read))), limit)

    def add_vertex(self, label: str | None, id: Any = None, properties: Sequence[tuple[Any, ...]] = ()) -> Vertex:
        props = [p for p in properties if p[0] != self.key]
        return self.base.add_vertex(label, id, [*props, (self.key, self.write)])

    def add_edge(self, label: str, out_v: Vertex, in_v: Vertex, id: Any = None, properties: Sequence[tuple[str, Any]] = ()) -> Edge:
        props = [p for p in properties if p[0] != self.key]
        return self.base.add_edge(label, out_v, in_v, id, [*props, (self.key, self.write)])

    def add_vertices(self, specs: Sequence[tuple[Any, Any, Any]]) -> list[Vertex]:
        """The batch form of `add_vertex`: each element written with the partition key."""
        # (offered because the base offers it: the runtime's `StoreAccess`)
        made: list[Vertex] = self.base.add_vertices(  # type: ignore[attr-defined]
            [(label, id, self._keyed(props)) for label, id, props in specs])
        return made

    def add_edges(self, specs: Sequence[tuple[Any, Vertex, Vertex, Any]]) -> list[Edge]:
        """The batch form of `add_edge`: each element written with the partition key."""
        made: list[Edge] = self.base.add_edges(  # type: ignore[attr-defined]  # as add_vertices
            [(label, o, i, self._keyed(props)) for label, o, i, props in specs])
        return made

    def _keyed(self, properties: Any) -> list[tuple[Any, ...]]:
        """A batch spec's properties (a dict, or (key, value...) tuples) with the partition key."""
        pairs = list(properties.items()) if isinstance(properties, dict) else list(properties)
        return [*(p for p in pairs if p[0] != self.key), (self.key, self.write)]


class ReadOnlyAccess:
    """`ReadOnlyStrategy` as a last line of defence (the compiler refuses mutating steps)."""

    def __init__(self, base: GraphAccess) -> None:
        self.base = base

    def __getattr__(self, name: str) -> Any:
        if name in (
            "add_vertex", "add_edge", "add_vertices", "add_edges", "set_property", "set_meta_property",
            "remove_property", "drop",
        ):
            raise TraversalError("The provided traversal has a mutating step and thus is not read only")
        return getattr(self.base, name)


def check_read_only(traversal: Any) -> None:
    """ReadOnlyStrategy's verification: no mutating step anywhere in the traversal."""
    for step in traversal.walk():
        if step.name in MUTATING or getattr(step, "mutating", False):  # the HugeGraph write steps say so
            raise TraversalError(f"The provided traversal has a mutating step and thus is not read only: {step!r}")


def verify(traversal: Any, strategies: dict[str, dict[str, Any]]) -> None:
    """The verification strategies a client switched on with `withStrategies(...)`."""
    if "VertexProgramRestrictionStrategy" in strategies and "VertexProgramStrategy" in strategies:
        # TinkerPop's VertexProgramRestrictionStrategy: a source that forbids graph computers
        raise TraversalError("The TraversalSource does not allow the use of a GraphComputer")
    if "ReadOnlyStrategy" in strategies:
        check_read_only(traversal)
    edge_labels = strategies.get("EdgeLabelVerificationStrategy")
    if edge_labels is not None and edge_labels.get("throwException"):
        for step in traversal.walk():
            if getattr(step, "edge_labels", None) == ():
                raise TraversalError(
                    f"The provided traversal contains a vertex step without any specified edge label: {step!r}"
                )
    reserved = strategies.get("ReservedKeysVerificationStrategy")
    if reserved is not None and reserved.get("throwException"):
        keys = set(reserved.get("keys") or ("id", "label"))
        for step in traversal.walk():
            written = [p.key for p in getattr(step, "props", ())]
            if step.name == "property":
                body = getattr(step, "body", ())
                written += [body[0]] if body else []
            for key in written:
                if isinstance(key, str) and key in keys:
                    raise TraversalError(f"The provided traversal is setting a property key to a reserved word: {key}")


def _child_test(child_ir: Any, base: GraphAccess, ctx_factory: Callable[[GraphAccess], Any]) -> Test:
    child = compile_traversal(child_ir)
    ctx = ctx_factory(base)

    def test(elem: Any) -> bool:
        return produces(child, ctx.new_traverser(elem), ctx)

    return test


def wrap_access(base: GraphAccess, strategies: dict[str, dict[str, Any]], ctx_factory: Callable[[GraphAccess], Any]) -> Any:
    """The access a traversal with these `withStrategies(...)` runs against."""
    access: Any = base
    sub = strategies.get("SubgraphStrategy")
    if sub is not None:
        def make(key: str) -> Any:
            return _child_test(sub[key], base, ctx_factory) if sub.get(key) is not None else None

        access = FilteredAccess(
            access, make("vertices"), make("edges"), make("vertexProperties"),
            check_adjacent=bool(sub.get("checkAdjacentVertices", True)),
        )
    part = strategies.get("PartitionStrategy")
    if part is not None:
        read = part.get("readPartitions") or []
        access = PartitionAccess(access, part.get("partitionKey", "_partition"), part.get("writePartition"), list(read))
    if "ReadOnlyStrategy" in strategies:
        access = ReadOnlyAccess(access)
    return access
