"""Graphs for the runtime tests: real stores (memory and a tmp file), real schema service."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime.access import StoreAccess
from tests.backends import stored_graph_config

PROPERTY_KEYS = [
    {"name": "name", "data_type": "TEXT"},
    {"name": "age", "data_type": "INT"},
    {"name": "lang", "data_type": "TEXT"},
    {"name": "weight", "data_type": "DOUBLE"},
    {"name": "date", "data_type": "TEXT"},
    {"name": "city", "data_type": "TEXT"},
    {"name": "tags", "data_type": "TEXT", "cardinality": "LIST"},
    {"name": "nick", "data_type": "TEXT", "cardinality": "SET"},
]


def modern_schema(graph: Graph) -> None:
    """HugeGraph's version of the TinkerPop modern schema (person/software by name)."""
    s = graph.schema
    for body in PROPERTY_KEYS:
        s.create("propertykey", body)
    s.create("vertexlabel", {
        "name": "person", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"],
        "properties": ["name", "age", "city", "tags", "nick"], "nullable_keys": ["age", "city", "tags", "nick"],
    })
    s.create("vertexlabel", {
        "name": "software", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"], "properties": ["name", "lang"],
    })
    s.create("vertexlabel", {"name": "tag", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"],
                             "nullable_keys": ["name"]})
    s.create("vertexlabel", {"name": "item", "id_strategy": "AUTOMATIC", "properties": ["name"],
                             "nullable_keys": ["name"]})
    s.create("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person",
                           "properties": ["weight", "date"], "nullable_keys": ["weight", "date"]})
    s.create("edgelabel", {"name": "created", "source_label": "person", "target_label": "software",
                           "properties": ["weight"]})
    s.create("edgelabel", {"name": "met", "source_label": "person", "target_label": "person",
                           "frequency": "MULTIPLE", "sort_keys": ["date"], "properties": ["date", "weight"],
                           "nullable_keys": ["weight"]})
    s.create("indexlabel", {"name": "personByAge", "base_type": "VERTEX_LABEL", "base_value": "person",
                            "index_type": "RANGE", "fields": ["age"], "rebuild": False})
    s.create("indexlabel", {"name": "personByCity", "base_type": "VERTEX_LABEL", "base_value": "person",
                            "index_type": "SECONDARY", "fields": ["city"], "rebuild": False})
    s.create("indexlabel", {"name": "softwareByLang", "base_type": "VERTEX_LABEL", "base_value": "software",
                            "index_type": "SECONDARY", "fields": ["lang"], "rebuild": False})
    s.create("indexlabel", {"name": "knowsByWeight", "base_type": "EDGE_LABEL", "base_value": "knows",
                            "index_type": "RANGE", "fields": ["weight"], "rebuild": False})


def load_modern(graph: Graph) -> None:
    with graph.store.write() as tx:
        a = StoreAccess.for_graph(graph, tx)
        marko = a.add_vertex("person", properties=[("name", "marko"), ("age", 29), ("city", "Beijing")])
        vadas = a.add_vertex("person", properties=[("name", "vadas"), ("age", 27), ("city", "Hongkong")])
        lop = a.add_vertex("software", properties=[("name", "lop"), ("lang", "java")])
        josh = a.add_vertex("person", properties=[("name", "josh"), ("age", 32), ("city", "Beijing")])
        ripple = a.add_vertex("software", properties=[("name", "ripple"), ("lang", "java")])
        peter = a.add_vertex("person", properties=[("name", "peter"), ("age", 35), ("city", "Shanghai")])
        a.add_edge("knows", marko, vadas, properties=[("weight", 0.5), ("date", "20160110")])
        a.add_edge("knows", marko, josh, properties=[("weight", 1.0), ("date", "20130220")])
        a.add_edge("created", marko, lop, properties=[("weight", 0.4)])
        a.add_edge("created", josh, ripple, properties=[("weight", 1.0)])
        a.add_edge("created", josh, lop, properties=[("weight", 0.4)])
        a.add_edge("created", peter, lop, properties=[("weight", 0.2)])


