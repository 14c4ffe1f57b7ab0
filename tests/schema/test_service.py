"""SchemaService over a real store: create, read, append, eliminate, remove, and the rules."""

from __future__ import annotations

import re

import pytest

from gremlin_engine.errors import ExistedError, IllegalArgument, NotFound
from gremlin_engine.schema.model import DataType, IdStrategy, IndexType, SchemaStatus
from gremlin_engine.schema.service import MAX_DERIVED, SchemaSnapshot

CREATE_TIME = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$")


def _keys(schema) -> None:
    schema.create("propertykey", {"name": "name"})
    schema.create("propertykey", {"name": "age", "data_type": "INT"})
    schema.create("propertykey", {"name": "city"})
    schema.create("propertykey", {"name": "weight", "data_type": "DOUBLE"})
    schema.create("propertykey", {"name": "date", "data_type": "DATE"})


def _person(schema) -> None:
    schema.create("vertexlabel", {"name": "person", "properties": ["name", "age", "city"],
                                  "primary_keys": ["name"], "nullable_keys": ["age", "city"]})


def test_property_key_json_shape_and_ids(graph):
    s = graph.schema
    pk, task = s.create("propertykey", {"name": "age", "data_type": "INT"})
    assert task == 0
    j = pk.to_json()
    assert list(j) == ["id", "name", "data_type", "cardinality", "aggregate_type", "write_type",
                       "properties", "status", "user_data"]
    assert j["id"] == 1 and j["data_type"] == "INT" and j["cardinality"] == "SINGLE"
    assert j["aggregate_type"] == "NONE" and j["write_type"] == "OLTP" and j["status"] == "CREATED"
    assert CREATE_TIME.match(j["user_data"]["~create_time"])
    pk2, _ = s.create("propertykey", {"name": "name"})
    assert pk2.id == 2 and pk2.data_type is DataType.TEXT


def test_schema_survives_reload_and_file_store(file_graph):
    s = file_graph.schema
    _keys(s)
    _person(s)
    s.invalidate()
    assert s.vertex_label("person").primary_keys == ("name",)
    assert [p.name for p in s.property_keys()] == ["name", "age", "city", "weight", "date"]
    assert s.property_key_by_id(2).name == "age"
    assert s.vertex_label_by_id(1).name == "person"


def test_existing_name_rules(graph):
    s = graph.schema
    s.create("propertykey", {"name": "age", "data_type": "INT"})
    with pytest.raises(ExistedError, match="The property key 'age' has existed"):
        s.create("propertykey", {"name": "age", "data_type": "INT"})
    same, _ = s.create("propertykey", {"name": "age", "data_type": "INT", "check_exist": False})
    assert same.id == 1
    with pytest.raises(ExistedError):
        s.create("propertykey", {"name": "age", "data_type": "TEXT", "check_exist": False})


@pytest.mark.parametrize(("name", "message"), [
    ("", "The name can't be empty."),
    ("~hidden", "Illegal schema name '~hidden'"),
    ("trailing ", "Illegal schema name 'trailing '"),
    ("a#b", "The name can't contain character '#'."),
    ("a:b", "The name can't contain character ':'."),
    ("x" * 256, "The length of name must less than 256 bytes."),
])
def test_name_rules(graph, name, message):
    with pytest.raises(IllegalArgument) as e:
        graph.schema.create("propertykey", {"name": name})
    assert str(e.value) == message


def test_property_key_rules(graph):
    s = graph.schema
    with pytest.raises(IllegalArgument, match="Not allowed to pass properties when creating property key"):
        s.create("propertykey", {"name": "x", "properties": ["a"]})
    with pytest.raises(IllegalArgument, match="Invalid data_type 'FOO'"):
        s.create("propertykey", {"name": "x", "data_type": "FOO"})
    with pytest.raises(IllegalArgument, match="Only accept property key id when graph in RESTORING mode"):
        s.create("propertykey", {"name": "x", "id": 7})
    graph.set_mode("RESTORING")
    pk, _ = s.create("propertykey", {"name": "x", "id": 7})
    assert pk.id == 7
    graph.set_mode("NONE")
    assert s.create("propertykey", {"name": "y"})[0].id == 8


