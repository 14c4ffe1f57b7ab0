"""`StoreAccess.point_neighbour_ids` makes numeric storage ids `Long` inline: every id it
returns must be exactly (value and type) what `ids.from_storage` makes of the stored id,
for number, string and UUID ids (neighbours of mixed kinds behind one start)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.runtime.reads import storage_direction
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.tokens import Direction

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]}),
    ("vertexlabel", {"name": "thing", "id_strategy": "CUSTOMIZE_STRING", "properties": ["name"]}),
    ("vertexlabel", {"name": "blob", "id_strategy": "CUSTOMIZE_UUID", "properties": ["name"]}),
    *(("edgelabel", {"name": f"{s}_{t}", "source_label": s, "target_label": t})
      for s, t in (("person", "person"), ("person", "thing"), ("person", "blob"), ("thing", "person"),
                   ("blob", "person"))),
)
U = uuid.UUID(int=99)


@pytest.fixture(params=["file", "memory"])
def graph(request: Any, tmp_path: Path) -> Iterator[Graph]:
    registry = GraphRegistry(evaluation_timeout_ms=0)
    if request.param == "file":
        cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "ids.db"))
        GraphRegistry.init_store(cfg)
    else:
        cfg = GraphConfig(name="hugegraph", backend="memory")
    g = registry.open(cfg)
    for kind, body in SCHEMA:
        _el, task = g.schema.create(kind, body)
        if task:
            assert g.tasks.wait(task, 30)["task_status"] == "success"
    with api.write_access(g) as a:
        one = a.add_vertex("person", Long(1), [("name", "one")])
        big = a.add_vertex("person", Long(2**62), [("name", "big")])
        neg = a.add_vertex("person", Long(-5), [("name", "neg")])
        thing = a.add_vertex("thing", "7", [("name", "seven")])
        blob = a.add_vertex("blob", U, [("name", "blob")])
        for end in (big, neg, thing, blob, one):
            a.add_edge(f"person_{end.label}", one, end)
        a.add_edge("thing_person", thing, one)
        a.add_edge("blob_person", blob, one)
    try:
        yield g
    finally:
        registry.close_all()


def _typed(xs: list[Any]) -> list[tuple[type, Any]]:
    return [(type(x), x) for x in xs]


def test_ids_are_what_from_storage_makes(graph: Graph) -> None:
    seen: set[type] = set()
    with api.read_access(graph) as access:
        for start in (Long(1), 1, Long(2**62), Long(-5), "7", U):
            for d in (Direction.OUT, Direction.IN, Direction.BOTH):
                got = access.point_neighbour_ids(start, d, ())
                if got is None:  # the in-memory store may decline; nothing to compare then
                    continue
                wanted = idc.lookup_id(start)
                rows = access.tx.neighbour_ids(idc.to_storage(wanted), storage_direction(d), None)
                assert _typed(got) == _typed([idc.from_storage(r[1]) for r in rows]), (start, d)
                seen.update(type(x) for x in got)
    assert seen >= {Long, str, uuid.UUID} or graph.config.backend == "memory"
