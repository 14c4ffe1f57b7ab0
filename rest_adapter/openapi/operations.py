"""What each REST route takes and answers, for `/openapi.json`: one row per (method, path).

Paths are in the classic family (`/graphs/{graph}/...`) with Starlette's converters dropped
(`{id:path}` is `{id}`); `document.py` gives the same row to the route's
`/graphspaces/DEFAULT/graphs/{graph}/...` twin. A route the app serves with no row here
still appears in the document with a generic operation, and `tests/rest/test_openapi.py`
names it, so a new route is never silently missing, only undescribed.

The GET traversers' query parameters are not written here: they come from the table the
handlers parse them with (`resources/_traverser_params.SPECS`), so the two cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass

from gremlin_engine.auth.records import FAMILIES, Family
from rest_adapter.openapi.schemas import BOOLEAN, INTEGER, STRING, Schema, array, ref
from rest_adapter.resources._traverser_params import SPECS
from rest_adapter.resources.auth import LIST_FILTERS


@dataclass(frozen=True)
class Param:
    """A query parameter."""

    name: str
    schema: Schema
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class Operation:
    """One route's description: `answer` is the body of the `status` answer (None: no body);
    `description` is the longer text under the summary, when the summary is not enough."""

    summary: str
    tag: str
    query: tuple[Param, ...] = ()
    body: Schema | None = None
    status: int = 200
    answer: Schema | None = None
    media: str = "application/json"
    description: str = ""


#: a vertex id in a query parameter: a JSON literal, so a string id is quoted
ID_LITERAL: Schema = {"type": "string", "description": 'a JSON literal: "1:marko" (quoted) or 123',
                      "examples": ['"1:marko"', "1"]}
ACTION = Param("action", {"enum": ["append", "eliminate"]}, required=True)
LIMIT = Param("limit", INTEGER, "at most this many (-1: all)")
PAGE = Param("page", STRING, "a paging cursor; empty for the first page")
OFFSET = Param("offset", INTEGER)
LABEL = Param("label", STRING)
PROPS = Param("properties", STRING, 'a JSON object of property conditions: {"age": "P.gt(30)"}')
NAMES_Q = Param("names", array(STRING), "names to get (repeatable)")

#: kind of a traverser parameter (`_traverser_params`) -> its schema
TRAVERSER_KINDS: dict[str, Schema] = {
    "id": ID_LITERAL, "int": INTEGER, "bool": BOOLEAN, "str": STRING,
    "ids": array(ID_LITERAL), "edge_ids": array(STRING),
}

G = "/graphs/{graph}"
OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", "/"): Operation("A profile of the service", "server", answer=ref("Object")),
    ("GET", "/versions"): Operation("The HugeGraph and TinkerPop versions spoken", "server", answer=ref("Versions")),
    ("GET", "/apis/version"): Operation("The versions, without the wrapper", "server", answer=ref("Object")),
    ("GET", "/openapi.json"): Operation("This document", "server", answer=ref("Object")),
    ("GET", "/swagger"): Operation("Swagger UI over this document", "server", answer=STRING, media="text/html"),
    ("GET", "/console"): Operation("The web console's page", "server", answer=STRING, media="text/html",
                                   description="A single page that calls these REST routes with the same "
                                               "credentials as any client; 503 when it is not built."),
    ("GET", "/graphs"): Operation("The graphs served", "graphs", answer=ref("Graphs")),
    ("GET", "/graphspaces/DEFAULT/graphs"): Operation("The graphs served", "graphs", answer=ref("Graphs")),
    ("GET", G): Operation("A graph's name and backend", "graphs", answer=ref("GraphInfo")),
    ("POST", G): Operation("Create a graph (JSON properties: 201; text properties: 200)", "graphs",
                           query=(Param("clone_graph_name", STRING),), body=ref("Object"), status=201,
                           answer=ref("GraphInfo")),
    ("DELETE", G): Operation("Drop a graph", "graphs", query=(
        Param("confirm_message", STRING, "I'm sure to drop the graph", required=True),), status=204),
    ("DELETE", G + "/clear"): Operation("Remove a graph's schema, data and variables", "graphs", query=(
        Param("confirm_message", STRING, "I'm sure to delete all data", required=True),), status=204),
    ("GET", G + "/conf"): Operation("The graph's properties text", "graphs", answer=STRING, media="text/plain"),
    ("GET", G + "/mode"): Operation("The graph's mode", "graphs", answer=ref("Mode")),
    ("PUT", G + "/mode"): Operation("Set the graph's mode", "graphs", body={"type": "string"}, answer=ref("Mode")),
    ("GET", G + "/graph_read_mode"): Operation("The graph's read mode", "graphs", answer=ref("ReadMode")),
    ("PUT", G + "/graph_read_mode"): Operation("Set the graph's read mode", "graphs", body={"type": "string"},
                                               answer=ref("ReadMode")),
    ("GET", G + "/schema"): Operation("The whole schema", "schema", answer=ref("Schema")),
    ("PUT", G + "/jobs/rebuild/{kind}/{name}"): Operation(
        "Rebuild the indexes of an index label, vertex label or edge label", "schema", status=202,
        answer=ref("TaskId")),
    # vertices
    ("GET", G + "/graph/vertices"): Operation("List vertices by label and properties", "vertices",
                                              query=(LABEL, PROPS, LIMIT, OFFSET, PAGE), answer=ref("Vertices")),
    ("POST", G + "/graph/vertices"): Operation("Create a vertex", "vertices", body=ref("NewVertex"), status=201,
                                               answer=ref("Vertex")),
    ("POST", G + "/graph/vertices/batch"): Operation("Create vertices", "vertices", body=array(ref("NewVertex")),
                                                     status=201, answer=ref("Ids")),
    ("PUT", G + "/graph/vertices/batch"): Operation("Update or create vertices by strategy", "vertices",
                                                    body=ref("VertexBatchUpdate"), answer=ref("Vertices")),
    ("GET", G + "/graph/vertices/{id}"): Operation("A vertex (id as a JSON literal)", "vertices",
                                                   answer=ref("Vertex")),
    ("PUT", G + "/graph/vertices/{id}"): Operation("Append or eliminate a vertex's properties", "vertices",
                                                   query=(ACTION,), body=ref("ElementUpdate"), answer=ref("Vertex")),
    ("DELETE", G + "/graph/vertices/{id}"): Operation("Delete a vertex and its edges", "vertices",
                                                      query=(LABEL,), status=204),
    # edges
    ("GET", G + "/graph/edges"): Operation("List edges by vertex, label and properties", "edges", query=(
        Param("vertex_id", ID_LITERAL), Param("direction", {"enum": ["OUT", "IN", "BOTH"]}),
        LABEL, PROPS, LIMIT, OFFSET, PAGE), answer=ref("Edges")),
    ("POST", G + "/graph/edges"): Operation("Create an edge", "edges", body=ref("NewEdge"), status=201,
                                            answer=ref("Edge")),
    ("POST", G + "/graph/edges/batch"): Operation("Create edges", "edges", query=(Param("check_vertex", BOOLEAN),),
                                                  body=array(ref("NewEdge")), status=201, answer=ref("Ids")),
    ("PUT", G + "/graph/edges/batch"): Operation("Update or create edges by strategy", "edges",
                                                 body=ref("EdgeBatchUpdate"), answer=ref("Edges")),
    ("GET", G + "/graph/edges/{id}"): Operation("An edge (its id unquoted)", "edges", answer=ref("Edge")),
    ("PUT", G + "/graph/edges/{id}"): Operation("Append or eliminate an edge's properties", "edges",
                                                query=(ACTION,), body=ref("ElementUpdate"), answer=ref("Edge")),
    ("DELETE", G + "/graph/edges/{id}"): Operation("Delete an edge", "edges", query=(LABEL,), status=204),
    # tasks, jobs, variables
    ("GET", G + "/tasks"): Operation("List tasks", "tasks", query=(
        Param("status", STRING), LIMIT, PAGE, Param("ids", array(INTEGER), "task ids (repeatable)")),
        answer=ref("Tasks")),
    ("GET", G + "/tasks/{id}"): Operation("A task", "tasks", answer=ref("Task")),
    ("PUT", G + "/tasks/{id}"): Operation("Cancel a task", "tasks", query=(
        Param("action", {"const": "cancel"}, required=True),), status=202, answer=ref("Object")),
    ("DELETE", G + "/tasks/{id}"): Operation("Delete a task", "tasks", query=(Param("force", BOOLEAN),), status=204),
    ("POST", G + "/jobs/gremlin"): Operation("Run a Gremlin script as a task", "gremlin",
                                             body=ref("GremlinRequest"), status=201, answer=ref("TaskId")),
    ("GET", G + "/variables"): Operation("The graph's variables", "variables", answer=ref("Variables")),
    ("GET", G + "/variables/{key}"): Operation("A variable", "variables", answer=ref("Variables")),
    ("PUT", G + "/variables/{key}"): Operation("Set a variable", "variables", body=ref("VariableValue"),
                                               answer=ref("Variables")),
    ("DELETE", G + "/variables/{key}"): Operation("Delete a variable", "variables", status=204),
    # gremlin
    ("POST", "/gremlin"): Operation("Run a Gremlin script", "gremlin", body=ref("GremlinRequest"),
                                    answer=ref("GremlinResponse")),
    ("GET", "/gremlin"): Operation("Run a Gremlin script given in the query", "gremlin", query=(
        Param("gremlin", STRING, required=True), Param("language", STRING),
    ), answer=ref("GremlinResponse")),
    # metrics
    ("GET", "/metrics"): Operation("Metrics: Prometheus text, or JSON with type=json", "metrics",
                                   query=(Param("type", STRING),), answer=STRING, media="text/plain"),
    ("GET", "/metrics/statistics"): Operation("Per-API request statistics (Prometheus text unless type=json)",
                                              "metrics", query=(Param("type", STRING),), answer=STRING,
                                              media="text/plain"),
}

for _kind, _what in (("gauges", "Process and graph gauges"), ("counters", "Requests per route"),
                     ("meters", "Request rates per route"), ("histograms", "Latency per route"),
                     ("timers", "Request timers per route"), ("system", "HugeGraph's system sections"),
                     ("backend", "Per graph: backend, store size, element counts")):
    OPERATIONS[("GET", f"/metrics/{_kind}")] = Operation(_what, "metrics", answer=ref("Object"))

for _family, _schema, _created in (("propertykeys", "PropertyKey", 202), ("vertexlabels", "VertexLabel", 201),
                                   ("edgelabels", "EdgeLabel", 201), ("indexlabels", "IndexLabel", 202)):
    _base, _one = f"{G}/schema/{_family}", f"{G}/schema/{_family}/{{name}}"
    OPERATIONS[("GET", _base)] = Operation(f"List {_family}", "schema", query=(NAMES_Q,), answer=ref("Object"))
    OPERATIONS[("POST", _base)] = Operation(f"Create one of {_family}", "schema", body=ref(_schema),
                                            status=_created, answer=ref("Object"))
    OPERATIONS[("GET", _one)] = Operation(f"One of {_family}", "schema", answer=ref(_schema))
    _actions = ["append", "eliminate", "clear"] if _family == "propertykeys" else ["append", "eliminate"]
    OPERATIONS[("PUT", _one)] = Operation(f"Change one of {_family}", "schema",
                                          query=(Param("action", {"enum": _actions}, required=True),),
                                          body=ref(_schema), answer=ref("Object"))
    OPERATIONS[("DELETE", _one)] = Operation(f"Delete one of {_family} (a task)", "schema", status=202,
                                             answer=ref("TaskId"))

#: GET traversers: path segment -> the `SPECS` entry its handler parses
_GET_TRAVERSERS = {name: name for name in SPECS if name not in ("shards", "scan")} | {
    "vertices/shards": "shards", "vertices/scan": "scan", "edges/shards": "shards", "edges/scan": "scan"}
for _path, _spec in _GET_TRAVERSERS.items():
    OPERATIONS[("GET", f"{G}/traversers/{_path}")] = Operation(
        f"Traverser {_path}", "traversers",
        query=tuple(Param(k, TRAVERSER_KINDS[kind]) for k, kind in SPECS[_spec].items()),
        answer=ref("TraverserAnswer"))
for _path in ("kout", "kneighbor", "sameneighbors", "jaccardsimilarity", "multinodeshortestpath", "paths",
              "templatepaths", "fusiformsimilarity", "count", "personalrank", "neighborrank"):
    OPERATIONS[("POST", f"{G}/traversers/{_path}")] = Operation(
        f"Traverser {_path} (JSON body)", "traversers", body=ref("TraverserRequest"), answer=ref("TraverserAnswer"))
for _path in ("customizedpaths", "customizedcrosspoints"):
    OPERATIONS[("POST", f"{G}/traversers/{_path}")] = Operation(
        f"Traverser {_path} (JSON body)", "traversers", body=ref("TraverserRequest"), status=201,
        answer=ref("TraverserAnswer"))


# ---- auth ----------------------------------------------------------------------------------
# One row per family and operation, under 1.5's `/graphs/{graph}/auth`; `document.classic`
# gives the same rows to 1.7's `/graphspaces/DEFAULT/auth/...` and `/auth/...` routes.
AUTH = G + "/auth"
AUTH_ON = ("Needs auth on (`auth.authenticator=org.apache.hugegraph.auth.StandardAuthenticator`); "
           "otherwise a 400 `Unconfigured authenticator`.")
_V15 = "`/graphs/{graph}/auth/...` (HugeGraph 1.5: the graph must exist, but does not scope the records)"
AUTH_LAYOUTS = f"{AUTH_ON} Served at {_V15} and at `/graphspaces/DEFAULT/auth/...` (1.7); groups also at `/auth/groups`."
LOGIN_LAYOUTS = f"{AUTH_ON} Served at {_V15} and at `/auth/...` (1.7)."


def _auth_rows(family: Family) -> dict[tuple[str, str], Operation]:
    """The five operations of an auth family (and a user's role), as the handlers in
    `resources/auth.py` answer them: create 201, delete 204, the rest 200."""
    kind, plural = family.kind, family.plural
    title = kind.capitalize()
    base, one = f"{AUTH}/{plural}", f"{AUTH}/{plural}/{{id}}"
    filters = tuple(Param(f, STRING, f"only the {plural} naming this {f} id") for f in LIST_FILTERS.get(plural, ()))
    rows = {
        ("GET", base): Operation(f"List {plural}", "auth", query=(LIMIT, *filters), answer=ref(plural.capitalize()),
                                 description=AUTH_LAYOUTS + " `limit` defaults to 100."),
        ("POST", base): Operation(f"Create a {kind}", "auth", body=ref("New" + title), status=201,
                                  answer=ref(title), description=AUTH_LAYOUTS),
        ("GET", one): Operation(f"A {kind}" + (', wrapped as {"users": [user]}' if kind == "user" else ""), "auth",
                                answer=ref(plural.capitalize() if kind == "user" else title),
                                description=AUTH_LAYOUTS),
        ("PUT", one): Operation(f"Update a {kind}", "auth", body=ref(title + "Update"), answer=ref(title),
                                description=AUTH_LAYOUTS),
        ("DELETE", one): Operation(f"Delete a {kind}" + ("" if family.prefix == "" else
                                                         ", and the belongs and accesses naming it"),
                                   "auth", status=204, description=AUTH_LAYOUTS),
    }
    if kind == "user":
        rows[("GET", one + "/role")] = Operation(
            "A user's role: graph -> permission -> resources", "auth", answer=ref("Role"), description=AUTH_LAYOUTS)
    return rows


for _family in FAMILIES.values():
    OPERATIONS.update(_auth_rows(_family))
OPERATIONS.update({
    ("POST", AUTH + "/login"): Operation(
        "Log in: a token for the user (auth must be on)", "auth", body=ref("Login"), answer=ref("Token"),
        description=LOGIN_LAYOUTS + " The request itself needs credentials, as every route but the public "
                                   "ones; a wrong name or password is a 401."),
    ("DELETE", AUTH + "/logout"): Operation(
        "Log out: the Bearer token is refused from now on (auth must be on)", "auth", status=204,
        description=LOGIN_LAYOUTS + " The token is the request's `Authorization: Bearer`."),
    ("GET", AUTH + "/verify"): Operation(
        "Who the Bearer token is (auth must be on)", "auth", answer=ref("TokenUser"),
        description=LOGIN_LAYOUTS + " The token is the request's `Authorization: Bearer`; a bad, expired or "
                                   "logged-out one is a 401."),
})