def test_vertex_label_rules_and_shape(graph):
    s = graph.schema
    _keys(s)
    with pytest.raises(IllegalArgument, match="Undefined property key: 'nope'"):
        s.create("vertexlabel", {"name": "p", "properties": ["nope"]})
    with pytest.raises(IllegalArgument, match="The primary key 'age' of vertex label 'p' must be contained in properties"):
        s.create("vertexlabel", {"name": "p", "properties": ["name"], "primary_keys": ["age"]})
    with pytest.raises(IllegalArgument, match="Must assign some primary keys when using 'PRIMARY_KEY' id strategy"):
        s.create("vertexlabel", {"name": "p", "properties": ["name"], "id_strategy": "PRIMARY_KEY"})
    with pytest.raises(IllegalArgument, match="Not allowed to assign primary keys when using 'AUTOMATIC'"):
        s.create("vertexlabel", {"name": "p", "properties": ["name"], "id_strategy": "AUTOMATIC", "primary_keys": ["name"]})
    with pytest.raises(IllegalArgument, match="are not allowed to belong to primaryKeys"):
        s.create("vertexlabel", {"name": "p", "properties": ["name"], "primary_keys": ["name"], "nullable_keys": ["name"]})
    vl, _ = s.create("vertexlabel", {"name": "person", "properties": ["city", "name", "age"],
                                     "primary_keys": ["name"], "nullable_keys": ["city"]})
    j = vl.to_json()
    assert list(j) == ["id", "name", "id_strategy", "primary_keys", "nullable_keys", "index_labels",
                       "properties", "status", "ttl", "enable_label_index", "user_data"]
    assert j["id_strategy"] == "PRIMARY_KEY" and j["properties"] == ["name", "age", "city"]
    auto, _ = s.create("vertexlabel", {"name": "thing", "properties": ["name"]})
    assert auto.id_strategy is IdStrategy.AUTOMATIC


def test_vertex_label_append_and_eliminate(graph):
    s = graph.schema
    _keys(s)
    s.create("vertexlabel", {"name": "person", "properties": ["name"], "primary_keys": ["name"]})
    with pytest.raises(IllegalArgument, match=r"The new added properties: \['age'\] must be nullable"):
        s.update("vertexlabel", "person", "append", {"name": "person", "properties": ["age"]})
    vl = s.update("vertexlabel", "person", "append",
                  {"name": "person", "properties": ["age"], "nullable_keys": ["age"], "user_data": {"k": 1}})
    assert vl.properties == ("name", "age") and vl.nullable_keys == ("age",) and vl.user_data["k"] == 1
    vl = s.update("vertexlabel", "person", "eliminate", {"name": "person", "user_data": {"k": ""}})
    assert "k" not in vl.user_data and "~create_time" in vl.user_data
    with pytest.raises(NotFound, match="Can't update vertex label 'ghost' since it doesn't exist"):
        s.update("vertexlabel", "ghost", "append", {"name": "ghost"})
    with pytest.raises(IllegalArgument, match=r"The name in url\(person\) and body\(other\) are different"):
        s.update("vertexlabel", "person", "append", {"name": "other"})


def test_edge_label_rules_and_shape(graph):
    s = graph.schema
    _keys(s)
    _person(s)
    s.create("vertexlabel", {"name": "software", "properties": ["name"], "primary_keys": ["name"]})
    with pytest.raises(IllegalArgument, match="Undefined source vertex label 'ghost' in edge label 'x'"):
        s.create("edgelabel", {"name": "x", "source_label": "ghost", "target_label": "person"})
    with pytest.raises(IllegalArgument, match="EdgeLabel must contain sortKeys when the cardinality property is multiple"):
        s.create("edgelabel", {"name": "x", "source_label": "person", "target_label": "person", "frequency": "MULTIPLE"})
    with pytest.raises(IllegalArgument, match="EdgeLabel can't contain sortKeys when the cardinality property is single"):
        s.create("edgelabel", {"name": "x", "source_label": "person", "target_label": "person",
                               "properties": ["date"], "sort_keys": ["date"]})
    el, _ = s.create("edgelabel", {"name": "created", "source_label": "person", "target_label": "software",
                                   "properties": ["weight", "date"]})
    j = el.to_json()
    assert list(j) == ["id", "name", "edgelabel_type", "source_label", "target_label", "links", "frequency",
                       "sort_keys", "nullable_keys", "index_labels", "properties", "status", "ttl",
                       "enable_label_index", "user_data"]
    assert j["links"] == [{"person": "software"}] and j["frequency"] == "SINGLE"
    assert j["properties"] == ["weight", "date"]
    multi, _ = s.create("edgelabel", {"name": "knows", "links": [{"person": "person"}], "frequency": "MULTIPLE",
                                      "properties": ["date"], "sort_keys": ["date"]})
    assert multi.source_label == "person" and multi.sort_keys == ("date",)


