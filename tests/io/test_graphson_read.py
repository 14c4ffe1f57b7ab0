"""GraphSON 3.0 adjacency reading: typed values, records of the TinkerPop toy graphs, and the
import-folder check behind `g.io(path).read()`."""

from __future__ import annotations

import datetime
import decimal
import json
import math
import os
import uuid
from pathlib import Path

import pytest

from gremlin_engine.errors import Forbidden, IllegalArgument, NotFound, NotSupported
from gremlin_engine.io import (
    GraphSONError,
    decode_value,
    parse_lines,
    read_graphson_lines,
    resolve_import_path,
)
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short
from gremlin_engine.traversal.tokens import Cardinality, Direction, T

# shared/ sits beside the repository (locally and in CI); an env var may point elsewhere
DATA = Path(
    os.environ.get("HUGELITE_TINKERPOP_DIR") or Path(__file__).resolve().parents[3] / "shared" / "tinkerpop"
) / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"TinkerPop data folder {DATA} is absent")


def typed(t: str, v: object) -> dict:
    return {"@type": t, "@value": v}


# ---- values -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "cls", "value"),
    [
        (typed("g:Int32", 7), Int, 7),
        (typed("g:Int64", 7), Long, 7),
        (typed("gx:Byte", -3), Byte, -3),
        (typed("gx:Int16", 300), Short, 300),
        (typed("gx:BigInteger", "123456789012345678901234567890"), BigInt, 123456789012345678901234567890),
        (typed("g:Float", 0.5), Float, 0.5),
        (typed("g:Double", 0.25), float, 0.25),
    ],
)
def test_numbers_keep_their_java_type(obj: dict, cls: type, value: object) -> None:
    got = decode_value(obj)
    assert type(got) is cls
    assert got == value


def test_special_doubles_and_big_decimal() -> None:
    assert math.isnan(decode_value(typed("g:Double", "NaN")))
    assert decode_value(typed("g:Double", "-Infinity")) == -math.inf
    inf = decode_value(typed("g:Float", "Infinity"))
    assert type(inf) is Float and inf == math.inf
    d = decode_value(typed("gx:BigDecimal", "1.10"))
    assert isinstance(d, decimal.Decimal) and d == decimal.Decimal("1.10")


def test_uuid_date_and_untyped_json() -> None:
    u = "f47af10b-58cc-4372-a567-0f02b2f3d479"
    assert decode_value(typed("g:UUID", u)) == uuid.UUID(u)
    d = decode_value(typed("g:Date", 1691452800000))
    assert d == datetime.datetime(2023, 8, 8, tzinfo=datetime.UTC)
    assert d.tzinfo is not None
    odt = decode_value(typed("gx:OffsetDateTime", "2023-08-08T02:00:00+02:00"))
    assert odt == datetime.datetime(2023, 8, 8, tzinfo=datetime.UTC)
    assert type(decode_value(5)) is Int
    assert type(decode_value(2**40)) is Long
    assert decode_value("x") == "x" and decode_value(None) is None and decode_value(True) is True


def test_collections_and_tokens() -> None:
    lst = decode_value(typed("g:List", [typed("g:Int32", 1), "a"]))
    assert lst == [1, "a"] and type(lst[0]) is Int
    st = decode_value(typed("g:Set", [typed("g:Int64", 1), typed("g:List", [1, 2])]))
    assert st == {1, (1, 2)}
    mp = decode_value(typed("g:Map", ["a", typed("g:Int32", 1), typed("g:Int32", 2), typed("g:List", ["x"])]))
    assert mp == {"a": 1, 2: ["x"]}
    assert list(mp) == ["a", 2]
    assert decode_value(typed("g:T", "label")) is T.label
    assert decode_value(typed("g:Direction", "OUT")) is Direction.OUT


def test_bad_values_are_graphson_errors() -> None:
    with pytest.raises(GraphSONError, match="unsupported GraphSON type g:Nope"):
        decode_value(typed("g:Nope", 1))
    with pytest.raises(GraphSONError, match="g:Int32"):
        decode_value(typed("g:Int32", "seven"))
    with pytest.raises(GraphSONError, match="even number"):
        decode_value(typed("g:Map", ["a"]))
    assert issubclass(GraphSONError, IllegalArgument)


# ---- records ------------------------------------------------------------------------------


