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
streaming form (HTTP/WebSocket partial batches): a generator that holds its transaction
until it is exhausted or closed — its caller owns that lifetime and must close it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import intent
from gremlin_engine.runtime.host import RuntimeHost
from gremlin_engine.runtime.materialize import load_results
from gremlin_engine.runtime.session import Session, make_token, translate_store_error
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

    def __init__(self, graph: Any) -> None:
        self._graph = graph

    def get(self, name: str) -> Any:
        return self._graph


@contextmanager
def write_access(graph: Any, cancel: CancelToken | None = None) -> Iterator[Any]:
    """A `GraphAccess` over one write transaction of `graph`, for callers that write
    directly (bulk loaders, REST batch handlers): commits when the block ends normally, rolls
    back (and forgets cached schema) when it raises."""
    session = Session(_SingleGraph(graph), True, make_token(None, cancel))
    try:
        yield session.access(graph.name)
    except BaseException as exc:
        session.close(exc)
        _reraise(exc)
    session.close(None)


@contextmanager
def read_access(graph: Any) -> Iterator[Any]:
    """A `GraphAccess` over one read transaction of `graph`."""
    session = Session(_SingleGraph(graph), False, make_token(None, None))
    try:
        yield session.access(graph.name)
    except BaseException as exc:
        session.close(exc)
        _reraise(exc)
    session.close(None)


def execute_script(
    registry: Any,
    graph_name: str | None,
    script: str,
    bindings: Mapping[str, Any] | None = None,
    aliases: Mapping[str, str] | None = None,
    timeout_ms: float | None = None,
    cancel: CancelToken | None = None,
) -> list[Any]:
    """Runs Gremlin script text; every graph of `registry` is bound by name and as
    `__g_<name>`, `graph_name` is the default graph (`g`, `graph`)."""
    from gremlin_engine.syntax import interpret, parse

    token = make_token(timeout_ms, cancel)
    tree = parse(script)
    write = intent.script_may_write(tree)
    names = list(registry.names())
    while True:
        session = Session(registry, write, token)
        host = RuntimeHost(session, graph_name, names, bindings, aliases)
        try:
            results = interpret(script, host)
            if session.last_graph is not None:
                load_results(session.access(session.last_graph), results)
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


def run_traversal(graph: Any, ir: TraversalIR, timeout_ms: float | None = None, cancel: CancelToken | None = None) -> list[Any]:
    """Runs a traversal IR (bytecode, REST handlers) to a fully loaded result list."""
    from gremlin_engine import traversal as engine

    token = make_token(timeout_ms, cancel)
    write = intent.ir_may_write(ir)
    while True:
        session = Session(_SingleGraph(graph), write, token)
        try:
            access = session.access(graph.name)
            results = list(engine.run(ir, access, cancel=token))
            load_results(access, results)
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


def iterate_traversal(
    graph: Any, ir: TraversalIR, timeout_ms: float | None = None, cancel: CancelToken | None = None
) -> Iterator[Any]:
    """Streams the results of a traversal, loading elements a batch at a time.

    The transaction stays open between batches and ends when the generator is exhausted
    (commit), fails (rollback) or is closed early (commit of what ran)."""
    from gremlin_engine import traversal as engine

    token = make_token(timeout_ms, cancel)
    session = Session(_SingleGraph(graph), intent.ir_may_write(ir), token)
    failure: BaseException | None = None
    try:
        access = session.access(graph.name)
        it = engine.run(ir, access, cancel=token)
        batch: list[Any] = []
        for item in it:
            batch.append(item)
            if len(batch) >= STREAM_BATCH:
                load_results(access, batch)
                yield from batch
                batch = []
        if batch:
            load_results(access, batch)
            yield from batch
    except GeneratorExit:
        raise
    except BaseException as exc:
        failure = exc
        _reraise(exc)
    finally:
        session.close(failure)
