"""Codec round trips: our writers read back by gremlinpython's readers (what a client sees),
and gremlinpython's request writers read by our readers (what the server sees)."""

from __future__ import annotations

import datetime
import decimal
import io
import json
import uuid

import pytest
from gremlin_python.driver.request import RequestMessage as GpRequest
from gremlin_python.driver.serializer import (
    GraphBinarySerializersV1,
    GraphSONSerializersV2d0,
    GraphSONSerializersV3d0,
)
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Bytecode, Order, P, TextP
from gremlin_python.process.traversal import Traverser as GpTraverser
from gremlin_python.statics import long
from gremlin_python.structure import graph as gpg
from gremlin_python.structure.io.graphbinaryV1 import GraphBinaryReader

from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short
from gremlin_engine.traversal import tokens as tk
from rest_adapter.serializers.graphbinary_types import ResultWriter, WireTraverser
from rest_adapter.serializers.mime import (
    GRAPHBINARY_V1,
    GRAPHSON_V2,
    GRAPHSON_V3,
    MalformedRequest,
    ResponseMessage,
    SerializationError,
    UnknownMimeType,
    codec_for,
    split_frame,
)


def marko() -> Vertex:
    v = Vertex(Long(1), "person", key=1, props={})
    v._props = {
        "name": [VertexProperty(Long(10), "name", "marko", v)],
        "location": [
            VertexProperty(Long(11), "location", "santa fe", v, meta={"startTime": Int(2005)}),
            VertexProperty(Long(12), "location", "brussels", v, meta={"startTime": Int(2010)}),
        ],
    }
    return v


def knows() -> Edge:
    return Edge("S1>1>>S2", "knows", Vertex(Long(1), "person"), Vertex("2:vadas", "software"), key=3,
                props={"weight": 0.5})


def gb_roundtrip(value):
    out = ResultWriter().to_dict(value)
    return GraphBinaryReader().read_object(io.BytesIO(bytes(out)))


SCALARS = [
    (None, None), (True, True), (Int(5), 5), (Long(2**40), 2**40), (Short(-3), -3), (Byte(7), 7),
    (BigInt(2**70), 2**70), (12, 12), (2**40, 2**40), (-(2**70), -(2**70)), (1.5, 1.5), ("héllo", "héllo"),
    ([Int(1), "a"], [1, "a"]), ((Int(1),), [1]), ({"a": Int(1), Int(2): [Long(3)]}, {"a": 1, 2: [3]}),
    ({Int(1), Int(2)}, {1, 2}), (b"\x00\x01", b"\x00\x01"),
    (datetime.timedelta(seconds=90), datetime.timedelta(seconds=90)),
]


@pytest.mark.parametrize("value,expected", SCALARS)
def test_graphbinary_scalars_read_by_gremlinpython(value, expected):
    assert gb_roundtrip(value) == expected


def test_graphbinary_number_types_on_the_wire():
    w = ResultWriter()
    assert w.to_dict(Int(1))[0] == 0x01
    assert w.to_dict(Long(1))[0] == 0x02
    assert w.to_dict(2**40)[0] == 0x02
    assert w.to_dict(Short(1))[0] == 0x26
    assert w.to_dict(Byte(1))[0] == 0x24
    assert w.to_dict(BigInt(1))[0] == 0x23
    assert w.to_dict(Float(1.5))[0] == 0x08
    assert w.to_dict(1.5)[0] == 0x07
    assert w.to_dict(decimal.Decimal("1.25"))[0] == 0x22


def test_graphbinary_float_decimal_uuid_datetime():
    assert gb_roundtrip(Float(1.5)) == 1.5
    dec = gb_roundtrip(decimal.Decimal("-12.345"))
    assert dec.value == decimal.Decimal("-12.345")
    u = uuid.uuid4()
    assert gb_roundtrip(u) == u
    dt = datetime.datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=datetime.UTC)
    assert gb_roundtrip(dt) == dt
    assert gb_roundtrip(datetime.datetime(2024, 1, 1)) == datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)


def test_graphbinary_vertex_with_properties_and_meta():
    v = gb_roundtrip(marko())
    assert isinstance(v, gpg.Vertex) and v.id == 1 and v.label == "person"
    by_key = v.property_map()
    assert [p.value for p in by_key["name"]] == ["marko"]
    locs = by_key["location"]
    assert [p.value for p in locs] == ["santa fe", "brussels"]
    assert [(m.key, m.value) for m in locs[0].properties] == [("startTime", 2005)]
    assert locs[0].id == 11


