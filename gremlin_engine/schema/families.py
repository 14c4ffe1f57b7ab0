"""Building and changing each family of schema element from a REST-shaped body.

HugeGraph's builder rules, per family, with its messages (rest-reference.md §4; the vertex
label wording follows HugeGraph's `VertexLabelBuilder`). `build` returns a candidate element
(id 0 unless one was given) that `changes.create` compares with an existing one or stores.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, TypeVar

from gremlin_engine.errors import IllegalArgument, NotSupported
from gremlin_engine.schema import validation
from gremlin_engine.schema.model import (
    EDGE_LABEL,
    INDEX_LABEL,
    PROPERTY_KEY,
    READABLE,
    VERTEX_LABEL,
    AggregateType,
    BaseType,
    Cardinality,
    DataType,
    EdgeLabel,
    EdgeLabelType,
    Frequency,
    IdStrategy,
    IndexLabel,
    IndexType,
    PropertyKey,
    SchemaElement,
    VertexLabel,
    WriteType,
)

E = TypeVar("E", bound=Enum)

_RANGE_OF = {
    DataType.BYTE: IndexType.RANGE_INT,
    DataType.INT: IndexType.RANGE_INT,
    DataType.LONG: IndexType.RANGE_LONG,
    DataType.DATE: IndexType.RANGE_LONG,
    DataType.FLOAT: IndexType.RANGE_FLOAT,
    DataType.DOUBLE: IndexType.RANGE_DOUBLE,
}


def enum_of(cls: type[E], value: Any, field: str, default: E) -> E:
    if value is None:
        return default
    try:
        return cls(value)
    except ValueError:
        names = ", ".join(m.value for m in cls)  # type: ignore[attr-defined]
        raise IllegalArgument(f"Invalid {field} '{value}', expect one of [{names}]") from None


def names_of(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise IllegalArgument(f"The {field} must be a list of names, but got '{value}'")
    return list(value)


def _ordered(service: Any, names: list[str]) -> tuple[str, ...]:
    """Property names in ascending property-key id order (HugeGraph's id-set order)."""
    ids = {pk.name: pk.id for pk in service.property_keys()}
    return tuple(sorted(dict.fromkeys(names), key=lambda n: ids.get(n, 1 << 62)))


def _check_keys_exist(service: Any, names: list[str]) -> None:
    for n in names:
        if service.property_key(n) is None:
            raise IllegalArgument(f"Undefined property key: '{n}'")


def _check_id(kind: str, body: dict[str, Any], mode: str, graph_name: str) -> None:
    given = body.get("id")
    if not given:
        return
    if not isinstance(given, int) or isinstance(given, bool) or given < 0:
        raise IllegalArgument(f"Only positive number can be assign as {READABLE[kind]} id")
    if mode != "RESTORING":
        raise IllegalArgument(
            f"Only accept {READABLE[kind]} id when graph in RESTORING mode, but '{graph_name}' is in mode '{mode}'"
        )


def _ttl(service: Any, body: dict[str, Any], props: list[str], what: str, name: str) -> tuple[int, str | None]:
    ttl = body.get("ttl") or 0
    start = body.get("ttl_start_time") or None
    if not isinstance(ttl, int) or ttl < 0:
        raise IllegalArgument(f"The ttl must be >= 0, but got: {ttl}")
    if ttl == 0:
        if start is not None:
            raise IllegalArgument("Can't set ttl start time if ttl is not set")
        return 0, None
    if start is not None:
        if start not in props:
            raise IllegalArgument(
                f"The ttl start time '{start}' must be contained in properties '{props}' for {what} '{name}'"
            )
        pk = service.property_key(start)
        if pk is None or pk.data_type is not DataType.DATE:
            kind = pk.data_type.value if pk else "null"
            raise IllegalArgument(f"The ttl start time property must be date type,but got '{start}({kind})'")
    return int(ttl), start


def _label_common(
    service: Any, body: dict[str, Any], what: str, props: list[str], nullable: list[str], own: tuple[str, list[str]]
) -> dict[str, Any]:
    """The checks and fields vertex and edge labels share (HugeGraph's label builders):
    nullable keys must be properties and must not be the label's own keys (`own`: the
    primary keys of a vertex label, the sort keys of an edge label), then ttl and the
    label-index flag. Returns constructor keyword arguments."""
    name = body["name"]
    own_name, own_keys = own
    if not set(nullable) <= set(props):
        raise IllegalArgument(
            f"The nullableKeys: {nullable} to be created or appended must belong to the origin/new properties: []/{props}"
        )
    if set(nullable) & set(own_keys):
        raise IllegalArgument(
            f"The nullableKeys: {nullable} are not allowed to belong to {own_name}: {own_keys} of {what} '{name}'"
        )
    ttl, start = _ttl(service, body, props, what, name)
    enable = body.get("enable_label_index")
    return {
        "nullable_keys": _ordered(service, nullable),
        "properties": _ordered(service, props),
        "ttl": ttl,
        "ttl_start_time": start,
        "enable_label_index": enable is None or bool(enable),
    }


# ---- build ----------------------------------------------------------------------------------


def build(service: Any, kind: str, body: dict[str, Any], new_id: int, mode: str) -> SchemaElement:
    _check_id(kind, body, mode, service.graph_name)
    element_id = int(body.get("id") or new_id)
    user_data = validation.new_user_data(body.get("user_data"))
    builder = {PROPERTY_KEY: _property_key, VERTEX_LABEL: _vertex_label, EDGE_LABEL: _edge_label, INDEX_LABEL: _index_label}
    return builder[kind](service, body, element_id, user_data)  # type: ignore[operator]


def _property_key(service: Any, body: dict[str, Any], id: int, user_data: dict[str, Any]) -> PropertyKey:
    if body.get("properties"):
        raise IllegalArgument(
            "Not allowed to pass properties when creating property key since it doesn't support meta properties currently"
        )
    data_type = enum_of(DataType, body.get("data_type"), "data_type", DataType.TEXT)
    cardinality = enum_of(Cardinality, body.get("cardinality"), "cardinality", Cardinality.SINGLE)
    aggregate = enum_of(AggregateType, body.get("aggregate_type"), "aggregate_type", AggregateType.NONE)
    write_type = enum_of(WriteType, body.get("write_type"), "write_type", WriteType.OLTP)
    name = body["name"]
    if aggregate in (AggregateType.SUM, AggregateType.MAX, AggregateType.MIN):
        if not (data_type.is_number or (data_type is DataType.DATE and aggregate is not AggregateType.SUM)):
            raise IllegalArgument(
                f"Aggregate type {aggregate.value} is only supported by number or date property key, "
                f"but got {data_type.value}({name})"
            )
    if aggregate in (AggregateType.SET, AggregateType.LIST) and cardinality.value != aggregate.value:
        raise IllegalArgument(
            f"The cardinality of property key '{name}' must be {aggregate.value} when aggregate type is {aggregate.value}"
        )
    if aggregate is not AggregateType.NONE and cardinality is not Cardinality.SINGLE and aggregate.value != cardinality.value:
        raise IllegalArgument(f"The aggregate type {aggregate.value} is not supported by {cardinality.value} property key")
    return PropertyKey(id, name, data_type, cardinality, aggregate, write_type, (), user_data=user_data)


def _vertex_label(service: Any, body: dict[str, Any], id: int, user_data: dict[str, Any]) -> VertexLabel:
    name = body["name"]
    props = names_of(body.get("properties"), "properties")
    pks = names_of(body.get("primary_keys"), "primary_keys")
    nullable = names_of(body.get("nullable_keys"), "nullable_keys")
    _check_keys_exist(service, [*props, *pks, *nullable])
    if len(set(pks)) != len(pks):
        raise IllegalArgument(f"Invalid primary keys {pks}, which contains some duplicate properties")
    strategy = enum_of(IdStrategy, body.get("id_strategy"), "id_strategy", IdStrategy.DEFAULT)
    if strategy is IdStrategy.DEFAULT:
        strategy = IdStrategy.PRIMARY_KEY if pks else IdStrategy.AUTOMATIC
    elif strategy is IdStrategy.PRIMARY_KEY:
        if not pks:
            raise IllegalArgument(f"Must assign some primary keys when using '{strategy.value}' id strategy")
    elif pks:
        raise IllegalArgument(f"Not allowed to assign primary keys when using '{strategy.value}' id strategy")
    if strategy is IdStrategy.PRIMARY_KEY:
        if not props:
            raise IllegalArgument(
                f"The properties of vertex label '{name}' can't be empty when id strategy is 'PRIMARY_KEY'"
            )
        for key in pks:
            if key not in props:
                raise IllegalArgument(
                    f"The primary key '{key}' of vertex label '{name}' must be contained in properties: {props}"
                )
    return VertexLabel(
        id=id,
        name=name,
        id_strategy=strategy,
        primary_keys=tuple(pks),
        **_label_common(service, body, "vertex label", props, nullable, ("primaryKeys", pks)),
        user_data=user_data,
    )


def _links_of(body: dict[str, Any]) -> list[tuple[str, str]]:
    links: list[tuple[str, str]] = []
    for link in body.get("links") or ():
        if not isinstance(link, dict) or len(link) != 1:
            raise IllegalArgument(f"Each link must be a single-entry map of source to target label, but got '{link}'")
        links.extend(link.items())
    src, tgt = body.get("source_label"), body.get("target_label")
    if src is not None or tgt is not None:
        if (src, tgt) not in links:
            links.insert(0, (src, tgt))
    for pair in links:
        for side, label in zip(("source_label", "target_label"), pair, strict=True):
            if label is not None and not isinstance(label, str):
                raise IllegalArgument(f"The {side} must be the name of a vertex label (a string), but got '{label}'")
    return links


def _edge_label(service: Any, body: dict[str, Any], id: int, user_data: dict[str, Any]) -> EdgeLabel:
    name = body["name"]
    el_type = enum_of(EdgeLabelType, body.get("edgelabel_type"), "edgelabel_type", EdgeLabelType.NORMAL)
    links = _links_of(body)
    parent = body.get("parent_label")
    if el_type is EdgeLabelType.PARENT:
        if links:
            raise IllegalArgument(f"The parent edge label '{name}' can't have source or target labels")
        return EdgeLabel(id=id, name=name, edgelabel_type=el_type, user_data=user_data)
    if el_type is EdgeLabelType.SUB:
        p = service.edge_label(parent) if parent else None
        if p is None or p.edgelabel_type is not EdgeLabelType.PARENT:
            raise IllegalArgument(f"The parent label of sub edge label '{name}' must be an existing parent edge label")
    elif parent:
        raise IllegalArgument(f"Only sub edge label can have a parent label, but '{name}' is {el_type.value}")
    if len(links) != 1 or links[0][0] is None or links[0][1] is None:
        if not links or links[0][0] is None or links[0][1] is None:
            raise IllegalArgument(f"Must set source and target label for edge label '{name}'")
        raise IllegalArgument(f"The edge label '{name}' must have exactly one link, but got {len(links)}")
    src, tgt = links[0]
    for label in (src, tgt):
        if service.vertex_label(label) is None:
            side = "source" if label == src else "target"
            raise IllegalArgument(f"Undefined {side} vertex label '{label}' in edge label '{name}'")
    props = names_of(body.get("properties"), "properties")
    sort_keys = names_of(body.get("sort_keys"), "sort_keys")
    nullable = names_of(body.get("nullable_keys"), "nullable_keys")
    _check_keys_exist(service, [*props, *sort_keys, *nullable])
    freq = enum_of(Frequency, body.get("frequency"), "frequency", Frequency.DEFAULT)
    if freq is Frequency.DEFAULT:
        freq = Frequency.SINGLE
    if freq is Frequency.SINGLE and sort_keys:
        raise IllegalArgument("EdgeLabel can't contain sortKeys when the cardinality property is single")
    if freq is Frequency.MULTIPLE and not sort_keys:
        raise IllegalArgument("EdgeLabel must contain sortKeys when the cardinality property is multiple")
    for key in sort_keys:
        if key not in props:
            raise IllegalArgument(f"The sort key '{key}' of edge label '{name}' must be contained in properties: {props}")
    return EdgeLabel(
        id=id,
        name=name,
        source_label=src,
        target_label=tgt,
        frequency=freq,
        sort_keys=tuple(sort_keys),
        **_label_common(service, body, "edge label", props, nullable, ("sortKeys", sort_keys)),
        user_data=user_data,
        edgelabel_type=el_type,
        parent_label=parent if el_type is EdgeLabelType.SUB else None,
        links=((src, tgt),),
    )


def _index_label(service: Any, body: dict[str, Any], id: int, user_data: dict[str, Any]) -> IndexLabel:
    name = body["name"]
    if body.get("base_type") is None:
        raise IllegalArgument(f"The base type of index label '{name}' can't be null")
    if body.get("base_value") is None:
        raise IllegalArgument(f"The base value of index label '{name}' can't be null")
    base_type = enum_of(BaseType, body.get("base_type"), "base_type", BaseType.VERTEX_LABEL)
    base_value = body["base_value"]
    if not isinstance(base_value, str):
        raise IllegalArgument(f"The base value of index label '{name}' must be a label name, but got '{base_value}'")
    index_type = enum_of(IndexType, body.get("index_type"), "index_type", IndexType.SECONDARY)
    fields = names_of(body.get("fields"), "fields")
    base = service.vertex_label(base_value) if base_type is BaseType.VERTEX_LABEL else service.edge_label(base_value)
    if base is None:
        what = "vertex" if base_type is BaseType.VERTEX_LABEL else "edge"
        raise IllegalArgument(f"Undefined {what} label: '{base_value}'")
    if not fields:
        raise IllegalArgument(f"The index fields can't be empty for index label '{name}'")
    if len(set(fields)) != len(fields):
        raise IllegalArgument(f"Invalid fields {fields}, which contains some duplicate properties")
    for f in fields:
        if f not in base.properties:
            raise IllegalArgument(
                f"Schema label '{base_value}' does not contain property '{f}' (index label '{name}')"
            )
    keys = [service.property_key(f) for f in fields]
    if index_type.is_range:
        if len(fields) != 1:
            raise IllegalArgument(f"Range index can only build on one field, but got {len(fields)} fields: '{fields}'")
        pk = keys[0]
        if pk.data_type not in _RANGE_OF:
            raise IllegalArgument(
                f"Range index can only build on numeric or date property, but got {pk.data_type.value}({pk.name})"
            )
        index_type = _RANGE_OF[pk.data_type]
    elif index_type is IndexType.SEARCH:
        if len(fields) != 1 or keys[0].data_type is not DataType.TEXT:
            raise IllegalArgument(
                f"Search index can only build on one text property, but got {[k.data_type.value for k in keys]}({fields})"
            )
    if isinstance(base, VertexLabel) and base.primary_keys and set(fields) == set(base.primary_keys):
        raise IllegalArgument(
            f"No need to build index on properties {fields}, because they contains all primary keys "
            f"{list(base.primary_keys)} for vertex label '{base_value}'"
        )
    for other in service.index_labels_for(base_type, base_value):
        if other.name != name and list(other.fields) == fields and (
            other.index_type == index_type or (other.index_type.is_range and index_type.is_range)
        ):
            raise IllegalArgument(
                f"Repeated new index label '{name}' with fields {fields} and index type {index_type.public_name}, "
                f"which is the same as index label '{other.name}'"
            )
    return IndexLabel(
        id=id,
        name=name,
        base_type=base_type,
        base_value=base_value,
        index_type=index_type,
        fields=tuple(fields),
        user_data=user_data,
        rebuild=body.get("rebuild", True) is not False,
    )


# ---- compare / append / eliminate ------------------------------------------------------------


def same_definition(existing: SchemaElement, candidate: SchemaElement) -> bool:
    """What HugeGraph compares for `check_exist=false`: the definition, not id or user data."""
    skip = {"id", "user_data", "status", "index_labels", "rebuild"}
    if isinstance(existing, VertexLabel):  # HugeGraph ignores the id strategy and ttl here
        skip |= {"id_strategy", "ttl", "ttl_start_time"}
    for f in dataclasses.fields(existing):
        if f.name in skip:
            continue
        if getattr(existing, f.name) != getattr(candidate, f.name):
            if f.name in ("properties", "nullable_keys") and set(getattr(existing, f.name)) == set(getattr(candidate, f.name)):
                continue
            return False
    return True


def _merge_user_data(current: dict[str, Any], given: Any) -> dict[str, Any]:
    extra = validation.check_user_data(given)
    extra.pop(validation.CREATE_TIME, None)
    return {**current, **extra}


def append(service: Any, current: SchemaElement, body: dict[str, Any]) -> SchemaElement:
    kind = current.kind
    if isinstance(current, IndexLabel):
        for f in ("base_type", "base_value", "index_type"):
            if body.get(f) is not None:
                raise IllegalArgument(f"The {f.replace('_', ' ')} of index label '{current.name}' must be null")
        return dataclasses.replace(current, user_data=_merge_user_data(current.user_data, body.get("user_data")))
    if isinstance(current, PropertyKey):
        return dataclasses.replace(current, user_data=_merge_user_data(current.user_data, body.get("user_data")))
    what = READABLE[kind]
    if body.get("primary_keys") or body.get("sort_keys"):
        field = "primary keys" if kind == VERTEX_LABEL else "sort keys"
        raise NotSupported(f"Not allowed to update {field} for {what} '{current.name}'")
    if body.get("id_strategy") not in (None, "DEFAULT") and kind == VERTEX_LABEL:
        raise NotSupported(f"Not allowed to update id strategy for {what} '{current.name}'")
    if body.get("enable_label_index") is not None and body.get("enable_label_index") != current.enable_label_index:
        raise NotSupported(f"Not allowed to update enable_label_index for {what} '{current.name}'")
    if isinstance(current, EdgeLabel):
        for f in ("source_label", "target_label", "frequency"):
            value = body.get(f)
            if value is not None and value != getattr(current, f, None) and not (f == "frequency" and value == "DEFAULT"):
                raise NotSupported(f"Not allowed to update {f.replace('_', ' ')} for {what} '{current.name}'")
    props = names_of(body.get("properties"), "properties")
    nullable = names_of(body.get("nullable_keys"), "nullable_keys")
    _check_keys_exist(service, [*props, *nullable])
    origin = list(current.properties)
    if not set(nullable) <= set(origin) | set(props):
        raise IllegalArgument(
            f"The nullableKeys: {nullable} to be created or appended must belong to the origin/new properties: {origin}/{props}"
        )
    fixed = list(current.primary_keys if isinstance(current, VertexLabel) else current.sort_keys)
    if set(nullable) & set(fixed):
        field = "primaryKeys" if isinstance(current, VertexLabel) else "sortKeys"
        raise IllegalArgument(
            f"The nullableKeys: {nullable} are not allowed to belong to {field}: {fixed} of {what} '{current.name}'"
        )
    added = [p for p in props if p not in origin]
    if not set(added) <= set(nullable):
        raise IllegalArgument(f"The new added properties: {added} must be nullable")
    return dataclasses.replace(
        current,
        properties=_ordered(service, [*origin, *props]),
        nullable_keys=_ordered(service, [*current.nullable_keys, *nullable]),
        user_data=_merge_user_data(current.user_data, body.get("user_data")),
    )


def eliminate(service: Any, current: SchemaElement, body: dict[str, Any]) -> SchemaElement:
    what = READABLE[current.kind]
    if isinstance(current, IndexLabel):
        for f in ("base_type", "base_value", "index_type"):
            if body.get(f) is not None:
                raise IllegalArgument(f"The {f.replace('_', ' ')} of index label '{current.name}' must be null")
    elif not isinstance(current, PropertyKey):
        if body.get("properties"):
            raise NotSupported(f"Not support to eliminate properties for {what} currently")
        if body.get("nullable_keys"):
            raise NotSupported(f"Not support to eliminate nullableKeys for {what} currently")
    given = body.get("user_data") or {}
    if not isinstance(given, dict):
        raise IllegalArgument(f"The user_data must be a map, but got '{given}'")
    kept = {k: v for k, v in current.user_data.items() if k not in given or k == validation.CREATE_TIME}
    return dataclasses.replace(current, user_data=kept)
