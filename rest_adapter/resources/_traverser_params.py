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

from starlette.requests import Request

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import ids as idc
from rest_adapter.context import query_bool, query_int, query_one
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
    try:
        return idc.parse_id_literal(raw)
    except IllegalArgument as e:
        raise bad_request(f"The '{name}' parameter is not a vertex id: {e}") from None


def _edge_id(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1]
    return raw


def query_request(request: Request, endpoint: str) -> dict[str, Any]:
    """The request map of a GET traverser endpoint (absent parameters are left out)."""
    out: dict[str, Any] = {}
    given = request.query_params
    for name, kind in SPECS[endpoint].items():
        if name not in given:  # absent: nothing to parse or check (most of the ~13 names)
            continue
        if kind == "id":
            value: Any = id_param(request, name)
        elif kind == "int":
            value = query_int(request, name)
        elif kind == "bool":
            value = query_bool(request, name) if query_one(request, name) not in (None, "") else None
        elif kind == "ids":
            raws = request.query_params.getlist(name)
            try:
                value = [idc.parse_id_literal(r) for r in raws] or None
            except IllegalArgument as e:
                raise bad_request(f"The '{name}' parameter holds a malformed vertex id: {e}") from None
        elif kind == "edge_ids":
            value = [_edge_id(r) for r in request.query_params.getlist(name)] or None
        else:
            value = query_one(request, name)
            if name == "page" and value is None:
                value = ""
        if value is not None:
            out[name] = value
    if endpoint == "scan" and "page" in request.query_params and "page" not in out:
        out["page"] = ""
    return out
