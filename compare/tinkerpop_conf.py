"""Gremlin Server's configuration, written by us: loopback only, TinkerGraph graphs.

Graphs: `modern`, `crew` and `grateful` (TinkerPop's sample data, read from the GraphSON 3.0
files that hugelite's comparison server loads too; numeric ids as longs) and an empty
`scratch` for writes. Traversal sources are `g<graph>` (`gmodern`, ...) and `g` (scratch).
The YAML file is written as JSON, which YAML parsers read as it is.
"""

from __future__ import annotations

import json
from pathlib import Path

from compare.hugegraph_conf import EVALUATION_TIMEOUT_MS

SAMPLES = {"modern": "tinkerpop-modern-v3.json", "crew": "tinkerpop-crew-v3.json",
           "grateful": "grateful-dead-v3.json"}
SER = "org.apache.tinkerpop.gremlin.util.ser"
TINKER_IO = "org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerIoRegistryV3"


def _graph_properties(cardinality: str) -> str:
    """Numeric ids as Java longs, as Gremlin Server's own sample configuration sets them (and as
    hugelite stores them): the files' Int32 ids are read as Int64."""
    managers = "".join(f"gremlin.tinkergraph.{kind}IdManager=LONG\n" for kind in ("vertex", "edge", "vertexProperty"))
    return (
        "gremlin.graph=org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph\n"
        f"gremlin.tinkergraph.defaultVertexPropertyCardinality={cardinality}\n" + managers
    )


def _init_script(data_dir: Path) -> str:
    lines = [
        f"{name}.traversal().io({json.dumps(str(data_dir / file))}).read().iterate()"
        for name, file in SAMPLES.items()
    ]
    sources = ", ".join(f"g{name}: {name}.traversal()" for name in SAMPLES)
    return "\n".join([*lines, "def globals = [:]", f"globals << [g: scratch.traversal(), {sources}]", ""])


def write(run: Path, port: int, data_dir: Path) -> Path:
    """Writes the configuration into `run`; returns the server YAML's path."""
    run.mkdir(parents=True, exist_ok=True)
    graphs = {}
    for name in ("scratch", *SAMPLES):
        # the crew carries multi-properties (location): they need list cardinality
        path = run / f"{name}.properties"
        path.write_text(_graph_properties("list" if name == "crew" else "single"))
        graphs[name] = str(path)
    (run / "init.groovy").write_text(_init_script(data_dir))
    config = {
        "host": "127.0.0.1",
        "port": port,
        "evaluationTimeout": EVALUATION_TIMEOUT_MS,
        "channelizer": "org.apache.tinkerpop.gremlin.server.channel.WebSocketChannelizer",
        "graphs": graphs,
        "scriptEngines": {
            "gremlin-groovy": {
                "plugins": {
                    "org.apache.tinkerpop.gremlin.server.jsr223.GremlinServerGremlinPlugin": {},
                    "org.apache.tinkerpop.gremlin.tinkergraph.jsr223.TinkerGraphGremlinPlugin": {},
                    "org.apache.tinkerpop.gremlin.jsr223.ScriptFileGremlinPlugin": {
                        "files": [str(run / "init.groovy")]
                    },
                }
            }
        },
        "serializers": [
            {"className": f"{SER}.GraphBinaryMessageSerializerV1"},
            {"className": f"{SER}.GraphSONMessageSerializerV3", "config": {"ioRegistries": [TINKER_IO]}},
            {"className": f"{SER}.GraphSONMessageSerializerV2", "config": {"ioRegistries": [TINKER_IO]}},
        ],
        "processors": [
            {"className": "org.apache.tinkerpop.gremlin.server.op.session.SessionOpProcessor",
             "config": {"sessionTimeout": 600000}},
            {"className": "org.apache.tinkerpop.gremlin.server.op.traversal.TraversalOpProcessor"},
        ],
        "metrics": {"slf4jReporter": {"enabled": False}},
        "ssl": {"enabled": False},
    }
    yaml = run / "gremlin-server.yaml"
    yaml.write_text(json.dumps(config, indent=2) + "\n")
    return yaml
