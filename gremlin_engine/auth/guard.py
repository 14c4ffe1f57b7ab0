"""Permission checks inside the engine, from the request's `ExecutionContext`.

Every door's request reaches storage through one session, and the session hands steps a
graph access built from the transaction that carries the context (`runtime/session.py`).
For a principal who is not the administrator, `guarded` wraps that access in a
`PermissionAccess`: a filtering view (`traversal/views.py`, the same seam `SubgraphStrategy`
uses) that admits only the vertices and edges the principal may READ and checks every write
(WRITE to create or change, DELETE to drop) on the element as it ends up. No step knows
about it, and the fast paths a step looks up on the access's class are not offered by a view,
so none can bypass it. The administrator gets the access unwrapped: auth costs it one
attribute test per transaction.

Lists, traversals and results drop what may not be read, silently. A request for one element
(a REST GET/PUT/DELETE by id: `ctx.strict_reads`) and any write answer 403 `Permission denied`
instead, as HugeGraph's auth proxy does.

Pushdown: when the READ grants on a type come down to one resource with a literal label
(`{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}`), its label and
conditions join the query's own (`labels`, `conditions`), so the store answers them (by an
index where one exists); the answer equals filtering afterwards (tests/auth/test_guard.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from gremlin_engine.auth.permissions import DELETE, EXECUTE, READ, WRITE, Permissions, Resource, denied
from gremlin_engine.context import GREMLIN_DOORS, ExecutionContext
from gremlin_engine.errors import Forbidden
from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.hugegraph.conditions import parse_predicate
from gremlin_engine.traversal.tokens import Direction
from gremlin_engine.traversal.views import FilteredAccess, other_end

_TYPE = {"vertex": "VERTEX", "edge": "EDGE"}
#: elements loaded at a time before their property conditions are tested
_BATCH = 256


def require_gremlin(ctx: ExecutionContext, graph: str | None) -> None:
    """Gremlin scripts and bytecode need EXECUTE on GREMLIN (of the default graph, else of
    any graph: a script may name several, and each is then checked element by element)."""
    if ctx.principal.admin:
        return
    perms = ctx.permissions
    if graph is not None:
        perms.require(graph, EXECUTE, "GREMLIN", "gremlin")
    elif not perms.anywhere(EXECUTE, "GREMLIN"):
        raise denied("*", EXECUTE, "GREMLIN", "gremlin")


def require_gremlin_door(ctx: ExecutionContext, graph: str) -> None:
    """`require_gremlin` for a traversal that came through a Gremlin door (bytecode)."""
    if not ctx.principal.admin and ctx.door in GREMLIN_DOORS:
        require_gremlin(ctx, graph)


def require_admin(ctx: ExecutionContext | None, what: str) -> None:
    """Operations only the administrator may do (graph clear, create, drop; configuration;
    modes): 403 for anyone else."""
    if ctx is not None and not ctx.principal.admin:
        raise Forbidden(f"Permission denied: {what} needs the administrator, not user '{ctx.principal.name}'")


def require(ctx: ExecutionContext | None, graph: str, permission: str, rtype: str, what: str = "*") -> None:
    """A type-level check (tasks, variables, schema): 403 unless some resource is granted."""
    if ctx is not None and not ctx.principal.admin:
        ctx.permissions.require(graph, permission, rtype, what)


def guarded(access: Any) -> Any:
    """`access` as its transaction's principal may see it (itself for the administrator)."""
    ctx = access.ctx
    if ctx is None or ctx.principal.admin:
        return access
    return PermissionAccess(access, ctx)


def _props_of(el: Element) -> Any:
    """(present, first value) of a loaded element's key, as permission tests read it."""
    raw = el._props

    def get(key: str) -> tuple[bool, Any]:
        if raw is None or key not in raw:
            return False, None
        value = raw[key]
        if isinstance(el, Vertex):
            return (True, value[0].value) if value else (False, None)
        return True, value

    return get


class _Rule:
    """What one permission on one element type admits in one graph."""

    __slots__ = ("perms", "graph", "permission", "rtype", "all", "resources", "needs_props", "push")

    def __init__(self, perms: Permissions, graph: str, permission: str, rtype: str) -> None:
        self.perms, self.graph, self.permission, self.rtype = perms, graph, permission, rtype
        self.resources: tuple[Resource, ...] = perms.grants(graph, permission, rtype)
        self.all = any(not r.narrows for r in self.resources)
        self.needs_props = not self.all and any(r.properties for r in self.resources)
        self.push = self._pushdown()

    def _pushdown(self) -> tuple[str, tuple[tuple[str, Any], ...]] | None:
        """(label, conditions) when the grant is one resource with a literal label."""
        if self.all or len(self.resources) != 1:
            return None
        r = self.resources[0]
        if r.type != self.rtype or any(c in r.label for c in "*?[") or r.label in ("", "null"):
            return None
        conds: list[tuple[str, Any]] = []
        for key, cond in r.properties or ():
            if isinstance(cond, str) and cond.lstrip().startswith("P."):
                conds.append((key, parse_predicate(cond)))
            elif isinstance(cond, str | int | float | bool):
                conds.append((key, P("eq", cond)))
            else:
                return None
        return r.label, tuple(conds)

    @property
    def none(self) -> bool:
        return not self.resources

    def admits(self, el: Element) -> bool:
        if self.all:
            return True
        props = _props_of(el) if self.needs_props else None
        return any(r.admits(el.label, props) for r in self.resources)


