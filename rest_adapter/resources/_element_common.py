"""What the vertex and edge resources share: IR building, request checks, JSON shapes.

Handlers follow one pattern (DESIGN.md, "everything is a traversal"): parse and validate
the request here, build a `TraversalIR` of standard steps plus the HugeGraph steps of
`gremlin_engine/traversal/steps/hugegraph/`, run it with ONE `graph.traverse` call (one
transaction: a failing batch leaves nothing behind), and serialise the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import repeat
from operator import is_
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gremlin_engine import Graph
from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import LONG_MAX, LONG_MIN, Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.steps.hugegraph.conditions import parse_conditions
from rest_adapter.context import json_response, no_content, query_bool, query_int, query_one, run_watched
from rest_adapter.errors import bad_request, unsupported_action
from rest_adapter.serializers.hugegraph_json import edge_json, id_json, id_key, vertex_json

DEFAULT_LIMIT = 100


def ir(*steps: tuple[Any, ...]) -> TraversalIR:
    """`ir(("V", 1), ("out",))` -> `g.V(1).out()`."""
    return TraversalIR((), tuple([Instruction(s[0], tuple(s[1:])) for s in steps]))


def point_ir(source: str, element_id: Any) -> TraversalIR:
    """`g.V(id)` / `g.E(id)`: `ir((source, id))` without the generic step loop (per GET)."""
    return TraversalIR((), (Instruction(source, (element_id,)),))


def anon(*steps: tuple[Any, ...]) -> TraversalIR:
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps), True)


async def traverse(request: Request, graph: Graph, traversal: TraversalIR, strict: bool = False) -> list[Any]:
    """Runs the traversal: one call, one transaction, on the app's worker pool (traversals
    block), stopped when the client disconnects (`context.run_watched`). `strict`: the
    request names one element (by id), which the principal must be allowed, else 403."""
    return await run_watched(request, graph.traverse, traversal, strict=strict)


# ---- JSON out -----------------------------------------------------------------------------


def cardinality_of(graph: Graph) -> Any:
    """`key -> cardinality` under `graph`'s current schema (None for an unknown key)."""
    return _settled(graph)[0]


def _settled(graph: Graph) -> tuple[Any, dict[str, bool]]:
    """(`cardinality_of`, {key: shows one value as a list}) for the schema in force,
    cached on its snapshot (`SchemaService.derived`): while it stands every key's answer
    does, and a GET by id makes no closure and no schema lookup per key."""
    schema = graph.schema

    def make() -> tuple[Any, dict[str, bool]]:
        def card(key: str) -> Any:
            pk = schema.property_key(key)
            return pk.cardinality if pk is not None else None

        return card, {}

    return schema.derived(("vertex json",), make)  # type: ignore[no-any-return]


def vertices_json(graph: Graph, vertices: list[Any]) -> list[dict[str, Any]]:
    card, multi = _settled(graph)  # each key's cardinality looked up once per snapshot
    return [vertex_json(v, card, multi) for v in vertices]


def one_vertex_json(graph: Graph, v: Any) -> dict[str, Any]:
    card, multi = _settled(graph)
    return vertex_json(v, card, multi)


def edges_json(edges: list[Any]) -> list[dict[str, Any]]:
    return [edge_json(e) for e in edges]


def ids_json(ids: list[Any]) -> list[Any]:
    if _STR == set(map(type, ids)):  # edge ids and PRIMARY_KEY vertex ids: as they are
        return ids
    return [i if type(i) is str else id_json(i) for i in ids]


# ---- request bodies -------------------------------------------------------------------------

VERTEX_FIELDS = frozenset({"id", "label", "type", "properties"})
EDGE_FIELDS = frozenset({"id", "label", "type", "outV", "outVLabel", "inV", "inVLabel", "properties"})


def check_fields(body: Mapping[str, Any], allowed: frozenset[str], what: str) -> None:
    for key in body:
        if key not in allowed:
            raise bad_request(f'Unrecognized field "{key}" in the {what} body, known fields: {sorted(allowed)}')


def properties_of(body: Mapping[str, Any], kind: str, required: bool = True) -> dict[str, Any]:
    props = body.get("properties")
    if props is None:
        if required:
            raise bad_request(f"The properties of {kind} can't be null")
        return {}
    if not isinstance(props, dict):
        raise bad_request(f"The properties of {kind} must be a JSON object, but got {orjson.dumps(props).decode()}")
    return props


