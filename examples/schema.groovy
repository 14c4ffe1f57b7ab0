// A loader-style schema script (hugegraph-loader's `schema.groovy`), sent through /gremlin.
//
//   curl -s http://127.0.0.1:8080/gremlin -H 'Content-Type: application/json' \
//     -d "$(python3 -c 'import json,sys; print(json.dumps({"gremlin": open(sys.argv[1]).read(),
//          "aliases": {"graph": "hugegraph", "g": "__g_hugegraph"}}))' examples/schema.groovy)"
//
// hugegraph-loader binds `schema` itself; over /gremlin the first line binds it (leave it
// out for the loader). Every statement is idempotent (`ifNotExist()` on an identical
// definition), so the script can be sent again; a different definition under an existing
// name is refused with ExistedException, as HugeGraph does. The value of the last line is
// the answer: the index labels.

schema = graph.schema()

// property keys: data type (asText/asInt/asLong/asDouble/asDate/asBoolean/...) and cardinality
schema.propertyKey("name").asText().ifNotExist().create()
schema.propertyKey("age").asInt().ifNotExist().create()
schema.propertyKey("city").asText().ifNotExist().create()
schema.propertyKey("lang").asText().ifNotExist().create()
schema.propertyKey("weight").asDouble().ifNotExist().create()
schema.propertyKey("date").asDate().ifNotExist().create()
schema.propertyKey("aliases").asText().valueSet().ifNotExist().create()

// vertex labels: ids from primary keys ("<label id>:<name>") or given by the client
// (person, software, knows and created are defined exactly as in the other examples, so
// they can all share one graph)
schema.vertexLabel("person").properties("name", "age", "city").primaryKeys("name")
      .nullableKeys("age", "city").ifNotExist().create()
schema.vertexLabel("software").properties("name", "lang").primaryKeys("name")
      .nullableKeys("lang").ifNotExist().create()
schema.vertexLabel("tag").properties("name", "aliases").useCustomizeStringId()
      .nullableKeys("aliases").ifNotExist().create()

// edge labels: endpoints, properties; a sort key lets one pair hold several edges
schema.edgeLabel("knows").sourceLabel("person").targetLabel("person")
      .properties("weight").nullableKeys("weight").ifNotExist().create()
schema.edgeLabel("created").sourceLabel("person").targetLabel("software")
      .properties("weight").nullableKeys("weight").ifNotExist().create()
schema.edgeLabel("tagged").sourceLabel("software").targetLabel("tag")
      .properties("date").multiTimes().sortKeys("date").ifNotExist().create()

// index labels: what REST queries by property (and has() lookups) may use
schema.indexLabel("personByCity").onV("person").by("city").secondary().ifNotExist().create()
schema.indexLabel("personByAge").onV("person").by("age").range().ifNotExist().create()
schema.indexLabel("softwareByLang").onV("software").by("lang").secondary().ifNotExist().create()
schema.indexLabel("createdByWeight").onE("created").by("weight").range().ifNotExist().create()

schema.getIndexLabels()
