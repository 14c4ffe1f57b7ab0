"""`groupCount().by(key)` pushed into storage on a strict-schema graph: for every data type a
property key can have, the pushed-down answer equals the general path's (values, Java types,
map order = order of first appearance), with and without label filters, on vertices and edges.
The graphs are SQLite files, or PostgreSQL databases under `make test-postgres`
(`tests/backends.py`), where storage groups the texts in SQL too; the comparisons with the
SQLite statements the chunks replaced are SQLite's own.

Why a file of its own: `test_pushdowns.py` covers an auto-mode graph whose one key mixes
every stored form; here each key has ONE declared type, the case a cheaper statement (SQL
values instead of JSON text) would be tempted to special-case, so any such change must keep
these answers. The groups' order is also pinned against a hand count in scan order.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from gremlin_engine import GraphRegistry
from gremlin_engine.graph import Graph
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Byte, Float, Long
from gremlin_engine.traversal import compile_traversal
from gremlin_engine.traversal.tokens import T
from storage import GroupCount
from tests.backends import ON_POSTGRES, sqlite_only, stored_graph_config

from .gremlin import g

#: the chunked statements and the statement they replaced are SQLite's
CHUNKS = "the chunked texts statement against the SQLite GROUP BY statement it replaced"

#: per key: its data type and the values the vertices take in turn (None: the vertex lacks it);
#: repeats out of sorted order, so first-appearance order differs from any sort
VALUES: dict[str, tuple[str, list[Any]]] = {
    "s": ("TEXT", ["b", "a", None, "b", "1", "true", "[1]", "a"]),
    "i": ("INT", [3, 1, 3, None, -7, 1, 0, 2_000_000_000]),
    "l": ("LONG", [Long(5), Long(3_000_000_000), None, Long(5), Long(-1), Long(0), Long(1), Long(5)]),
    "d": ("DOUBLE", [1.5, 1.0, 2.0, 1.5, None, 0.0, -3.25, 1e20]),
    "f": ("FLOAT", [Float(1.5), Float(1.0), None, Float(1.5), Float(0.0), Float(2.0), Float(1.0), Float(-1.0)]),
    "b": ("BOOLEAN", [True, False, True, None, True, False, False, True]),
    "y": ("BYTE", [Byte(1), Byte(-1), Byte(1), Byte(0), None, Byte(127), Byte(1), Byte(0)]),
    "t": ("DATE", [dt.datetime(2020, 1, 2, tzinfo=dt.UTC), dt.datetime(2019, 5, 6, tzinfo=dt.UTC), None,
                   dt.datetime(2020, 1, 2, tzinfo=dt.UTC), dt.datetime(2021, 1, 1, tzinfo=dt.UTC),
                   dt.datetime(2019, 5, 6, tzinfo=dt.UTC), dt.datetime(2022, 3, 4, tzinfo=dt.UTC),
                   dt.datetime(2020, 1, 2, tzinfo=dt.UTC)]),
    "u": ("UUID", [uuid.UUID(int=2), uuid.UUID(int=1), uuid.UUID(int=2), None, uuid.UUID(int=3),
                   uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=4)]),
    "x": ("BLOB", [b"\x01", b"\x00\x02", None, b"\x01", b"", b"\x00\x02", b"zz", b"\x01"]),
}
N = 8
#: keys of LIST and SET cardinality: a vertex groups under its first value, an edge under its
#: whole list or set (tags: LIST of TEXT; nums: SET of INT)
MULTI = ("tags", "nums")


@pytest.fixture(scope="module")
def typed_graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Graph]:
    """Vertices of two labels (alternating) and edges of two labels, each element taking the
    i-th value of every key; most also a LIST and a SET key (`MULTI`)."""
    cfg = stored_graph_config("gct", tmp_path_factory.mktemp("gct"), "strict")
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    graph = registry.open(cfg)
    keys = list(VALUES)
    for key, (dtype, _vals) in VALUES.items():
        graph.schema.create("propertykey", {"name": key, "data_type": dtype})
    graph.schema.create("propertykey", {"name": "tags", "data_type": "TEXT", "cardinality": "LIST"})
    graph.schema.create("propertykey", {"name": "nums", "data_type": "INT", "cardinality": "SET"})
    for label in ("red", "blue"):
        graph.schema.create("vertexlabel", {"name": label, "properties": [*keys, *MULTI],
                                            "nullable_keys": [*keys, *MULTI]})
    for label in ("near", "far"):
        graph.schema.create("edgelabel", {"name": label, "source_label": "red", "target_label": "blue",
                                          "properties": [*keys, *MULTI], "nullable_keys": [*keys, *MULTI]})
    with graph.store.write() as tx:
        a = StoreAccess.for_graph(graph, tx)
        vs = []
        for i in range(N):
            props = [(k, vals[i]) for k, (_d, vals) in VALUES.items() if vals[i] is not None]
            if i % 3:
                props += [("tags", f"t{i % 2}"), ("tags", "z"), ("nums", i % 2), ("nums", 7)]
            vs.append(a.add_vertex("red" if i % 2 == 0 else "blue", None, props))
        for i in range(N):
            props = [(k, vals[i]) for k, (_d, vals) in VALUES.items() if vals[i] is not None]
            if i % 3:
                props += [("tags", [f"t{i % 2}", "z"]), ("nums", {i % 2, 7})]
            a.add_edge("near" if i % 3 else "far", vs[(2 * i) % N], vs[(2 * i + 1) % N], None, props)
    try:
        yield graph
    finally:
        registry.close_all()


def _typed(result: list[Any]) -> list[Any]:
    """The map as an ordered item list with every key's and count's exact type."""
    (m,) = result
    return [(type(k).__name__, k, type(n).__name__, n) for k, n in m.items()]


def _pushed_and_general(graph: Graph, b: Any) -> list[Any]:
    assert "groupCount(V" in repr(compile_traversal(b.ir)) or "groupCount(E" in repr(compile_traversal(b.ir)), b.ir
    fast = graph.traverse(b.ir)
    slow = graph.traverse(b.ir.with_source("withoutStrategies", "GroupCountStrategy"))
    assert _typed(fast) == _typed(slow), b.ir
    return fast


@pytest.mark.parametrize("key", [*VALUES, *MULTI])
def test_vertex_groups_by_each_data_type(typed_graph: Graph, key: str) -> None:
    for b in (g.V().groupCount().by(key), g.V().hasLabel("red").groupCount().by(key),
              g.V().hasLabel("blue", "red").groupCount().by(key),
              g.withStrategies("ProductiveByStrategy").V().groupCount().by(key)):
        _pushed_and_general(typed_graph, b)


@pytest.mark.parametrize("key", [*VALUES, *MULTI])
def test_edge_groups_by_each_data_type(typed_graph: Graph, key: str) -> None:
    for b in (g.E().groupCount().by(key), g.E().hasLabel("near").groupCount().by(key)):
        _pushed_and_general(typed_graph, b)


@pytest.mark.parametrize("key", list(VALUES))
def test_groups_come_in_first_appearance_order_with_declared_types(typed_graph: Graph, key: str) -> None:
    """The answer against a count by hand: first appearance order, values of the declared type."""
    expected: dict[Any, int] = {}
    for v in VALUES[key][1]:
        if v is not None:
            expected[v] = expected.get(v, 0) + 1
    (got,) = typed_graph.traverse(g.V().groupCount().by(key).ir)
    assert list(got) == list(expected)
    assert {k: int(n) for k, n in got.items()} == expected
    assert all(type(n) is Long for n in got.values())
    assert [type(k) for k in got] == [type(k) for k in expected]


def test_values_that_look_alike_across_types_stay_apart(typed_graph: Graph) -> None:
    """The text '1', 'true' and '[1]' are strings, never the number, boolean or list they spell."""
    (got,) = typed_graph.traverse(g.V().groupCount().by("s").ir)
    assert list(got) == ["b", "a", "1", "true", "[1]"]
    (flags,) = typed_graph.traverse(g.V().groupCount().by("b").ir)
    assert [(type(k), k) for k in flags] == [(bool, True), (bool, False)]
    (labels,) = typed_graph.traverse(g.V().groupCount().by(T.label).ir)
    assert labels == {"red": Long(4), "blue": Long(4)} and list(labels) == ["red", "blue"]


def test_the_storage_statement_answers(typed_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fused step really took the pushdown (not its fallback) for every key kind here."""
    from storage.tx_aggregates import Aggregates

    seen: list[str | None] = []
    original = Aggregates.groups

    def recording(self: Any, query: GroupCount, stop: Any = None) -> Any:
        out = original(self, query, stop)
        seen.append(query.key if out is not None else "")
        return out

    monkeypatch.setattr(Aggregates, "groups", recording)
    for key in (*VALUES, *MULTI):
        typed_graph.traverse(g.V().groupCount().by(key).ir)
        typed_graph.traverse(g.E().hasLabel("near").groupCount().by(key).ir)
    assert seen == [k for key in (*VALUES, *MULTI) for k in (key, key)]


