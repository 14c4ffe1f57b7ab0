"""The two anchor releases, by Maven coordinates, and the ports they listen on (18700-18799).

HugeGraph 1.7.0's `hugegraph-struct` POM names its parent as `hugegraph:${revision}`, a
placeholder the release never replaced, so Maven cannot read that POM and refuses the whole
closure. It is cut from the closure (`exclude`) and its jar copied alone (`bare`); the other
modules' POMs declare everything it needs (`hg-pd-client`, `hugegraph-common`, gson, guava).

HugeGraph's Gremlin Server (TinkerPop 3.5.1) brings Groovy 2.5.14, whose bundled ASM cannot
read Java 17 class files ("Unsupported class file major version 61"): its script engine then
fails to start and `/gremlin` cannot bind `__g_hugegraph`. The machine has Java 17 (and 25),
not 11, so Groovy is pinned to 2.5.23, the last 2.5 release, whose ASM reads Java 17.
"""

from __future__ import annotations

from compare.maven import Artifact, Release

TINKERPOP_VERSION = "3.8.1"
HUGEGRAPH_VERSION = "1.7.0"
GROOVY_VERSION = "2.5.23"

GREMLIN_SERVER_PORT = 18710
HUGEGRAPH_REST_PORT = 18720
HUGEGRAPH_GREMLIN_PORT = 18721

_STRUCT = "org.apache.hugegraph:hugegraph-struct"

TINKERPOP = Release(
    "tinkerpop",
    tuple(
        Artifact("org.apache.tinkerpop", name, TINKERPOP_VERSION)
        for name in ("gremlin-server", "tinkergraph-gremlin", "gremlin-groovy")
    )
    # gremlin-server ships no slf4j binding; without one its log (start-up errors) is lost
    + (Artifact("org.slf4j", "slf4j-simple", "1.7.25"),),
)

HUGEGRAPH = Release(
    "hugegraph",
    (
        Artifact("org.apache.hugegraph", "hugegraph-dist", HUGEGRAPH_VERSION, (_STRUCT,)),
        Artifact("org.apache.hugegraph", "hugegraph-rocksdb", HUGEGRAPH_VERSION, (_STRUCT,)),
    ),
    bare=(Artifact("org.apache.hugegraph", "hugegraph-struct", HUGEGRAPH_VERSION),),
    manage=tuple(
        Artifact("org.codehaus.groovy", name, GROOVY_VERSION, classifier=classifier)
        for name, classifier in (
            ("groovy", "indy"), ("groovy-groovysh", "indy"), ("groovy-json", "indy"),
            ("groovy-jsr223", "indy"), ("groovy", ""), ("groovy-json", ""), ("groovy-cli-picocli", ""),
            ("groovy-console", ""), ("groovy-swing", ""), ("groovy-templates", ""), ("groovy-xml", ""),
        )
    ),
)