def test_graphbinary_reference_vertex_and_edge():
    v = gb_roundtrip(Vertex(Long(9), "person"))
    assert (v.id, v.label, v.properties) == (9, "person", [])
    e = gb_roundtrip(knows())
    assert isinstance(e, gpg.Edge)
    assert (e.id, e.label, e.outV.id, e.inV.id, e.inV.label) == ("S1>1>>S2", "knows", 1, "2:vadas", "software")
    assert [(p.key, p.value) for p in e.properties] == [("weight", 0.5)]


def test_graphbinary_property_path_traverser_tokens():
    p = gb_roundtrip(Property("weight", 0.4))
    assert (p.key, p.value) == ("weight", 0.4)
    vp = gb_roundtrip(VertexProperty(Int(3), "name", "josh"))
    assert (vp.id, vp.label, vp.value) == (3, "name", "josh")
    path = gb_roundtrip(Path((frozenset({"a"}), frozenset()), (Vertex(Long(1), "person"), "marko")))
    assert path.labels == [{"a"}, set()] and path.objects[0].id == 1 and path[1] == "marko"
    t = gb_roundtrip(WireTraverser("x", 3))
    assert isinstance(t, GpTraverser) and (t.object, t.bulk) == ("x", 3)
    assert gb_roundtrip(tk.T.label).name == "label"
    assert gb_roundtrip(tk.Order.desc).name == "desc"
    assert gb_roundtrip(tk.Direction.OUT).name == "OUT"
    assert gb_roundtrip(tk.Direction.to).name == "IN"


def test_graphbinary_bulkset_and_tree_shapes():
    class BulkSet:
        def bulk_items(self):
            return [("a", 2), ("b", 1)]

    class Tree(dict):
        pass

    assert gb_roundtrip(BulkSet()) == ["a", "a", "b"]
    tree = Tree({Vertex(Long(1), "person"): Tree({"x": Tree()})})
    back = gb_roundtrip(tree)
    [(k, sub)] = back.items()
    assert k.id == 1 and sub == {"x": {}}


def test_graphbinary_unknown_type_is_a_serialization_error():
    with pytest.raises(SerializationError, match="object"):
        ResultWriter().to_dict(object())


def test_graphbinary_response_message_read_by_gremlinpython():
    rid = uuid.uuid4()
    codec = codec_for(GRAPHBINARY_V1)
    frame = codec.encode_response(ResponseMessage(rid, 206, "", {}, {"aggregateTo": "list"}, [Int(1), "two"]))
    msg = GraphBinarySerializersV1().deserialize_message(frame)
    assert msg["requestId"] == str(rid)
    assert msg["status"] == {"code": 206, "message": "", "attributes": {}}
    assert msg["result"] == {"meta": {"aggregateTo": "list"}, "data": [1, "two"]}
    err = GraphBinarySerializersV1().deserialize_message(
        codec.encode_response(ResponseMessage(None, 597, "boom", {"exceptions": ["X"]})))
    assert err["status"]["code"] == 597 and err["status"]["message"] == "boom"
    assert err["status"]["attributes"] == {"exceptions": ["X"]}


def _gp_frame(serializer, processor, op, args):
    rid = uuid.uuid4()
    return rid, serializer.serialize_message(str(rid), GpRequest(processor, op, args))


@pytest.mark.parametrize("serializer", [GraphBinarySerializersV1(), GraphSONSerializersV3d0(),
                                        GraphSONSerializersV2d0()], ids=["graphbinary", "graphson3", "graphson2"])
def test_requests_from_gremlinpython_decode(serializer):
    bc = (__.V(long(1), 2).has("age", P.gt(30).and_(P.lt(40))).has("name", P.within("a", "b"))
          .has("n", TextP.starting_with("ma")).order().by("age", Order.desc).bytecode)
    rid, frame = _gp_frame(serializer, "traversal", "bytecode", {"gremlin": bc, "aliases": {"g": "g"}})
    mime, body = split_frame(frame)
    codec = codec_for(mime)
    req = codec.decode_request(body)
    assert (req.request_id, req.op, req.processor) == (rid, "bytecode", "traversal")
    assert req.args["aliases"] == {"g": "g"}
    got = req.args["gremlin"]
    assert isinstance(got, Bytecode)
    names = [i[0] for i in got.step_instructions]
    assert names == ["V", "has", "has", "has", "order", "by"]
    assert got.step_instructions[0][1:] == [1, 2]
    assert type(got.step_instructions[0][1]) is Long
    assert got.step_instructions[5][2] is tk.Order.desc
    p = got.step_instructions[1][2]
    assert isinstance(p, P) and p.operator == "and" and p.value.operator == "gt" and p.other.value == 40
    assert got.step_instructions[2][2].operator == "within" and got.step_instructions[2][2].value == ["a", "b"]
    assert isinstance(got.step_instructions[3][2], TextP)


