"""Schema changed by one server process is what the others use next (`SchemaService.sync`):
two registries on one store file stand for two processes (each keeps its own snapshot)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gremlin_engine import GraphConfig, GraphRegistry

SCHEMA = ("graph.schema().propertyKey('name').asText().ifNotExist().create(); "
          "graph.schema().vertexLabel('person').properties('name').primaryKeys('name').ifNotExist().create(); 'ok'")


@pytest.fixture
def pair(tmp_path) -> Iterator[tuple[object, object]]:
    cfg = GraphConfig(name="shared", backend="sqlite", store=str(tmp_path / "g.db"), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    a, b = GraphRegistry(shared=True), GraphRegistry(shared=True)
    try:
        yield a.open(cfg), b.open(cfg)
    finally:
        a.close_all()
        b.close_all()


def test_schema_made_in_one_is_used_by_the_others_next_call(pair) -> None:
    one, two = pair
    assert two.schema.vertex_label("person") is None  # its snapshot, loaded before the change
    one.execute(SCHEMA)
    assert two.execute("g.addV('person').property('name', 'marko').id()") == ["1:marko"]
    assert [e["name"] for e in two.schema.schema_json()["vertexlabels"]] == ["person"]
    one.execute("graph.schema().propertyKey('age').asInt().create(); "
                "graph.schema().vertexLabel('person').properties('age').nullableKeys('age').append(); 'ok'")
    assert two.execute("g.V('1:marko').property('age', 29).values('age')") == [29]


def test_a_clear_in_one_empties_the_others_schema(pair) -> None:
    one, two = pair
    one.execute(SCHEMA)
    assert two.schema.get("vertexlabel", "person").name == "person"
    one.clear()
    with pytest.raises(Exception, match="person"):
        two.execute("g.addV('person').property('name', 'x')")


def test_an_unshared_registry_keeps_its_snapshot(tmp_path) -> None:
    """One process (the default) pays no check: its own writes keep its snapshot current."""
    cfg = GraphConfig(name="shared", backend="sqlite", store=str(tmp_path / "g.db"), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    a, b = GraphRegistry(), GraphRegistry()
    try:
        one, two = a.open(cfg), b.open(cfg)
        assert not two.shared
        assert two.schema.vertex_label("person") is None
        one.execute(SCHEMA)
        assert two.schema.vertex_label("person") is None
    finally:
        a.close_all()
        b.close_all()
