"""Embedded gremlinpython: the hugelite engine in-process on an SQLite file, no server.

    .venv/bin/python examples/embedded_gremlinpython.py [path/to/graph.db]

`EmbeddedConnection` is a gremlinpython `RemoteConnection`, so the usual
`traversal().with_(connection)` API works unchanged; every traversal runs (and commits) in
the same engine the server uses. The file is created and initialised when missing; without
an argument a temporary file is used.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Order, P, T

from gremlin_engine.embedded import EmbeddedConnection


def main(db: Path) -> None:
    with EmbeddedConnection(db) as conn:  # schema_mode="auto": labels and keys appear on first use
        g = traversal().with_(conn)
        if g.V().count().next() == 0:
            people = {name: age for name, age in [("marko", 29), ("vadas", 27), ("josh", 32), ("peter", 35)]}
            for name, age in people.items():
                g.add_v("person").property("name", name).property("age", age).iterate()
            for software in ("lop", "ripple"):
                g.add_v("software").property("name", software).property("lang", "java").iterate()
            for a, label, b, weight in [("marko", "knows", "vadas", 0.5), ("marko", "knows", "josh", 1.0),
                                        ("marko", "created", "lop", 0.4), ("josh", "created", "ripple", 1.0),
                                        ("josh", "created", "lop", 0.4), ("peter", "created", "lop", 0.2)]:
                g.V().has("name", a).add_e(label).to(__.V().has("name", b)).property("weight", weight).iterate()

        print("vertices by label:", g.V().group_count().by(T.label).next())
        print("older than 30:", g.V().has("age", P.gt(30)).order().by("age", Order.desc).values("name").to_list())
        print("marko's friends:", g.V().has("name", "marko").out("knows").values("name").order().to_list())
        print("co-creators of lop:",
              g.V().has("name", "lop").in_("created").values("name").order().to_list())
        marko = g.V().has("name", "marko").next()
        print("marko as a vertex:", marko, {p.key: p.value for p in marko.properties})


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(Path(tmp) / "example.db")
