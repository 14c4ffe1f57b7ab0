"""What a task records as its result: plain JSON for results when no REST serializer was
given (embedded use), a serializer's text as it is (`Serialized`), a failure as HugeGraph's
`e.toString()` (`failure_text`).

Elements become HugeGraph's compact shapes without properties they have not loaded; other
values map to their JSON counterparts (dates as `yyyy-MM-dd HH:mm:ss.SSS`, UUIDs and other
objects as text), so any result can be stored as `task_result`.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from typing import Any

import orjson

from gremlin_engine.errors import LimitExceeded
from gremlin_engine.schema.coercion import format_date


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else str(value)
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return format_date(value)
    if isinstance(value, dict):
        return {str(_plain(k)) if not isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    kind = getattr(value, "kind", None)
    if kind in ("vertex", "edge") and hasattr(value, "id"):
        out: dict[str, Any] = {"id": _plain(value.id), "label": value.label, "type": kind}
        if kind == "edge":
            for attr, key in (("out_v", "outV"), ("in_v", "inV")):
                end = getattr(value, attr, None)
                if end is not None:
                    out[key] = _plain(getattr(end, "id", end))
        return out
    for attr in ("to_json",):
        fn = getattr(value, attr, None)
        if callable(fn):
            return fn()
    return str(value)


def plain_json(value: Any) -> str:
    return orjson.dumps(_plain(value)).decode()


class Serialized:
    """A job result already rendered as JSON text by a serializer."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def failure_text(exc: BaseException) -> str:
    """`e.toString()` as HugeGraph stores it: `<java class>: <message>`. An exception not of
    ours is a bug (logged with its traceback) or the process out of memory: its Python text
    names interpreter internals, so the task records what a person can act on instead."""
    if isinstance(exc, MemoryError):
        return (f"{LimitExceeded.java_exception}: the task needed more memory than the server could allocate "
                "(HUGELITE_TRAVERSAL_MEMORY_MB bounds a traversal's growth)")
    java = getattr(exc, "java_exception", None)
    if java is None:
        return "java.lang.RuntimeException: internal error; the server log has the details"
    message = str(exc)
    return f"{java}: {message}" if message else java