def vertex_item(body: Any) -> dict[str, Any]:
    """A vertex create body as the item map the engine steps take."""
    if body is None:
        raise bad_request("The batch body can't contain null record")
    if not isinstance(body, dict):
        raise bad_request(f"A vertex must be a JSON object, but got {orjson.dumps(body).decode()}")
    check_fields(body, VERTEX_FIELDS, "vertex")
    label = body.get("label")
    if label is not None and not isinstance(label, str):
        raise bad_request(f"The label of vertex must be a string, but got {orjson.dumps(label).decode()}")
    return {"label": label, "id": body.get("id"), "properties": properties_of(body, "vertex")}


def edge_item(body: Any, labels_required: bool) -> dict[str, Any]:
    """An edge create body as an item map, with HugeGraph's checks and messages."""
    if body is None:
        raise bad_request("The batch body can't contain null record")
    if not isinstance(body, dict):
        raise bad_request(f"An edge must be a JSON object, but got {orjson.dumps(body).decode()}")
    check_fields(body, EDGE_FIELDS, "edge")
    if not isinstance(body.get("label"), str) or not body["label"]:
        raise bad_request("Expect the label of edge")
    if body.get("outV") is None:
        raise bad_request("Expect source vertex id")
    if body.get("inV") is None:
        raise bad_request("Expect target vertex id")
    out_label, in_label = body.get("outVLabel"), body.get("inVLabel")
    if labels_required:
        if out_label is None:
            raise bad_request("Expect source vertex label")
        if in_label is None:
            raise bad_request("Expect target vertex label")
    elif (out_label is None) != (in_label is None):
        raise bad_request("The both source and target vertex label are either passed in, or not passed in")
    for what, label in (("source", out_label), ("target", in_label)):
        if label is not None and not isinstance(label, str):  # a list here once reached a name lookup: 500
            raise bad_request(f"The {what} vertex label must be a string, but got {orjson.dumps(label).decode()}")
    return {
        "label": body["label"], "id": body.get("id"), "outV": body["outV"], "inV": body["inV"],
        "outVLabel": out_label, "inVLabel": in_label, "properties": properties_of(body, "edge", required=False),
    }


def vertex_items(bodies: list[Any]) -> list[dict[str, Any]]:
    """`[vertex_item(b) for b in bodies]` for a batch (500 a request). A batch whose every
    body passes every check with its properties given is checked column by column and
    used as it is (the engine reads items with `get`, so a body is the item it would be
    made into); otherwise a body that passes is converted right here, and any other goes
    through `vertex_item`, which raises its error (the same first error: the bodies before
    it passed)."""
    if _plain_vertex_bodies(bodies):
        return bodies
    out = []
    append = out.append
    for body in bodies:
        if type(body) is dict and VERTEX_FIELDS.issuperset(body):
            label = body.get("label")
            props = body.get("properties")
            if type(props) is dict and (label is None or type(label) is str):
                append({"label": label, "id": body.get("id"), "properties": props})
                continue
        append(vertex_item(body))
    return out


def edge_items(bodies: list[Any], labels_required: bool) -> list[dict[str, Any]]:
    """`[edge_item(b, labels_required) for b in bodies]`, as `vertex_items` does it."""
    if _plain_edge_bodies(bodies, labels_required):
        return bodies
    out = []
    append = out.append
    for body in bodies:
        if type(body) is dict and EDGE_FIELDS.issuperset(body):
            get = body.get
            label, out_v, in_v = get("label"), get("outV"), get("inV")
            out_label, in_label = get("outVLabel"), get("inVLabel")
            props = get("properties")
            if (
                type(label) is str and label and out_v is not None and in_v is not None
                and (type(props) is dict or props is None)
                and (out_label is None or type(out_label) is str) and (in_label is None or type(in_label) is str)
                and ((out_label is not None and in_label is not None) if labels_required
                     else (out_label is None) == (in_label is None))
            ):
                append({"label": label, "id": get("id"), "outV": out_v, "inV": in_v, "outVLabel": out_label,
                        "inVLabel": in_label, "properties": {} if props is None else props})
                continue
        append(edge_item(body, labels_required))
    return out


