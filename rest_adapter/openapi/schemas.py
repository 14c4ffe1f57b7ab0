"""The JSON Schemas of `/openapi.json`'s `components`: HugeGraph's request and answer shapes.

They describe what a client may send and what it gets back, loosely on purpose: every object
allows keys it does not list (HugeGraph adds keys between releases, and hugelite adds
`measure` to traverser answers), and a schema names a type only where the server insists on
one. The error body is HugeGraph's exactly: `{"exception": "class <java class>", "message",
"cause"}` (`rest_adapter/errors.py` makes it; /gremlin adds the TinkerPop envelope keys).
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    """A reference to `components.schemas[name]`."""
    return {"$ref": f"#/components/schemas/{name}"}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def obj(required: tuple[str, ...] = (), **properties: Schema) -> Schema:
    out: Schema = {"type": "object", "properties": properties}
    if required:
        out["required"] = list(required)
    return out


STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
BOOLEAN: Schema = {"type": "boolean"}
NAMES: Schema = array(STRING)
#: any JSON value: an id, a property value, a script's result
ANY: Schema = {}
#: a vertex id: a number (AUTOMATIC, CUSTOMIZE_NUMBER) or a string (PRIMARY_KEY `1:marko`, ...)
VERTEX_ID: Schema = {"type": ["string", "integer"], "examples": ["1:marko", 1001]}
PROPERTIES: Schema = {"type": "object", "description": "property name to value (a list for set/list keys)"}
USER_DATA: Schema = {"type": "object"}
SCHEMA_COMMON: dict[str, Schema] = {"id": INTEGER, "name": STRING, "status": STRING, "user_data": USER_DATA}

COMPONENTS: dict[str, Schema] = {
    "Error": {
        "type": "object",
        "description": "HugeGraph's error body; clients switch on `exception`, a Java class name",
        "required": ["exception", "message", "cause"],
        "properties": {
            "exception": {"type": "string", "examples": ["class java.lang.IllegalArgumentException"]},
            "message": STRING,
            "cause": STRING,
        },
    },
    "Versions": obj(versions=obj(version=STRING, core=STRING, gremlin=STRING, api=STRING)),
    "Graphs": obj(graphs=NAMES),
    "GraphInfo": obj(name=STRING, backend=STRING),
    "Mode": obj(mode={"enum": ["NONE", "RESTORING", "MERGING", "LOADING"]}),
    "ReadMode": obj(graph_read_mode={"enum": ["ALL", "OLTP_ONLY", "OLAP_ONLY"]}),
    "PropertyKey": obj(
        ("name",), **SCHEMA_COMMON,
        data_type={"enum": ["TEXT", "BOOLEAN", "BYTE", "INT", "LONG", "FLOAT", "DOUBLE", "DATE", "UUID", "BLOB",
                            "OBJECT"]},
        cardinality={"enum": ["SINGLE", "SET", "LIST"]},
        aggregate_type=STRING, write_type=STRING, properties=NAMES,
    ),
    "VertexLabel": obj(
        ("name",), **SCHEMA_COMMON,
        id_strategy={"enum": ["DEFAULT", "AUTOMATIC", "PRIMARY_KEY", "CUSTOMIZE_STRING", "CUSTOMIZE_NUMBER",
                              "CUSTOMIZE_UUID"]},
        properties=NAMES, primary_keys=NAMES, nullable_keys=NAMES, index_labels=NAMES,
        ttl=INTEGER, enable_label_index=BOOLEAN,
    ),
    "EdgeLabel": obj(
        ("name",), **SCHEMA_COMMON,
        source_label=STRING, target_label=STRING, frequency={"enum": ["SINGLE", "MULTIPLE"]},
        properties=NAMES, sort_keys=NAMES, nullable_keys=NAMES, index_labels=NAMES,
        ttl=INTEGER, enable_label_index=BOOLEAN,
    ),
    "IndexLabel": obj(
        ("name",), **SCHEMA_COMMON,
        base_type={"enum": ["VERTEX_LABEL", "EDGE_LABEL"]}, base_value=STRING,
        index_type={"enum": ["SECONDARY", "RANGE", "RANGE_INT", "RANGE_LONG", "RANGE_FLOAT", "RANGE_DOUBLE",
                             "SEARCH", "SHARD", "UNIQUE"]},
        fields=NAMES,
    ),
    "Schema": obj(propertykeys=array(ref("PropertyKey")), vertexlabels=array(ref("VertexLabel")),
                  edgelabels=array(ref("EdgeLabel")), indexlabels=array(ref("IndexLabel"))),
    "SchemaTask": {"type": "object", "description": "a schema change run as a task",
                   "properties": {"task_id": INTEGER}},
    "Vertex": obj(id=VERTEX_ID, label=STRING, type={"const": "vertex"}, properties={"type": "object"}),
    "NewVertex": obj(label=STRING, id=VERTEX_ID, properties=PROPERTIES),
    "Vertices": obj(vertices=array(ref("Vertex")), page={"type": ["string", "null"]}),
    "Edge": obj(id=STRING, label=STRING, type={"const": "edge"}, outV=VERTEX_ID, outVLabel=STRING,
                inV=VERTEX_ID, inVLabel=STRING, properties={"type": "object"}),
    "NewEdge": obj(("label", "outV", "inV"), label=STRING, outV=VERTEX_ID, inV=VERTEX_ID, outVLabel=STRING,
                   inVLabel=STRING, properties=PROPERTIES),
    "Edges": obj(edges=array(ref("Edge")), page={"type": ["string", "null"]}),
    "ElementUpdate": obj(label=STRING, properties=PROPERTIES),
    "UpdateStrategies": {
        "type": "object",
        "additionalProperties": {"enum": ["SUM", "BIGGER", "SMALLER", "UNION", "INTERSECTION", "APPEND",
                                          "ELIMINATE", "OVERRIDE"]},
    },
    "VertexBatchUpdate": obj(("vertices",), vertices=array(ref("NewVertex")),
                             update_strategies=ref("UpdateStrategies"), create_if_not_exist=BOOLEAN),
    "EdgeBatchUpdate": obj(("edges",), edges=array(ref("NewEdge")), update_strategies=ref("UpdateStrategies"),
                           check_vertex=BOOLEAN, create_if_not_exist=BOOLEAN),
    "Ids": array(ANY),
    "GremlinRequest": obj(
        ("gremlin",), gremlin={"type": "string", "examples": ["g.V().limit(10)"]},
        bindings={"type": "object"}, language={"enum": ["gremlin-groovy", "gremlin-lang", "gremlin"]},
        aliases={"type": "object", "additionalProperties": STRING,
                 "examples": [{"graph": "hugegraph", "g": "__g_hugegraph"}]},
    ),
    "GremlinResponse": obj(
        requestId=STRING, status=obj(message=STRING, code=INTEGER, attributes={"type": "object"}),
        result=obj(data=array(ANY), meta={"type": "object"}),
    ),
    "Task": obj(id=INTEGER, task_name=STRING, task_type=STRING, task_callable=STRING, task_input=STRING,
                task_status=STRING, task_progress=INTEGER, task_result=STRING, task_retries=INTEGER,
                task_create=INTEGER, task_update=INTEGER),
    "Tasks": obj(tasks=array(ref("Task")), page={"type": ["string", "null"]}),
    "TaskId": obj(task_id=INTEGER),
    "Variables": {"type": "object", "description": "variable name to value"},
    "VariableValue": obj(("data",), data=ANY),
    "TraverserRequest": {
        "type": "object",
        "description": "HugeGraph's traverser body (`source`/`sources`, `steps`, `max_degree`, `capacity`, "
                       "`limit`, `with_vertex`, `with_path`, `count_only`, ...); see docs/rest.md",
    },
    "TraverserAnswer": {
        "type": "object",
        "description": "HugeGraph's keys for the traverser (`vertices`, `paths`, `crosspoints`, ...) and "
                       "`measure` (edge and vertex iterations, time)",
    },
    "Object": {"type": "object"},
}
