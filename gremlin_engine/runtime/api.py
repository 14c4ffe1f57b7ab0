"""The runtime's entry points, called by the engine facade (`gremlin_engine/graph.py`).

    execute_script(registry, graph_name, script, bindings, aliases, timeout_ms, cancel) -> list
    run_traversal(graph, ir, timeout_ms=None, cancel=None) -> list
    iterate_traversal(graph, ir, timeout_ms=None, cancel=None) -> Iterator

Each call is one unit of work: one storage transaction per graph it touches, committed when
the call succeeds and rolled back when it fails. Whether that transaction may write is
decided before it opens (`intent.py`: SQLite cannot upgrade a reader); if a call that looked
read-only writes after all, storage refuses and the call runs again as a writer.

Results leave fully materialised: lists, with every vertex and edge in them loaded, so the
serialisers that run after the transaction never touch storage. `iterate_traversal` is the
streaming form (HTTP/WebSocket partial batches): an iterator fed by a worker thread that
holds the transaction until the iterator is exhausted or closed — its caller owns that
lifetime and must exhaust or close it.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from gremlin_engine import traversal as engine
from gremlin_engine.auth.guard import require_gremlin, require_gremlin_door
from gremlin_engine.context import LOADER, ExecutionContext, context_for
from gremlin_engine.errors import TraversalCancelled
from gremlin_engine.graph_handle import GraphHandle, GraphSet
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import intent
from gremlin_engine.runtime.host import RuntimeHost
from gremlin_engine.runtime.materialize import load_results
from gremlin_engine.runtime.session import LinkedToken, Session, begin, translate_store_error
from gremlin_engine.syntax import checked, interpret, script_shape
from gremlin_engine.syntax.interpreter import Interpreter, run_prepared
from gremlin_engine.traversal.ir import TraversalIR
from storage import ReadOnlyTransaction

#: results pulled (and loaded) at a time by the streaming entry point
STREAM_BATCH = 64


def _reraise(exc: BaseException) -> None:
    """Raises `exc`, storage errors as the engine error a client can read."""
    err = translate_store_error(exc)
    if err is exc:
        raise exc
    raise err from exc


class _SingleGraph:
    """A registry stand-in holding one graph (for `run_traversal` on a bare Graph)."""

    def __init__(self, graph: GraphHandle) -> None:
        self._graph = graph

    @property
    def prepared(self) -> Any:
        """The graph's prepared traversals (asked by a script host only, not on every run)."""
        return getattr(self._graph, "prepared", None)

    def get(self, name: str) -> Any:
        return self._graph


@contextmanager
def write_access(
    graph: GraphHandle, cancel: CancelToken | None = None, ctx: ExecutionContext | None = None
) -> Iterator[Any]:
    """A `GraphAccess` over one write transaction of `graph`, for callers that write
    directly (bulk loaders): commits when the block ends normally, rolls back (and forgets
    cached schema) when it raises. Without `ctx` it runs as the loader door's administrator."""
    session = Session(_SingleGraph(graph), True, begin(ctx, None, cancel, LOADER))
    try:
        yield session.access(graph.name)
    except BaseException as exc:
        session.close(exc)
        _reraise(exc)
    session.close(None)


@contextmanager
def read_access(graph: GraphHandle, ctx: ExecutionContext | None = None) -> Iterator[Any]:
    """A `GraphAccess` over one read transaction of `graph`."""
    session = Session(_SingleGraph(graph), False, begin(ctx))
    try:
        yield session.access(graph.name)
    except BaseException as exc:
        session.close(exc)
        _reraise(exc)
    session.close(None)


