"""`RuntimeHost`: the `ScriptHost` that connects the script interpreter to graphs.

This is the sandbox's single door. The interpreter evaluates the Groovy subset itself and
hands every method call on a non-script value here; `call_method` dispatches only through the
explicit tables below (graph, transaction, variables, vertex, edge, property, schema DSL),
and everything else is `UnsupportedSyntax` naming the type and the method. No attribute of a
Python object is ever looked up by a name that came from a script.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from gremlin_engine import traversal as engine
from gremlin_engine.errors import IllegalArgument, TraversalError, UnsupportedSyntax
from gremlin_engine.runtime.materialize import load_results
from gremlin_engine.runtime.session import Session
from gremlin_engine.schema.dsl import SchemaManager
from gremlin_engine.structure.elements import Edge, Property, Vertex, VertexProperty
from gremlin_engine.syntax.host import BoundTraversal, TraversalSourceRef
from gremlin_engine.traversal.tokens import Cardinality, Direction, T


@dataclass(frozen=True)
class GraphRef:
    """A graph bound in a script (`hugegraph`, `graph`)."""

    name: str

    def __str__(self) -> str:
        return f"hugegraph[{self.name}]"


@dataclass(frozen=True)
class TxRef:
    """`graph.tx()` / `g.tx()`."""

    graph: str


@dataclass(frozen=True)
class VariablesRef:
    """`graph.variables()`."""

    graph: str


class NoSuchElement(TraversalError):
    """`next()` on an exhausted traversal (Java's NoSuchElementException)."""

    java_exception = "java.util.NoSuchElementException"


def _unsupported(target: Any, name: str) -> UnsupportedSyntax:
    kind = {GraphRef: "Graph", TxRef: "Transaction", VariablesRef: "Variables",
            TraversalSourceRef: "GraphTraversalSource"}.get(type(target), type(target).__name__)
    return UnsupportedSyntax(f"Method '{name}' is not supported on {kind}")


class RuntimeHost:
    """Binds graphs, traversal sources, bindings and aliases for one script run."""

    def __init__(
        self,
        session: Session,
        default_graph: str | None,
        graph_names: Collection[str],
        bindings: Mapping[str, Any] | None = None,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        """`graph_names` is only asked `in` (a registry's live key view will do); a plain
        dict of bindings or aliases is kept, not copied: the host never changes them."""
        self.session = session
        self.default_graph = default_graph
        self.graph_names = graph_names
        self.bindings = bindings if type(bindings) is dict else dict(bindings or {})
        self.aliases = aliases if type(aliases) is dict else dict(aliases or {})
        # the registry's prepared traversals (script entries and IR shapes), when it has them
        self.prepared = getattr(session.graphs, "prepared", None)
        #: the last result list `run` loaded and weighed (the runtime does not do it again)
        self.finished: Any = None

    def strategies_for(self, graph: str) -> bool:
        """Whether `graph`'s traversals run with the strategies (`gremlin.strategies=none`)."""
        return bool(self.session.graph(graph).runs_strategies)

    # ---- names ------------------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        if name in self.bindings:
            return self.bindings[name]
        if name in self.aliases:
            return self._alias(name, self.aliases[name])
        if name in self.graph_names:
            return GraphRef(name)
        if name.startswith("__g_") and name[4:] in self.graph_names:
            return TraversalSourceRef(name[4:])
        if self.default_graph is not None:
            if name == "g":
                return TraversalSourceRef(self.default_graph)
            if name == "graph":
                return GraphRef(self.default_graph)
        raise KeyError(name)

    def _alias(self, alias: str, target: str) -> Any:
        if target.startswith("__g_") and target[4:] in self.graph_names:
            return TraversalSourceRef(target[4:])
        if target in self.graph_names:
            # `{"g": "hugegraph"}` means the traversal source, `{"graph": "hugegraph"}` the graph
            return TraversalSourceRef(target) if alias == "g" else GraphRef(target)
        if target in self.bindings:
            return self.bindings[target]
        raise IllegalArgument(f"Could not alias [{alias}] to [{target}] as [{target}] not in the Graph or TraversalSource global bindings")

    def plain_source(self, name: str) -> str | None:
        """The graph whose plain traversal source `name` is when `lookup(name)` gives one
        without source instructions (`g` of the default graph, `__g_<graph>`), else None
        (then `lookup` says what it is): the prepared-script key asks this on every call."""
        if name in self.bindings or name in self.aliases or name in self.graph_names:
            return None
        if name == "g":
            return self.default_graph
        if name.startswith("__g_") and name[4:] in self.graph_names:
            return name[4:]
        return None

    # ---- traversals -------------------------------------------------------------------------
    def run(self, traversal: BoundTraversal, terminal: str, args: tuple[Any, ...] = ()) -> Any:
        if terminal == "explain":
            return engine.explain(traversal.ir)
        if traversal.prepared is not None:
            return self.run_compiled(traversal.graph, traversal.prepared, terminal, args)
        access = self.session.access(traversal.graph)
        it = engine.run(traversal.ir, access, cancel=self.session.cancel, strategies=access.strategies,
                        cache=self.prepared)
        return self._finish(access, it, terminal, args)

    def run_compiled(self, graph: str, compiled: Any, terminal: str = "toList", args: tuple[Any, ...] = ()) -> Any:
        """`run` of a compiled traversal (a prepared script entry's) on `graph`: inside a
        single-statement read of its own when the session can (`Session.answer_once`)."""
        if terminal == "toList":
            found = self.session.answer_once(graph, compiled)
            if found is not None:
                self.finished = found
                return found
        access = self.session.access(graph)
        return self._finish(access, engine.run_compiled(compiled, access, cancel=self.session.cancel), terminal, args)

    def _finish(self, access: Any, it: Any, terminal: str, args: tuple[Any, ...]) -> Any:
        if terminal == "toList" and type(it) is list:
            result: Any = it  # a fused step's answer: already the list
        else:
            try:
                result = _terminal(it, terminal, args)
            finally:
                close = getattr(it, "close", None)
                if close is not None:
                    close()
        load_results(access, result if isinstance(result, list | set) else [result])
        self.finished = result
        return result

    # ---- methods ----------------------------------------------------------------------------
    def call_method(self, target: Any, name: str, args: tuple[Any, ...]) -> Any:
        handler: Callable[..., Any] | None = None
        if isinstance(target, GraphRef):
            handler = _GRAPH.get(name)
        elif isinstance(target, TraversalSourceRef):
            handler = _SOURCE.get(name)
        elif isinstance(target, TxRef):
            handler = _TX.get(name)
        elif isinstance(target, VariablesRef):
            handler = _VARIABLES.get(name)
        elif isinstance(target, Vertex):
            handler = _VERTEX.get(name) or _ELEMENT.get(name)
        elif isinstance(target, Edge):
            handler = _EDGE.get(name) or _ELEMENT.get(name)
        elif isinstance(target, VertexProperty):
            handler = _VERTEX_PROPERTY.get(name)
        elif isinstance(target, Property):
            handler = _PROPERTY.get(name)
        else:
            methods = getattr(type(target), "gremlin_methods", None)
            if isinstance(methods, frozenset) and name in methods:
                return target.invoke(name, args)
        if handler is None:
            raise _unsupported(target, name)
        return handler(self, target, *args)

    def get_property(self, target: Any, name: str) -> Any:
        """Groovy property access (`v.id`, `v.label`, `vp.value`) for the same whitelist."""
        allowed = {
            Vertex: ("id", "label"), Edge: ("id", "label", "outVertex", "inVertex"),
            VertexProperty: ("id", "key", "value", "label"), Property: ("key", "value"),
        }
        for cls, names in allowed.items():
            if isinstance(target, cls) and name in names:
                return self.call_method(target, name, ())
        raise UnsupportedSyntax(f"Property '{name}' is not supported on {type(target).__name__}")

    # ---- helpers for the tables ---------------------------------------------------------------
    def graph_of(self, _element: Any) -> str:
        """The graph an element belongs to: the one the script used last (elements do not
        carry their graph; scripts that mix graphs pass elements within one graph)."""
        name = self.session.last_graph or self.default_graph
        if name is None:
            raise IllegalArgument("No graph is bound for this element")
        return name

    def access_for(self, element: Any) -> Any:
        return self.session.access(self.graph_of(element))

    def loaded(self, element: Any) -> Any:
        if not element.loaded:
            self.access_for(element).load([element])
        return element


def _terminal(it: Any, terminal: str, args: tuple[Any, ...]) -> Any:
    if terminal == "toList":
        return list(it)
    if terminal == "toBulkSet":
        return list(it)
    if terminal == "toSet":
        out: list[Any] = []
        seen: set[Any] = set()
        for x in it:
            try:
                if x in seen:
                    continue
                seen.add(x)
            except TypeError:
                if x in out:
                    continue
            out.append(x)
        return set(out) if all(_hashable(x) for x in out) else out
    if terminal == "next":
        if args:
            n = int(args[0])
            return [x for _, x in zip(range(n), it, strict=False)]
        for x in it:
            return x
        raise NoSuchElement("The traversal has no more elements")
    if terminal == "tryNext":
        for x in it:
            return x
        return None
    if terminal == "hasNext":
        for _ in it:
            return True
        return False
    if terminal == "iterate":
        for _ in it:
            pass
        return None
    raise UnsupportedSyntax(f"Unknown terminal method '{terminal}'")


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


# ---- graph -------------------------------------------------------------------------------------


def _add_vertex(host: RuntimeHost, g: GraphRef, *args: Any) -> Vertex:
    label, id_, props = None, None, []
    if len(args) == 1 and isinstance(args[0], str):
        label = args[0]
    elif len(args) == 1 and isinstance(args[0], dict):
        args = tuple(x for kv in args[0].items() for x in kv)
    if not (len(args) == 1 and isinstance(args[0], str)):
        if len(args) % 2:
            raise IllegalArgument("The number of parameters must be even")
        for k, v in zip(args[::2], args[1::2], strict=True):
            if k is T.label:
                label = v
            elif k is T.id:
                id_ = v
            elif isinstance(k, str):
                props.append((k, v))
            else:
                raise IllegalArgument(f"Property key must be a string or T.label/T.id, not {k!r}")
    return host.session.access(g.name).add_vertex(label, id_, props)


def _find(host: RuntimeHost, g: GraphRef, kind: str, ids: tuple[Any, ...]) -> list[Any]:
    access = host.session.access(g.name)
    flat: list[Any] = []
    for i in ids:
        flat.extend(i if isinstance(i, list | tuple | set) else [i])
    found = list((access.vertices if kind == "v" else access.edges)(ids=flat or None))
    access.load(found)
    return found


def _schema(host: RuntimeHost, g: GraphRef) -> Any:
    graph = host.session.graph(g.name)
    return SchemaManager(graph.schema, host.session.tx(g.name))


_GRAPH: dict[str, Callable[..., Any]] = {
    "traversal": lambda h, g: TraversalSourceRef(g.name),
    "schema": _schema,
    "addVertex": _add_vertex,
    "vertices": lambda h, g, *ids: _find(h, g, "v", ids),
    "edges": lambda h, g, *ids: _find(h, g, "e", ids),
    "tx": lambda h, g: TxRef(g.name),
    "variables": lambda h, g: VariablesRef(g.name),
    "toString": lambda h, g: str(g),
    "name": lambda h, g: g.name,
}

_SOURCE: dict[str, Callable[..., Any]] = {
    "tx": lambda h, s: TxRef(s.graph),
    "getGraph": lambda h, s: GraphRef(s.graph),
    "toString": lambda h, s: f"graphtraversalsource[{s.graph}, standard]",
}


# ---- transactions and variables ----------------------------------------------------------------

_TX: dict[str, Callable[..., Any]] = {
    "commit": lambda h, t: h.session.commit(t.graph),
    "rollback": lambda h, t: h.session.rollback(t.graph),
    "open": lambda h, t: h.session.access(t.graph) and None,
    "isOpen": lambda h, t: h.session.is_open(t.graph),
    "close": lambda h, t: h.session.commit(t.graph),
}


def _var_get(h: RuntimeHost, v: VariablesRef, key: str) -> Any:
    raw = h.session.tx(v.graph).records.var_get(key)
    return None if raw is None else orjson.loads(raw)


def _var_set(h: RuntimeHost, v: VariablesRef, key: str, value: Any) -> None:
    if not key:
        raise IllegalArgument("The variable key can't be empty")
    if value is None:
        raise IllegalArgument("The variable value can't be empty")
    try:
        text = orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError: a predicate, an element, a 65-bit integer...
        # TinkerPop's Variables.Exceptions.dataTypeOfVariableValueNotSupported, as HugeGraph words it
        bad = _unstorable(value)
        raise IllegalArgument(
            f"Graph variable value [{_shown(bad)}] is of type {type(bad).__name__} is not supported"
        ) from None
    h.session.tx(v.graph).records.var_put(key, text)


def _unstorable(value: Any) -> Any:
    """The part of a variable value JSON cannot hold (the value itself if no part is)."""
    parts: list[Any] = []
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple | set | frozenset):
        parts = list(value)
    for part in parts:
        try:
            orjson.dumps(part)
        except TypeError:
            return _unstorable(part)
    return value


def _shown(value: Any) -> str:
    """A variable value in an error: short, whatever it is (its own `str`, cut at 100)."""
    text = str(value)
    return text if len(text) <= 100 else text[:97] + "..."


def _var_map(h: RuntimeHost, v: VariablesRef) -> dict[str, Any]:
    rows = h.session.tx(v.graph).records.var_list()
    pairs = rows.items() if isinstance(rows, dict) else rows
    return {k: orjson.loads(raw) if isinstance(raw, str | bytes) else raw for k, raw in pairs}


_VARIABLES: dict[str, Callable[..., Any]] = {
    "get": _var_get,
    "set": _var_set,
    "remove": lambda h, v, key: h.session.tx(v.graph).records.var_delete(key),
    "keys": lambda h, v: set(_var_map(h, v)),
    "asMap": _var_map,
}


# ---- elements ----------------------------------------------------------------------------------


def _values(h: RuntimeHost, el: Any, *keys: str) -> list[Any]:
    h.loaded(el)
    if isinstance(el, Vertex):
        return [vp.value for vp in el.properties(*keys)]
    return [p.value for p in el.properties(*keys)]


def _value(h: RuntimeHost, el: Any, key: str) -> Any:
    h.loaded(el)
    try:
        return el.value(key)
    except KeyError:
        raise TraversalError(
            f"The property does not exist as the key has no associated value for the provided element: {el!r}:{key}"
        ) from None


def _keys(h: RuntimeHost, el: Any) -> set[str]:
    h.loaded(el)
    return set(el._props)


def _vertex_property(h: RuntimeHost, v: Vertex, *args: Any) -> Any:
    h.loaded(v)
    if len(args) == 1:
        vps = list(v.properties(args[0]))
        if len(vps) > 1:
            raise IllegalArgument(f"Multiple properties exist for the provided key, use Vertex.properties({args[0]})")
        return vps[0] if vps else None
    card = None
    if args and isinstance(args[0], Cardinality):
        card, args = args[0], args[1:]
    if len(args) < 2 or len(args) % 2:
        raise IllegalArgument("property() takes a key and a value, then meta-property key/value pairs")
    key, value, rest = args[0], args[1], args[2:]
    meta = dict(zip(rest[::2], rest[1::2], strict=True)) if rest else None
    return h.access_for(v).set_property(v, key, value, card, meta)


def _add_edge(h: RuntimeHost, v: Vertex, label: str, other: Any, *kvs: Any) -> Edge:
    if not isinstance(other, Vertex):
        raise IllegalArgument(f"addEdge() needs a vertex, not {other!r}")
    if len(kvs) % 2:
        raise IllegalArgument("The number of parameters must be even")
    id_, props = None, []
    for k, val in zip(kvs[::2], kvs[1::2], strict=True):
        if k is T.id:
            id_ = val
        else:
            props.append((k, val))
    return h.access_for(v).add_edge(label, v, other, id_, props)


def _incident(h: RuntimeHost, v: Vertex, direction: Any, *labels: str, kind: str) -> list[Any]:
    if not isinstance(direction, Direction):
        raise IllegalArgument(f"A Direction is expected, not {direction!r}")
    access = h.access_for(v)
    pairs = (access.adjacent_edges if kind == "e" else access.adjacent_vertices)([v], direction, list(labels))
    return [x for _, x in pairs]


def _remove(h: RuntimeHost, el: Any) -> None:
    h.access_for(el).drop([el])


_ELEMENT: dict[str, Callable[..., Any]] = {
    "id": lambda h, e: e.id,
    "label": lambda h, e: e.label,
    "value": _value,
    "values": _values,
    "keys": _keys,
    "remove": _remove,
    "toString": lambda h, e: repr(e),
    "graph": lambda h, e: GraphRef(h.graph_of(e)),
}

_VERTEX: dict[str, Callable[..., Any]] = {
    "property": _vertex_property,
    "properties": lambda h, v, *keys: list(h.loaded(v).properties(*keys)),
    "addEdge": _add_edge,
    "edges": lambda h, v, d, *labels: _incident(h, v, d, *labels, kind="e"),
    "vertices": lambda h, v, d, *labels: _incident(h, v, d, *labels, kind="v"),
}


def _edge_property(h: RuntimeHost, e: Edge, *args: Any) -> Any:
    h.loaded(e)
    if len(args) == 1:
        return next(e.properties(args[0]), None)
    if len(args) != 2:
        raise IllegalArgument("property() takes a key, or a key and a value")
    return h.access_for(e).set_property(e, args[0], args[1])


_EDGE: dict[str, Callable[..., Any]] = {
    "property": _edge_property,
    "properties": lambda h, e, *keys: list(h.loaded(e).properties(*keys)),
    "outVertex": lambda h, e: e.out_v,
    "inVertex": lambda h, e: e.in_v,
    "bothVertices": lambda h, e: [e.out_v, e.in_v],
    "vertices": lambda h, e, d: {Direction.OUT: [e.out_v], Direction.IN: [e.in_v]}.get(d, [e.out_v, e.in_v]),
}


def _vp_property(h: RuntimeHost, vp: VertexProperty, *args: Any) -> Any:
    if len(args) == 1:
        return Property(args[0], vp.meta[args[0]], vp) if args[0] in vp.meta else None
    if len(args) != 2:
        raise IllegalArgument("property() takes a key, or a key and a value")
    if vp.vertex is None:
        raise IllegalArgument(f"{vp!r} is not attached to a vertex")
    return h.access_for(vp.vertex).set_meta_property(vp, args[0], args[1])


_VERTEX_PROPERTY: dict[str, Callable[..., Any]] = {
    "id": lambda h, p: p.id,
    "key": lambda h, p: p.key,
    "label": lambda h, p: p.key,
    "value": lambda h, p: p.value,
    "element": lambda h, p: p.vertex,
    "isPresent": lambda h, p: True,
    "property": _vp_property,
    "properties": lambda h, p, *keys: [Property(k, v, p) for k, v in p.meta.items() if not keys or k in keys],
    "values": lambda h, p, *keys: [v for k, v in p.meta.items() if not keys or k in keys],
    "keys": lambda h, p: set(p.meta),
    "remove": lambda h, p: h.access_for(p.vertex).remove_property(p),
    "toString": lambda h, p: repr(p),
}

_PROPERTY: dict[str, Callable[..., Any]] = {
    "key": lambda h, p: p.key,
    "value": lambda h, p: p.value,
    "element": lambda h, p: p.element,
    "isPresent": lambda h, p: True,
    "remove": lambda h, p: h.access_for(p.element).remove_property(p),
    "toString": lambda h, p: repr(p),
}
