"""Embedded gremlinpython: run `traversal().with_(EmbeddedConnection("g.db"))` in-process.

`EmbeddedConnection` is a gremlinpython `RemoteConnection` whose `submit` hands the bytecode
straight to the engine (`gremlin_engine.bytecode.to_ir`, then `Graph.traverse`): the same
engine and the same SQLite file as the server, with no sockets and no serialisation.
Results come back in gremlinpython's model, shaped as a WebSocket client would receive
them over GraphBinary (elements with their properties, plain `int`s, gremlinpython enums).

    from gremlin_python.process.anonymous_traversal import traversal
    from gremlin_engine.embedded import EmbeddedConnection

    conn = EmbeddedConnection("data/g.db")          # created and initialised if missing
    g = traversal().with_(conn)
    g.add_v("person").property("name", "marko").iterate()
    print(g.V().values("name").to_list())
    conn.close()

Every `submit` is one transaction (commit on success). `g.tx()` works as against a server:
`tx.begin()` gives a source bound to a session connection that holds one store transaction
(`runtime/tx_session.py`) until `tx.commit()` or `tx.rollback()`; closing it uncommitted
rolls back. Outside a session, a `commit` has nothing to do and `rollback` is refused.

    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "ann").iterate()
    tx.commit()                                    # or tx.rollback()

This and `bytecode.py` are the only engine modules that import gremlin_python.
"""

from __future__ import annotations

import concurrent.futures
import decimal
from collections.abc import Iterable
from pathlib import Path as FsPath
from typing import Any

from gremlin_python.driver.remote_connection import RemoteConnection, RemoteTraversal
from gremlin_python.process import traversal as gp_traversal
from gremlin_python.statics import BigDecimal, SingleByte
from gremlin_python.structure import graph as gp

from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.bytecode import graph_op, request_options, to_ir
from gremlin_engine.context import EMBEDDED, ExecutionContext
from gremlin_engine.errors import NotSupported
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime.tx_session import open_session
from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.traversal import tokens as tk


def _store_schema_mode(path: str) -> str | None:
    """The mode an existing, initialised store file records (None: no file, or no record)."""
    if not FsPath(path).exists():
        return None
    return GraphRegistry.recorded_schema_mode(path)


class EmbeddedConnection(RemoteConnection):
    """A gremlinpython remote connection onto an in-process graph.

    `path_or_graph`: an SQLite file (created and initialised when missing), `None` or
    `":memory:"` for a memory graph, or an open `Graph`. `schema_mode` applies to graphs
    opened here: `"auto"` (TinkerGraph-like: labels and keys appear on first use) or
    `"strict"` (HugeGraph rules). Left out, an existing store file is opened with the mode it
    was initialised with, and a new one (or a memory graph) is `"auto"`; naming the other mode
    of an existing store is refused with a message naming both. `timeout_ms` bounds each traversal (None: no limit;
    `g.with_('evaluationTimeout', ms)` overrides it per traversal). `principal` is who the
    connection runs as: the administrator unless given (permissions are checked in the
    engine exactly as for a server's Gremlin doors).
    """

    def __init__(
        self,
        path_or_graph: str | FsPath | Graph | None = None,
        traversal_source: str = "g",
        *,
        name: str = "hugegraph",
        schema_mode: str | None = None,
        timeout_ms: float | None = None,
        principal: Principal | None = None,
    ) -> None:
        super().__init__(f"embedded:{path_or_graph}", traversal_source)
        self._registry: GraphRegistry | None = None
        if isinstance(path_or_graph, Graph):
            self.graph = path_or_graph
        else:
            memory = path_or_graph is None or str(path_or_graph) == ":memory:"
            if schema_mode is None:
                schema_mode = "auto" if memory else (_store_schema_mode(str(path_or_graph)) or "auto")
            cfg = GraphConfig(name=name, backend="memory" if memory else "sqlite",
                              store=None if memory else str(path_or_graph), schema_mode=schema_mode)
            if not memory:
                GraphRegistry.init_store(cfg)
            self._registry = GraphRegistry(evaluation_timeout_ms=timeout_ms)
            self.graph = self._registry.open(cfg)
        self.timeout_ms = timeout_ms
        self.principal = principal if principal is not None else ANONYMOUS_ADMIN
        self._closed = False
        self._parent: EmbeddedConnection | None = None
        self._tx: Any = None  # the session's transaction (session-bound children only)

    # ---- RemoteConnection ------------------------------------------------------------
    def submit(self, bytecode: Any) -> RemoteTraversal:
        if self._closed:
            raise RuntimeError("EmbeddedConnection is closed")
        op = graph_op(bytecode)
        if op is not None:
            self._end_transaction(op.name)
            return RemoteTraversal(iter([]))
        ir = to_ir(bytecode)
        timeout = request_options(ir).get("evaluationTimeout", self.timeout_ms)
        ctx = ExecutionContext(self.principal, EMBEDDED, timeout_ms=timeout)
        if self._tx is not None:
            results = self._tx.traverse(ir, ctx=ctx)
        else:
            results = self.graph.traverse(ir, ctx=ctx)
        return RemoteTraversal(iter([gp_traversal.Traverser(to_gremlinpython(r), 1) for r in results]))

    def submit_async(self, bytecode: Any) -> concurrent.futures.Future[RemoteTraversal]:
        future: concurrent.futures.Future[RemoteTraversal] = concurrent.futures.Future()
        try:
            future.set_result(self.submit(bytecode))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def is_closed(self) -> bool:
        return self._closed

    def is_session_bound(self) -> bool:
        return self._parent is not None

    def create_session(self) -> EmbeddedConnection:
        if self._parent is not None:
            raise RuntimeError("Connection is already bound to a session - child sessions are not allowed")
        child = EmbeddedConnection(self.graph, self.traversal_source, timeout_ms=self.timeout_ms,
                                   principal=self.principal)
        child._parent = self
        child._tx = open_session(self.graph)
        return child

    def remove_session(self, session: EmbeddedConnection) -> None:
        session.close()

    def commit(self) -> RemoteTraversal:
        self._end_transaction("commit")
        return RemoteTraversal(iter([]))

    def rollback(self) -> RemoteTraversal:
        self._end_transaction("rollback")
        return RemoteTraversal(iter([]))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._tx is not None:
            self._tx.close()  # rolls back what was not committed
        if self._registry is not None:
            self._registry.close_all()

    def _end_transaction(self, op: str) -> None:
        if self._tx is not None:
            self._tx.commit() if op == "commit" else self._tx.rollback()
        elif op == "rollback":
            raise NotSupported(
                "rollback needs a transaction: outside g.tx().begin() each embedded traversal "
                "commits on its own")

    def __enter__(self) -> EmbeddedConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---- engine values -> gremlinpython values ---------------------------------------------------
