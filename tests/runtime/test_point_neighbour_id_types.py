"""`StoreAccess.point_neighbour_ids` makes numeric storage ids `Long` inline: every id it
returns must be exactly (value and type) what `ids.from_storage` makes of the stored id,
for number, string and UUID ids (neighbours of mixed kinds behind one start)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.runtime.reads import storage_direction
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.tokens import Direction
from storage import AdjacencyQuery
from tests.runtime.conftest import _open, typed, with_schema

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


@pytest.fixture
def graph(registry: GraphRegistry, tmp_path: Path) -> Graph:
    g = with_schema(_open(registry, tmp_path, "hugegraph", "strict"), SCHEMA)
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
    return g


def test_ids_are_what_from_storage_makes(graph: Graph) -> None:
    seen: set[type] = set()
    with api.read_access(graph) as access:
        for start in (Long(1), 1, Long(2**62), Long(-5), "7", U):
            for d in (Direction.OUT, Direction.IN, Direction.BOTH):
                got = access.point_neighbour_ids(start, d, ())
                if got is None:  # the in-memory store may decline; nothing to compare then
                    continue
                wanted = idc.lookup_id(start)
                rows = access.tx.adjacency.from_id(AdjacencyQuery(storage_direction(d), None), idc.to_storage(wanted))
                assert typed(got) == typed([idc.from_storage(r[1]) for r in rows]), (start, d)
                seen.update(type(x) for x in got)
    assert seen >= {Long, str, uuid.UUID} or graph.config.backend == "memory"
