"""The HugeGraph REST scenario: one ordered list of requests, sent to HugeGraph and to hugelite
on a cleared graph `hugegraph`. Later steps depend on earlier ones (schema before vertices,
vertices before edges), so the whole list runs once and each step is then its own test.

The example graph is HugeGraph's documentation example: persons and software with
PRIMARY_KEY ids (`1:marko`), `knows` and `created` edges.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

G = "/graphs/hugegraph"
S = f"{G}/schema"
V = f"{G}/graph/vertices"
E = f"{G}/graph/edges"
T = f"{G}/traversers"


@dataclass(frozen=True)
class Step:
    id: str
    method: str
    path: str
    body: Any = None
    params: dict[str, Any] | list[tuple[str, Any]] | None = None
    #: top-level keys whose list value is compared as a multiset (order unspecified)
    unordered: tuple[str, ...] = field(default=())
    #: the body is a list compared as a multiset
    unordered_list: bool = False
    #: top-level keys whose list is compared by its length only (a page of a scan whose order
    #: is each backend's own)
    sizes: tuple[str, ...] = field(default=())
    #: remember the answer's `id` (or `task_id`, or `page`) under this name; `{name}` in later
    #: paths and query values uses it
    capture: str | None = None
    #: seconds to wait first (an index build finishing)
    wait_s: float = 0.0
    #: repeat the read until the task has ended or the index label is built (a cold JVM
    #: compiles a script for seconds)
    poll: bool = False


def _pk(name: str, data_type: str, cardinality: str = "SINGLE") -> dict[str, Any]:
    return {"name": name, "data_type": data_type, "cardinality": cardinality}


def _v(label: str, **props: Any) -> dict[str, Any]:
    return {"label": label, "properties": props}


def _e(label: str, out: str, out_label: str, in_: str, in_label: str, **props: Any) -> dict[str, Any]:
    return {"label": label, "outV": out, "outVLabel": out_label, "inV": in_, "inVLabel": in_label,
            "properties": props}


PERSONS = [("marko", 29, "Beijing"), ("vadas", 27, "Hongkong"), ("josh", 32, "Beijing"), ("peter", 35, "Shanghai")]
SOFTWARE = [("lop", "java", 328), ("ripple", "java", 199)]

STEPS = [
    # -- schema: property keys
    *(Step(f"pk-create-{name}", "POST", f"{S}/propertykeys", _pk(name, dt))
      for name, dt in (("name", "TEXT"), ("age", "INT"), ("city", "TEXT"), ("lang", "TEXT"),
                       ("date", "TEXT"), ("price", "INT"), ("weight", "DOUBLE"))),
    Step("pk-create-list", "POST", f"{S}/propertykeys", _pk("tags", "TEXT", "LIST")),
    Step("pk-create-duplicate", "POST", f"{S}/propertykeys", _pk("name", "INT")),
    Step("pk-create-bad-type", "POST", f"{S}/propertykeys", _pk("bad", "NOPE")),
    Step("pk-get", "GET", f"{S}/propertykeys/age"),
    Step("pk-get-missing", "GET", f"{S}/propertykeys/missing"),
    Step("pk-list", "GET", f"{S}/propertykeys", unordered=("propertykeys",)),
    Step("pk-append-userdata", "PUT", f"{S}/propertykeys/age", {"name": "age", "user_data": {"min": 0}},
         {"action": "append"}),
    Step("pk-eliminate-userdata", "PUT", f"{S}/propertykeys/age", {"name": "age", "user_data": {"min": 0}},
         {"action": "eliminate"}),
    # -- vertex labels
    Step("vl-create-person", "POST", f"{S}/vertexlabels",
         {"name": "person", "id_strategy": "PRIMARY_KEY", "properties": ["name", "age", "city"],
          "primary_keys": ["name"], "nullable_keys": ["age", "city"]}),
    Step("vl-create-software", "POST", f"{S}/vertexlabels",
         {"name": "software", "id_strategy": "PRIMARY_KEY", "properties": ["name", "lang", "price"],
          "primary_keys": ["name"], "nullable_keys": ["price"]}),
    Step("vl-create-auto", "POST", f"{S}/vertexlabels",
         {"name": "thing", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name", "tags"],
          "nullable_keys": ["tags"]}),
    Step("vl-create-number", "POST", f"{S}/vertexlabels",
         {"name": "num", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]}),
    Step("vl-create-unknown-key", "POST", f"{S}/vertexlabels",
         {"name": "bad", "properties": ["nope"]}),
    Step("vl-create-pk-missing", "POST", f"{S}/vertexlabels",
         {"name": "bad2", "id_strategy": "PRIMARY_KEY", "properties": ["name"]}),
    Step("vl-append", "PUT", f"{S}/vertexlabels/person",
         {"name": "person", "properties": ["tags"], "nullable_keys": ["tags"]}, {"action": "append"}),
    Step("vl-get", "GET", f"{S}/vertexlabels/person"),
    Step("vl-list", "GET", f"{S}/vertexlabels", unordered=("vertexlabels",)),
    # -- edge labels
    Step("el-create-knows", "POST", f"{S}/edgelabels",
         {"name": "knows", "source_label": "person", "target_label": "person", "frequency": "SINGLE",
          "properties": ["date", "weight"], "nullable_keys": ["weight"]}),
    Step("el-create-created", "POST", f"{S}/edgelabels",
         {"name": "created", "source_label": "person", "target_label": "software", "frequency": "SINGLE",
          "properties": ["date", "weight"], "nullable_keys": ["weight"]}),
    Step("el-create-bad-label", "POST", f"{S}/edgelabels",
         {"name": "bad", "source_label": "nope", "target_label": "person"}),
    Step("el-get", "GET", f"{S}/edgelabels/knows"),
    # -- index labels
    Step("il-create-city", "POST", f"{S}/indexlabels",
         {"name": "personByCity", "base_type": "VERTEX_LABEL", "base_value": "person",
          "index_type": "SECONDARY", "fields": ["city"]}),
    Step("il-create-age", "POST", f"{S}/indexlabels",
         {"name": "personByAge", "base_type": "VERTEX_LABEL", "base_value": "person",
          "index_type": "RANGE", "fields": ["age"]}),
    Step("il-create-weight", "POST", f"{S}/indexlabels",
         {"name": "knowsByWeight", "base_type": "EDGE_LABEL", "base_value": "knows",
          "index_type": "RANGE", "fields": ["weight"]}),
    # index labels build in a task: wait for it, so both answer status CREATED
    Step("il-get", "GET", f"{S}/indexlabels/personByCity", poll=True),
    Step("schema-all", "GET", S, unordered=("propertykeys", "vertexlabels", "edgelabels", "indexlabels"),
         poll=True),
    # -- vertices
    Step("v-create", "POST", V, _v("person", name="marko", age=29, city="Beijing")),
    Step("v-create-batch", "POST", f"{V}/batch",
         [_v("person", name=n, age=a, city=c) for n, a, c in PERSONS[1:]]
         + [_v("software", name=n, lang=lg, price=p) for n, lg, p in SOFTWARE]),
    Step("v-create-custom", "POST", V, {"label": "thing", "id": "t1", "properties": {"name": "t", "tags": ["a", "b"]}}),
    Step("v-create-number", "POST", V, {"label": "num", "id": 42, "properties": {"name": "n"}}),
    Step("v-create-missing-pk", "POST", V, _v("person", age=3)),
    Step("v-create-unknown-label", "POST", V, _v("nope", name="x")),
    Step("v-create-wrong-type", "POST", V, _v("person", name="bad", age="old")),
    Step("v-get", "GET", f"{V}/\"1:marko\""),
    Step("v-get-number", "GET", f"{V}/42"),
    Step("v-get-missing", "GET", f"{V}/\"1:nobody\""),
    Step("v-list-label", "GET", V, params={"label": "person"}, unordered=("vertices",)),
    Step("v-list-props", "GET", V, params={"label": "person", "properties": '{"city":"Beijing"}'},
         unordered=("vertices",)),
    Step("v-list-range", "GET", V, params={"label": "person", "properties": '{"age":"P.gt(30)"}'},
         unordered=("vertices",)),
    Step("v-list-unindexed", "GET", V, params={"label": "software", "properties": '{"lang":"java"}'},
         unordered=("vertices",)),
    Step("v-list-limit", "GET", V, params={"label": "software", "limit": 1}),
    Step("v-page-first", "GET", V, params={"page": "", "limit": 100}, unordered=("vertices",)),
    Step("v-append", "PUT", f"{V}/\"1:marko\"", _v("person", city="Wuhan"), {"action": "append"}),
    Step("v-eliminate", "PUT", f"{V}/\"1:marko\"", _v("person", city="Wuhan"), {"action": "eliminate"}),
    Step("v-append-list", "PUT", f"{V}/\"t1\"", _v("thing", tags=["c"]), {"action": "append"}),
    Step("v-batch-update", "PUT", f"{V}/batch",
         {"vertices": [_v("person", name="vadas", age=30, city="Hongkong")],
          "update_strategies": {"age": "BIGGER"}, "create_if_not_exist": True}),
    Step("v-get-after-update", "GET", f"{V}/\"1:vadas\""),
    # -- edges
    Step("e-create", "POST", E, _e("knows", "1:marko", "person", "1:vadas", "person", date="20160110", weight=0.5),
         capture="knows"),
    Step("e-create-batch", "POST", f"{E}/batch", [
        _e("knows", "1:marko", "person", "1:josh", "person", date="20130220", weight=1.0),
        _e("created", "1:marko", "person", "2:lop", "software", date="20171210", weight=0.4),
        _e("created", "1:josh", "person", "2:lop", "software", date="20091111", weight=0.4),
        _e("created", "1:josh", "person", "2:ripple", "software", date="20171210", weight=1.0),
        _e("created", "1:peter", "person", "2:lop", "software", date="20170324", weight=0.2),
    ]),
    Step("e-create-bad-label", "POST", E, _e("knows", "1:marko", "person", "2:lop", "software", date="x")),
    Step("e-create-missing-vertex", "POST", E, _e("knows", "1:marko", "person", "1:ghost", "person", date="x")),
    Step("e-get", "GET", f"{E}/{{knows}}"),
    Step("e-list-vertex", "GET", E, params={"vertex_id": '"1:marko"', "direction": "OUT"}, unordered=("edges",)),
    Step("e-list-label", "GET", E, params={"vertex_id": '"1:josh"', "direction": "BOTH", "label": "created"},
         unordered=("edges",)),
    Step("e-list-in", "GET", E, params={"vertex_id": '"2:lop"', "direction": "IN"}, unordered=("edges",)),
    Step("e-list-all", "GET", E, params={"label": "created"}, unordered=("edges",)),
    Step("e-list-props", "GET", E, params={"label": "knows", "properties": '{"weight":"P.gt(0.6)"}'},
         unordered=("edges",)),
    Step("e-list-page-vertex", "GET", E, params={"vertex_id": '"1:marko"', "page": ""}),
    Step("e-append", "PUT", f"{E}/{{knows}}", {"properties": {"weight": 0.9}}, {"action": "append"}),
    # -- traversers
    Step("t-kout-1", "GET", f"{T}/kout", params={"source": '"1:marko"', "max_depth": 1}, unordered=("vertices",)),
    Step("t-kout-2", "GET", f"{T}/kout", params={"source": '"1:marko"', "max_depth": 2}, unordered=("vertices",)),
    Step("t-kout-out", "GET", f"{T}/kout", params={"source": '"1:marko"', "max_depth": 2, "direction": "OUT"},
         unordered=("vertices",)),
    Step("t-kneighbor", "GET", f"{T}/kneighbor", params={"source": '"1:marko"', "max_depth": 2},
         unordered=("vertices",)),
    Step("t-shortest", "GET", f"{T}/shortestpath",
         params={"source": '"1:vadas"', "target": '"2:ripple"', "max_depth": 5}, unordered=("edges",)),
    Step("t-paths", "GET", f"{T}/paths", params={"source": '"1:marko"', "target": '"2:lop"', "max_depth": 3},
         unordered=("paths",)),
    Step("t-crosspoints", "GET", f"{T}/crosspoints",
         params={"source": '"1:marko"', "target": '"1:peter"', "max_depth": 3}, unordered=("crosspoints",)),
    Step("t-rings", "GET", f"{T}/rings", params={"source": '"1:marko"', "max_depth": 3},
         unordered=("rings", "vertices", "edges")),
    Step("t-rays", "GET", f"{T}/rays", params={"source": '"1:marko"', "max_depth": 2, "direction": "OUT"},
         unordered=("rays", "vertices", "edges")),
    Step("t-sameneighbors", "GET", f"{T}/sameneighbors", params={"vertex": '"1:marko"', "other": '"1:peter"'},
         unordered=("same_neighbors",)),
    Step("t-jaccard", "GET", f"{T}/jaccardsimilarity", params={"vertex": '"1:marko"', "other": '"1:peter"'}),
    Step("t-vertices", "GET", f"{T}/vertices", params=[("ids", '"1:marko"'), ("ids", '"2:lop"')],
         unordered=("vertices",)),
    Step("t-count", "POST", f"{T}/count", {"source": "1:marko", "steps": [{"direction": "OUT"}, {"direction": "OUT"}]}),
    Step("t-personalrank", "POST", f"{T}/personalrank",
         {"source": "1:marko", "label": "created", "max_depth": 3}),
    Step("t-neighborrank", "POST", f"{T}/neighborrank",
         {"source": "1:marko", "alpha": 0.9, "steps": [{"direction": "BOTH", "top": 10}]}),
    Step("t-kout-missing-source", "GET", f"{T}/kout", params={"source": '"1:nobody"', "max_depth": 1}),
    Step("t-kout-bad-depth", "GET", f"{T}/kout", params={"source": '"1:marko"', "max_depth": 0}),
    # -- more traversers
    Step("t-kout-post", "POST", f"{T}/kout",
         {"source": "1:marko", "steps": {"direction": "OUT"}, "max_depth": 2, "with_vertex": False},
         unordered=("kout",)),
    Step("t-kneighbor-post", "POST", f"{T}/kneighbor",
         {"source": "1:marko", "steps": {"direction": "BOTH"}, "max_depth": 1}, unordered=("kneighbor",)),
    Step("t-allshortest", "GET", f"{T}/allshortestpaths",
         params={"source": '"1:vadas"', "target": '"2:lop"', "max_depth": 5},
         unordered=("paths", "vertices", "edges")),
    Step("t-weightedshortest", "GET", f"{T}/weightedshortestpath",
         params={"source": '"1:vadas"', "target": '"2:ripple"', "weight": "weight"},
         unordered=("vertices", "edges")),
    Step("t-singlesource", "GET", f"{T}/singlesourceshortestpath",
         params={"source": '"1:marko"', "weight": "weight", "direction": "OUT"},
         unordered=("vertices", "edges")),
    Step("t-multinode", "POST", f"{T}/multinodeshortestpath",
         {"vertices": {"ids": ["1:marko", "2:ripple", "1:peter"]}, "step": {"direction": "BOTH"}, "max_depth": 5},
         unordered=("paths", "vertices", "edges")),
    Step("t-customizedpaths", "POST", f"{T}/customizedpaths",
         {"sources": {"ids": ["1:marko"]}, "steps": [{"direction": "OUT", "labels": ["knows"]},
                                                     {"direction": "OUT", "labels": ["created"]}],
          "sort_by": "NONE", "with_vertex": False}, unordered=("paths", "vertices", "edges")),
    Step("t-customizedcrosspoints", "POST", f"{T}/customizedcrosspoints",
         {"sources": {"ids": ["1:marko", "1:peter"]},
          "path_patterns": [{"steps": [{"direction": "OUT", "labels": ["created"]}]}],
          "with_path": True, "with_vertex": False}, unordered=("crosspoints", "paths", "vertices", "edges")),
    Step("t-templatepaths", "POST", f"{T}/templatepaths",
         {"sources": {"ids": ["1:marko"]}, "targets": {"ids": ["2:ripple"]},
          "steps": [{"direction": "OUT", "labels": ["knows"]}, {"direction": "OUT", "labels": ["created"]}]},
         unordered=("paths", "vertices", "edges")),
    Step("t-edges", "GET", f"{T}/edges", params={"ids": "{knows}"}),
    # -- vertex paging, page by page
    Step("v-page-1", "GET", V, params={"page": "", "limit": 3}, capture="page1", sizes=("vertices",)),
    Step("v-page-2", "GET", V, params={"page": "{page1}", "limit": 3}, capture="page2", sizes=("vertices",)),
    Step("v-page-3", "GET", V, params={"page": "{page2}", "limit": 3}, sizes=("vertices",)),
    # -- graphs, modes, versions
    Step("graph-get", "GET", G),
    Step("versions", "GET", "/versions"),
    Step("mode-get", "GET", f"{G}/mode"),
    Step("read-mode-get", "GET", f"{G}/graph_read_mode"),
    Step("mode-put", "PUT", f"{G}/mode", "RESTORING"),
    Step("mode-put-back", "PUT", f"{G}/mode", "NONE"),
    Step("mode-put-bad", "PUT", f"{G}/mode", "NOPE"),
    # -- batch edge update
    Step("e-batch-update", "PUT", f"{E}/batch",
         {"edges": [_e("knows", "1:marko", "person", "1:vadas", "person", date="20160110", weight=0.1)],
          "update_strategies": {"weight": "SUM"}, "check_vertex": False, "create_if_not_exist": True}),
    # -- /gremlin and /jobs/gremlin (`__G__`: the server's traversal source for the graph)
    Step("gremlin-count", "POST", "/gremlin", {"gremlin": "g.V().count()", "aliases": {"g": "__G__"}}),
    Step("gremlin-values", "POST", "/gremlin",
         {"gremlin": "g.V().hasLabel('person').values('name').order()", "aliases": {"g": "__G__"}}),
    Step("gremlin-vertex", "POST", "/gremlin", {"gremlin": "g.V('1:marko')", "aliases": {"g": "__G__"}}),
    Step("gremlin-edge", "POST", "/gremlin",
         {"gremlin": "g.V('1:josh').outE('created').has('weight', 1.0)", "aliases": {"g": "__G__"}}),
    Step("gremlin-path", "POST", "/gremlin",
         {"gremlin": "g.V('1:marko').out('knows').out('created').path().by('name')", "aliases": {"g": "__G__"}}),
    Step("gremlin-groupcount", "POST", "/gremlin",
         {"gremlin": "g.V().groupCount().by(label)", "aliases": {"g": "__G__"}}),
    Step("gremlin-bindings", "POST", "/gremlin",
         {"gremlin": "g.V().hasLabel('person').has('name', n).values('age')", "bindings": {"n": "josh"},
          "aliases": {"g": "__G__"}}),
    Step("gremlin-unindexed", "POST", "/gremlin",
         {"gremlin": "g.V().has('name', 'josh').values('age')", "aliases": {"g": "__G__"}}),
    Step("gremlin-get", "GET", "/gremlin", params={"gremlin": "g.V().count()", "aliases.g": "__G__"}),
    Step("gremlin-syntax", "POST", "/gremlin", {"gremlin": "g.V(", "aliases": {"g": "__G__"}}),
    Step("gremlin-unknown-name", "POST", "/gremlin", {"gremlin": "x.foo()", "aliases": {"g": "__G__"}}),
    Step("gremlin-div-zero", "POST", "/gremlin", {"gremlin": "1/0", "aliases": {"g": "__G__"}}),
    Step("gremlin-no-alias", "POST", "/gremlin", {"gremlin": "g.V().count()"}),
    Step("gremlin-timeout", "POST", "/gremlin",
         {"gremlin": "g.V().repeat(both()).times(40).path().count()", "aliases": {"g": "__G__"}}),
    Step("job-submit", "POST", f"{G}/jobs/gremlin", {"gremlin": "g.V().count()"}, capture="job"),
    Step("job-task", "GET", f"{G}/tasks/{{job}}", poll=True),
    Step("job-submit-error", "POST", f"{G}/jobs/gremlin", {"gremlin": "g.V(", "aliases": {}}, capture="badjob"),
    Step("job-task-error", "GET", f"{G}/tasks/{{badjob}}", poll=True),
    Step("task-missing", "GET", f"{G}/tasks/987654"),
    Step("tasks-list", "GET", f"{G}/tasks", params={"status": "SUCCESS"}, unordered=("tasks",)),
    # -- deletes
    Step("e-delete", "DELETE", f"{E}/{{knows}}"),
    Step("v-delete", "DELETE", f"{V}/\"1:peter\""),
    Step("v-count-after-delete", "GET", V, params={"label": "person"}, unordered=("vertices",)),
    Step("pk-delete-in-use", "DELETE", f"{S}/propertykeys/name"),
    Step("il-delete", "DELETE", f"{S}/indexlabels/personByAge"),
    Step("vl-delete", "DELETE", f"{S}/vertexlabels/num", capture="vldelete"),
    Step("vl-delete-task", "GET", f"{G}/tasks/{{vldelete}}", poll=True),
    Step("vl-get-deleted", "GET", f"{S}/vertexlabels/num"),
]
