"""Session transactions: one store transaction held across many requests.

Gremlin Server sessions and gremlinpython's `g.tx()` expect what a client sends between
`begin` and `commit()` / `rollback()` to be one transaction. `open_session(graph)` gives
such a transaction: every `traverse` / `execute` runs inside it, `commit()` makes the work
visible to everyone else, `rollback()` discards it, and `close()` rolls back whatever was
not committed (Gremlin Server's default when a session ends).

Why a thread of its own: a storage transaction belongs to the thread that opened it (an
SQLite connection, the store's writer lock), while callers (a WebSocket server's worker
pool, an embedded connection used from several threads) call from anywhere. Every call is
handed to the session's one thread and waited for.

The transaction is a write transaction (SQLite cannot turn a reader into a writer), opened
lazily by the first request after `begin`/`commit`/`rollback` and held until the next
`commit()`/`rollback()`/`close()`. While it is open, other writers of that store wait
(and give up after the store's write timeout with a busy error); on a memory store, whose
one connection serialises everything, other readers wait as well. A request that fails
rolls the whole transaction back, as Gremlin Server does for a session whose request
throws.

A script run in a session may name other graphs (`__g_other`): they join the same session
and commit or roll back together. `graph.tx().commit()` inside a script commits the
session's transaction on that graph, as in Gremlin Server.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from gremlin_engine import traversal as engine
from gremlin_engine.auth.guard import require_gremlin, require_gremlin_door
from gremlin_engine.context import ExecutionContext, context_for
from gremlin_engine.graph_handle import GraphHandle
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime.host import RuntimeHost
from gremlin_engine.runtime.materialize import load_results
from gremlin_engine.runtime.session import Session, start, translate_store_error
from gremlin_engine.syntax import interpret
from gremlin_engine.traversal.ir import TraversalIR

R = TypeVar("R")


class _Registry:
    """The graphs a session may touch: the graph's registry, or the graph alone."""

    def __init__(self, graph: GraphHandle) -> None:
        self.graph = graph
        self.registry = getattr(graph, "registry", None)

    def get(self, name: str) -> Any:
        if name == self.graph.name or self.registry is None:
            return self.graph
        return self.registry.get(name)

    def names(self) -> list[str]:
        return list(self.registry.names()) if self.registry is not None else [self.graph.name]


class _Rollback(Exception):
    """Thrown into the open transactions to make them roll back."""


class SessionTransaction:
    """One long-lived transaction on `graph` (and any graph a session script names)."""

    def __init__(self, graph: GraphHandle) -> None:
        self.graph = graph
        self._graphs = _Registry(graph)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"hugelite-tx-{graph.name}")
        self._session: Session | None = None
        self._closed = False
        self._lock = threading.Lock()

    # ---- requests ------------------------------------------------------------------------
    def traverse(
        self, ir: TraversalIR, timeout_ms: float | None = None, cancel: CancelToken | None = None,
        ctx: ExecutionContext | None = None,
    ) -> list[Any]:
        """Runs a traversal inside the transaction; results come back fully loaded. `ctx`
        is the request's context (the first request's principal holds for the session)."""

        def work(session: Session) -> list[Any]:
            access = session.access(self.graph.name)
            results = list(engine.run(ir, access, cancel=session.cancel,
                                      strategies=getattr(access, "strategies", True),
                                      cache=getattr(self.graph, "prepared", None)))
            load_results(access, results)
            return results

        ctx = context_for(ctx, timeout_ms, cancel)
        require_gremlin_door(ctx, self.graph.name)
        return self._request(work, ctx)

    def execute(
        self,
        script: str,
        bindings: Mapping[str, Any] | None = None,
        aliases: Mapping[str, str] | None = None,
        timeout_ms: float | None = None,
        cancel: CancelToken | None = None,
        ctx: ExecutionContext | None = None,
    ) -> list[Any]:
        """Runs Gremlin script text with this graph as `g`/`graph`, inside the transaction."""

        def work(session: Session) -> list[Any]:
            host = RuntimeHost(session, self.graph.name, self._graphs.names(), bindings, aliases)
            results: list[Any] = interpret(script, host)
            if session.last_graph is not None:
                load_results(session.access(session.last_graph), results)
            return results

        ctx = context_for(ctx, timeout_ms, cancel)
        require_gremlin(ctx, self.graph.name)
        return self._request(work, ctx)

    def commit(self) -> None:
        """Makes everything since the last commit/rollback durable and visible."""
        self._call(lambda: self._end(None))

    def rollback(self) -> None:
        """Discards everything since the last commit/rollback."""
        self._call(lambda: self._end(_Rollback()))

    @property
    def is_open(self) -> bool:
        """Whether a transaction is open (something ran since the last commit/rollback)."""
        return self._session is not None

    def close(self) -> None:
        """Rolls back what was not committed and stops the session's thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._thread.submit(self._end, _Rollback()).result()
        finally:
            self._thread.shutdown(wait=True)

    # ---- on the session thread -----------------------------------------------------------
    def _request(self, work: Callable[[Session], R], ctx: ExecutionContext) -> R:
        def run() -> R:
            start(ctx)
            if self._session is None:
                self._session = Session(self._graphs, True, ctx)
            session = self._session
            session.ctx = ctx
            session.cancel = ctx.token  # type: ignore[assignment]  # this request's deadline and cancellation
            try:
                return work(session)
            except BaseException as exc:
                self._session = None
                session.close(exc)
                err = translate_store_error(exc)
                if err is exc:
                    raise
                raise err from exc

        return self._call(run)

    def _end(self, exc: BaseException | None) -> None:
        session, self._session = self._session, None
        if session is not None:
            session.close(exc)

    def _call(self, fn: Callable[[], R]) -> R:
        if self._closed:
            raise RuntimeError("the session is closed")
        return self._thread.submit(fn).result()


def open_session(graph: GraphHandle) -> SessionTransaction:
    """A transaction on `graph` that spans requests (see the module docstring)."""
    return SessionTransaction(graph)