def _plain_vertex_bodies(bodies: list[Any]) -> bool:
    """Every body a JSON object of known fields, a string or no label, properties an object:
    what `vertex_items`' per-body test asks, column by column (in C)."""
    if set(map(type, bodies)) != _DICT or not all(map(VERTEX_FIELDS.issuperset, bodies)):
        return False
    if set(map(type, map(dict.get, bodies, repeat("properties")))) != _DICT:
        return False
    return set(map(type, map(dict.get, bodies, repeat("label")))) <= _STR_OR_NONE


def _plain_edge_bodies(bodies: list[Any], labels_required: bool) -> bool:
    """`edge_items`' per-body test, column by column, with the properties given."""
    if set(map(type, bodies)) != _DICT or not all(map(EDGE_FIELDS.issuperset, bodies)):
        return False
    get = dict.get
    labels = list(map(get, bodies, repeat("label")))
    if set(map(type, labels)) != _STR or "" in labels:
        return False
    if None in map(get, bodies, repeat("outV")) or None in map(get, bodies, repeat("inV")):
        return False
    if set(map(type, map(get, bodies, repeat("properties")))) != _DICT:
        return False
    out_labels = list(map(get, bodies, repeat("outVLabel")))
    in_labels = list(map(get, bodies, repeat("inVLabel")))
    if not set(map(type, out_labels)) <= _STR_OR_NONE or not set(map(type, in_labels)) <= _STR_OR_NONE:
        return False
    if labels_required:
        return None not in out_labels and None not in in_labels
    return list(map(is_, out_labels, repeat(None))) == list(map(is_, in_labels, repeat(None)))


_DICT = {dict}
_STR = {str}
_STR_OR_NONE = {str, type(None)}


def batch_items(body: Any, kind: str, maximum: int) -> list[Any]:
    plural = "vertices" if kind == "vertex" else "edges"
    if not isinstance(body, list):
        raise bad_request(f"The {plural} must be a JSON array")
    if not body:
        raise bad_request(f"The number of {plural} can't be 0")
    if len(body) > maximum:
        raise bad_request(f"Too many {plural} for one time post, the maximum number is '{maximum}'")
    return body


def update_batch_body(body: Mapping[str, Any], kind: str, maximum: int) -> tuple[list[Any], dict[str, Any]]:
    """(items, strategies) of a `PUT .../batch` body."""
    plural = "vertices" if kind == "vertex" else "edges"
    allowed = {plural, "update_strategies", "create_if_not_exist"} | ({"check_vertex"} if kind == "edge" else set())
    check_fields(body, frozenset(allowed), f"batch {kind} update")
    items = body.get(plural)
    if items is None:
        raise bad_request(f"Parameter '{plural}' can't be null")
    batch_items(items, kind, maximum)
    strategies = body.get("update_strategies")
    if not strategies:
        raise bad_request("Parameter 'update_strategies' can't be empty")
    if not isinstance(strategies, dict):
        raise bad_request("Parameter 'update_strategies' must be a JSON object")
    create = body.get("create_if_not_exist", True)
    if create is not True:
        raise bad_request("Parameter 'create_if_not_exist' dose not support false now")
    return items, strategies


def action_of(request: Request) -> str:
    action = query_one(request, "action")
    if not action:
        raise bad_request("The action param can't be empty")
    if action not in ("append", "eliminate"):
        raise unsupported_action(action)
    return action


# ---- query parameters -----------------------------------------------------------------------


def vertex_id_param(text: str) -> Any:
    """A vertex id from a path or query parameter (a JSON literal: `"1:marko"`, `123`).

    The two everyday forms are read here: a quoted string with nothing to unescape, and a
    short plain number. They give exactly what `parse_id_literal` gives, which reads
    everything else (and words every error)."""
    if text is None:
        return idc.parse_id_literal(text)
    if text[-1:] == '"':
        inner = text[1:-1]
        if text[0] == '"' and inner and '"' not in inner and "\\" not in inner and inner.isprintable():
            return inner
    elif text.isdigit() and text.isascii() and len(text) < 19 and (text[0] != "0" or len(text) == 1):
        return Long(int(text))
    return idc.parse_id_literal(text)


