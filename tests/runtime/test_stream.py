"""`iterate_traversal`: a result stream consumable from any thread, closable early."""

from __future__ import annotations

import gc
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from gremlin_engine.errors import IllegalArgument, TraversalTimeout
from gremlin_engine.graph import Graph
from gremlin_engine.runtime import api
from gremlin_engine.traversal.ir import TraversalIR


def _many(graph: Graph, n: int) -> None:
    with api.write_access(graph) as a:
        for i in range(n):
            a.add_vertex("item", properties=[("name", f"i{i}")])


def test_batches_from_different_threads(strict_graph: Graph) -> None:
    _many(strict_graph, 300)
    it = api.iterate_traversal(strict_graph, TraversalIR().then("V").then("hasLabel", "item"))
    got: list[str] = []
    with ThreadPoolExecutor(max_workers=3) as pool:
        while True:
            batch = pool.submit(lambda: [x for _, x in zip(range(50), it, strict=False)]).result()
            if not batch:
                break
            got.extend(v.value("name") for v in batch)  # loaded: no storage needed here
    assert got == [f"i{i}" for i in range(300)]
    # the worker's transaction is over: this thread can write right away
    _many(strict_graph, 1)


def test_close_early_rolls_back_and_frees_the_store(strict_graph: Graph) -> None:
    _many(strict_graph, 200)
    ir = TraversalIR().then("V").then("hasLabel", "item").then("property", "name", "x")
    it = api.iterate_traversal(strict_graph, ir)
    next(it)
    it.close()
    assert strict_graph.execute("g.V().has('name','x').count()") == [0]
    it2 = api.iterate_traversal(strict_graph, TraversalIR().then("V"))
    del it2  # abandoned without a single next(): the worker must still let go
    gc.collect()
    done = threading.Event()

    def writer() -> None:
        _many(strict_graph, 1)
        done.set()

    threading.Thread(target=writer).start()
    assert done.wait(10)


def test_errors_surface_on_next(modern: Graph) -> None:
    it = api.iterate_traversal(modern, TraversalIR().then("addV", "ghost"))
    with pytest.raises(IllegalArgument, match="Undefined vertex label: 'ghost'"):
        list(it)
    slow = TraversalIR().then("V").then("repeat", TraversalIR(anonymous=True).then("both")).then("times", 40)
    started = time.monotonic()
    with pytest.raises(TraversalTimeout):
        list(api.iterate_traversal(modern, slow, timeout_ms=50))
    assert time.monotonic() - started < 10


def test_writes_commit_when_exhausted(strict_graph: Graph) -> None:
    ir = TraversalIR().then("addV", "item").then("property", "name", "streamed")
    assert [v.value("name") for v in api.iterate_traversal(strict_graph, ir)] == ["streamed"]
    assert strict_graph.execute("g.V().has('name','streamed').count()") == [1]
