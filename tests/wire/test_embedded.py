"""`EmbeddedConnection`: gremlinpython traversals in-process on an SQLite file."""

from __future__ import annotations

import decimal

import pytest
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Order, P, T
from gremlin_python.statics import BigDecimal
from gremlin_python.structure import graph as gp

from gremlin_engine.embedded import EmbeddedConnection, to_gremlinpython
from gremlin_engine.errors import NotSupported, TraversalTimeout
from gremlin_engine.structure.elements import Path, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal import tokens as tk


@pytest.fixture
def conn(tmp_path):
    c = EmbeddedConnection(tmp_path / "g.db")
    g = traversal().with_(c)
    for name, age in [("marko", 29), ("vadas", 27), ("josh", 32)]:
        g.add_v("person").property("name", name).property("age", age).iterate()
    for friend in ("vadas", "josh"):
        g.V().has("name", "marko").add_e("knows").to(__.V().has("name", friend)).property("weight", 0.5).iterate()
    yield c
    c.close()


def test_traversals_run_in_process(conn):
    g = traversal().with_(conn)
    assert g.V().has("age", P.gt(28)).order().by("age", Order.desc).values("name").to_list() == ["josh", "marko"]
    assert g.V().group_count().by(T.label).next() == {"person": 3}
    assert g.V().has("name", "marko").out("knows").count().next() == 2
    v = g.V().has("name", "marko").next()
    assert isinstance(v, gp.Vertex) and {p.key: p.value for p in v.properties} == {"name": "marko", "age": 29}
    e = g.E().limit(1).next()
    assert isinstance(e, gp.Edge) and e.outV.id == v.id and [(p.key, p.value) for p in e.properties] == [
        ("weight", 0.5)]
    assert g.V(v.id).value_map(True).next()[T.label] == "person"


def test_data_persists_in_the_file(conn, tmp_path):
    conn.close()
    with EmbeddedConnection(tmp_path / "g.db") as again:
        assert traversal().with_(again).V().count().next() == 3


def test_timeouts_transactions_and_lambdas(conn):
    g = traversal().with_(conn)
    with pytest.raises(TraversalTimeout):
        g.with_("evaluationTimeout", 100).inject(1).repeat(__.identity()).times(100000000).count().next()
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "peter").iterate()
    tx.commit()
    assert g.V().has("name", "peter").count().next() == 1
    tx = g.tx()
    tx.begin().add_v("person").property("name", "paul").iterate()
    tx.rollback()
    assert g.V().has("name", "paul").count().next() == 0
    with pytest.raises(NotSupported, match="rollback"):
        conn.rollback()  # outside a session every traversal already committed
    with pytest.raises(NotSupported, match="lambda"):
        g.V().map(lambda: "it.get()").to_list()


def test_memory_graph_and_value_conversion():
    with EmbeddedConnection(None) as c:
        assert traversal().with_(c).inject(1, "a").to_list() == [1, "a"]
    v = Vertex(Long(1), "person", props={})
    v._props = {"name": [VertexProperty(Long(2), "name", "x", v, meta={"since": 2001})]}
    out = to_gremlinpython({"v": v, "p": Path((frozenset({"a"}),), (v,)), "t": tk.T.id, "d": decimal.Decimal("1.5"),
                            "o": tk.Order.desc, "s": tk.Scope.global_, "dir": tk.Direction.from_, (1, 2): {1}})
    assert out["v"].properties[0].properties[0].value == 2001
    assert out["p"].labels == [{"a"}] and out["p"].objects[0].id == 1
    assert out["t"].name == "id" and out["o"].name == "desc" and out["s"].name == "global_"
    assert out["dir"].name == "OUT"
    assert out["d"] == BigDecimal(1, 15)
    assert out[(1, 2)] == {1}
