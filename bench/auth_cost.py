"""What the engine's permission checks cost, in process, beside the administrator (issue 19).

    python -m bench.auth_cost [--people 20000] [--degree 5] [--rounds 15] [--calls 200]

One file store (a strict `person` label: `name` primary key, `city` with a secondary index,
`knows` edges, `degree` out-edges a person, a fifth of the people in Beijing) and two
principals: the anonymous administrator, and a user whose READ target is HugeGraph's
property-conditioned example (`{"type": "VERTEX", "label": "person", "properties":
{"city": "Beijing"}}` plus every edge). Two REST-shaped calls, made as the REST handlers make
them (a traversal with the REST door's context, results loaded; no HTTP, no JSON):

* `get`: `GET /graph/vertices/{id}` (`g.V(id)`, a single-element read) of a Beijing person;
* `kout2`: `GET /traversers/kout?source=..&max_depth=2&direction=OUT&label=knows` from one.

Rounds alternate admin / user / user / admin; each round times `calls` calls with
`time.process_time` (CPU per call); the figures are the medians over the rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.context import REST, ExecutionContext
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.traversal.ir import Instruction, TraversalIR

USER = Principal("beijing", "-63:beijing", admin=False, role={"bench": {"READ": [
    {"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}, {"type": "EDGE"}]}})
CITIES = ["Beijing", "Shanghai", "Hongkong", "Paris", "Lima"]


def ir(*steps: tuple[Any, ...]) -> TraversalIR:
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps))


def build(path: Path, people: int, degree: int) -> Graph:
    cfg = GraphConfig(name="bench", backend="sqlite", store=str(path), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    graph = GraphRegistry(evaluation_timeout_ms=0).open(cfg)
    s = graph.schema
    s.create("propertykey", {"name": "name", "data_type": "TEXT"})
    s.create("propertykey", {"name": "city", "data_type": "TEXT"})
    s.create("vertexlabel", {"name": "person", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"],
                             "properties": ["name", "city"]})
    s.create("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person"})
    s.create("indexlabel", {"name": "personByCity", "base_type": "VERTEX_LABEL", "base_value": "person",
                            "index_type": "SECONDARY", "fields": ["city"], "rebuild": False})
    rng = random.Random(7)
    for lo in range(0, people, 2000):
        items = [{"label": "person", "properties": {"name": f"p{i}", "city": CITIES[i % 5]}}
                 for i in range(lo, min(people, lo + 2000))]
        graph.traverse(ir(("inject", *items), ("hgAddVertices",), ("id",)))
    edges = [(i, rng.randrange(people)) for i in range(people) for _ in range(degree)]
    for lo in range(0, len(edges), 5000):
        items = [{"label": "knows", "outV": f"1:p{a}", "inV": f"1:p{b}", "outVLabel": "person",
                  "inVLabel": "person", "properties": {}} for a, b in edges[lo:lo + 5000] if a != b]
        graph.traverse(ir(("inject", *items), ("hgAddEdges", False), ("id",)))
    return graph


def timed(graph: Graph, who: Principal, calls: list[TraversalIR], strict: bool) -> float:
    """CPU seconds per call over `calls`."""
    start = time.process_time()
    for t in calls:
        graph.traverse(t, ctx=ExecutionContext(who, REST, strict_reads=strict))
    return (time.process_time() - start) / len(calls)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--people", type=int, default=20000)
    ap.add_argument("--degree", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        graph = build(Path(tmp) / "bench.db", args.people, args.degree)
        sources = [f"1:p{i}" for i in range(0, args.people, 5)][: args.calls]  # Beijing people
        ops = {
            "get": ([ir(("V", s)) for s in sources], True),
            "kout2": ([ir(("inject", {"source": s, "max_depth": 2, "direction": "OUT", "label": "knows",
                                      "max_degree": -1, "capacity": -1, "limit": -1}), ("hg_kout",))
                       for s in sources[: max(1, args.calls // 4)]], False),
        }
        for name, (calls, strict) in ops.items():
            a = graph.traverse(calls[0], ctx=ExecutionContext(ANONYMOUS_ADMIN, REST))
            b = graph.traverse(calls[0], ctx=ExecutionContext(USER, REST, strict_reads=strict))
            if name == "get":
                assert [v.id for v in a] == [v.id for v in b]
            timed(graph, ANONYMOUS_ADMIN, calls, strict)  # warm both
            timed(graph, USER, calls, strict)
            admin: list[float] = []
            user: list[float] = []
            for r in range(args.rounds):
                order = (ANONYMOUS_ADMIN, USER) if r % 2 == 0 else (USER, ANONYMOUS_ADMIN)
                for who in order:
                    (admin if who is ANONYMOUS_ADMIN else user).append(timed(graph, who, calls, strict))
            ma, mu = statistics.median(admin), statistics.median(user)
            extra = ""
            if name == "kout2":
                extra = (f"  (answers: admin {len(a[0]['vertices'])} vertices, "
                         f"user {len(b[0]['vertices'])})")
            print(f"{name:6} admin {ma * 1e6:9.1f} us/call   user {mu * 1e6:9.1f} us/call   "
                  f"ratio {mu / ma:5.2f}{extra}")
        graph.close()


if __name__ == "__main__":
    main()