def test_list_and_set_keys_by_hand(typed_graph: Graph) -> None:
    """A vertex's LIST / SET key groups under its first value; an edge's under its whole list
    or set. Elements 1, 2, 4, 5 and 7 carry them (`typed_graph`); edges 1 and 5 have the same
    parts (label, ends), so edge 5's properties replaced edge 1's (the edge keeps its place)."""
    (tags,) = typed_graph.traverse(g.V().groupCount().by("tags").ir)
    assert tags == {"t1": Long(3), "t0": Long(2)} and list(tags) == ["t1", "t0"]
    (nums,) = typed_graph.traverse(g.V().groupCount().by("nums").ir)
    assert nums == {1: Long(3), 0: Long(2)} and list(nums) == [1, 0]
    (edge_tags,) = typed_graph.traverse(g.E().groupCount().by("tags").ir)
    assert list(edge_tags.items()) == [(("t1", "z"), Long(2)), (("t0", "z"), Long(2))]
    (edge_nums,) = typed_graph.traverse(g.E().groupCount().by("nums").ir)
    assert [(set(k), n) for k, n in edge_nums.items()] == [({1, 7}, Long(2)), ({0, 7}, Long(2))]


# ---- the chunked statements against the one whole-table statement they replaced -------------------------

#: the statement `property_groups` ran before it went by key chunks (session 5): the reference
OLD_SQL = "SELECT props -> ?, count(*), min(key) AS first FROM {table}{where} GROUP BY 1 ORDER BY first"