def execute_script(
    registry: GraphSet,
    graph_name: str | None,
    script: str,
    bindings: Mapping[str, Any] | None = None,
    aliases: Mapping[str, str] | None = None,
    timeout_ms: float | None = None,
    cancel: CancelToken | None = None,
    as_value: bool = False,
    ctx: ExecutionContext | None = None,
) -> Any:
    """Runs Gremlin script text; every graph of `registry` is bound by name and as
    `__g_<name>`, `graph_name` is the default graph (`g`, `graph`). The result is a list,
    or with `as_value` the bare value of a script that does not end in a traversal.
    The principal of `ctx` needs EXECUTE on GREMLIN."""
    ctx = begin(ctx, timeout_ms, cancel)
    require_gremlin(ctx, _aliased(aliases, graph_name) if aliases else graph_name)
    # what the text says whatever its bindings (parsed and checked on first sight only)
    cache = registry.prepared  # None: every script through the interpreter (tests compare)
    text: script_shape.ScriptText | None = None
    tree = None
    if cache is not None:
        text = script_shape.text_record(cache, script, ctx.token, intent.script_may_write)
        write = bool(text.writes)
    else:
        tree = checked(script, ctx.token)
        write = intent.script_may_write(tree)
    names = registry.names()
    while True:
        session = Session(registry, write, ctx)
        host = RuntimeHost(session, graph_name, names, bindings, aliases)
        try:
            # a prepared one-traversal script runs bound, through the executor; anything else
            # is interpreted (`interpret` does the same lookup for hosts of its own)
            entry = script_shape.lookup(cache, text, host, Interpreter) if text is not None else None
            if entry is not None:
                results = run_prepared(entry, host, as_value)
            else:
                results = interpret(script, host, as_value=as_value, tree=tree, text=text, cache=cache)
            if session.last_graph is not None and results is not host.finished:
                load_results(session.access(session.last_graph), results if isinstance(results, list) else [results])
        except ReadOnlyTransaction as exc:
            session.close(exc)
            if write:
                raise
            write = True  # the scan missed a write: run again as a writer
            continue
        except BaseException as exc:
            session.close(exc)
            _reraise(exc)
        session.close(None)
        return results


def _aliased(aliases: Mapping[str, str] | None, default: str | None) -> str | None:
    """The graph a script's `g` (or `graph`) stands for once its aliases apply: the one its
    GREMLIN permission is checked on (`{"g": "__g_bob"}` runs on `bob`)."""
    for name in ("g", "graph"):
        target = (aliases or {}).get(name)
        if target:
            return target.removeprefix("__g_")
    return default


def run_traversal(
    graph: GraphHandle, ir: TraversalIR, timeout_ms: float | None = None, cancel: CancelToken | None = None,
    ctx: ExecutionContext | None = None,
) -> list[Any]:
    """Runs a traversal IR (bytecode, REST handlers) to a fully loaded result list."""
    ctx = begin(ctx, timeout_ms, cancel)
    require_gremlin_door(ctx, graph.name)
    token = ctx.token
    compiled, write = _prepare(graph, ir)
    while True:
        session = Session(_SingleGraph(graph), write, ctx)
        try:
            found = session.answer_once(graph.name, compiled)  # a single-statement read, if it can
            if found is None:
                access = session.access(graph.name)
                found = list(engine.run_compiled(compiled, access, cancel=token))
                load_results(access, found)
            results = found
        except ReadOnlyTransaction as exc:
            session.close(exc)
            if write:
                raise
            write = True
            continue
        except BaseException as exc:
            session.close(exc)
            _reraise(exc)
        session.close(None)
        return results


def run_traversals(graph: GraphHandle, irs: list[TraversalIR], note: tuple[str, str] | None = None,
                   timeout_ms: float | None = None, cancel: CancelToken | None = None,
                   ctx: ExecutionContext | None = None) -> list[list[Any]]:
    """Runs writing traversals one after the other in ONE write transaction, and records
    `note` (a store metadata key and its value) in it: a bulk job's progress commits with
    the data it describes, or neither does (a load killed between the two cannot write the
    same AUTOMATIC-id vertices twice). Any error rolls everything back. Without `ctx` it
    runs as the loader door's administrator."""
    ctx = begin(ctx, timeout_ms, cancel, LOADER)
    token = ctx.token
    session = Session(_SingleGraph(graph), True, ctx)
    try:
        access = session.access(graph.name)
        out = []
        for ir in irs:
            results = list(engine.run(ir, access, cancel=token, strategies=access.strategies, cache=graph.prepared))
            load_results(access, results)
            out.append(results)
        if note is not None:
            access.tx.schema.meta_set(*note)
    except BaseException as exc:
        session.close(exc)
        _reraise(exc)
    session.close(None)
    return out


def _prepare(graph: GraphHandle, ir: TraversalIR) -> tuple[Any, bool]:
    """The compiled traversal of `ir` (through the registry's prepared traversals) and whether
    it may write, both known before the transaction opens."""
    cache = graph.prepared
    if cache is None:
        return engine.compile_traversal(ir, strategies=graph.runs_strategies), intent.ir_may_write(ir)
    compiled, write = cache.prepare(ir, graph.runs_strategies, intent.ir_may_write)
    return compiled, bool(write)