def test_line_with_meta_properties_and_both_edge_directions() -> None:
    line = {
        "id": typed("g:Int32", 1),
        "label": "person",
        "outE": {"uses": [{"id": typed("g:Int32", 16), "inV": typed("g:Int32", 2),
                           "properties": {"skill": typed("g:Int32", 5)}}]},
        "inE": {"knows": [{"id": typed("g:Int32", 17), "outV": typed("g:Int32", 2)}]},
        "properties": {
            "name": [{"id": typed("g:Int64", 0), "value": "marko"}],
            "location": [
                {"id": typed("g:Int64", 6), "value": "san diego",
                 "properties": {"startTime": typed("g:Int32", 1997)}},
                {"id": typed("g:Int64", 7), "value": "brussels"},
            ],
        },
    }
    other = {"id": typed("g:Int32", 2), "label": "software",
             "inE": {"uses": [{"id": typed("g:Int32", 16), "outV": typed("g:Int32", 1),
                               "properties": {"skill": typed("g:Int32", 5)}}]},
             "outE": {"knows": [{"id": typed("g:Int32", 17), "inV": typed("g:Int32", 1)}]}}
    recs = parse_lines([json.dumps(line), "", json.dumps(other)])
    assert [v.id for v in recs.vertices] == [1, 2]
    marko = recs.vertices[0]
    assert [(p.key, p.value) for p in marko.properties] == [
        ("name", "marko"), ("location", "san diego"), ("location", "brussels")]
    assert marko.properties[1].meta == {"startTime": 1997}
    assert type(marko.properties[1].meta["startTime"]) is Int
    assert marko.properties[0].id == 0 and type(marko.properties[0].id) is Long
    assert marko.cardinality("location") is Cardinality.list
    assert marko.cardinality("name") is Cardinality.single
    # each edge once, with the right direction and properties
    edges = sorted(recs.edges, key=lambda e: e.id)
    assert [(e.id, e.label, e.out_v, e.in_v, e.properties) for e in edges] == [
        (16, "uses", 1, 2, {"skill": 5}), (17, "knows", 2, 1, {})]
    assert recs.vertices[1].label == "software" and recs.vertices[1].properties == []


def test_malformed_lines_name_file_and_line() -> None:
    with pytest.raises(GraphSONError, match=r"f\.json:2: not JSON"):
        parse_lines(['{"id": 1, "label": "a"}', "{nope"], source="f.json")
    with pytest.raises(GraphSONError, match=r"f\.json:1: a vertex line needs an id"):
        parse_lines(['{"label": "a"}'], source="f.json")


@needs_data
@pytest.mark.parametrize(
    ("name", "vertices", "edges"),
    [
        ("tinkerpop-modern-v3.json", 6, 6),
        ("tinkerpop-classic-v3.json", 6, 6),
        ("tinkerpop-crew-v3.json", 6, 14),
        ("tinkerpop-sink-v3.json", 3, 3),
        ("grateful-dead-v3.json", 808, 8049),
    ],
)
def test_toy_graph_sizes(name: str, vertices: int, edges: int) -> None:
    recs = read_graphson_lines(DATA / name)
    assert len(recs.vertices) == vertices
    assert len(recs.edges) == edges
    assert len({e.id for e in recs.edges}) == edges


@needs_data
def test_modern_graph_values() -> None:
    recs = read_graphson_lines(DATA / "tinkerpop-modern-v3.json")
    by_name = {v.properties[0].value: v for v in recs.vertices}
    marko = by_name["marko"]
    assert marko.id == 1 and type(marko.id) is Int and marko.label == "person"
    age = next(p.value for p in marko.properties if p.key == "age")
    assert age == 29 and type(age) is Int
    knows = sorted((e for e in recs.edges if e.label == "knows"), key=lambda e: e.id)
    assert [(e.id, e.out_v, e.in_v) for e in knows] == [(7, 1, 2), (8, 1, 4)]
    assert knows[0].properties == {"weight": 0.5} and type(knows[0].properties["weight"]) is float


@needs_data
def test_classic_weights_are_floats_and_crew_has_meta() -> None:
    classic = read_graphson_lines(DATA / "tinkerpop-classic-v3.json")
    assert {type(e.properties["weight"]) for e in classic.edges} == {Float}
    assert {v.label for v in classic.vertices} == {"vertex"}
    crew = read_graphson_lines(DATA / "tinkerpop-crew-v3.json")
    marko = next(v for v in crew.vertices if v.id == 1)
    locs = [(p.value, p.meta) for p in marko.properties if p.key == "location"]
    assert locs[0] == ("san diego", {"startTime": 1997, "endTime": 2001})
    assert locs[-1] == ("santa fe", {"startTime": 2005})
    assert len(locs) == 4


@needs_data
def test_sink_self_loops_once() -> None:
    sink = read_graphson_lines(DATA / "tinkerpop-sink-v3.json")
    loops = [(e.id, e.out_v, e.in_v) for e in sink.edges if e.out_v == e.in_v]
    assert sorted(loops) == [(1001, 1000, 1000), (2003, 2000, 2000)]


# ---- import folder check ------------------------------------------------------------------


def test_import_path_must_stay_inside_folder(tmp_path: Path) -> None:
    root = tmp_path / "import"
    (root / "sub").mkdir(parents=True)
    good = root / "sub" / "g.json"
    good.write_text("")
    outside = tmp_path / "secret.json"
    outside.write_text("")
    assert resolve_import_path("sub/g.json", root) == good.resolve()
    assert resolve_import_path(str(good), root) == good.resolve()
    with pytest.raises(Forbidden, match="only read files under the import folder"):
        resolve_import_path("../secret.json", root)
    with pytest.raises(Forbidden):
        resolve_import_path(str(outside), root)
    os.symlink(outside, root / "link.json")
    with pytest.raises(Forbidden):
        resolve_import_path("link.json", root)
    with pytest.raises(Forbidden, match="none is configured"):
        resolve_import_path("sub/g.json", None)
    with pytest.raises(NotFound):
        resolve_import_path("missing.json", root)
    (root / "g.kryo").write_text("")
    with pytest.raises(NotSupported, match=r"Gryo \(Kryo\) format is not supported.*GraphSON 3.0"):
        resolve_import_path("g.kryo", root)
    (root / "g.txt").write_text("")
    with pytest.raises(IllegalArgument, match="cannot tell the format"):
        resolve_import_path("g.txt", root)