def _old_groups(tx: Any, table: str, label_ids: list[int] | None, key: str) -> list[tuple[Any, int]]:
    where = "" if label_ids is None else f" WHERE label_id IN ({','.join(map(str, label_ids))})"
    rows = tx.raw.execute(OLD_SQL.format(table=table, where=where), [f'$."{key}"']).fetchall()
    return [(r[0], int(r[1])) for r in rows]


def _label_id_sets(graph: Graph, kind: str) -> list[list[int] | None]:
    names = ("red", "blue") if kind == "vertex" else ("near", "far")
    by_name = graph.schema.vertex_label if kind == "vertex" else graph.schema.edge_label
    found = [by_name(n) for n in names]
    ids = [label.id for label in found if label is not None]
    return [None, ids[:1], ids[1:], ids]


@sqlite_only(CHUNKS)
@pytest.mark.parametrize("chunk", [1, 3, 20_000])
def test_chunked_groups_equal_the_old_statement(typed_graph: Graph, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    import storage.tx_aggregates

    monkeypatch.setattr(storage.tx_aggregates, "GROUP_CHUNK", chunk)
    with typed_graph.store.read() as tx:
        for kind, table in (("vertex", "vertices"), ("edge", "edges")):
            for lids in _label_id_sets(typed_graph, kind):
                for key in (*VALUES, *MULTI, "nosuch"):
                    got = tx.aggregates.groups(GroupCount(kind, lids, key))
                    assert got == _old_groups(tx, table, lids, key), (kind, lids, key)
                    assert all(type(n) is int for _t, n in got)


@pytest.fixture
def mixed_graph(tmp_path: Path) -> Iterator[Graph]:
    """Auto mode: one key holding JSON forms that SQL values would merge (1, 1.0, true, '1',
    a tagged Long, a list, a meta-property entry), with absent rows and deleted keys between."""
    cfg = stored_graph_config("mixed", tmp_path, "auto")
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    graph = registry.open(cfg)
    forms: list[Any] = [1, 1.0, True, "1", Long(1), [1], "[1]", None, 1, "a\nb", True, 1.0, "1", Long(1), None]
    with graph.store.write() as tx:
        a = StoreAccess.for_graph(graph, tx)
        vs = []
        for i, v in enumerate(forms):
            props = [] if v is None else [("k", v)]
            vs.append(a.add_vertex("x" if i % 2 else "y", None, props))
        a.add_vertex("y", None, [("k", "meta", None, {"since": 1})])
        a.drop([vs[3], vs[4]])  # gaps in the keys
    try:
        yield graph
    finally:
        registry.close_all()


def _scanned_groups(tx: Any, table: str, label_ids: list[int] | None, key: str) -> list[tuple[Any, int]]:
    """The oracle on either dialect: every row's props read back in key order (the driver
    decodes PostgreSQL's stored bytes), member `key`'s JSON text counted by first row."""
    counts: dict[Any, int] = {}
    for _key, label_id, props in tx.raw.execute(f"SELECT key, label_id, props FROM {table} ORDER BY key").fetchall():
        if label_ids is None or label_id in label_ids:
            body = orjson.loads(props) if props else {}
            text = orjson.dumps(body[key]).decode() if key in body else None
            counts[text] = counts.get(text, 0) + 1
    return list(counts.items())


@pytest.mark.parametrize("chunk", [1, 4, 20_000])
def test_mixed_forms_stay_apart_as_before(mixed_graph: Graph, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    import storage.tx_aggregates

    monkeypatch.setattr(storage.tx_aggregates, "GROUP_CHUNK", chunk)
    found = [mixed_graph.schema.vertex_label(n) for n in ("x", "y")]
    ids = [label.id for label in found if label is not None]
    with mixed_graph.store.read() as tx:
        for lids in (None, ids[:1], ids[1:], ids):
            got = tx.aggregates.groups(GroupCount("vertex", lids, "k"))
            assert got == _scanned_groups(tx, "vertices", lids, "k"), lids
            if not ON_POSTGRES:
                assert got == _old_groups(tx, "vertices", lids, "k"), lids
        texts = [t for t, _n in tx.aggregates.groups(GroupCount("vertex", None, "k"))]
    assert texts == ["1", "1.0", "true", '{"@t":"list","v":[1]}', '"[1]"', None, '"a\\nb"', '"1"',
                     '{"@t":"L","v":1}', '{"@v":"meta","@m":{"since":1}}']
    for b in (g.V().groupCount().by("k"), g.V().hasLabel("x").groupCount().by("k"),
              g.withStrategies("ProductiveByStrategy").V().groupCount().by("k")):
        _pushed_and_general(mixed_graph, b)


def test_an_empty_table_and_a_stop(typed_graph: Graph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import storage.tx_aggregates

    cfg = stored_graph_config("empty", tmp_path, "auto")
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    try:
        empty = registry.open(cfg)
        with empty.store.read() as tx:
            assert tx.aggregates.groups(GroupCount("vertex", None, "k")) == []
            assert tx.aggregates.groups(GroupCount("edge", [1], "k")) == []
        assert empty.traverse(g.V().groupCount().by("k").ir) == [{}]
    finally:
        registry.close_all()
    monkeypatch.setattr(storage.tx_aggregates, "POLL_EVERY", 1)
    with typed_graph.store.read() as tx:
        assert tx.aggregates.groups(GroupCount("vertex", None, "s"), stop=lambda: True) is None
        assert tx.aggregates.groups(GroupCount("vertex", None, "s"), stop=lambda: False) == _scanned_groups(
            tx, "vertices", None, "s")