def rule_for(perms: Permissions, graph: str, permission: str, kind: str) -> _Rule:
    """The rule of one permission on one element kind, built once per Permissions."""
    key = ("rule", graph, permission, kind)
    rule = perms.derived.get(key)
    if rule is None:
        rule = perms.derived[key] = _Rule(perms, graph, permission, _TYPE[kind])
    return rule  # type: ignore[no-any-return]


class PermissionAccess(FilteredAccess):
    """A `GraphAccess` showing a non-administrator what they may read, checking their writes."""

    def __init__(self, base: Any, ctx: ExecutionContext) -> None:
        self.ctx = ctx
        self.graph = base.graph_name or "hugegraph"
        perms = ctx.permissions
        self._read = {k: rule_for(perms, self.graph, READ, k) for k in _TYPE}
        super().__init__(base, self._vertex_ok, self._edge_ok, check_adjacent=False)

    # ---- tests -------------------------------------------------------------------------
    def _rule(self, permission: str, kind: str) -> _Rule:
        return rule_for(self.ctx.permissions, self.graph, permission, kind)

    def _vertex_ok(self, v: Element) -> bool:
        rule = self._read["vertex"]
        if rule.needs_props and v._props is None:
            self.base.load([v])
        return rule.admits(v)

    def _edge_ok(self, e: Element) -> bool:
        rule = self._read["edge"]
        if rule.needs_props and e._props is None:
            self.base.load([e])
        return rule.admits(e)

    def _prepared(self, elements: list[Any], kind: str) -> list[Any]:
        """Loads a batch at once when the read rule reads properties."""
        if self._read[kind].needs_props:
            self.base.load([e for e in elements if e._props is None])
        return elements

    def _check(self, permission: str, el: Element) -> None:
        rule = self._rule(permission, el.kind)
        if rule.all:
            return
        if rule.needs_props and el._props is None:
            self.base.load([el])
        if not rule.admits(el):
            raise denied(self.graph, permission, rule.rtype, el.id)

    def _stream(self, source: Iterator[Any], kind: str, limit: int | None, strict: bool) -> Iterator[Any]:
        admit = self.admits_vertex if kind == "vertex" else self.admits_edge
        n = 0
        while True:
            batch = self._prepared(list(islice(source, _BATCH)), kind)
            if not batch:
                return
            for el in batch:
                if limit is not None and n >= limit:
                    return
                if admit(el):
                    n += 1
                    yield el
                elif strict:
                    raise denied(self.graph, READ, _TYPE[kind], el.id)

    def _query(self, kind: str, labels: Sequence[str] | None, conditions: Sequence[Any]) -> tuple[Any, Any, bool] | None:
        """The query with the read grant pushed in: (labels, conditions, done), or None when
        nothing can be read. `done`: the store answers the whole grant."""
        rule = self._read[kind]
        if rule.all:
            return labels, conditions, True
        if rule.push is None:
            return labels, conditions, False
        label, conds = rule.push
        if labels is not None and label not in labels:
            return None
        return [label], (*conditions, *conds), True

    # ---- reads -------------------------------------------------------------------------
    def vertices(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Vertex]:  # type: ignore[no-untyped-def]
        return self._elements("vertex", ids, labels, conditions, limit)

    def edges(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Edge]:  # type: ignore[no-untyped-def]
        return self._elements("edge", ids, labels, conditions, limit)

    def _elements(self, kind: str, ids: Any, labels: Any, conditions: Any, limit: Any) -> Iterator[Any]:
        read = self.base.vertices if kind == "vertex" else self.base.edges
        strict = self.ctx.strict_reads and ids is not None
        if self._read[kind].none:
            if strict:
                for el in read(ids, labels, conditions, limit):
                    raise denied(self.graph, READ, _TYPE[kind], el.id)
            return iter(())
        if strict:  # a single element: denied, not hidden
            return self._stream(read(ids, labels, conditions, None), kind, limit, True)
        query = self._query(kind, labels, conditions)
        if query is None:
            return iter(())
        labels, conditions, done = query
        if done:
            return read(ids, labels, conditions, limit)  # type: ignore[no-any-return]
        return self._stream(read(ids, labels, conditions, None), kind, limit, False)

    def count(self, kind: str, labels: Sequence[str] | None = None, conditions: Sequence[Any] = ()) -> int:
        if self._read[kind].none:
            return 0
        query = self._query(kind, labels, conditions)
        if query is None:
            return 0
        labels2, conds2, done = query
        if done:
            return self.base.count(kind, labels2, conds2)  # type: ignore[no-any-return]
        return sum(1 for _ in self._elements(kind, None, labels, conditions, None))

    def vertices_by_id(self, ids: Sequence[Any]) -> dict[Any, Vertex]:
        """The batch writers' end-vertex lookup, limited to readable vertices."""
        return {v.id: v for v in self.vertices(ids=list(ids))}

    # The per-vertex limit counts what may be read, so it is applied here, after the filter
    # (the runtime's adjacency takes none: the algorithms ask the access's signature).
    def adjacent_edges(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = (),
        limit_per_vertex: int | None = None,
    ) -> list[tuple[int, Edge]]:
        rule = self._read["edge"]
        if rule.none:
            return []
        pairs = self.base.adjacent_edges(vertices, direction, labels)
        if not rule.all:
            self._prepared([e for _i, e in pairs], "edge")
            pairs = [(i, e) for i, e in pairs if self.admits_edge(e)]
        return _per_vertex(pairs, limit_per_vertex)

    def adjacent_vertices(
        self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str] = (),
        limit_per_vertex: int | None = None,
    ) -> list[tuple[int, Vertex]]:
        edge_rule, vertex_rule = self._read["edge"], self._read["vertex"]
        if edge_rule.none or vertex_rule.none:
            return []
        if edge_rule.all:
            pairs = self.base.adjacent_vertices(vertices, direction, labels)
        else:
            pairs = [(i, other_end(e, vertices[i], direction)) for i, e in self.adjacent_edges(vertices, direction, labels)]
        if not vertex_rule.all:
            self._prepared([v for _i, v in pairs], "vertex")
            pairs = [(i, v) for i, v in pairs if self.admits_vertex(v)]
        return _per_vertex(pairs, limit_per_vertex)

    def load(self, elements: Iterable[Element]) -> None:
        self.base.load(elements)

    # ---- writes: checked on the element as it ends up ---------------------------------
    def _written(self, el: Any) -> Any:
        self._check(WRITE, el)
        return el

    def add_vertex(self, label: str | None, id: Any = None, properties: Sequence[tuple[Any, ...]] = ()) -> Vertex:
        self._deny_kind(WRITE, "vertex")
        return self._written(self.base.add_vertex(label, id, properties))  # type: ignore[no-any-return]

    def add_edge(self, label: str, out_v: Vertex, in_v: Vertex, id: Any = None, properties: Sequence[tuple[str, Any]] = ()) -> Edge:
        self._deny_kind(WRITE, "edge")
        return self._written(self.base.add_edge(label, out_v, in_v, id, properties))  # type: ignore[no-any-return]

    def add_vertices(self, specs: Sequence[tuple[Any, Any, Any]]) -> list[Vertex]:
        self._deny_kind(WRITE, "vertex")
        return [self._written(v) for v in self.base.add_vertices(specs)]

    def add_edges(self, specs: Sequence[tuple[Any, Vertex, Vertex, Any]]) -> list[Edge]:
        self._deny_kind(WRITE, "edge")
        return [self._written(e) for e in self.base.add_edges(specs)]

    def set_property(self, element: Element, key: str, value: Any, cardinality: Any = None, meta: Any = None) -> Any:
        self._check(WRITE, element)
        out = self.base.set_property(element, key, value, cardinality, meta)
        self._check(WRITE, element)
        return out

    def set_meta_property(self, vp: VertexProperty, key: str, value: Any) -> Property:
        self._check(WRITE, vp.vertex)  # type: ignore[arg-type]
        return self.base.set_meta_property(vp, key, value)  # type: ignore[no-any-return]

    def remove_property(self, prop: VertexProperty | Property) -> None:
        owner = prop.vertex if isinstance(prop, VertexProperty) else prop.element
        self._check(WRITE, owner)
        self.base.remove_property(prop)
        self._check(WRITE, owner)

    def drop(self, elements: Sequence[Element]) -> None:
        for el in elements:
            if isinstance(el, Vertex | Edge):
                self._check(DELETE, el)
            elif isinstance(el, VertexProperty):
                self._check(WRITE, el.vertex)  # type: ignore[arg-type]
            elif isinstance(el, Property) and isinstance(el.element, Vertex | Edge):
                self._check(WRITE, el.element)
        self.base.drop(elements)

    def _deny_kind(self, permission: str, kind: str) -> None:
        rule = self._rule(permission, kind)
        if rule.none:
            raise denied(self.graph, permission, rule.rtype, "*")


def _per_vertex(pairs: list[tuple[int, Any]], limit: int | None) -> list[tuple[int, Any]]:
    """At most `limit` pairs per input index (None: all), in order."""
    if limit is None:
        return pairs
    seen: dict[int, int] = {}
    out = []
    for i, x in pairs:
        n = seen.get(i, 0)
        if n < limit:
            seen[i] = n + 1
            out.append((i, x))
    return out
