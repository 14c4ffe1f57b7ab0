"""GraphBinary 1.0 request and response messages (`application/vnd.graphbinary-v1.0`).

Request:  `{0x81}{request_id: UUID}{op: String}{processor: String}{args: Map}`
Response: `{0x81}{request_id: nullable UUID}{status_code: Int}{status_message: nullable String}
           {status_attributes: Map}{result_meta: Map}{result_data: fully qualified value}`

Requests are read with gremlinpython's `GraphBinaryReader`, extended with what only a
server reads: `P`, `TextP`, lambdas, `Class` and `TraversalStrategy`. Numbers come back as
the engine's Java-typed numbers (an Int32 on the wire is an `Int`, an Int64 a `Long`), and
enums as the engine's tokens, so `gremlin_engine.bytecode` loses no type information.
Results are written by `graphbinary_types.ResultWriter`.
"""

from __future__ import annotations

import datetime
import decimal
import io
import struct
import uuid
from typing import Any

from gremlin_python.process.traversal import P, TextP, TraversalStrategy
from gremlin_python.statics import GremlinType
from gremlin_python.structure.io import graphbinaryV1 as gb

from gremlin_engine.structure import numbers as num
from gremlin_engine.traversal import tokens as tk
from rest_adapter.serializers.graphbinary_types import ResultWriter
from rest_adapter.serializers.mime import GRAPHBINARY_V1, MalformedRequest, RequestMessage, ResponseMessage

DT = gb.DataType
VERSION = 0x81
_int32 = gb.int32_pack


def _value_reader(read: Any) -> Any:
    """A deserializer class whose `objectify` honours the value flag, then calls `read(b, r)`."""

    class _IO:
        @classmethod
        def objectify(cls, buff: Any, reader: Any, nullable: bool = True) -> Any:
            if nullable and buff.read(1)[0] == 0x01:
                return None
            return read(buff, reader)

    return _IO


def _fixed(fmt: str, wrap: Any) -> Any:
    s = struct.Struct(fmt)
    return _value_reader(lambda b, r: wrap(s.unpack(b.read(s.size))[0]))


def _string(b: Any) -> str:
    n = gb.int32_unpack(b.read(4))
    return b.read(n).decode("utf-8")


def _read_bigint(b: Any, r: Any) -> int:
    return int(gb.BigIntIO.read_bigint(b))


def _read_bigdecimal(b: Any, r: Any) -> decimal.Decimal:
    scale = gb.int32_unpack(b.read(4))
    return decimal.Decimal(gb.BigIntIO.read_bigint(b)).scaleb(-scale)


def _read_date(b: Any, r: Any) -> datetime.datetime:
    ms = gb.int64_unpack(b.read(8))
    return datetime.datetime.fromtimestamp(ms / 1000.0, datetime.UTC)


def _read_args(b: Any, r: Any) -> list[Any]:
    n = gb.int32_unpack(b.read(4))
    return [r.read_object(b) for _ in range(n)]


def predicate_from(cls: type, name: str, args: list[Any]) -> Any:
    """Rebuilds gremlinpython's `P`/`TextP` the way its writer flattened it into arguments."""
    if name in ("within", "without"):
        return cls(name, list(args))
    if name in ("and", "or") and len(args) >= 2:
        p = cls(name, args[0], args[1])
        for extra in args[2:]:
            p = cls(name, p, extra)
        return p
    if not args:
        return cls(name, None)
    if len(args) == 1:
        return cls(name, args[0])
    return cls(name, args[0], args[1])


def _read_p(cls: type) -> Any:
    def read(b: Any, r: Any) -> Any:
        name = _string(b)
        return predicate_from(cls, name, _read_args(b, r))

    return read


def _read_lambda(b: Any, r: Any) -> Any:
    language, script = _string(b), _string(b)
    b.read(4)  # argument count

    def lam() -> tuple[str, str]:
        return script, language

    return lam


