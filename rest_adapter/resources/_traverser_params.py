"""Query-parameter parsing for the traverser endpoints: each GET endpoint declares its
parameters by kind, and `query_request` turns the query string into the request map the
engine's algorithm step reads (the same map a POST body is).

Kinds: `id` (a JSON-literal vertex id, `"1:marko"` / `123`, parsed by the one id codec),
`int`, `bool`, `str`, `ids` (repeated JSON-literal ids), `edge_ids` (repeated raw edge ids,
quotes tolerated). Syntax errors are 400s naming the parameter; value ranges (depth,
degree, capacity, alpha...) are checked by the engine step, with HugeGraph's messages.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from starlette.requests import Request

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import Long
from rest_adapter.context import parse_bool, parse_int, query_one
from rest_adapter.errors import bad_request

COMMON = {"direction": "str", "label": "str", "max_degree": "int", "skip_degree": "int", "capacity": "int",
          "limit": "int", "with_vertex": "bool", "with_edge": "bool"}

SPECS: dict[str, dict[str, str]] = {
    "kout": {**COMMON, "source": "id", "max_depth": "int", "nearest": "bool", "count_only": "bool"},
    "kneighbor": {**COMMON, "source": "id", "max_depth": "int", "count_only": "bool"},
    "sameneighbors": {**COMMON, "vertex": "id", "other": "id"},
    "jaccardsimilarity": {**COMMON, "vertex": "id", "other": "id"},
    "shortestpath": {**COMMON, "source": "id", "target": "id", "max_depth": "int"},
    "allshortestpaths": {**COMMON, "source": "id", "target": "id", "max_depth": "int"},
    "weightedshortestpath": {**COMMON, "source": "id", "target": "id", "weight": "str"},
    "singlesourceshortestpath": {**COMMON, "source": "id", "weight": "str"},
    "paths": {**COMMON, "source": "id", "target": "id", "max_depth": "int"},
    "crosspoints": {**COMMON, "source": "id", "target": "id", "max_depth": "int"},
    "rings": {**COMMON, "source": "id", "max_depth": "int", "source_in_ring": "bool"},
    "rays": {**COMMON, "source": "id", "max_depth": "int"},
    "adamicadar": {**COMMON, "vertex": "id", "other": "id"},
    "resourceallocation": {**COMMON, "vertex": "id", "other": "id"},
    "edgeexist": {"source": "id", "target": "id", "label": "str", "sort_values": "str", "limit": "int"},
    "vertices": {"ids": "ids"},
    "edges": {"ids": "edge_ids"},
    "shards": {"split_size": "int"},
    "scan": {"start": "str", "end": "str", "page": "str", "page_limit": "int"},
}


def id_param(request: Request, name: str) -> Any:
    raw = query_one(request, name)
    if raw is None or raw == "":
        return None
    return _id(name, raw)


def _id(name: str, raw: str) -> Any:
    if raw.isdigit() and raw.isascii() and len(raw) < 19 and (raw[0] != "0" or len(raw) == 1):
        # what `parse_id_literal` makes of a JSON integer that fits a Long, without its
        # JSON parse and the error it builds in advance (the everyday numeric source)
        return Long(int(raw))
    try:
        return idc.parse_id_literal(raw)
    except IllegalArgument as e:
        raise bad_request(f"The '{name}' parameter is not a vertex id: {e}") from None


def _edge_id(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1]
    return raw


def _one(name: str, values: list[str]) -> str:
    """A single-valued parameter (the 400 of `context.query_one` when given twice)."""
    if len(values) > 1:
        raise bad_request(f"Invalid query param '{name}', can only accept one value, but got {values}")
    return values[0]


def _unquote(text: str) -> str:
    return unquote(text.replace("+", " ")) if "%" in text or "+" in text else text


def _pairs(query: str) -> list[tuple[str, str]]:
    """`urllib.parse.parse_qsl(query, keep_blank_values=True)`, skipping the unquoting of
    the (usual) parts that hold no `%` or `+`."""
    out = []
    for part in query.split("&"):
        if not part:
            continue
        name, eq, value = part.partition("=")
        out.append((_unquote(name), _unquote(value) if eq else ""))
    return out


def _given(scope: Any) -> dict[str, list[str]]:
    """The query string as {name: [values]}, parsed once (Starlette's parsing: latin-1
    bytes, `parse_qsl` with blank values kept), without building a `QueryParams`."""
    raw = scope.get("query_string", b"")
    out: dict[str, list[str]] = {}
    if raw:
        for k, v in _pairs(raw.decode("latin-1")):
            seen = out.get(k)
            if seen is None:
                out[k] = [v]
            else:
                seen.append(v)
    return out


#: (kind, text) -> value of the int and bool parameters that parsed: pure functions of the
#: text, and a workload repeats them (depth, degrees, capacity, flags) while the source
#: varies; a bad value raises before it is kept. Cleared when it reaches `_SCALARS_MAX`.
_SCALARS: dict[tuple[str, str], Any] = {}
_SCALARS_MAX = 4096


def _scalar(kind: str, name: str, raw: str) -> Any:
    """`parse_int` / `parse_bool` of one parameter's text, remembered (see `_SCALARS`)."""
    value = _SCALARS.get((kind, raw))
    if value is None:
        value = parse_int(name, raw) if kind == "int" else parse_bool(name, raw)
        if len(_SCALARS) >= _SCALARS_MAX:
            _SCALARS.clear()
        _SCALARS[(kind, raw)] = value
    return value


