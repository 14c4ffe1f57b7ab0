#!/usr/bin/env bash
# curl walkthrough: HugeGraph's REST interface on hugelite, one command per step.
#
#   make run                                   # in another terminal
#   bash examples/curl.sh [http://127.0.0.1:8080] [hugegraph]
#
# Read it as a cheat sheet: running it prints each request as a plain curl command you can
# paste, then the JSON answer and the status. The graph must be a strict
# (HugeGraph-schema) graph; the schema matches the other examples, and every write is an
# upsert or guarded, so it can run again. Needs curl and python3 (to read one task id).
set -euo pipefail

URL=${1:-http://127.0.0.1:8080}
G=${2:-hugegraph}
API="$URL/graphs/$G"             # also served as $URL/graphspaces/DEFAULT/graphs/$G
JSON='Content-Type: application/json'

# call METHOD URL [BODY]: prints the request, the answer and its status
call() {
  local method=$1 url=$2 body=${3:-}
  echo "\$ curl -X $method '$url'${body:+ -H '$JSON' -d '$body'}"
  if [ -n "$body" ]; then
    curl -sS -X "$method" "$url" -H "$JSON" -d "$body" -w '\n-> %{http_code}\n'
  else
    curl -sS -X "$method" "$url" -w '\n-> %{http_code}\n'
  fi
  echo
}

# --- server ---------------------------------------------------------------------------
call GET "$URL/versions"
call GET "$URL/graphs"
call GET "$API"

# --- schema: property keys (202 + task id), labels (201), index labels (202) -------------
# a name that exists answers 400 ExistedException; GET it first to create only what is missing
ensure() {
  local kind=$1 name=$2 body=$3
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "$API/schema/$kind/$name")" = 404 ]; then
    call POST "$API/schema/$kind" "$body"
  else
    echo "# $kind/$name exists"
  fi
}
ensure propertykeys name   '{"name": "name", "data_type": "TEXT", "cardinality": "SINGLE"}'
ensure propertykeys age    '{"name": "age", "data_type": "INT", "cardinality": "SINGLE"}'
ensure propertykeys city   '{"name": "city", "data_type": "TEXT", "cardinality": "SINGLE"}'
ensure propertykeys lang   '{"name": "lang", "data_type": "TEXT", "cardinality": "SINGLE"}'
ensure propertykeys weight '{"name": "weight", "data_type": "DOUBLE", "cardinality": "SINGLE"}'
ensure vertexlabels person '{"name": "person", "id_strategy": "PRIMARY_KEY", "properties": ["name", "age", "city"], "primary_keys": ["name"], "nullable_keys": ["age", "city"]}'
ensure vertexlabels software '{"name": "software", "id_strategy": "PRIMARY_KEY", "properties": ["name", "lang"], "primary_keys": ["name"], "nullable_keys": ["lang"]}'
ensure edgelabels knows    '{"name": "knows", "source_label": "person", "target_label": "person", "frequency": "SINGLE", "properties": ["weight"], "nullable_keys": ["weight"]}'
ensure edgelabels created  '{"name": "created", "source_label": "person", "target_label": "software", "frequency": "SINGLE", "properties": ["weight"], "nullable_keys": ["weight"]}'
ensure indexlabels personByCity '{"name": "personByCity", "base_type": "VERTEX_LABEL", "base_value": "person", "index_type": "SECONDARY", "fields": ["city"]}'
ensure indexlabels personByAge  '{"name": "personByAge", "base_type": "VERTEX_LABEL", "base_value": "person", "index_type": "RANGE", "fields": ["age"]}'
call GET "$API/schema/propertykeys/age"
call GET "$API/schema"

# --- vertices ---------------------------------------------------------------------------
call POST "$API/graph/vertices" '{"label": "person", "properties": {"name": "marko", "age": 29, "city": "Beijing"}}'
call POST "$API/graph/vertices/batch" '[{"label": "person", "properties": {"name": "josh", "age": 32, "city": "Beijing"}}, {"label": "software", "properties": {"name": "lop", "lang": "java"}}]'
# ids in a URL are JSON literals: a string id is quoted ("1:marko" -> %221%3Amarko%22)
call GET "$API/graph/vertices/%221%3Amarko%22"
# append a property (append / eliminate are the two actions)
call PUT "$API/graph/vertices/%221%3Ajosh%22?action=append" '{"label": "person", "properties": {"age": 33}}'
# a query by an indexed property: `properties` is a JSON object (values may be P.gt(..) etc.)
call GET "$API/graph/vertices?label=person&properties=%7B%22city%22%3A%22Beijing%22%7D"
call GET "$API/graph/vertices?label=person&properties=%7B%22age%22%3A%22P.gt(30)%22%7D"
# paging: a bare `page` asks for the first page; the answer's "page" is the next cursor
call GET "$API/graph/vertices?label=person&limit=1&page"

# --- edges ------------------------------------------------------------------------------
call POST "$API/graph/edges" '{"label": "knows", "outV": "1:marko", "inV": "1:josh", "outVLabel": "person", "inVLabel": "person", "properties": {"weight": 1.0}}'
call POST "$API/graph/edges/batch" '[{"label": "created", "outV": "1:josh", "inV": "2:lop", "outVLabel": "person", "inVLabel": "software", "properties": {"weight": 0.4}}]'
# edge ids are five-part strings (S<out id>><label id>><sub-label id>><sort values>>S<in id>)
call GET "$API/graph/edges/S1:marko%3E1%3E1%3E%3ES1:josh"
call GET "$API/graph/edges?vertex_id=%221%3Amarko%22&direction=OUT"
# errors: HugeGraph's body {"exception": "class ...", "message", "cause"} and status
call GET "$API/graph/vertices/%221%3Anobody%22"
call GET "$API/graph/edges?label=knows&properties=%7B%22weight%22%3A1.0%7D"

# --- traversers -------------------------------------------------------------------------
call GET "$API/traversers/kout?source=%221%3Amarko%22&max_depth=2"
call GET "$API/traversers/shortestpath?source=%221%3Amarko%22&target=%222%3Alop%22&max_depth=3"
call POST "$API/traversers/kneighbor" '{"source": "1:marko", "steps": {"direction": "BOTH"}, "max_depth": 2, "with_vertex": false}'

# --- Gremlin ----------------------------------------------------------------------------
# `g` exists only through aliases; every graph is also bound as __g_<graph>
# (values go in `bindings`, which also keeps quotes out of the script text)
call POST "$URL/gremlin" "{\"gremlin\": \"g.V().hasLabel(l).values(k)\", \"bindings\": {\"l\": \"person\", \"k\": \"name\"}, \"aliases\": {\"g\": \"__g_$G\"}}"
call GET "$URL/gremlin?gremlin=__g_$G.V().count()"
# a script as an asynchronous task: 201 {"task_id"}, then poll /tasks/{id}
TASK=$(curl -sS -X POST "$API/jobs/gremlin" -H "$JSON" -d '{"gremlin": "g.V().count()"}' \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["task_id"])')
sleep 1
call GET "$API/tasks/$TASK"

# --- variables, metrics -----------------------------------------------------------------
call PUT "$API/variables/owner" '{"data": "examples/curl.sh"}'
call GET "$API/variables"
# per sqlite graph: backend, store, element counts (`/metrics?type=json` has every metric: tens of KB)
call GET "$URL/metrics/backend"
