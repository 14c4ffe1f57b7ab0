"""Null property values (TinkerPop 3.7's AllowNullPropertyValues) on graphs that allow them,
and the default behaviour (null removes) everywhere else; through scripts on real graphs."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import HugeliteError
from gremlin_engine.graph import GraphConfig, GraphRegistry

NULLS = {"gremlin.allow_null_property_values": "true"}


def graph(mode: str = "auto", extra: dict[str, str] | None = None):
    return GraphRegistry().create(GraphConfig(name="n", backend="memory", schema_mode=mode, extra=extra or {}))


def run(g, script: str) -> list:
    return list(g.execute(script, {}))


def test_null_values_are_stored_and_found() -> None:
    g = graph(extra=NULLS)
    run(g, "g.addV('person').property('name', 'josh').property('age', null)")
    run(g, "g.addV('person').property('name', 'marko').property('age', 29)")
    assert run(g, "g.V().has('person', 'age', null).values('name')") == ["josh"]
    assert run(g, "g.V().has('age').count()") == [2]  # a null value is a value: the key is there
    assert run(g, "g.V().has('name', 'josh').valueMap()") == [{"name": ["josh"], "age": [None]}]
    assert run(g, "g.V().has('age', neq(null)).values('name')") == ["marko"]


def test_null_on_existing_elements_edges_and_meta_properties() -> None:
    g = graph(extra=NULLS)
    run(g, "g.addV('person').property('name', 'marko').property('friendWeight', null, 'acl', null)")
    assert run(g, "g.V().properties('friendWeight').has('acl', null).count()") == [1]
    run(g, "g.addV('person').property('name', 'vadas').property('age', 27)")
    run(g, "g.V().has('name', 'vadas').property('age', null)")
    assert run(g, "g.V().has('name', 'vadas').properties('age').value()") == [None]
    run(g, "g.addE('knows').property('weight', null).from(V().has('name', 'marko')).to(V().has('name', 'vadas'))")
    assert run(g, "g.E().has('knows', 'weight', null).count()") == [1]
    run(g, "g.E().property('weight', 0.5)")
    assert run(g, "g.E().values('weight')") == [0.5]
    run(g, "g.E().property('weight', null)")
    assert run(g, "g.E().valueMap()") == [{"weight": None}]


def test_without_the_setting_null_removes_as_before() -> None:
    g = graph()
    run(g, "g.addV('person').property('name', 'josh').property('age', null)")
    assert run(g, "g.V().has('age', null).count()") == [0]
    assert run(g, "g.V().valueMap()") == [{"name": ["josh"]}]
    run(g, "g.V().property('name', null)")
    assert run(g, "g.V().properties().count()") == [0]


def test_a_strict_graph_keeps_hugegraphs_rules() -> None:
    g = graph("strict", NULLS)
    run(g, "graph.schema().propertyKey('name').asText().create(); graph.schema().propertyKey('age').asInt().create()")
    run(g, "graph.schema().vertexLabel('person').properties('name', 'age').nullableKeys('age').primaryKeys('name').create()")
    with pytest.raises(HugeliteError):
        run(g, "g.addV('person').property('name', 'josh').property('age', null)")