#: (endpoint, the query string less its `source=` part) -> the request map a query string
#: of that rest gave (its source included, replaced per request), or None for a rest seen
#: once: a client sends the same parameters again and again with another source, and every
#: parameter but the source then parses to what it parsed to before (see `_templated`)
_TEMPLATES: dict[tuple[str, bytes], dict[str, Any] | None] = {}
_TEMPLATES_MAX = 1024
#: endpoints with a `source` id parameter, whose maps may come from `_TEMPLATES`
_TEMPLATED = frozenset(name for name, spec in SPECS.items() if spec.get("source") == "id")
_SCALAR_TYPES = (bool, int, str, Long)


def _split_source(raw: bytes) -> tuple[bytes, bytes] | None:
    """(the value of the first `source=` part, the query string without that part), or
    None when there is none or its value is empty."""
    if raw.startswith(b"source="):
        start = 0
    else:
        start = raw.find(b"&source=") + 1
        if start == 0:
            return None
    end = raw.find(b"&", start)
    if end < 0:
        value, rest = raw[start + 7:], raw[:start - 1] if start else b""
    else:
        value, rest = raw[start + 7:end], raw[:start] + raw[end + 1:]
    return (value, rest) if value else None


def _templated(raw: bytes, endpoint: str) -> tuple[dict[str, Any] | None, bytes | None]:
    """The request map of `raw` from `_TEMPLATES` (None when it has no template yet), and
    the rest to file a template under (None when `raw` cannot have one).

    Why it is the map `query_request` would build: a template is filed only after the
    general parse of a whole query string succeeded; its source was the part split off (the
    parse saw exactly one `source`, so the rest holds none, under any spelling), and each
    other parameter parses on its own, to the same value whatever the source. A query of
    the same rest and another source therefore parses to the template with that source,
    in the same key order, or fails on the source alone, with the general path's message."""
    split = _split_source(raw)
    if split is None:
        return None, None
    value, rest = split
    template = _TEMPLATES.get((endpoint, rest))
    if template is None:
        return None, rest
    text = value.decode("latin-1")
    if "%" in text or "+" in text:
        text = _unquote(text)
        if text == "":
            return None, None  # an empty source: the general path leaves it out
    out = template.copy()
    out["source"] = _id("source", text)
    return out, None


def query_request(request: Request, endpoint: str) -> dict[str, Any]:
    """The request map of a GET traverser endpoint (absent parameters are left out): see
    `query_scope`."""
    return query_scope(request.scope, endpoint)


def query_scope(scope: Any, endpoint: str) -> dict[str, Any]:
    """The request map of a GET traverser endpoint from its ASGI scope (absent parameters
    are left out).

    Keys come in the endpoint's `SPECS` order whatever the query string's order (the map's
    repr seeds random sampling), and a malformed parameter is reported in that order too.
    A query string that differs from one parsed before only in its source is answered from
    `_TEMPLATES` (the same map, ~4x less CPU)."""
    if endpoint in _TEMPLATED:
        raw = scope.get("query_string", b"")
        if raw.startswith(b"source="):  # `_templated`'s everyday case, written out: the source
            # first, a decimal integer that fits a Long, the rest seen before
            end = raw.find(b"&", 7)
            if end > 7:
                template = _TEMPLATES.get((endpoint, raw[end + 1:]))
                value = raw[7:end]
                if template is not None and value.isdigit() and len(value) < 19 and (
                        value[0] != 48 or end == 8):  # no leading zero (b"0" is 48)
                    out = template.copy()
                    out["source"] = Long(int(value))
                    return out
        found, rest = _templated(raw, endpoint)
        if found is not None:
            return found
        out = _parse(scope, endpoint)
        if rest is not None and "source" in out and all(
                type(v) in _SCALAR_TYPES for k, v in out.items() if k != "source"):  # nothing shared that mutates
            if len(_TEMPLATES) >= _TEMPLATES_MAX:
                _TEMPLATES.clear()
            _TEMPLATES[(endpoint, rest)] = out.copy()
        return out
    return _parse(scope, endpoint)


def _parse(scope: Any, endpoint: str) -> dict[str, Any]:
    """`query_request`'s general parse."""
    out: dict[str, Any] = {}
    given = _given(scope)
    if not given:
        return out
    for name, kind in SPECS[endpoint].items():
        values = given.get(name)
        if values is None:  # absent: nothing to parse or check (most of the ~13 names)
            continue
        value: Any
        if kind == "ids":
            try:
                value = [idc.parse_id_literal(r) for r in values]
            except IllegalArgument as e:
                raise bad_request(f"The '{name}' parameter holds a malformed vertex id: {e}") from None
        elif kind == "edge_ids":
            value = [_edge_id(r) for r in values]
        else:
            raw = _one(name, values)
            if kind == "str":
                value = raw
            elif raw == "":
                continue  # an empty id, int or bool is the parameter left out
            elif kind == "id":
                value = _id(name, raw)
            else:
                value = _scalar(kind, name, raw)
        out[name] = value
    return out