def edge_id_param(graph: Graph, text: str) -> Any:
    """An edge id from a path: the 5-part HugeGraph form (404 when malformed); a number in
    auto-mode graphs, whose edges have plain ids."""
    if graph.schema_mode == "auto":
        try:
            number = int(text)
        except ValueError:
            return text
        # past a Java long it cannot be a stored edge's number: look it up as text (not found)
        return Long(number) if LONG_MIN <= number <= LONG_MAX else text
    return str(idc.parse_edge_id(text))


def conditions_param(request: Request, graph: Graph) -> list[tuple[str, Any]]:
    raw = query_one(request, "properties")
    if raw is None or raw == "":
        return []
    try:
        props = orjson.loads(raw)
    except orjson.JSONDecodeError:
        props = None
    if not isinstance(props, dict):
        raise bad_request(f"Invalid request with properties: {raw}")
    keep_p = query_bool(request, "keep_start_p", False)
    return parse_conditions(graph.schema, props, keep_p=keep_p, auto=graph.schema_mode == "auto")


def paging_params(request: Request, kind: str) -> tuple[str | None, int, int]:
    """(page token or None, offset, limit); `page` given without a value is the first page."""
    plural = "vertices" if kind == "vertex" else "edges"
    page = query_one(request, "page")
    offset = query_int(request, "offset", 0) or 0
    limit = query_int(request, "limit", DEFAULT_LIMIT)
    assert limit is not None
    if offset < 0:
        raise bad_request(f"Invalid offset {offset}, it must be >= 0")
    if page is not None:
        if offset != 0:
            raise bad_request(f"Not support querying {plural} based on paging and offset together")
        if limit == 0:
            raise bad_request("Can't set limit=0 when using paging")
    if limit < -1:
        raise bad_request(f"Not a legal range: [{offset}, {offset + limit}]")
    return page, offset, limit


def range_step(offset: int, limit: int) -> tuple[Any, ...] | None:
    if limit == -1:
        return ("skip", offset) if offset else None
    return ("range", offset, offset + limit)


def window_step(page: str | None, offset: int, limit: int) -> tuple[Any, ...] | None:
    """The step that cuts a listing to what `paging_params` asked for: `hgPage` when paging
    (it answers one map of items and next-page token), else `range_step`'s (None: all)."""
    if page is not None:
        return ("hgPage", page, limit)
    return range_step(offset, limit)


def listing_response(
    plural: str, result: list[Any], page: str | None, to_json: Callable[[list[Any]], list[dict[str, Any]]]
) -> Response:
    """`{plural: [...]}` for a listing, with `"page"` (the next token) when it was paged:
    the paged traversal answers one `{"items", "page"}` map, the other the elements."""
    if page is None:
        return json_response({plural: to_json(result)})
    found = result[0]
    return json_response({plural: to_json(found["items"]), "page": found["page"]})


def label_param(request: Request) -> str | None:
    label = query_one(request, "label")
    return label or None


def check_illegal(condition: bool, message: str) -> None:
    if condition:
        raise IllegalArgument(message)


async def delete_element(request: Request, graph: Graph, kind: str, element_id: Any, label: str | None) -> Response:
    """`DELETE /vertices/{id}` and `/edges/{id}` (`kind` 'vertex' or 'edge'), optionally
    restricted to `label`: one `V(id)`/`E(id)` + drop traversal. HugeGraph trusts a given label
    that has no index labels and deletes blindly (204 even when nothing matched)."""
    if label is not None:
        find = graph.schema.vertex_label if kind == "vertex" else graph.schema.edge_label
        if find(label) is None:
            raise IllegalArgument(f"Undefined {kind} label: '{label}'")
    steps: list[tuple[Any, ...]] = [("V" if kind == "vertex" else "E", element_id)]
    if label is not None:
        steps.append(("hasLabel", label))
    steps += [("sideEffect", anon(("drop",))), ("count",)]
    dropped = (await traverse(request, graph, ir(*steps), strict=True))[0]
    if dropped == 0 and (label is None or graph.schema.index_labels_for(f"{kind.upper()}_LABEL", label)):
        raise IllegalArgument(f"No such {kind} with id: '{id_key(element_id)}'")
    return no_content()