def to_gremlinpython(value: Any) -> Any:
    """An engine result as gremlinpython's GraphBinary reader would have produced it."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return SingleByte(value) if isinstance(value, num.Byte) else int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, decimal.Decimal):
        sign, digits, exponent = value.as_tuple()
        unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
        return BigDecimal(-int(exponent), unscaled)
    if isinstance(value, Vertex):
        props = [_vertex_property(vp) for vp in value.properties()] if value.loaded else []
        return gp.Vertex(to_gremlinpython(value.id), value.label, props)
    if isinstance(value, Edge):
        props = [gp.Property(p.key, to_gremlinpython(p.value), None) for p in value.properties()] \
            if value.loaded else []
        return gp.Edge(to_gremlinpython(value.id), _ref(value.out_v), value.label, _ref(value.in_v), props)
    if isinstance(value, VertexProperty):
        return _vertex_property(value)
    if isinstance(value, Property):
        return gp.Property(value.key, to_gremlinpython(value.value), None)
    if isinstance(value, Path):
        return gp.Path([set(ls) for ls in value.labels], [to_gremlinpython(o) for o in value.objects])
    if isinstance(value, dict):
        return {_key(k): to_gremlinpython(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        items = [to_gremlinpython(v) for v in value]
        try:
            return set(items)
        except TypeError:
            return items  # as gremlinpython does for sets of unhashable values
    if isinstance(value, list | tuple):
        return [to_gremlinpython(v) for v in value]
    if isinstance(value, tk._Token):
        return _token(value)
    return value


def _ref(v: Vertex) -> gp.Vertex:
    return gp.Vertex(to_gremlinpython(v.id), v.label)


def _vertex_property(vp: VertexProperty) -> gp.VertexProperty:
    meta = [gp.Property(k, to_gremlinpython(v), None) for k, v in vp.meta.items()]
    return gp.VertexProperty(to_gremlinpython(vp.id), vp.key, to_gremlinpython(vp.value), None, meta)


def _key(k: Any) -> Any:
    out = to_gremlinpython(k)
    if isinstance(out, list):
        return tuple(out)
    if isinstance(out, set):
        return frozenset(out)
    return out


_DIRECTION_ALIAS = {"from": "OUT", "to": "IN"}


def _token(t: Any) -> Any:
    enum = getattr(gp_traversal, type(t).__name__, None)
    if enum is None:
        return t.value
    text = _DIRECTION_ALIAS.get(t.value, t.value) if isinstance(t, tk.Direction) else t.name.rstrip("_")
    for candidate in (text, text + "_", _snake(text), _snake(text) + "_"):
        if candidate in enum.__members__:
            return enum[candidate]
    return t.value


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def results(values: Iterable[Any]) -> list[Any]:
    """Converts a whole result list (for callers that ran `Graph.traverse` themselves)."""
    return [to_gremlinpython(v) for v in values]