def _read_strategy(b: Any, r: Any) -> TraversalStrategy:
    fqcn = _string(b)
    conf = r.to_object(b, DT.map, nullable=False)
    return TraversalStrategy(strategy_name=fqcn.rsplit(".", 1)[-1], configuration=dict(conf), fqcn=fqcn)


def _read_enum(enum_name: str) -> Any:
    def read(b: Any, r: Any) -> Any:
        text = r.read_object(b)
        try:
            return tk.token(enum_name, text)
        except KeyError:
            raise MalformedRequest(f"unknown {enum_name} value {text!r}") from None

    return read


_ENUMS = {
    DT.t: "T", DT.direction: "Direction", DT.order: "Order", DT.scope: "Scope", DT.column: "Column",
    DT.pop: "Pop", DT.cardinality: "Cardinality", DT.operator: "Operator", DT.pick: "Pick", DT.merge: "Merge",
    DT.dt: "DT", DT.barrier: "Barrier", DT.gtype: "GType",
}

REQUEST_DESERIALIZERS: dict[Any, Any] = {
    DT.int: _fixed(">i", num.Int),
    DT.long: _fixed(">q", num.Long),
    DT.short: _fixed(">h", num.Short),
    DT.byte: _fixed(">b", num.Byte),
    DT.float: _fixed(">f", num.Float),
    DT.double: _fixed(">d", float),
    DT.biginteger: _value_reader(lambda b, r: num.BigInt(_read_bigint(b, r))),
    DT.bigdecimal: _value_reader(_read_bigdecimal),
    DT.date: _value_reader(_read_date),
    DT.timestamp: _value_reader(_read_date),
    DT.p: _value_reader(_read_p(P)),
    DT.textp: _value_reader(_read_p(TextP)),
    DT.lambda_: _value_reader(_read_lambda),
    DT.clazz: _value_reader(lambda b, r: GremlinType(_string(b))),
    DT.traversalstrategy: _value_reader(_read_strategy),
    **{dt: _value_reader(_read_enum(name)) for dt, name in _ENUMS.items()},
}


class GraphBinaryCodec:
    """The GraphBinary 1.0 codec (see `mime.Codec`)."""

    mime = GRAPHBINARY_V1
    binary = True

    def __init__(self) -> None:
        self.reader = gb.GraphBinaryReader(REQUEST_DESERIALIZERS)

    def decode_request(self, body: bytes) -> RequestMessage:
        b = io.BytesIO(body)
        try:
            version = b.read(1)
            if not version or version[0] != VERSION:
                raise MalformedRequest(
                    f"unsupported GraphBinary message version {version.hex() or 'none'} (expected 81)")
            raw_id = b.read(16)
            if len(raw_id) != 16:
                raise MalformedRequest("truncated request id")
            request_id = uuid.UUID(bytes=raw_id)
            op, processor = _string(b), _string(b)
            args = self.reader.to_object(b, DT.map, nullable=False)
        except MalformedRequest:
            raise
        except Exception as exc:  # truncated or corrupt frames surface as struct/unicode/value errors
            raise MalformedRequest(f"cannot decode GraphBinary request: {exc}") from exc
        return RequestMessage(request_id, op, processor, {str(k): v for k, v in args.items()})

    def encode_response(self, msg: ResponseMessage) -> bytes:
        w = ResultWriter()
        out = bytearray([VERSION])
        if msg.request_id is None:
            out += b"\x01"
        else:
            out += b"\x00" + msg.request_id.bytes
        out += _int32(msg.code)
        if msg.message is None:
            out += b"\x01"
        else:
            out += b"\x00"
            gb.StringIO.dictify(msg.message, w, out, True, False)
        gb.MapIO.dictify(msg.attributes, w, out, True, False)
        gb.MapIO.dictify(msg.meta, w, out, True, False)
        w.to_dict(msg.data, out)
        return bytes(out)
