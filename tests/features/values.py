"""Decodes the TinkerPop feature notation into engine values.

The corpus writes typed values as small tags so that every language variant can check
Java types: `d[29].i` is an Integer 29, `d[29].l` a Long, `v[marko]` the vertex named marko
in the scenario's graph, `m[{...}]` a JSON map whose string leaves are again notation, and
so on. We decode into the engine's own representation (`structure.numbers` classes, `Vertex`,
`Path`, tokens) so that parameters can be passed straight in as bindings and expected
results can be compared with the same canonical form as actual results (see `results.py`).

Elements are resolved through a `World` (the graph the scenario runs on), because ids in
a graph built by an initializer are only known after it ran.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import re
import uuid
from typing import Any, Protocol

from gremlin_engine.structure.elements import Edge, Path, Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short, normalize
from gremlin_engine.structure.values import hashable_member
from gremlin_engine.traversal.tokens import Direction, Merge, T, token


class Unsupported(Exception):
    """A value the runner knowingly cannot decode (lambdas): the scenario is skipped."""


class World(Protocol):
    """Element look-ups in the graph a scenario runs on (by the `name` property)."""

    def vertex(self, name: str) -> Vertex: ...

    def edge(self, out_name: str, label: str, in_name: str) -> Edge: ...


_NUM_TYPES: dict[str, Any] = {
    "b": Byte,
    "s": Short,
    "i": Int,
    "l": Long,
    "n": BigInt,
    "f": Float,
    "d": float,
    "m": decimal.Decimal,
}

_NUM_RE = re.compile(r"^d\[(.*)\]\.([bsilnfdm])$")
_TAG_RE = re.compile(r"^([a-zA-Z]+)\[(.*)\](\.(?:id|sid))?$", re.S)


def split_top(body: str) -> list[str]:
    """Splits `a,b[c,d],e` on the commas that are not nested in brackets or braces."""
    if body == "":
        return []
    parts, depth, cur = [], 0, []
    for ch in body:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def parse_number(text: str, suffix: str) -> Any:
    cls = _NUM_TYPES[suffix]
    if text in ("NaN", "Infinity", "-Infinity"):
        f = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[text]
        return Float(f) if cls is Float else f
    if cls is decimal.Decimal:
        return decimal.Decimal(text)
    if cls in (float, Float):
        return cls(float(text))
    return cls(int(decimal.Decimal(text)))


def parse_datetime(text: str) -> datetime.datetime:
    """`2023-08-08T00:00:00Z` (also offsets and fractions) as an aware UTC datetime."""
    t = text.strip()
    if t.endswith("Z"):
        t = t[:-1] + "+00:00"
    dt = datetime.datetime.fromisoformat(t)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.UTC)
    return dt.astimezone(datetime.UTC)


def _sid(x: Any) -> str:
    """An id as the Java runners print it (the Java-typed int classes repr with a suffix)."""
    return str(int(x)) if isinstance(x, int) and not isinstance(x, bool) else str(x)


def _parse_edge_ref(body: str) -> tuple[str, str, str]:
    """`marko-knows->vadas` -> (marko, knows, vadas)."""
    m = re.match(r"^(.*?)-(.+?)->(.*)$", body)
    if not m:
        raise ValueError(f"bad edge reference e[{body}]")
    return m.group(1), m.group(2), m.group(3)


def decode(text: Any, world: World | None) -> Any:
    """One notation string (or a JSON leaf from inside `m[...]`) to an engine value."""
    if not isinstance(text, str):
        return _decode_json(text, world)
    if text == "null":
        return None
    if text == "true":
        return True
    if text == "false":
        return False
    if text in ("d[NaN]", "d[Infinity]", "d[-Infinity]"):
        return parse_number(text[2:-1], "d")
    m = _NUM_RE.match(text)
    if m:
        return parse_number(m.group(1), m.group(2))
    m = _TAG_RE.match(text)
    if not m:
        return text
    tag, body, attr = m.group(1), m.group(2), m.group(3)
    if tag == "d" and attr is None:
        # untyped number: integral -> Int/Long, else Double
        try:
            return normalize(int(body)) if re.fullmatch(r"-?\d+", body) else float(body)
        except ValueError:
            return text
    if attr is not None and tag not in ("v", "e"):
        return text
    if tag == "str":
        return body
    if tag == "l":
        return [decode(x, world) for x in split_top(body)]
    if tag == "s":
        return {hashable_member(decode(x, world)) for x in split_top(body)}
    if tag == "m":
        return _decode_json(json.loads(body), world)
    if tag == "p":
        objs = tuple(decode(x, world) for x in split_top(body))
        return Path(labels=tuple(frozenset() for _ in objs), objects=objs)
    if tag == "t":
        return token("T", body)
    if tag == "D":
        return token("Direction", body)
    if tag == "M":
        return token("Merge", body)
    if tag == "dt":
        return parse_datetime(body)
    if tag == "uuid":
        return uuid.UUID(body)
    if tag == "c":
        raise Unsupported(f"lambda {text}")
    if tag == "v":
        if world is None:
            raise ValueError(f"{text} needs a graph")
        v = world.vertex(body)
        if attr == ".id":
            return v.id
        if attr == ".sid":
            return _sid(v.id)
        return v
    if tag == "e":
        if world is None:
            raise ValueError(f"{text} needs a graph")
        e = world.edge(*_parse_edge_ref(body))
        if attr == ".id":
            return e.id
        if attr == ".sid":
            return _sid(e.id)
        return e
    if tag == "vp":
        # vp[name->marko] or vp[marko-name->marko]: the key and the value are what we check
        key, sep, value = body.partition("->")
        if not sep:
            return text
        owner = None
        if "-" in key:
            owner_name, key = key.rsplit("-", 1)
            owner = world.vertex(owner_name) if world is not None else None
        return VertexProperty(id=None, key=key, value=decode(value, world), vertex=owner)
    return text


def _decode_json(obj: Any, world: World | None) -> Any:
    """A JSON value from inside `m[...]`: strings are notation, numbers get Java types."""
    if isinstance(obj, str):
        return decode(obj, world)
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, int):
        return normalize(obj)
    if isinstance(obj, float):
        return obj
    if isinstance(obj, list):
        return [_decode_json(x, world) for x in obj]
    if isinstance(obj, dict):
        return {hashable_member(_decode_json(k, world)): _decode_json(v, world) for k, v in obj.items()}
    raise ValueError(f"unexpected JSON value {obj!r}")


__all__ = ["Direction", "Merge", "T", "Unsupported", "World", "decode", "parse_datetime", "split_top"]
