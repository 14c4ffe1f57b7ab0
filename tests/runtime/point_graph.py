"""A small graph for point-read tests: people with number ids (one beyond 32 bits, a name given
twice), things with string ids, parallel edge labels and a self-loop, so id types, both()
and label filters all have something to get wrong. Kept apart so both files open the same
graph the same way."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.structure.numbers import Long
from tests.runtime.conftest import with_schema

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("propertykey", {"name": "age", "data_type": "INT"}),
    ("propertykey", {"name": "tags", "data_type": "TEXT", "cardinality": "LIST"}),
    ("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER",
                     "properties": ["name", "age", "tags"], "nullable_keys": ["age", "tags"]}),
    ("vertexlabel", {"name": "thing", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"]}),
    ("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person"}),
    ("edgelabel", {"name": "likes", "source_label": "person", "target_label": "thing"}),
    ("indexlabel", {"name": "personByName", "base_type": "VERTEX_LABEL", "base_value": "person",
                    "index_type": "SECONDARY", "fields": ["name"]}),
    ("indexlabel", {"name": "personByTags", "base_type": "VERTEX_LABEL", "base_value": "person",
                    "index_type": "SECONDARY", "fields": ["tags"]}),
)


def load(graph: Graph) -> None:
    with_schema(graph, SCHEMA)
    with api.write_access(graph) as a:
        people = [a.add_vertex("person", Long(i), [("name", f"p{i}"), ("age", 20 + i), ("tags", "x"), ("tags", f"t{i}")])
                  for i in range(1, 7)]
        people.append(a.add_vertex("person", Long(3_000_000_000), [("name", "p1")]))  # a second 'p1'
        things = [a.add_vertex("thing", f"t{i}", [("name", f"thing{i}")]) for i in range(2)]
        for i, v in enumerate(people[:6]):
            a.add_edge("knows", v, people[(i + 1) % 6])
            a.add_edge("knows", v, people[(i + 2) % 6])
            a.add_edge("likes", v, things[i % 2])
        a.add_edge("knows", people[0], people[0])  # a self-loop: twice in both()


@contextmanager
def loaded_graph(tmp_path: Path, evaluation_timeout_ms: int) -> Iterator[Graph]:
    """The loaded graph on a file store."""
    registry = GraphRegistry(evaluation_timeout_ms=evaluation_timeout_ms)
    cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "g.db"), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    g = registry.open(cfg)
    load(g)
    try:
        yield g
    finally:
        registry.close_all()

