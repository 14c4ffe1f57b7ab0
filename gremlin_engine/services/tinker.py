"""TinkerGraph's two sample services, as the TinkerPop corpus calls them.

* `tinker.search` (start): the properties whose string value matches `.*(search).*` (or the
  `regex` given), optionally only those of one `type` of element (`Vertex`: vertex
  properties, `Edge`: edge properties, `VertexProperty`: meta-properties). A scan: it is a
  sample, as TinkerGraph's is.
* `tinker.degree.centrality` (streaming): each vertex's number of edges in `direction`
  (default IN), as a Long; one adjacency count per batch of vertices.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.services.model import Service
from gremlin_engine.structure.elements import Property, Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.tokens import Direction

_TYPES = ("Vertex", "Edge", "VertexProperty")
_CHUNK = 500
_DIRECTIONS = {"IN": Direction.IN, "OUT": Direction.OUT, "BOTH": Direction.BOTH}


def services() -> list[Service]:
    return [
        Service("tinker.search", _search, start=True, streaming=False, params={
            "search": "Specify a search term - will be converted to regex via .*(search).*",
            "regex": "Directly specify the regex",
            "type": "Specify the type of Element to search for, one of Vertex/Edge/VertexProperty (optional)",
        }),
        Service("tinker.degree.centrality", _degree, start=False, streaming=True, params={
            "direction": "Specify the direction of the edges to count: IN (default), OUT or BOTH",
        }),
    ]


def _search(ctx: Any, inputs: Sequence[Any] | None, params: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    p = params[0]
    if "regex" in p:
        pattern = re.compile(str(p["regex"]))
    elif "search" in p:
        pattern = re.compile(".*(" + str(p["search"]) + ").*")
    else:
        raise IllegalArgument("Missing search/regex parameter")
    kind = p.get("type")
    if kind is not None and kind not in _TYPES:
        raise IllegalArgument(f"Type must be one of Vertex/Edge/VertexProperty: {kind}")
    found: list[Any] = []
    if kind in (None, "Vertex", "VertexProperty"):
        for batch in _chunks(ctx.access.vertices(), ctx):
            ctx.load(batch)
            for v in batch:
                for vp in v.properties():
                    if kind != "VertexProperty" and _matches(pattern, vp.value):
                        found.append(vp)
                    if kind != "Vertex":
                        found.extend(Property(k, val, vp) for k, val in vp.meta.items() if _matches(pattern, val))
    if kind in (None, "Edge"):
        for batch in _chunks(ctx.access.edges(), ctx):
            ctx.load(batch)
            for e in batch:
                found.extend(p for p in e.properties() if _matches(pattern, p.value))
    return [found]


def _matches(pattern: re.Pattern[str], value: Any) -> bool:
    return isinstance(value, str) and pattern.fullmatch(value) is not None


def _chunks(it: Iterator[Any], ctx: Any) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for el in it:
        batch.append(el)
        if len(batch) >= _CHUNK:
            ctx.check()
            yield batch
            batch = []
    if batch:
        yield batch


def _degree(ctx: Any, inputs: Sequence[Any] | None, params: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    if inputs is None:
        raise IllegalArgument("tinker.degree.centrality cannot start a traversal: call it on vertices")
    out: list[list[Any]] = [[] for _ in inputs]
    by_direction: dict[Direction, list[int]] = {}
    for i, (obj, p) in enumerate(zip(inputs, params, strict=True)):
        if not isinstance(obj, Vertex):
            raise IllegalArgument(f"tinker.degree.centrality takes vertices, not {obj!r}")
        d = p.get("direction", Direction.IN)
        if isinstance(d, str) and not isinstance(d, Direction):
            d = _DIRECTIONS.get(d.upper(), d)
        if not isinstance(d, Direction):
            raise IllegalArgument(f"direction must be IN, OUT or BOTH, not {d!r}")
        by_direction.setdefault(d, []).append(i)
    access = ctx.access
    counter = getattr(type(access), "adjacent_counts", None)
    for d, idx in by_direction.items():
        vs = [inputs[i] for i in idx]
        if counter is not None:
            counts = access.adjacent_counts(vs, d)
        else:
            counts = [0] * len(vs)
            for j, _e in access.adjacent_edges(vs, d):
                counts[j] += 1
        for i, n in zip(idx, counts, strict=True):
            out[i].append(Long(n))
    return out

