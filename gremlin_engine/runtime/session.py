"""The transactions of one call: at most one open storage transaction per graph touched.

A script may name several graphs (`hugegraph`, `__g_other`); each gets its own transaction
on its own store, opened on first use and committed together when the call ends (rolled back
together on an error). `graph.tx().commit()` inside a script ends that graph's transaction
early, as HugeGraph's Gremlin does; the next use opens a fresh one.

After a rolled-back write the graph's schema cache is dropped: schema created in the failed
transaction (auto mode, `graph.schema()...create()`) must not survive in memory either.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine import traversal as engine
from gremlin_engine.auth.guard import guarded
from gremlin_engine.context import ENGINE, ExecutionContext, context_for
from gremlin_engine.errors import HugeliteError, IllegalArgument, LimitExceeded
from gremlin_engine.graph_handle import GraphHandle, GraphLookup
from gremlin_engine.limits import RUNNING, CancelToken
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.runtime.schema_bridge import AUTO
from gremlin_engine.structure.result_size import check_result_size
from storage import ReadOnlyTransaction, StoreBusy, StoreConflict, StoreError


class LinkedToken(CancelToken):
    """A deadline of our own that also honours a caller's token (task cancel, WebSocket
    close), so every step loop checks both with one call."""

    __slots__ = ("outer",)

    def __init__(self, deadline_ms: float | None, outer: CancelToken | None) -> None:
        super().__init__(deadline_ms)
        self.outer = outer

    def check(self) -> None:
        if self.outer is not None:
            self.outer.check()
        super().check()

    @property
    def cancelled(self) -> bool:
        return super().cancelled or (self.outer is not None and self.outer.cancelled)


def start(ctx: ExecutionContext) -> ExecutionContext:
    """Gives `ctx` the token its run checks: its deadline linked to the caller's token,
    registered with `limits.RUNNING` so that shutdown can cancel it. A caller's token with
    no deadline to add is used as it is; with no caller token, every `check()` skips the
    outer test (a plain `CancelToken`)."""
    limit = ctx.timeout_ms
    if limit is not None and limit <= 0:
        limit = None
    cancel = ctx.cancel
    if cancel is None:
        ctx.token = RUNNING.add(CancelToken(limit))
    elif limit is None:
        ctx.token = RUNNING.add(cancel)
    else:
        ctx.token = RUNNING.add(LinkedToken(limit, cancel))
    return ctx


def begin(
    ctx: ExecutionContext | None, timeout_ms: float | None = None, cancel: CancelToken | None = None,
    door: str = ENGINE,
) -> ExecutionContext:
    """The context every engine entry point runs with, started (`start`: its token made
    and registered with `limits.RUNNING`): `context_for` of the caller's, or the door's own
    context itself when there are no loose limits to fold in (no copy per request)."""
    if ctx is None or timeout_ms is not None or cancel is not None:
        ctx = context_for(ctx, timeout_ms, cancel, door)
    return start(ctx)


class _GraphTx:
    """One graph's transaction in a call: its context manager, the transaction and the
    access over it (which holds the request's context: the permission checks read it)."""

    __slots__ = ("graph", "cm", "tx", "access", "write")

    def __init__(self, graph: GraphHandle, write: bool, ctx: ExecutionContext) -> None:
        self.graph = graph
        self.write = write
        self.cm = graph.store.write(ctx) if write else graph.store.read(ctx)
        self.tx = self.cm.__enter__()
        try:
            if graph.shared:  # another process may have changed the schema (`SchemaService.sync`)
                graph.schema.sync(self.tx)
            self.access = guarded(StoreAccess.for_graph(graph, self.tx))
        except BaseException as exc:
            self.cm.__exit__(type(exc), exc, exc.__traceback__)
            raise

    def end(self, exc: BaseException | None) -> None:
        """Commit (exc None) or roll back; a failed write also forgets cached schema."""
        try:
            if exc is None:
                self.cm.__exit__(None, None, None)
            else:
                self.cm.__exit__(type(exc), exc, exc.__traceback__)
        finally:
            if exc is not None and self.write:
                invalidate = getattr(self.graph.schema, "invalidate", None)
                if invalidate is not None:
                    invalidate()


class Session:
    """Opens and ends the per-graph transactions of one call, made for one
    `ExecutionContext` (started: its `token` set)."""

    def __init__(self, graphs: GraphLookup, write: bool, ctx: ExecutionContext) -> None:
        self.graphs = graphs  # a GraphRegistry (or anything with .get(name))
        self.write = write
        self.ctx = ctx
        self.cancel: CancelToken = ctx.token if ctx.token is not None else start(ctx).token  # type: ignore[assignment]
        self._open: dict[str, _GraphTx] = {}
        self.last_graph: str | None = None

    def graph(self, name: str) -> Any:
        return self.graphs.get(name)

    def access(self, name: str) -> StoreAccess:
        gt = self._open.get(name)
        if gt is None:
            gt = self._open[name] = _GraphTx(self.graphs.get(name), self.write, self.ctx)
        self.last_graph = name
        return gt.access

    def answer_once(self, name: str, compiled: Any) -> list[Any] | None:
        """The loaded, weighed results of `compiled` on graph `name` when its one fused step
        answers inside a single-statement read of its own (no BEGIN/ROLLBACK; one round trip
        on PostgreSQL), else None, and the caller runs it on `access(name)` as usual.

        Asked only of a read-only call, for a traversal whose step reads once and gives plain
        values or elements it loaded from that read (`CompiledTraversal.reads_once`), on a graph with no transaction open in this
        call, not served by several processes (`SchemaService.sync` would read too), not in
        auto mode (its point reads decline) and for the administrator (anyone else reads
        through a permission view, which the fused steps decline). The executor is asked for
        the step's answer only (`answer_only`): when the step declines, the general path never
        runs on that transaction, which is ended first, and the caller opens a normal one."""
        if not compiled.reads_once or self.write or name in self._open or not self.ctx.principal.admin:
            return None
        graph = self.graphs.get(name)
        if graph.shared or graph.config.schema_mode == AUTO:
            return None
        # the schema is pinned before the read opens: no schema load can become its second
        # statement (`SchemaService.pinned`)
        schema = graph.schema.pinned()
        with graph.store.read(self.ctx, single=True) as tx:
            found = engine.run_compiled(compiled, guarded(StoreAccess.for_graph(graph, tx, schema)),
                                        cancel=self.cancel, answer_only=True)
        if found is not None:
            check_result_size(found)  # a `reads_once` step's answer is loaded already: weighed only
        return found

    def tx(self, name: str) -> Any:
        self.access(name)
        return self._open[name].tx

    def is_open(self, name: str) -> bool:
        return name in self._open

    def commit(self, name: str) -> None:
        gt = self._open.pop(name, None)
        if gt is not None:
            gt.end(None)

    def rollback(self, name: str) -> None:
        gt = self._open.pop(name, None)
        if gt is not None:
            gt.end(_Rollback())

    def close(self, exc: BaseException | None) -> None:
        """Ends every open transaction: all commit, or (on `exc`) all roll back. A commit
        failure rolls back the rest and is raised."""
        first: BaseException | None = None
        for name in list(self._open):
            gt = self._open.pop(name)
            try:
                gt.end(exc if exc is not None else first)
            except BaseException as e:
                if first is None:
                    first = e
        if first is not None and exc is None:
            raise translate_store_error(first) from first


class _Rollback(Exception):
    """Thrown into a write transaction to make it roll back (graph.tx().rollback())."""


def translate_store_error(exc: BaseException) -> BaseException:
    """Storage errors as engine errors a client can read (HTTP/Gremlin status mapping lives
    on the engine's classes)."""
    if isinstance(exc, HugeliteError | ReadOnlyTransaction) or not isinstance(exc, StoreError):
        return exc
    if isinstance(exc, StoreConflict):
        return IllegalArgument(str(exc))
    if isinstance(exc, StoreBusy):
        return LimitExceeded(f"The rest server is too busy to write: {exc}")
    return HugeliteError(str(exc))