def test_index_label_rules_and_range_mapping(graph):
    s = graph.schema
    _keys(s)
    _person(s)
    with pytest.raises(IllegalArgument, match="Range index can only build on numeric or date property"):
        s.create("indexlabel", {"name": "i", "base_type": "VERTEX_LABEL", "base_value": "person",
                                "index_type": "RANGE", "fields": ["city"]})
    with pytest.raises(IllegalArgument, match="No need to build index on properties"):
        s.create("indexlabel", {"name": "i", "base_type": "VERTEX_LABEL", "base_value": "person",
                                "index_type": "SECONDARY", "fields": ["name"]})
    il, task = s.create("indexlabel", {"name": "personByAge", "base_type": "VERTEX_LABEL", "base_value": "person",
                                       "index_type": "RANGE", "fields": ["age"]})
    assert il.index_type is IndexType.RANGE_INT and task > 0
    assert il.to_json()["index_type"] == "RANGE"
    assert s.schema_json()["indexlabels"][0]["index_type"] == "RANGE_INT"
    assert graph.tasks.wait(task)["task_status"] == "success"
    assert s.index_label("personByAge").status is SchemaStatus.CREATED
    assert s.vertex_label("person").index_labels == ("personByAge",)
    with pytest.raises(IllegalArgument, match="Repeated new index label"):
        s.create("indexlabel", {"name": "again", "base_type": "VERTEX_LABEL", "base_value": "person",
                                "index_type": "RANGE", "fields": ["age"]})
    no_build, task0 = s.create("indexlabel", {"name": "byCity", "base_type": "VERTEX_LABEL", "base_value": "person",
                                              "index_type": "SECONDARY", "fields": ["city"], "rebuild": False})
    assert task0 == 0 and no_build.status is SchemaStatus.CREATED


def test_remove_property_key_in_use(graph):
    s = graph.schema
    _keys(s)
    _person(s)
    with pytest.raises(IllegalArgument, match="Not allowed to remove property key: 'age' because the vertex label 'person' is still using it."):
        s.remove("propertykey", "age")
    assert s.remove("propertykey", "weight") == 0
    assert s.property_key("weight") is None
    with pytest.raises(NotFound, match="property key with name 'weight' does not exist"):
        s.get("propertykey", "weight")


def test_coerce_messages(graph):
    s = graph.schema
    _keys(s)
    s.create("propertykey", {"name": "tags", "cardinality": "SET"})
    assert s.coerce("age", 29) == 29
    assert s.coerce("weight", 1) == 1.0 and isinstance(s.coerce("weight", 1), float)
    assert s.coerce("tags", ["a", "b", "a"]) == ["a", "b"]
    assert s.coerce("date", "2024-01-02").year == 2024
    with pytest.raises(IllegalArgument) as e:
        s.coerce("age", "29")
    assert str(e.value) == "Invalid property value '29' for key 'age', expect a value of type Integer, actual type String"
    with pytest.raises(IllegalArgument, match="Expected date format is"):
        s.coerce("date", "yesterday")
    with pytest.raises(IllegalArgument, match="Undefined property key: 'nope'"):
        s.coerce("nope", 1)


def test_rollback_of_external_transaction_forgets_schema(graph):
    s = graph.schema
    with pytest.raises(RuntimeError):
        with graph.store.write() as tx:
            s.create("propertykey", {"name": "temp"}, tx=tx)
            assert s.property_key("temp") is not None
            raise RuntimeError("boom")
    s.invalidate()  # the graph facade does this after a failed transaction
    assert s.property_key("temp") is None


def test_auto_mode_creates_and_widens(auto_graph):
    s = auto_graph.schema
    with auto_graph.store.write() as tx:
        pk = s.ensure_property_key(tx, "age", 29)
        assert pk.data_type is DataType.INT
        widened = s.ensure_property_key(tx, "age", "old")
        assert widened.data_type is DataType.OBJECT
        vl = s.ensure_vertex_label(tx, "person")
        vl = s.ensure_label_properties(tx, vl, ["age"])
        first = s.ensure_edge_label(tx, "knows", "person", "person")
        s.ensure_edge_label(tx, "knows", "person", "dog")
    assert first.source_label == "person" and first.links == (("person", "person"),)
    assert vl.properties == ("age",) and vl.nullable_keys == ("age",)
    assert s.edge_label("knows").links == (("person", "person"), ("person", "dog"))
    s.invalidate()
    assert s.property_key("age").data_type is DataType.OBJECT


def test_strict_mode_ensure_raises(graph):
    with graph.store.write() as tx, pytest.raises(IllegalArgument, match="Undefined vertex label: 'x'"):
        graph.schema.ensure_vertex_label(tx, "x")


def test_derived_values_are_bounded_per_snapshot() -> None:
    """A snapshot keeps what is derived from it, but at most `MAX_DERIVED` entries: keys
    carry request shapes (a client's hop labels), so ever new shapes start the cache afresh
    instead of growing it; a value asked again after that is remade, and None never kept."""
    snap = SchemaSnapshot({})
    made: list[int] = []

    def make(n: int) -> int:
        made.append(n)
        return n

    assert snap.derive(("shape", 0), lambda: make(0)) == 0
    assert snap.derive(("shape", 0), lambda: make(-1)) == 0 and made == [0]  # kept
    for n in range(1, MAX_DERIVED + 1):
        snap.derive(("shape", n), lambda n=n: make(n))
    assert snap.derive(("shape", 0), lambda: make(0)) == 0 and made[-1] == 0  # remade
    assert snap.derive("none", lambda: None) is None
    assert snap.derive("none", lambda: "now") == "now"
