"""Compares traversal results with the expected tables, by value and by Java type.

Both sides are turned into a canonical, hashable form first (`canon`): numbers become
`(java type name, value)` so an Integer 29 never matches `d[29].l`; elements become their
kind and id; maps and sets become sorted tuples so their order does not matter; lists and
paths keep their order. Unordered tables are then compared as multisets, ordered ones as
sequences, and `of` tables as "every result is one of these".
"""

from __future__ import annotations

import datetime
import decimal
import math
import struct
import uuid
from collections import Counter
from collections.abc import Mapping
from enum import Enum
from typing import Any

from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import java_type
from gremlin_engine.traversal.tokens import Direction

_JAVA_NAMES = {
    float: "Double",
    decimal.Decimal: "BigDecimal",
}


def _float32(x: float) -> float:
    """Float (32-bit) values compare after rounding, so 0.4f matches however it was kept."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return x


def _num(value: Any, jt: type) -> tuple:
    name = getattr(jt, "java_name", None) or _JAVA_NAMES.get(jt, jt.__name__)
    if isinstance(value, float) and math.isnan(value):
        return (name, "NaN")
    if name == "Float":
        return (name, _float32(float(value)))
    if name == "Double":
        return (name, float(value))
    if name == "BigDecimal":
        d = decimal.Decimal(value)
        return (name, d.normalize() if d.is_finite() else d)
    return (name, int(value))


def _is_map_entry(x: Any) -> bool:
    # the engine may represent a map entry (from unfold() of a map) by a small class;
    # the TinkerPop runners compare an entry as a one-entry map
    return type(x).__name__ in ("MapEntry", "Entry") and hasattr(x, "key") and hasattr(x, "value")


def _sorted(items: list[tuple]) -> tuple:
    return tuple(sorted(items, key=repr))


def canon(x: Any) -> Any:
    """The canonical comparison form of an engine (or decoded expected) value."""
    if x is None:
        return ("null",)
    if isinstance(x, bool):
        return ("bool", x)
    jt = java_type(x)
    if jt is not None:
        return _num(x, jt)
    if isinstance(x, str):
        return ("str", x)
    if isinstance(x, datetime.datetime):
        dt = x if x.tzinfo else x.replace(tzinfo=datetime.UTC)
        return ("date", dt.astimezone(datetime.UTC))
    if isinstance(x, uuid.UUID):
        return ("uuid", str(x))
    if isinstance(x, Vertex):
        return ("v", canon(x.id))
    if isinstance(x, Edge):
        return ("e", canon(x.id))
    if isinstance(x, VertexProperty):
        return ("vp", x.key, canon(x.value))
    if isinstance(x, Property):
        return ("p", x.key, canon(x.value))
    if isinstance(x, Path):
        return ("path", tuple(canon(o) for o in x.objects))
    if isinstance(x, Enum):
        if isinstance(x, Direction):
            x = {"from_": Direction.OUT, "to": Direction.IN}.get(x.name, x)
        return ("token", type(x).__name__, x.name)
    if _is_map_entry(x):
        return ("map", ((canon(x.key), canon(x.value)),))
    if isinstance(x, Mapping):
        return ("map", _sorted([(canon(k), canon(v)) for k, v in x.items()]))
    if isinstance(x, set | frozenset):
        return ("set", _sorted([canon(v) for v in x]))
    if isinstance(x, list | tuple):
        return ("list", tuple(canon(v) for v in x))
    if hasattr(x, "elements") and callable(getattr(x, "items", None)):
        # a BulkSet-like object: a multiset, compared as a list would be unordered
        return ("list", _sorted([canon(v) for v in x]))
    return ("object", type(x).__name__, repr(x))


def show(c: Any) -> str:
    """A short readable rendering of a canonical value, for failure messages."""
    if not isinstance(c, tuple) or not c:
        return repr(c)
    tag = c[0]
    if tag == "null":
        return "null"
    if tag in ("str",):
        return repr(c[1])
    if tag in ("bool",):
        return str(c[1]).lower()
    if tag in ("v", "e"):
        return f"{tag}[{show(c[1])}]"
    if tag == "vp":
        return f"vp[{c[1]}->{show(c[2])}]"
    if tag == "p":
        return f"p[{c[1]}->{show(c[2])}]"
    if tag == "path":
        return "path[" + ",".join(show(o) for o in c[1]) + "]"
    if tag == "token":
        return f"{c[1]}.{c[2]}"
    if tag == "map":
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in c[1]) + "}"
    if tag == "set":
        return "{" + ", ".join(show(v) for v in c[1]) + "}s"
    if tag == "list":
        return "[" + ", ".join(show(v) for v in c[1]) + "]"
    if tag in ("date", "uuid"):
        return f"{tag}[{c[1]}]"
    if tag == "object":
        return c[2]
    # numbers: (java name, value)
    suffix = {"Integer": "i", "Long": "l", "Double": "d", "Float": "f", "Short": "s", "Byte": "b",
              "BigInteger": "n", "BigDecimal": "m"}.get(tag, tag)
    return f"{c[1]}{suffix}"


def _fmt(cs: list[Any], limit: int = 12) -> str:
    body = ", ".join(show(c) for c in cs[:limit])
    return f"[{body}{', ...' if len(cs) > limit else ''}] ({len(cs)})"


def compare_unordered(actual: list[Any], expected: list[Any]) -> str | None:
    """None when equal as multisets, else a message naming what is missing and extra."""
    a, e = Counter(canon(x) for x in actual), Counter(canon(x) for x in expected)
    if a == e:
        return None
    missing = list((e - a).elements())
    extra = list((a - e).elements())
    return f"unordered mismatch: missing {_fmt(missing)}, unexpected {_fmt(extra)}"


def compare_ordered(actual: list[Any], expected: list[Any]) -> str | None:
    a, e = [canon(x) for x in actual], [canon(x) for x in expected]
    if a == e:
        return None
    return f"ordered mismatch: expected {_fmt(e)}, got {_fmt(a)}"


def compare_of(actual: list[Any], expected: list[Any]) -> str | None:
    """Every result must be one of the expected values (repetition allowed)."""
    allowed = {canon(x) for x in expected}
    bad = [c for c in (canon(x) for x in actual) if c not in allowed]
    if not bad:
        return None
    return f"results not among the allowed values: {_fmt(bad)}"
