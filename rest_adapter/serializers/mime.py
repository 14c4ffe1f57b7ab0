"""Gremlin Server message codecs, chosen by the mime type a request frame starts with.

A gremlinpython request is a binary WebSocket frame: one byte giving the length of the mime
type, the mime type, then the message in that format. Each codec turns such a message into
a `RequestMessage` and a `ResponseMessage` back into a frame; the WebSocket handler knows
nothing else about formats, so a faster codec can replace one of these modules later
without touching it.

=========================================  ===========================================
mime type                                  codec
=========================================  ===========================================
application/vnd.graphbinary-v1.0           GraphBinary 1.0 (gremlinpython 3.8 default)
application/vnd.gremlin-v3.0+json          GraphSON 3.0, typed
application/vnd.gremlin-v2.0+json          GraphSON 2.0, typed
application/json                           GraphSON 3.0 (as Gremlin Server maps it)
=========================================  ===========================================
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Protocol

GRAPHBINARY_V1 = "application/vnd.graphbinary-v1.0"
GRAPHSON_V3 = "application/vnd.gremlin-v3.0+json"
GRAPHSON_V2 = "application/vnd.gremlin-v2.0+json"
JSON = "application/json"


class MalformedRequest(Exception):
    """The frame cannot be decoded into a request (answered with status 499)."""


class SerializationError(Exception):
    """A result value has no representation in the chosen format (status 599)."""


class UnknownMimeType(MalformedRequest):
    pass


@dataclass
class RequestMessage:
    request_id: uuid.UUID | None
    op: str
    processor: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class ResponseMessage:
    request_id: uuid.UUID | None
    code: int
    message: str = ""
    attributes: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    data: Any = None


class Codec(Protocol):
    mime: str
    binary: bool  # send responses as binary (True) or text (False) WebSocket frames

    def decode_request(self, body: bytes) -> RequestMessage: ...

    def encode_response(self, msg: ResponseMessage) -> bytes | str: ...


def split_frame(frame: bytes | str) -> tuple[str, bytes]:
    """(mime type, message body) of a request frame. A text frame carries bare GraphSON 3."""
    if isinstance(frame, str):
        return GRAPHSON_V3, frame.encode("utf-8")
    if not frame:
        raise MalformedRequest("empty request frame")
    n = frame[0]
    if n == ord("{"):  # a JSON message without the mime prefix
        return GRAPHSON_V3, frame
    mime = frame[1 : 1 + n].decode("ascii", errors="replace")
    if len(frame) < 1 + n:
        raise MalformedRequest("request frame is shorter than its mime type header")
    return mime, frame[1 + n :]


_CODECS: dict[str, Codec] = {}


def codec_for(mime: str) -> Codec:
    """The codec for a request's mime type; raises `UnknownMimeType` naming the supported ones."""
    base = mime.split(";")[0].strip().lower()
    if not _CODECS:
        from rest_adapter.serializers.graphbinary_v1 import GraphBinaryCodec
        from rest_adapter.serializers.graphson_v2 import GraphSONV2Codec
        from rest_adapter.serializers.graphson_v3 import GraphSONV3Codec

        _CODECS.update({GRAPHBINARY_V1: GraphBinaryCodec(), GRAPHSON_V3: GraphSONV3Codec(),
                        GRAPHSON_V2: GraphSONV2Codec(), JSON: GraphSONV3Codec()})
    try:
        return _CODECS[base]
    except KeyError:
        raise UnknownMimeType(
            f"unsupported serializer mime type {mime!r}; use one of {GRAPHBINARY_V1}, {GRAPHSON_V3}, {GRAPHSON_V2}"
        ) from None
