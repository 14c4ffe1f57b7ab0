"""Sending one Gremlin request to a server: through gremlinpython (scripts and bytecode, over
GraphBinary, GraphSON 3.0 or 2.0), or as a raw GraphSON 3.0 frame whose answer is kept as JSON text
(so numeric and collection types stay visible). Every answer is `(True, results)` or
`(False, the error's status code)`."""

from __future__ import annotations

import json
import uuid
from typing import Any

from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.driver.serializer import (
    GraphBinarySerializersV1,
    GraphSONSerializersV2d0,
    GraphSONSerializersV3d0,
)
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Column, Order, P, Scope, T, TextP
from websockets.sync.client import connect

SERIALIZERS = {"binary": GraphBinarySerializersV1, "graphson": GraphSONSerializersV3d0,
               "graphson2": GraphSONSerializersV2d0}
GRAPHSON_MIME = b"application/vnd.gremlin-v3.0+json"


_open: dict[tuple[str, str, str, str], Any] = {}


def _connection(kind: str, url: str, source: str, serializer: str) -> Any:
    """One client per server, source and serializer for the whole run (opening one costs
    ~0.5 s of event-loop set-up); `close_all` ends them."""
    key = (kind, url, source, serializer)
    if key not in _open:
        opener = Client if kind == "script" else DriverRemoteConnection
        _open[key] = opener(url, source, message_serializer=SERIALIZERS[serializer]())
    return _open[key]


def close_all() -> None:
    while _open:
        _open.popitem()[1].close()


def _failed(exc: Exception, key: tuple[str, str, str, str]) -> tuple[bool, Any]:
    """A server error is its status code; anything else (gremlinpython cannot read the answer,
    e.g. a GraphBinary Tree) is the client's exception type, and that connection is dropped."""
    if isinstance(exc, GremlinServerError):
        return False, exc.status_code
    if key in _open:
        _open.pop(key).close()
    return False, f"client: {type(exc).__name__}"


def script(url: str, source: str, text: str, serializer: str) -> tuple[bool, Any]:
    try:
        return True, _connection("script", url, source, serializer).submit(text).all().result()
    except Exception as exc:
        return _failed(exc, ("script", url, source, serializer))


def bytecode(url: str, source: str, expr: str, serializer: str) -> tuple[bool, Any]:
    g = traversal().with_(_connection("bytecode", url, source, serializer))
    names = {"g": g, "__": __, "P": P, "TextP": TextP, "T": T, "Order": Order, "Scope": Scope,
             "Column": Column}
    try:
        return True, eval(expr, names).to_list()  # our own case table, not input
    except Exception as exc:
        return _failed(exc, ("bytecode", url, source, serializer))


def raw(url: str, source: str, text: str) -> tuple[bool, Any]:
    """A raw GraphSON 3.0 `eval`; the answers' `result.data` batches, or the error status."""
    request = {"requestId": str(uuid.uuid4()), "op": "eval", "processor": "",
               "args": {"gremlin": text, "aliases": {"g": source}, "language": "gremlin-groovy"}}
    frame = bytes([len(GRAPHSON_MIME)]) + GRAPHSON_MIME + json.dumps(request).encode()
    batches: list[Any] = []
    with connect(url, max_size=None) as ws:
        ws.send(frame)
        while True:
            answer = json.loads(ws.recv(timeout=60))
            code = answer["status"]["code"]
            if code >= 300:
                return False, code
            batches.append(answer["result"]["data"])
            if code != 206:
                break
    if len(batches) == 1:
        return True, batches[0]
    merged = [item for batch in batches for item in (batch or {}).get("@value", [])]
    return True, {"@type": "g:List", "@value": merged}