@pytest.mark.parametrize("serializer", [GraphBinarySerializersV1(), GraphSONSerializersV3d0()],
                         ids=["graphbinary", "graphson3"])
def test_eval_request_with_bindings(serializer):
    args = {"gremlin": "g.V(x)", "bindings": {"x": 5, "y": [1, "a"]}, "aliases": {"g": "modern"},
            "evaluationTimeout": 500, "batchSize": 10}
    rid, frame = _gp_frame(serializer, "", "eval", args)
    mime, body = split_frame(frame)
    req = codec_for(mime).decode_request(body)
    assert req.op == "eval" and req.processor == ""
    assert req.args["gremlin"] == "g.V(x)"
    assert req.args["bindings"] == {"x": 5, "y": [1, "a"]}
    assert req.args["evaluationTimeout"] == 500 and req.args["batchSize"] == 10


def test_graphson3_response_read_by_gremlinpython():
    rid = uuid.uuid4()
    data = [marko(), knows(), Long(3), {"a": [Int(1)]}, Path((frozenset({"x"}),), ("v",)), {Int(1)},
            WireTraverser(Float(2.5), 2), tk.T.id, decimal.Decimal("1.5"),
            datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.UTC), uuid.UUID(int=5)]
    text = codec_for(GRAPHSON_V3).encode_response(ResponseMessage(rid, 200, "", {}, {}, data))
    assert json.loads(text)["requestId"] == str(rid)
    msg = GraphSONSerializersV3d0().deserialize_message(text)
    assert msg["requestId"] == str(rid) and msg["status"]["code"] == 200
    v, e, n, m, path, s, t, tok, dec, dt, u = msg["result"]["data"]
    assert v.id == 1 and v.label == "person"
    assert sorted(p.value for p in v.properties) == ["brussels", "marko", "santa fe"]
    loc = next(p for p in v.properties if p.value == "santa fe")
    assert [(x.key, x.value) for x in loc.properties] == [("startTime", 2005)]
    assert e.outV.id == 1 and e.inV.id == "2:vadas" and [(p.key, p.value) for p in e.properties] == [("weight", 0.5)]
    assert n == 3 and m == {"a": [1]} and path.objects == ["v"] and s == {1}
    assert (t.object, t.bulk) == (2.5, 2)
    assert tok.name == "id"
    assert dt == datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.UTC) and u == uuid.UUID(int=5)


def test_graphson2_response_read_by_gremlinpython():
    rid = uuid.uuid4()
    text = codec_for(GRAPHSON_V2).encode_response(
        ResponseMessage(rid, 200, "", {}, {}, [{"a": Int(1), Int(2): "b"}, [Long(1)], marko()]))
    msg = GraphSONSerializersV2d0().deserialize_message(text)
    m, lst, v = msg["result"]["data"]
    assert m == {"a": 1, "2": "b"} and lst == [1] and v.id == 1


def test_bad_frames_are_malformed_requests():
    with pytest.raises(UnknownMimeType, match="graphbinary"):
        codec_for("application/x-nope")
    with pytest.raises(MalformedRequest):
        codec_for(GRAPHBINARY_V1).decode_request(b"\x81\x00")
    with pytest.raises(MalformedRequest, match="version"):
        codec_for(GRAPHBINARY_V1).decode_request(b"\x01" + bytes(40))
    with pytest.raises(MalformedRequest, match="JSON"):
        codec_for(GRAPHSON_V3).decode_request(b"{nope")
    assert split_frame('{"op": "eval"}') == (GRAPHSON_V3, b'{"op": "eval"}')


def test_objects_with_a_json_shape_are_written_as_that_map():
    class EdgeLabel:
        def to_json(self):
            return {"id": 1, "name": "knows", "frequency": "SINGLE"}

    assert gb_roundtrip(EdgeLabel()) == {"id": 1, "name": "knows", "frequency": "SINGLE"}
    text = codec_for(GRAPHSON_V3).encode_response(ResponseMessage(uuid.uuid4(), 200, data=[EdgeLabel()]))
    assert GraphSONSerializersV3d0().deserialize_message(text)["result"]["data"] == [
        {"id": 1, "name": "knows", "frequency": "SINGLE"}]
