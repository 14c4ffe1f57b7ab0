"""Loading a toy graph over the wire when the server has no `g.io(file).read()`.

The executor first asks the server to read the GraphSON file itself (`g.io(...)`, from its
import folder). A server without the `io()` step gets the same graph through plain
gremlinpython bytecode instead: chained `addV(label).property(T.id, id)` with every property
at its cardinality, vertex-property ids (`T.id`) and meta-properties, then chained
`V(out).addE(label).to(__.V(in)).property(T.id, id)`. Ids, types and multi-properties come
out as the in-process loader makes them, so element look-ups and results match.
"""

from __future__ import annotations

from typing import Any

from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import T

from gremlin_engine.io import GraphRecords
from tests.wire.conformance.values import to_gp

VERTEX_BATCH = 25
EDGE_BATCH = 50


def load_by_bytecode(g: Any, records: GraphRecords) -> tuple[int, int]:
    """Writes `records` through the traversal source `g`; (vertices, edges) written."""
    for start in range(0, len(records.vertices), VERTEX_BATCH):
        t: Any = g
        for vr in records.vertices[start:start + VERTEX_BATCH]:
            t = t.add_v(vr.label).property(T.id, to_gp(vr.id))
            for p in vr.properties:
                args: list[Any] = [to_gp(vr.cardinality(p.key)), p.key, to_gp(p.value)]
                if p.id is not None:
                    args += [T.id, to_gp(p.id)]
                for k, v in p.meta.items():
                    args += [k, to_gp(v)]
                t = t.property(*args)
        t.iterate()
    for start in range(0, len(records.edges), EDGE_BATCH):
        t = g
        for er in records.edges[start:start + EDGE_BATCH]:
            t = t.V(to_gp(er.out_v)).add_e(er.label).to(__.V(to_gp(er.in_v))).property(T.id, to_gp(er.id))
            for k, v in er.properties.items():
                t = t.property(k, to_gp(v))
        t.iterate()
    return len(records.vertices), len(records.edges)
