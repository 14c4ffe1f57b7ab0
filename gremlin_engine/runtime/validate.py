"""Strict-schema rules for element writes, with HugeGraph's messages.

HugeGraph answers every bad write with an `IllegalArgumentException` whose text clients show
to users (reference/hugegraph/rest-reference.md §5–6), so the checks and their wording live
together here. Auto mode (TinkerGraph-like) skips all of them: labels and keys are created
on first use and values are kept exactly as given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument, NotSupported
from gremlin_engine.runtime.schema_bridge import SchemaBridge, edge_label_links
from gremlin_engine.schema.coercion import java_repr
from gremlin_engine.schema.model import Cardinality, EdgeLabel, EdgeLabelType, PropertyKey, VertexLabel


def java_list(items: Iterable[Any]) -> str:
    """`[a, b]` as Java's `List.toString` prints names."""
    return "[" + ", ".join(str(i) for i in items) + "]"


def property_text(key: str, value: Any) -> str:
    """HugeGraph's `p[age->29]` form of a property in messages."""
    return f"p[{key}->{java_repr(value)}]"


def vertex_label_or_fail(schema: SchemaBridge, name: str) -> VertexLabel:
    vl = schema.vertex_label(name)
    if vl is None:
        raise IllegalArgument(f"Undefined vertex label: '{name}'")
    return vl


def edge_label_or_fail(schema: SchemaBridge, name: str) -> EdgeLabel:
    el = schema.edge_label(name)
    if el is None:
        raise IllegalArgument(f"Undefined edge label: '{name}'")
    if el.edgelabel_type == EdgeLabelType.PARENT:
        raise IllegalArgument("Adding an edge of parent type is not allowed")
    return el


def key_for(schema: SchemaBridge, owner: VertexLabel | EdgeLabel, key: str) -> PropertyKey:
    """The property key `key` of a label, or HugeGraph's error for an unknown/foreign key."""
    pk = schema.property_key(key)
    if pk is None:
        raise IllegalArgument(f"Undefined property key: '{key}'")
    if key not in owner.properties:
        kind = "vertex" if isinstance(owner, VertexLabel) else "edge"
        raise IllegalArgument(f"Invalid property '{key}' for {kind} label '{owner.name}'")
    return pk


def coerce_values(schema: SchemaBridge, pk: PropertyKey, value: Any, owner: str) -> list[Any]:
    """The value(s) a write stores for `pk`: one for SINGLE keys, each element for LIST/SET."""
    if value is None:
        raise IllegalArgument(f"Not allowed to set value of property '{pk.name}' to null for {owner}")
    coerced = schema.coerce(pk, value)
    if pk.cardinality == Cardinality.SINGLE:
        return [coerced]
    return list(coerced)


def check_cardinality(pk: PropertyKey, card: Any) -> None:
    """`property(list, k, v)` or `property(set, k, v)` asks to add a value beside the ones `k`
    has; on a key declared SINGLE that would silently replace it, so it is refused naming the
    key and both cardinalities (`property(k, v)` or `property(single, k, v)` sets it)."""
    if card is None or pk.cardinality is not Cardinality.SINGLE:
        return
    asked = str(getattr(card, "value", card)).lower()
    if asked in ("list", "set"):
        raise IllegalArgument(
            f"Invalid cardinality '{asked}' for property key '{pk.name}', expect 'single': the key is "
            f"declared SINGLE, so it holds one value; set it with property('{pk.name}', value), or "
            f"declare a key with valueList()/valueSet() to hold several"
        )


def check_no_meta(meta: Any) -> None:
    if meta:
        raise NotSupported("Meta properties are not supported by HugeGraph vertex properties")


def check_link(el: EdgeLabel, out_label: str, in_label: str) -> None:
    if (out_label, in_label) not in edge_label_links(el):
        raise IllegalArgument(f"Undefined link of edge label '{el.name}': '{out_label}' -> '{in_label}'")


def check_vertex_required(vl: VertexLabel, present: Sequence[str], loading: bool) -> None:
    """Primary keys first (always), then every non-nullable key (not in LOADING mode)."""
    if vl.primary_keys and any(k not in present for k in vl.primary_keys):
        raise IllegalArgument(
            f"The primary keys: {java_list(vl.primary_keys)} of vertex label '{vl.name}' must be set "
            f"when using '{vl.id_strategy.value}' id strategy"
        )
    if loading:
        return
    required = [k for k in vl.properties if k not in vl.nullable_keys]
    missed = [k for k in required if k not in present]
    if missed:
        raise IllegalArgument(
            f"All non-null property keys {java_list(required)} of vertex label '{vl.name}' must be set, "
            f"missed keys {java_list(missed)}"
        )


def check_edge_required(el: EdgeLabel, present: Sequence[str], loading: bool) -> None:
    if el.sort_keys and any(k not in present for k in el.sort_keys):
        raise IllegalArgument(f"The sort key(s) must be set for the edge with label: '{el.name}'")
    if loading:
        return
    required = [k for k in el.properties if k not in el.nullable_keys]
    missed = [k for k in required if k not in present]
    if missed:
        raise IllegalArgument(
            f"All non-null property keys: {java_list(required)} of edge label '{el.name}' must be set, "
            f"but missed keys: {java_list(missed)}"
        )


def check_removable(owner: VertexLabel | EdgeLabel, key: str, value: Any) -> None:
    """Primary/sort keys and non-nullable keys cannot be removed from an element."""
    if isinstance(owner, VertexLabel):
        if key in owner.primary_keys:
            raise IllegalArgument(f"Can't remove primary key '{key}'")
        if key not in owner.nullable_keys:
            raise IllegalArgument(f"Can't remove non-null vertex property '{property_text(key, value)}'")
    else:
        if key in owner.sort_keys:
            raise IllegalArgument(f"Can't remove sort key '{key}'")
        if key not in owner.nullable_keys:
            raise IllegalArgument(f"Can't remove non-null edge property '{property_text(key, value)}'")


def check_updatable(owner: VertexLabel | EdgeLabel, key: str) -> None:
    if isinstance(owner, VertexLabel) and key in owner.primary_keys:
        raise IllegalArgument(f"Can't update primary key: '{key}'")
    if isinstance(owner, EdgeLabel) and key in owner.sort_keys:
        raise IllegalArgument(f"Can't update sort key: '{key}'")
