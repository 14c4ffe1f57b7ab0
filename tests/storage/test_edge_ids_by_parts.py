"""The engine over layout v2: HugeGraph-mode edges are stored with dup = 0 and found by their
parts (`gremlin_engine/runtime/edge_lookup.py`), auto-mode edges by id; both answer as v1 did,
also on a store whose rows came from v1 (dup = key, the migration's form)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.runtime.edge_lookup import edge_rows
from storage import Lookup
from storage.tables import META_V1_EDGE_ROWS


@pytest.fixture
def registry() -> Iterator[GraphRegistry]:
    reg = GraphRegistry(evaluation_timeout_ms=30000)
    yield reg
    reg.close_all()


def _strict(reg: GraphRegistry, tmp_path: Path) -> Graph:
    cfg = GraphConfig(name="hugegraph", backend="sqlite", store=str(tmp_path / "h.db"), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    g = reg.open(cfg)
    s = g.schema
    for body in ({"name": "name", "data_type": "TEXT"}, {"name": "date", "data_type": "TEXT"},
                 {"name": "weight", "data_type": "DOUBLE"}):
        s.create("propertykey", body)
    s.create("vertexlabel", {"name": "person", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"],
                             "properties": ["name"]})
    s.create("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person",
                           "properties": ["weight"], "nullable_keys": ["weight"]})
    s.create("edgelabel", {"name": "met", "source_label": "person", "target_label": "person",
                           "frequency": "MULTIPLE", "sort_keys": ["date"], "properties": ["date", "weight"],
                           "nullable_keys": ["weight"]})
    g.execute("g.addV('person').property('name','marko').as('m').addV('person').property('name','vadas').as('v')"
              ".addE('knows').from('m').to('v').property('weight', 0.5)"
              ".select('m').addE('met').to('v').property('date', '2020>1').property('weight', 1.0).iterate()")
    return g


def _dups(g: Graph) -> list[tuple[object, int, int]]:
    with g.store.read() as tx:
        return tx.raw.execute("SELECT id, key, dup FROM edges ORDER BY key").fetchall()


def _check_answers(g: Graph) -> None:
    ids = g.execute("g.E().id()")
    knows = next(i for i in ids if i.endswith(">>S1:vadas"))
    met = next(i for i in ids if i != knows)
    assert g.execute("g.E(eid).values('weight')", {"eid": knows}) == [0.5]
    assert g.execute("g.E(a, b, a).values('weight')", {"a": met, "b": knows}) == [1.0, 0.5, 1.0]
    # the directed 6-part form is the same edge; another parent-label part, a malformed id,
    # an unknown vertex, a number: no edge, as before
    six = "S1:marko>O>1>1>>S1:vadas"
    assert g.execute("g.E(x).count()", {"x": six}) == [1]
    assert g.execute("g.E(x).count()", {"x": knows.replace(">1>1>", ">9>1>")}) == [0]
    assert g.execute("g.E(x).count()", {"x": "S1:marko>1>1>>S1:nobody"}) == [0]
    assert g.execute("g.E('garbage', 7).count()") == [0]
    assert g.execute("g.E(x)", {"x": "a>b"}) == []  # Gremlin finds nothing (REST's parse says 404 first)
    # adding the same edge again upserts it (one edge, new properties), one at a time and in a batch
    g.execute("g.V('1:marko').as('m').V('1:vadas').addE('knows').from('m').property('weight', 0.7).iterate()")
    assert g.execute("g.E().hasLabel('knows').values('weight')") == [0.7]
    with g.store.write() as tx:
        a = StoreAccess.for_graph(g, tx)
        m, v = list(a.vertices(ids=["1:marko", "1:vadas"]))
        a.add_edges([("knows", m, v, [("weight", 0.9)]), ("knows", v, m, [("weight", 0.1)])])
        a.add_edges([("knows", m, v, [("weight", 0.8)])])
    assert sorted(g.execute("g.E().hasLabel('knows').values('weight')")) == [0.1, 0.8]
    assert g.execute("g.E().count()") == [3]
    # deleting a vertex takes its edges
    g.execute("g.V('1:vadas').drop().iterate()")
    assert g.execute("g.E().count()") == [0]


def test_strict_edges_are_parts_identified(registry: GraphRegistry, tmp_path: Path) -> None:
    g = _strict(registry, tmp_path)
    assert [d for _i, _k, d in _dups(g)] == [0, 0]
    with g.store.read() as tx:
        assert tx.elements.find(Lookup.EDGES_BY_IDS, [i for i, _k, _d in _dups(g)]) == []  # not in the id index
        assert [r.key for r in edge_rows(tx, [i for i, _k, _d in _dups(g)][::-1], False)] == [2, 1]
    _check_answers(g)


def test_strict_edges_copied_from_v1(registry: GraphRegistry, tmp_path: Path) -> None:
    """The migration gives v1 rows dup = key: found by their parts, not repeated by an insert."""
    g = _strict(registry, tmp_path)
    with g.store.write() as tx:
        tx.raw.execute("UPDATE edges SET dup = key")
        tx.schema.meta_set(META_V1_EDGE_ROWS, "1")
    assert [d for _i, _k, d in _dups(g)] == [1, 2]
    _check_answers(g)


def test_auto_mode_edges_keep_ids_and_parallels(registry: GraphRegistry) -> None:
    g = registry.open(GraphConfig(name="tinker", backend="memory", schema_mode="auto"))
    g.execute("a = g.addV().property(T.id, 1).next(); b = g.addV().property(T.id, 2).next();"
              "g.addE('x').from(a).to(b).property(T.id, 'e1').iterate();"
              "g.addE('x').from(a).to(b).property(T.id, 7).iterate();"
              "g.addE('x').from(a).to(b).iterate()")
    rows = _dups(g)
    assert [d for _i, _k, d in rows] == [k for _i, k, _d in rows]
    assert g.execute("g.V(1).outE().id()")[:2] == ["e1", 7]
    assert g.execute("g.E('e1', '7').count()") == [2]
    with pytest.raises(Exception, match="Edge with id already exists: e1"):
        g.execute("g.addE('x').from(V(2)).to(V(1)).property(T.id, 'e1')")
