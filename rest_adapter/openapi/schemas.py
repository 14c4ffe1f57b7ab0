"""The JSON Schemas of `/openapi.json`'s `components`: HugeGraph's request and answer shapes.

They describe what a client may send and what it gets back, loosely on purpose: every object
allows keys it does not list (HugeGraph adds keys between releases, and hugelite adds
`measure` to traverser answers), and a schema names a type only where the server insists on
one. The error body is HugeGraph's exactly: `{"exception": "class <java class>", "message",
"cause"}` (`rest_adapter/errors.py` makes it; /gremlin adds the TinkerPop envelope keys).
The auth records' shapes come from the records' own field table (`auth_components`).
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.auth.permissions import RESOURCE_TYPES
from gremlin_engine.auth.records import FAMILIES, Family
from gremlin_engine.auth.resources import PERMISSIONS

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
DIRECTION: Schema = {"enum": ["OUT", "IN", "BOTH"]}
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
        "description": "HugeGraph's traverser body; each traverser reads the keys it knows (docs/rest.md)",
        "properties": {
            "source": VERTEX_ID, "target": VERTEX_ID, "vertex": VERTEX_ID, "other": VERTEX_ID,
            "sources": ref("VertexSelector"), "targets": ref("VertexSelector"),
            "vertices": ref("VertexSelector"), "vertex_list": array(VERTEX_ID),
            "step": ref("TraverserStep"), "steps": array(ref("TraverserStep")),
            "path_patterns": array(obj(steps=array(ref("TraverserStep")))),
            "label": STRING, "direction": DIRECTION, "max_depth": INTEGER, "max_degree": INTEGER,
            "skip_degree": INTEGER, "capacity": INTEGER, "limit": INTEGER, "alpha": NUMBER, "top": INTEGER,
            "with_label": {"enum": ["SAME_LABEL", "OTHER_LABEL", "BOTH_LABEL"]},
            "sort_by": {"enum": ["NONE", "INCR", "DECR"]}, "sorted": BOOLEAN, "nearest": BOOLEAN,
            "count_only": BOOLEAN, "with_vertex": BOOLEAN, "with_edge": BOOLEAN, "with_path": BOOLEAN,
            "times": INTEGER, "min_neighbors": INTEGER, "min_similars": INTEGER, "group_property": STRING,
        },
    },
    "VertexSelector": obj(ids=array(VERTEX_ID), label=STRING, labels=NAMES, properties=PROPERTIES),
    "TraverserStep": obj(direction=DIRECTION, labels=NAMES, properties=PROPERTIES, weight_by=STRING,
                         default_weight=NUMBER, degree=INTEGER, max_degree=INTEGER, sample=INTEGER,
                         skip_degree=INTEGER, top=INTEGER, times=INTEGER),
    "TraverserAnswer": {
        "type": "object",
        "description": "HugeGraph's keys for the traverser (`vertices`, `paths`, `crosspoints`, ...) and "
                       "`measure` (edge and vertex iterations, time)",
    },
    "Object": {"type": "object"},
}

#: a typical value of some shapes: Swagger UI's "Try it out" starts from it, and schemathesis
#: sends it first (on `tests/rest/hg_elements.py`'s schema, most of them succeed)
EXAMPLES: dict[str, Any] = {
    "PropertyKey": {"name": "age", "data_type": "INT", "cardinality": "SINGLE"},
    "VertexLabel": {"name": "person", "id_strategy": "PRIMARY_KEY", "properties": ["name", "age"],
                    "primary_keys": ["name"]},
    "EdgeLabel": {"name": "knows", "source_label": "person", "target_label": "person", "properties": ["weight"]},
    "IndexLabel": {"name": "personByAge", "base_type": "VERTEX_LABEL", "base_value": "person",
                   "index_type": "RANGE", "fields": ["age"]},
    "NewVertex": {"label": "person", "properties": {"name": "marko", "age": 29}},
    "NewEdge": {"label": "knows", "outV": "1:marko", "inV": "1:vadas", "outVLabel": "person",
                "inVLabel": "person", "properties": {"weight": 0.5}},
    "ElementUpdate": {"label": "person", "properties": {"age": 30}},
    "VariableValue": {"data": 42},
    "GremlinRequest": {"gremlin": "g.V().limit(10)", "aliases": {"graph": "hugegraph", "g": "__g_hugegraph"}},
    "TraverserRequest": {"source": "1:marko", "steps": [{"direction": "BOTH", "labels": ["knows"]}],
                         "max_depth": 2},
}


# ---- auth records ------------------------------------------------------------------------
# Built from the records' own table of fields (`gremlin_engine.auth.records.FAMILIES`: what
# each family keeps, requires and lets an update change), so a field added there without a
# schema here fails at import instead of going missing from the document.

#: an auth record's timestamp (local time, as HugeGraph writes it)
STAMP: Schema = {"type": "string", "examples": ["2026-11-28 23:30:00.000"]}
#: HugeGraph 1.5's primary-key ids, and the link ids built from them
AUTH_IDS: dict[str, str] = {"user": "-63:bob", "group": "-69:readers", "target": "-77:people",
                            "belong": "S-63:bob>-82>>S-69:readers", "access": "S-69:readers>-88>11>S-77:people"}
#: the schema of every input field of the five families
AUTH_FIELDS: dict[str, Schema] = {
    "user_name": STRING,
    "user_password": {"type": "string", "format": "password",
                      "description": "in clear; kept and answered only as its bcrypt hash"},
    "user_phone": STRING, "user_email": STRING, "user_avatar": STRING, "user_description": STRING,
    "group_name": STRING, "group_description": STRING,
    "target_name": STRING, "target_graph": {"type": "string", "description": "the graph the resources are in"},
    "target_url": {"type": "string", "description": "the server's address, host and port",
                   "examples": ["127.0.0.1:8080"]},
    "target_resources": array(ref("TargetResource")),
    "user": {"type": "string", "description": "a user's id", "examples": [AUTH_IDS["user"]]},
    "group": {"type": "string", "description": "a group's id", "examples": [AUTH_IDS["group"]]},
    "target": {"type": "string", "description": "a target's id", "examples": [AUTH_IDS["target"]]},
    "belong_description": STRING,
    "access_permission": {"enum": list(PERMISSIONS)},
    "access_description": STRING,
}
#: where an answer's field differs from what is sent: the password comes back as its hash
#: (HugeGraph answers the ciphertext too; hugegraph-python's tests read it)
AUTH_ANSWERED: dict[str, Schema] = {
    "user_password": {"type": "string", "description": "the bcrypt hash; the password itself is never answered",
                      "examples": ["$2a$10$..."]},
}


def _title(name: str) -> str:
    return name[:1].upper() + name[1:]


def auth_components(family: Family) -> dict[str, Schema]:
    """A family's record as answered (`User`), its list envelope (`Users`), its create body
    (`NewUser`: the required fields required) and its update body (`UserUpdate`)."""
    kind, fields = family.kind, {f: AUTH_FIELDS[f] for f in family.fields}
    answered = {f: AUTH_ANSWERED.get(f, schema) for f, schema in fields.items()}
    record = obj(("id",), id={"type": "string", "examples": [AUTH_IDS[kind]]}, **answered,
                 **{f"{kind}_creator": STRING, f"{kind}_create": STAMP, f"{kind}_update": STAMP})
    fixed = [f for f in family.fields if f not in family.mutable]
    update = {**obj(**fields), "description": f"changes {', '.join(family.mutable)}; "
              f"{', '.join(fixed)} must equal the record's (delete and create again to change them), "
              "and id, creator and timestamps are ignored, so a record read can be written back"}
    return {
        _title(kind): record,
        _title(family.plural): obj((family.plural,), **{family.plural: array(ref(_title(kind)))}),
        "New" + _title(kind): obj(tuple(f for f, _what in family.required), **fields),
        _title(kind) + "Update": update,
    }


COMPONENTS["TargetResource"] = obj(
    type={"enum": list(RESOURCE_TYPES), "default": "NONE"},
    label={"type": "string", "default": "*", "description": "a label, or `*` for any"},
    properties={"type": ["object", "null"], "description": "property conditions, all to match; null: any"},
)
for _family in FAMILIES.values():
    COMPONENTS.update(auth_components(_family))
COMPONENTS["Role"] = obj(("roles",), roles={
    "type": "object", "description": "graph -> permission -> the resources granted",
    "additionalProperties": {"type": "object", "additionalProperties": array(ref("TargetResource"))},
    "examples": [{"hugegraph": {"READ": [{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}]}}],
})
COMPONENTS["Login"] = obj(("user_name", "user_password"), user_name=STRING,
                          user_password=AUTH_FIELDS["user_password"])
COMPONENTS["Token"] = obj(("token",), token={"type": "string", "description": "an HS256 JWT, sent as `Bearer`"})
COMPONENTS["TokenUser"] = obj(("user_name", "user_id"), user_name=STRING, user_id=STRING)
EXAMPLES.update({
    "NewUser": {"user_name": "bob", "user_password": "b0b-pw"},
    "NewGroup": {"group_name": "readers", "group_description": "may read people"},
    "NewTarget": {"target_name": "people", "target_graph": "hugegraph", "target_url": "127.0.0.1:8080",
                  "target_resources": [{"type": "VERTEX", "label": "person", "properties": None}]},
    "NewBelong": {"user": AUTH_IDS["user"], "group": AUTH_IDS["group"]},
    "NewAccess": {"group": AUTH_IDS["group"], "target": AUTH_IDS["target"], "access_permission": "READ"},
    "Login": {"user_name": "admin", "user_password": "<password>"},
})

for _name, _example in EXAMPLES.items():
    COMPONENTS[_name] = {**COMPONENTS[_name], "examples": [_example]}
