"""The Gremlin schema DSL builders, driven through `invoke` as the script host does."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import ExistedError, UnsupportedSyntax
from gremlin_engine.schema.dsl import SchemaManager


def chain(target, *calls):
    for name, *args in calls:
        target = target.invoke(name, tuple(args))
    return target


def test_dsl_builds_the_same_schema_as_rest(graph):
    with graph.store.write() as tx:
        m = SchemaManager(graph.schema, tx)
        pk = chain(m, ("propertyKey", "age"), ("asInt",), ("valueSingle",), ("ifNotExist",), ("create",))
        chain(m, ("propertyKey", "name"), ("asText",), ("create",))
        chain(m, ("propertyKey", "tags"), ("asText",), ("valueSet",), ("userdata", "k", "v"), ("create",))
        vl = chain(m, ("vertexLabel", "person"), ("properties", "name", "age"), ("primaryKeys", "name"),
                   ("nullableKeys", "age"), ("enableLabelIndex", True), ("ifNotExist",), ("create",))
        chain(m, ("vertexLabel", "tag"), ("properties", "name"), ("useCustomizeStringId",), ("create",))
        el = chain(m, ("edgeLabel", "knows"), ("sourceLabel", "person"), ("targetLabel", "person"),
                   ("properties", "age"), ("multiTimes",), ("sortKeys", "age"), ("create",))
        il = chain(m, ("indexLabel", "personByAge"), ("onV", "person"), ("by", "age"), ("range",), ("create",))
        chain(m, ("vertexLabel", "person"), ("properties", "tags"), ("nullableKeys", "tags"), ("append",))
    assert pk.to_json()["data_type"] == "INT"
    assert vl.primary_keys == ("name",) and vl.id_strategy.value == "PRIMARY_KEY"
    assert el.frequency.value == "MULTIPLE" and el.sort_keys == ("age",)
    assert il.index_type.value == "RANGE_INT"
    s = graph.schema
    assert s.property_key("tags").user_data["k"] == "v" and s.property_key("tags").cardinality.value == "SET"
    assert s.vertex_label("person").properties == ("age", "name", "tags")
    assert s.vertex_label("tag").id_strategy.value == "CUSTOMIZE_STRING"
    assert [p.name for p in SchemaManager(s).invoke("getPropertyKeys")] == ["age", "name", "tags"]
    assert SchemaManager(s).invoke("getVertexLabel", ("person",)).name == "person"


def test_dsl_whitelist_and_existence(graph):
    m = SchemaManager(graph.schema)
    with pytest.raises(UnsupportedSyntax, match="Method '__class__' is not supported"):
        m.invoke("__class__")
    builder = m.invoke("propertyKey", ("x",))
    with pytest.raises(UnsupportedSyntax):
        builder.invoke("_set", ("data_type", "INT"))
    builder.invoke("create")
    with pytest.raises(ExistedError, match="The property key 'x' has existed"):
        m.invoke("propertyKey", ("x",)).invoke("create")
    assert m.invoke("propertyKey", ("x",)).invoke("checkExist", (False,)).invoke("create").name == "x"
    assert m.invoke("propertyKey", ("x",)).invoke("remove") == 0
    assert m.invoke("propertyKey", ("x",)).invoke("remove") is None
