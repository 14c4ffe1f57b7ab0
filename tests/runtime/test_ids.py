"""The id codec against HugeGraph's verified samples (reference/hugegraph/ids-and-formats.md)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.structure import ids
from gremlin_engine.structure.numbers import Float, Long


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, "10"), (1, "11"), (2, "12"), (4, "14"), (8, "18"), (29, "1T"), (127, "21~"),
        (199, "237"), (328, "258"), (1000, "2Fd"), (-1, "0B7~~~~~~~~~~"),
    ],
)
def test_long_encoding_samples(value: int, encoded: str) -> None:
    assert ids.encode_number(value) == encoded
    assert ids.decode_sortable_long(encoded) == value


def test_float_and_double_encoding_samples() -> None:
    assert ids.encode_number(0.5) == "B3~W00000000"
    assert ids.encode_number(1.0) == "B3~l00000000"
    assert ids.encode_number(1.5, "FLOAT") == "5~l000"
    assert ids.encode_number(Float(1.5)) == "5~l000"
    assert ids.encode_number(1, "DOUBLE") == "B3~l00000000"


def test_date_encoding_sample() -> None:
    d = dt.datetime(2013, 2, 20, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    assert ids.date_to_millis(d) == 1361289600000
    assert ids.encode_number(d) == "7JooBil0"
    assert ids.millis_to_date(1361289600000) == d


def test_encoding_is_sortable() -> None:
    values = [-(2**63), -1000, -1.5, -1, -0.25, 0, 0.25, 1, 1.5, 29, 1000, 2**40]
    doubles = sorted(values, key=lambda v: ids.encode_number(float(v)))
    assert doubles == values
    longs = [v for v in values if isinstance(v, int)]
    assert sorted(longs, key=ids.encode_number) == longs


def test_primary_key_ids() -> None:
    assert ids.primary_key_id(1, [("marko", "TEXT")]) == "1:marko"
    assert ids.primary_key_id(2, [("ripple", "TEXT"), ("java", "TEXT")]) == "2:ripple!java"
    assert ids.primary_key_id(1, [("a:b", "TEXT")]) == "1:a`:b"
    assert ids.primary_key_id(1, [("x!y", "TEXT")]) == "1:x`!y"
    assert ids.primary_key_id(3, [(29, "INT")]) == "3:1T"
    assert ids.primary_key_id(3, [(199, "INT")]) == "3:237"
    assert ids.primary_key_id(4, [(True, "BOOLEAN")]) == "4:true"


def test_primary_key_id_parse_round_trip() -> None:
    assert ids.parse_primary_key_id("1:a`:b") == (1, ["a:b"])
    assert ids.parse_primary_key_id("2:ripple!java") == (2, ["ripple", "java"])
    assert ids.parse_primary_key_id("1:x`!y") == (1, ["x!y"])
    with pytest.raises(IllegalArgument):
        ids.parse_primary_key_id("marko")


def test_primary_key_value_errors() -> None:
    with pytest.raises(IllegalArgument, match="The value of primary key can't be empty"):
        ids.primary_key_id(1, [("", "TEXT")])
    with pytest.raises(IllegalArgument, match="Illegal leading char"):
        ids.primary_key_id(1, [("\u0001x", "TEXT")])


def test_edge_id_format_and_parse() -> None:
    assert ids.format_edge_id("1:marko", 2, 2, "", "2:lop") == "S1:marko>2>2>>S2:lop"
    assert ids.format_edge_id(Long(123456), 1, 1, "", 987654) == "L123456>1>1>>L987654"
    e = ids.parse_edge_id("S1:marko>1>1>20160110>S1:vadas")
    assert e == ids.EdgeId("1:marko", 1, 1, "20160110", "1:vadas")
    assert str(e) == "S1:marko>1>1>20160110>S1:vadas"
    n = ids.parse_edge_id("L123456>1>1>>L987654")
    assert n.source == 123456 and type(n.source) is Long and n.target == 987654
    u = uuid.UUID("835e1153-9281-4957-8691-cf79258e90eb")
    text = ids.format_edge_id(u, 3, 3, "", "x")
    assert text == "U835e1153-9281-4957-8691-cf79258e90eb>3>3>>Sx"
    assert ids.parse_edge_id(text).source == u


def test_edge_id_escapes_and_directed_form() -> None:
    text = ids.format_edge_id("1:a>b", 2, 2, "", "2:c")
    assert text == "S1:a`>b>2>2>>S2:c"
    assert ids.parse_edge_id(text).source == "1:a>b"
    # directed internal form: owner is the target for I
    e = ids.parse_edge_id("S2:lop>I>2>2>>S1:marko")
    assert (e.source, e.target) == ("1:marko", "2:lop")
    assert ids.canonical_edge_id("S1:marko>O>2>2>>S2:lop") == "S1:marko>2>2>>S2:lop"


def test_edge_id_errors() -> None:
    with pytest.raises(NotFound, match=r"Edge id must be formatted as 5~6 parts, but got 4 parts: 'S1:marko>2>>S2:lop'"):
        ids.parse_edge_id("S1:marko>2>>S2:lop")
    with pytest.raises(NotFound, match="Invalid format of edge id"):
        ids.parse_edge_id("X1:marko>2>2>>S2:lop")
    with pytest.raises(NotFound, match="Invalid format of edge id"):
        ids.parse_edge_id("S1:marko>a>2>>S2:lop")
    assert ids.canonical_edge_id("hello") is None


def test_id_literals() -> None:
    assert ids.parse_id_literal('"1:marko"') == "1:marko"
    v = ids.parse_id_literal("123")
    assert v == 123 and type(v) is Long
    u = ids.parse_id_literal('U"835e1153-9281-4957-8691-cf79258e90eb"')
    assert u == uuid.UUID("835e1153-9281-4957-8691-cf79258e90eb")
    for lit in ('"1:marko"', "123", 'U"835e1153-9281-4957-8691-cf79258e90eb"'):
        assert ids.format_id_literal(ids.parse_id_literal(lit)) == lit
    for bad in ("1:marko", "1.5", "true", "[1]", 'U"zz"', ""):
        with pytest.raises(IllegalArgument, match="The vertex id must be formatted as Number/String/UUID"):
            ids.parse_id_literal(bad)
    assert str(pytest.raises(IllegalArgument, ids.parse_id_literal, "1:marko").value) == (
        "The vertex id must be formatted as Number/String/UUID, but got '1:marko'"
    )


def test_customized_ids() -> None:
    assert ids.customized_vertex_id("abc", "CUSTOMIZE_STRING", "p") == "abc"
    assert type(ids.customized_vertex_id(5, "CUSTOMIZE_NUMBER", "p")) is Long
    u = ids.customized_vertex_id("835e1153928149578691cf79258e90eb", "CUSTOMIZE_UUID", "p")
    assert str(u) == "835e1153-9281-4957-8691-cf79258e90eb"
    with pytest.raises(IllegalArgument, match="Must customize vertex string id"):
        ids.customized_vertex_id(5, "CUSTOMIZE_STRING", "p")
    with pytest.raises(IllegalArgument, match="Must customize vertex number id"):
        ids.customized_vertex_id("5", "CUSTOMIZE_NUMBER", "p")
    with pytest.raises(IllegalArgument, match="Can't customize vertex id when id strategy is 'PRIMARY_KEY'"):
        ids.customized_vertex_id("x", "PRIMARY_KEY", "person")
    with pytest.raises(IllegalArgument, match="The max length of vertex id is 16384"):
        ids.customized_vertex_id("x" * 16385, "CUSTOMIZE_STRING", "p")


def test_storage_form_round_trip() -> None:
    u = uuid.uuid4()
    for vid in ("1:marko", Long(7), u):
        back = ids.from_storage(ids.to_storage(vid))
        assert back == vid and type(back) is type(vid)
    assert ids.to_storage(u) == u.bytes
    assert ids.lookup_id(1) == 1 and type(ids.lookup_id(1)) is Long
    assert ids.lookup_id(1.5) is None
