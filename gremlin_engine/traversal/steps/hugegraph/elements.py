"""Shared pieces of the HugeGraph write steps: element items, end-vertex ids, edge ids,
and a loaded element's properties as plain values.

An *item* is what a REST body says about one element, as a map:
`{"label", "id"?, "properties"}` for a vertex and `{"label", "outV", "inV", "outVLabel"?,
"inVLabel"?, "id"?, "properties"}` for an edge (ids as JSON gives them: numbers, strings).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema.model import Cardinality, EdgeLabelType, IdStrategy
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Long


def id_text(vid: Any) -> str:
    """An id as HugeGraph prints it in messages (`123`, not the engine's `123L`)."""
    if isinstance(vid, int) and not isinstance(vid, bool):
        return str(int(vid))
    return str(vid)


def item_map(obj: Any, step: str) -> Mapping[str, Any]:
    if type(obj) is not dict and not isinstance(obj, Mapping):  # a plain dict skips the ABC check
        raise IllegalArgument(f"{step}() expects element maps, not {obj!r}")
    return obj


def item_properties(item: Mapping[str, Any], kind: str) -> dict[str, Any]:
    props = item.get("properties")
    if props is None:
        return {}
    if not isinstance(props, Mapping):
        raise IllegalArgument(f"The properties of {kind} must be a JSON object, but got {props!r}")
    return {str(k): v for k, v in props.items()}


def item_property_list(item: Mapping[str, Any], kind: str) -> list[tuple[str, Any]]:
    """`list(item_properties(item, kind).items())`, without the copy for a JSON object
    (a dict whose keys are all strings already), the form every REST batch item has."""
    props = item.get("properties")
    if type(props) is dict:
        pairs = list(props.items())
        for k, _v in pairs:
            if type(k) is not str:
                break
        else:
            return pairs
    return list(item_properties(item, kind).items())


def end_id(schema: Any, value: Any, label: str | None) -> Any:
    """A vertex id from a body (`outV`/`inV`): numbers are LONG ids, strings STRING ids,
    except for a CUSTOMIZE_UUID label, whose ids travel as UUID strings."""
    if isinstance(value, Vertex):
        return value.id
    if isinstance(value, bool) or value is None:
        raise IllegalArgument(f"Invalid vertex id '{id_text(value)}'")
    if isinstance(value, int):
        return Long(value)
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, str):
        if not value:
            raise IllegalArgument("The id can't be empty")
        vl = schema.vertex_label(label) if label else None
        if vl is not None and vl.id_strategy == IdStrategy.CUSTOMIZE_UUID:
            return idc.parse_uuid(value)
        return value
    raise IllegalArgument(f"Invalid vertex id '{id_text(value)}'")


def plain_properties(schema: Any, element: Any) -> dict[str, Any]:
    """A loaded element's properties as key -> value (a list for LIST/SET vertex keys)."""
    if isinstance(element, Edge):
        return dict(element._props or {})
    out: dict[str, Any] = {}
    for key, vps in (element._props or {}).items():
        pk = schema.property_key(key)
        multi = pk is not None and pk.cardinality != Cardinality.SINGLE
        out[key] = [vp.value for vp in vps] if multi or len(vps) > 1 else vps[0].value
    return out


def coerce_value(schema: Any, key: str, value: Any) -> Any:
    """`value` as the key's type (None stays None); unknown keys are HugeGraph's 400."""
    if value is None:
        return None
    pk = schema.property_key(key)
    if pk is None:
        if schema.auto:
            return value
        raise IllegalArgument(f"Undefined property key: '{key}'")
    return schema.coerce(pk, value)


def vertex_id_of(schema: Any, vl: Any, item: Mapping[str, Any], props: Mapping[str, Any]) -> Any:
    """The id a batch-updated vertex has: computed from the primary keys, or the
    customized id of the body. AUTOMATIC labels cannot be matched, so they are refused."""
    strategy = vl.id_strategy
    if strategy in (IdStrategy.AUTOMATIC, IdStrategy.DEFAULT):
        raise IllegalArgument("Automatic Id strategy is not supported now")
    if strategy == IdStrategy.PRIMARY_KEY:
        if item.get("id") is not None:
            raise IllegalArgument(
                f"Can't customize vertex id when id strategy is 'PRIMARY_KEY' for vertex label '{vl.name}'"
            )
        missing = [k for k in vl.primary_keys if props.get(k) is None]
        if missing:
            raise IllegalArgument(
                f"The primary keys: [{', '.join(vl.primary_keys)}] of vertex label '{vl.name}' must be set "
                f"when using 'PRIMARY_KEY' id strategy"
            )
        values = []
        for k in vl.primary_keys:
            pk = schema.property_key(k)
            values.append((coerce_value(schema, k, props[k]), pk.data_type.value))
        return idc.primary_key_id(vl.id, values)
    if item.get("id") is None:
        raise IllegalArgument(
            f"Must customize vertex {strategy.value.split('_', 1)[1].lower()} id when id strategy is "
            f"'{strategy.value}' for vertex label '{vl.name}'"
        )
    return idc.customized_vertex_id(item["id"], strategy.value, vl.name)


def edge_label_or_fail(schema: Any, name: Any) -> Any:
    if not isinstance(name, str) or not name:
        raise IllegalArgument("Expect the label of edge")
    el = schema.edge_label(name)
    if el is None:
        raise IllegalArgument(f"Undefined edge label: '{name}'")
    if el.edgelabel_type == EdgeLabelType.PARENT:
        raise IllegalArgument("The label of the created/updated edge is not allowed to be the parent type")
    return el


def edge_id_of(schema: Any, el: Any, out_id: Any, in_id: Any, props: Mapping[str, Any]) -> str:
    """The 5-part edge id (source, label, sub label, sort values, target) of an edge."""
    sort_values = ""
    if el.sort_keys:
        missing = [k for k in el.sort_keys if props.get(k) is None]
        if missing:
            raise IllegalArgument(f"The sort key(s) must be set for the edge with label: '{el.name}'")
        sort_values = idc.primary_key_name(
            [(coerce_value(schema, k, props[k]), schema.property_key(k).data_type.value) for k in el.sort_keys]
        )
    parent_id = el.id
    if el.edgelabel_type == EdgeLabelType.SUB and el.parent_label:
        parent = schema.edge_label(el.parent_label)
        parent_id = parent.id if parent is not None else el.id
    return idc.format_edge_id(out_id, parent_id, el.id, sort_values, in_id)


def check_end_label(vertex: Vertex, expected: str | None) -> None:
    if expected is not None and vertex.label != expected:
        raise IllegalArgument(
            f"The label of vertex '{id_text(vertex.id)}' is unmatched, users expect label '{expected}', "
            f"actual label stored is '{vertex.label}'"
        )