def _stream_worker(
    graph: GraphHandle,
    ir: TraversalIR,
    ctx: ExecutionContext,
    out: queue.Queue[tuple[str, Any]],
    stop: threading.Event,
    exhausted: threading.Event,
) -> None:
    """Runs the traversal in its own transaction, handing loaded batches to `out`.

    The transaction commits only once the consumer has asked past the last result
    (`exhausted`): a small result fits in the queue, and the worker would otherwise commit
    before a consumer that stops early gets to say so."""

    def put(item: tuple[str, Any]) -> bool:
        while not stop.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    token = ctx.token  # iterate_traversal's linked token: `close()` cancels it
    failure: BaseException | None = None
    try:
        compiled, write = _prepare(graph, ir)
    except BaseException as exc:
        put(("error", exc))
        return
    session = Session(_SingleGraph(graph), write, ctx)
    try:
        access = session.access(graph.name)
        batch: list[Any] = []
        for item in engine.run_compiled(compiled, access, cancel=token):
            batch.append(item)
            if len(batch) >= STREAM_BATCH:
                load_results(access, batch)
                if not put(("batch", batch)):
                    raise TraversalCancelled("the result stream was closed")
                batch = []
        if batch:
            load_results(access, batch)
            if not put(("batch", batch)):
                raise TraversalCancelled("the result stream was closed")
        if not put(("drained", None)):
            raise TraversalCancelled("the result stream was closed")
        while not exhausted.wait(0.05):
            if stop.is_set():
                raise TraversalCancelled("the result stream was closed")
    except BaseException as exc:
        failure = exc
    try:
        session.close(failure)
    except BaseException as exc:
        failure = failure or exc
    put(("error", failure) if failure is not None else ("end", None))


def iterate_traversal(
    graph: GraphHandle, ir: TraversalIR, timeout_ms: float | None = None, cancel: CancelToken | None = None,
    ctx: ExecutionContext | None = None,
) -> Iterator[Any]:
    """Streams the results of a traversal, loading elements a batch at a time.

    The traversal runs on a worker thread of its own that holds the transaction, so the
    returned iterator may be consumed from any thread (a server's thread pool hands each
    batch to whichever thread is free; storage transactions are bound to the thread that
    opened them). Exhausting the iterator commits; an error rolls back and is raised from
    `next()`; `close()` before the end cancels the traversal and rolls back."""
    ctx = context_for(ctx, timeout_ms, cancel)
    require_gremlin_door(ctx, graph.name)
    # always a linked token of our own: `close()` cancels it without touching the caller's
    limit = ctx.timeout_ms
    ctx.token = LinkedToken(limit if limit and limit > 0 else None, ctx.cancel)
    return _Stream(graph, ir, ctx)


class _Stream:
    """The consumer side of `iterate_traversal`: batches arrive through a small queue. The
    worker holds no reference to this object, so an abandoned stream is collected and its
    `__del__` stops the worker."""

    def __init__(self, graph: GraphHandle, ir: TraversalIR, ctx: ExecutionContext) -> None:
        self._token: CancelToken = ctx.token  # type: ignore[assignment]
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=4)
        self._stop = threading.Event()
        self._exhausted = threading.Event()
        self._buffer: list[Any] = []
        self._pos = 0
        self._done = False
        self._thread = threading.Thread(
            target=_stream_worker, args=(graph, ir, ctx, self._queue, self._stop, self._exhausted),
            name=f"hugelite-stream-{graph.name}", daemon=True,
        )
        self._thread.start()

    # ---- consumer side ----------------------------------------------------------------------
    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> Any:
        while self._pos >= len(self._buffer):
            if self._done:
                raise StopIteration
            kind, payload = self._queue.get()
            if kind == "batch":
                self._buffer, self._pos = payload, 0
            elif kind == "drained":
                self._exhausted.set()  # asked past the last result: the worker may commit
            elif kind == "end":
                self._done = True
                self._thread.join()
            else:
                self._done = True
                self._thread.join()
                _reraise(payload)
        item = self._buffer[self._pos]
        self._pos += 1
        return item

    def close(self) -> None:
        """Stops the traversal early (rolling back what it did) and waits for the worker."""
        if self._done:
            return
        self._done = True
        self._token.cancel()
        self._stop.set()
        self._thread.join(timeout=30)

    def __del__(self) -> None:
        if not self._done:
            self._token.cancel()
            self._stop.set()
