"""Apache HugeGraph's configuration, written by us: loopback only, RocksDB in the run folder.

Files (their keys are HugeGraph's, read from its shipped configuration): `rest-server.properties`
(REST address, the Gremlin Server it forwards `/gremlin` to, the graphs folder),
`gremlin-server.yaml` (HugeGraph's embedded Gremlin Server, TinkerPop 3.5 class names; written
as JSON, which YAML parsers read), `graphs/hugegraph.properties` (one graph, RocksDB, binary
serializer, local task scheduler) and `log4j2.xml` (console only: the run folder holds the log).
"""

from __future__ import annotations

import json
from pathlib import Path

#: short, so that the differential suite can compare a timeout without waiting long (hugelite
#: runs with the same `gremlinserver.evaluation_timeout_ms`)
EVALUATION_TIMEOUT_MS = 10000
SER = "org.apache.tinkerpop.gremlin.driver.ser"
HUGE_IO = "org.apache.hugegraph.io.HugeGraphIoRegistry"

LOG4J2 = """<?xml version="1.0" encoding="UTF-8"?>
<configuration status="error">
  <appenders>
    <Console name="console" target="SYSTEM_OUT">
      <PatternLayout pattern="%d{HH:mm:ss.SSS} [%t] %p %c{1} - %m%n"/>
    </Console>
  </appenders>
  <loggers>
    <root level="WARN"><appender-ref ref="console"/></root>
    <logger name="org.apache.hugegraph" level="INFO"/>
  </loggers>
</configuration>
"""


def _properties(values: dict[str, object]) -> str:
    return "".join(f"{key}={value}\n" for key, value in values.items())


def write(run: Path, rest_port: int, gremlin_port: int) -> tuple[Path, Path]:
    """Writes the configuration into `run`; returns (gremlin-server.yaml, rest-server.properties)."""
    graphs = run / "graphs"
    graphs.mkdir(parents=True, exist_ok=True)
    data = run / "rocksdb-data"
    (graphs / "hugegraph.properties").write_text(_properties({
        "gremlin.graph": "org.apache.hugegraph.HugeFactory",
        "backend": "rocksdb",
        "serializer": "binary",
        "store": "hugegraph",
        "rocksdb.data_path": data,
        "rocksdb.wal_path": data,
        "task.scheduler_type": "local",
        "task.wait_timeout": 10,
        "search.text_analyzer": "jieba",
        "search.text_analyzer_mode": "INDEX",
    }))
    rest = run / "rest-server.properties"
    rest.write_text(_properties({
        "restserver.url": f"http://127.0.0.1:{rest_port}",
        "gremlinserver.url": f"http://127.0.0.1:{gremlin_port}",
        "graphs": graphs,
        "batch.max_write_ratio": 80,
        "batch.max_write_threads": 0,
        "server.id": "anchor-1",
        "server.role": "master",
    }))
    (run / "log4j2.xml").write_text(LOG4J2)
    serializers = [
        {"className": f"{SER}.{name}", "config": {"serializeResultToString": False, "ioRegistries": [HUGE_IO]}}
        for name in ("GraphBinaryMessageSerializerV1", "GraphSONMessageSerializerV1d0",
                     "GraphSONMessageSerializerV2d0", "GraphSONMessageSerializerV3d0")
    ]
    config = {
        "host": "127.0.0.1",
        "port": gremlin_port,
        "evaluationTimeout": EVALUATION_TIMEOUT_MS,
        "channelizer": "org.apache.tinkerpop.gremlin.server.channel.WsAndHttpChannelizer",
        "graphs": {},
        "scriptEngines": {
            "gremlin-groovy": {
                "plugins": {
                    "org.apache.hugegraph.plugin.HugeGraphGremlinPlugin": {},
                    "org.apache.tinkerpop.gremlin.server.jsr223.GremlinServerGremlinPlugin": {},
                    "org.apache.tinkerpop.gremlin.jsr223.ImportGremlinPlugin": {
                        "classImports": ["java.lang.Math", "org.apache.hugegraph.backend.id.IdGenerator",
                                         "org.apache.hugegraph.type.define.Directions",
                                         "org.apache.hugegraph.traversal.optimize.Text"],
                        "methodImports": ["java.lang.Math#*"],
                    },
                }
            }
        },
        "serializers": serializers,
        "metrics": {"slf4jReporter": {"enabled": False}},
        "maxContentLength": 65536,
        "resultIterationBatchSize": 64,
        "ssl": {"enabled": False},
    }
    yaml = run / "gremlin-server.yaml"
    yaml.write_text(json.dumps(config, indent=2) + "\n")
    return yaml, rest