@pytest.fixture(params=["memory", "file"])
def registry(request: Any, tmp_path: Path) -> Iterator[GraphRegistry]:
    reg = GraphRegistry(evaluation_timeout_ms=30000)
    reg.backend_kind = request.param  # type: ignore[attr-defined]
    yield reg
    reg.close_all()


def _open(reg: GraphRegistry, tmp_path: Path, name: str, schema_mode: str) -> Graph:
    if getattr(reg, "backend_kind", "memory") == "file":
        cfg = stored_graph_config(name, tmp_path, schema_mode)  # a file, or a PostgreSQL database
        GraphRegistry.init_store(cfg)
    else:
        cfg = GraphConfig(name=name, backend="memory", schema_mode=schema_mode)
    return reg.open(cfg)


def with_schema(graph: Graph, schema: Any) -> Graph:
    """Creates each `(kind, body)` schema element of `schema` in order, waiting for the
    index-build tasks, so a test's graph starts from its own declared schema."""
    for kind, body in schema:
        _el, task = graph.schema.create(kind, body)
        if task:
            assert graph.tasks.wait(task, 30)["task_status"] == "success"
    return graph


def modern_with(
    reg: GraphRegistry, tmp_path: Path, name: str, schema: Any, fill: Callable[[Graph], Any] | None = None
) -> Graph:
    """A strict graph: the modern schema plus `schema` (`(kind, body)` pairs, as
    `with_schema` takes them), the modern data, then `fill(graph)` when given."""
    g = _open(reg, tmp_path, name, "strict")
    modern_schema(g)
    with_schema(g, schema)
    load_modern(g)
    if fill is not None:
        fill(g)
    return g


def modern_pair(
    reg: GraphRegistry, tmp_path: Path, schema: Any, fill: Callable[[Graph], Any] | None = None
) -> tuple[Graph, Graph]:
    """Two graphs built alike by `modern_with`, "one" and "batch": a batch write on one must
    leave what the one-at-a-time writes leave on the other."""
    return modern_with(reg, tmp_path, "one", schema, fill), modern_with(reg, tmp_path, "batch", schema, fill)


def in_threads(work: Callable[[int], Any], count: int) -> None:
    """Runs `work(k)` for each k below `count`, each on its own thread, all at once, and waits
    for every one: the concurrency tests' readers racing over one graph."""
    threads = [threading.Thread(target=work, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def typed(xs: list[Any]) -> list[tuple[type, Any]]:
    """Values paired with their exact types: equal results must also be of the same Java type."""
    return [(type(x), x) for x in xs]


POINT_OFF = "g.withoutStrategies(PointLookupStrategy)."


def same_unfused(graph: Graph, tail: str, bindings: dict[str, Any] | None = None) -> list[Any]:
    """`g.<tail>` as planned (fused point plans) and with PointLookupStrategy off: the two
    answers, Java types and order included, must be equal; returns the fused one."""
    fused = graph.execute("g." + tail, bindings=bindings)
    plain = graph.execute(POINT_OFF + tail, bindings=bindings)
    assert typed(fused) == typed(plain), tail
    return fused


def vertex_id(graph: Graph, name: str) -> Any:
    """The id of the vertex whose `name` is `name` (ids differ by id strategy and backend)."""
    return graph.execute("g.V().has('name', n).id()", bindings={"n": name})[0]


@pytest.fixture
def strict_graph(registry: GraphRegistry, tmp_path: Path) -> Graph:
    g = _open(registry, tmp_path, "hugegraph", "strict")
    modern_schema(g)
    return g


@pytest.fixture
def modern(strict_graph: Graph) -> Graph:
    load_modern(strict_graph)
    return strict_graph


@pytest.fixture
def auto_graph(registry: GraphRegistry, tmp_path: Path) -> Graph:
    return _open(registry, tmp_path, "tinker", "auto")


@contextmanager
def counting_checkouts(graph: Graph) -> Iterator[list[int]]:
    """A pool checkout listener (what statement tracing registers) for the block: the list
    gets an entry per checkout. Readers that skip the pool must decline while it is there."""
    seen: list[int] = []

    def on_checkout(*_args: Any) -> None:
        seen.append(1)

    pool = graph.store.engine.pool
    event.listen(pool, "checkout", on_checkout)
    try:
        yield seen
    finally:
        event.remove(pool, "checkout", on_checkout)
