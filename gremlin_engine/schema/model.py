"""The schema model: property keys, vertex labels, edge labels, index labels.

These are frozen values. The schema service (`service.py`) is the only code that creates or
changes them; everything else (the runtime, REST, the Gremlin schema DSL) reads them. A
change produces a new object (`dataclasses.replace`) that the service stores and caches, so
a reader holding an old object never sees it change under its feet.

References between schema elements are held by *name* (that is what every API shows and what
the runtime looks up), but collections that HugeGraph keeps as id sets (`properties`,
`nullable_keys`, `index_labels`) are kept in ascending schema-id order, which is the order
HugeGraph 1.5 emits. `primary_keys`, `sort_keys` and index `fields` keep declaration order.

`to_json()` returns the exact HugeGraph REST shape with its field order
(reference/hugegraph/rest-reference.md §4); `from_json()` reads that shape back, which is also
how the service persists elements in the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class DataType(StrEnum):
    TEXT = "TEXT"
    BOOLEAN = "BOOLEAN"
    BYTE = "BYTE"
    INT = "INT"
    LONG = "LONG"
    FLOAT = "FLOAT"
    DOUBLE = "DOUBLE"
    DATE = "DATE"
    UUID = "UUID"
    BLOB = "BLOB"
    OBJECT = "OBJECT"

    @property
    def is_number(self) -> bool:
        return self in _NUMERIC

    @property
    def java_name(self) -> str:
        """The Java class HugeGraph names in value-type error messages."""
        return _JAVA_NAMES[self]


_NUMERIC = frozenset({DataType.BYTE, DataType.INT, DataType.LONG, DataType.FLOAT, DataType.DOUBLE})
_JAVA_NAMES = {
    DataType.TEXT: "String",
    DataType.BOOLEAN: "Boolean",
    DataType.BYTE: "Byte",
    DataType.INT: "Integer",
    DataType.LONG: "Long",
    DataType.FLOAT: "Float",
    DataType.DOUBLE: "Double",
    DataType.DATE: "Date",
    DataType.UUID: "UUID",
    DataType.BLOB: "Blob",
    DataType.OBJECT: "Object",
}


class Cardinality(StrEnum):
    SINGLE = "SINGLE"
    LIST = "LIST"
    SET = "SET"


class AggregateType(StrEnum):
    NONE = "NONE"
    MAX = "MAX"
    MIN = "MIN"
    SUM = "SUM"
    OLD = "OLD"
    SET = "SET"
    LIST = "LIST"


class WriteType(StrEnum):
    OLTP = "OLTP"
    OLAP_COMMON = "OLAP_COMMON"
    OLAP_SECONDARY = "OLAP_SECONDARY"
    OLAP_RANGE = "OLAP_RANGE"


class SchemaStatus(StrEnum):
    CREATED = "CREATED"
    CREATING = "CREATING"
    REBUILDING = "REBUILDING"
    DELETING = "DELETING"
    UNDELETED = "UNDELETED"
    INVALID = "INVALID"


class IdStrategy(StrEnum):
    DEFAULT = "DEFAULT"
    AUTOMATIC = "AUTOMATIC"
    PRIMARY_KEY = "PRIMARY_KEY"
    CUSTOMIZE_STRING = "CUSTOMIZE_STRING"
    CUSTOMIZE_NUMBER = "CUSTOMIZE_NUMBER"
    CUSTOMIZE_UUID = "CUSTOMIZE_UUID"


class Frequency(StrEnum):
    DEFAULT = "DEFAULT"
    SINGLE = "SINGLE"
    MULTIPLE = "MULTIPLE"


class EdgeLabelType(StrEnum):
    NORMAL = "NORMAL"
    PARENT = "PARENT"
    SUB = "SUB"


class BaseType(StrEnum):
    VERTEX_LABEL = "VERTEX_LABEL"
    EDGE_LABEL = "EDGE_LABEL"


class IndexType(StrEnum):
    SECONDARY = "SECONDARY"
    RANGE = "RANGE"  # only as input; stored as one of the RANGE_* below
    RANGE_INT = "RANGE_INT"
    RANGE_LONG = "RANGE_LONG"
    RANGE_FLOAT = "RANGE_FLOAT"
    RANGE_DOUBLE = "RANGE_DOUBLE"
    SEARCH = "SEARCH"
    SHARD = "SHARD"
    UNIQUE = "UNIQUE"

    @property
    def is_range(self) -> bool:
        return self.value.startswith("RANGE")

    @property
    def public_name(self) -> str:
        """What `/schema/indexlabels` reports: every RANGE_* shows as RANGE."""
        return "RANGE" if self.is_range else self.value


# The kinds the storage schema tables use, also the REST path segment names.
PROPERTY_KEY, VERTEX_LABEL, EDGE_LABEL, INDEX_LABEL = "propertykey", "vertexlabel", "edgelabel", "indexlabel"
KINDS = (PROPERTY_KEY, VERTEX_LABEL, EDGE_LABEL, INDEX_LABEL)

# HugeType names used in task names (`VERTEX_LABEL:1:person`) and readable names in messages.
HUGE_TYPE = {
    PROPERTY_KEY: "PROPERTY_KEY",
    VERTEX_LABEL: "VERTEX_LABEL",
    EDGE_LABEL: "EDGE_LABEL",
    INDEX_LABEL: "INDEX_LABEL",
}
READABLE = {
    PROPERTY_KEY: "property key",
    VERTEX_LABEL: "vertex label",
    EDGE_LABEL: "edge label",
    INDEX_LABEL: "index label",
}


def _ud(value: Any) -> dict[str, Any]:
    return dict(value) if value else {}


def _label_tail_json(label: VertexLabel | EdgeLabel) -> dict[str, Any]:
    """The fields vertex and edge labels share, in the order HugeGraph reports them after
    each label's own keys (`ttl_start_time` only when set)."""
    out: dict[str, Any] = {
        "nullable_keys": list(label.nullable_keys),
        "index_labels": list(label.index_labels),
        "properties": list(label.properties),
        "status": label.status.value,
        "ttl": label.ttl,
    }
    if label.ttl_start_time:
        out["ttl_start_time"] = label.ttl_start_time
    out["enable_label_index"] = label.enable_label_index
    out["user_data"] = dict(label.user_data)
    return out


def _label_tail_fields(d: dict[str, Any]) -> dict[str, Any]:
    """`from_json` keyword arguments for the fields `_label_tail_json` writes."""
    return {
        "nullable_keys": tuple(d.get("nullable_keys") or ()),
        "index_labels": tuple(d.get("index_labels") or ()),
        "properties": tuple(d.get("properties") or ()),
        "status": SchemaStatus(d.get("status") or "CREATED"),
        "ttl": int(d.get("ttl") or 0),
        "ttl_start_time": d.get("ttl_start_time") or None,
        "enable_label_index": bool(d.get("enable_label_index", True)),
        "user_data": _ud(d.get("user_data")),
    }


@dataclass(frozen=True)
class PropertyKey:
    id: int
    name: str
    data_type: DataType = DataType.TEXT
    cardinality: Cardinality = Cardinality.SINGLE
    aggregate_type: AggregateType = AggregateType.NONE
    write_type: WriteType = WriteType.OLTP
    properties: tuple[str, ...] = ()
    status: SchemaStatus = SchemaStatus.CREATED
    user_data: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    kind = PROPERTY_KEY

    @property
    def is_olap(self) -> bool:
        return self.write_type != WriteType.OLTP

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "data_type": self.data_type.value,
            "cardinality": self.cardinality.value,
            "aggregate_type": self.aggregate_type.value,
            "write_type": self.write_type.value,
            "properties": list(self.properties),
            "status": self.status.value,
            "user_data": dict(self.user_data),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PropertyKey:
        return cls(
            id=int(d["id"]),
            name=d["name"],
            data_type=DataType(d.get("data_type") or "TEXT"),
            cardinality=Cardinality(d.get("cardinality") or "SINGLE"),
            aggregate_type=AggregateType(d.get("aggregate_type") or "NONE"),
            write_type=WriteType(d.get("write_type") or "OLTP"),
            properties=tuple(d.get("properties") or ()),
            status=SchemaStatus(d.get("status") or "CREATED"),
            user_data=_ud(d.get("user_data")),
        )


@dataclass(frozen=True)
class VertexLabel:
    id: int
    name: str
    id_strategy: IdStrategy = IdStrategy.AUTOMATIC
    primary_keys: tuple[str, ...] = ()
    nullable_keys: tuple[str, ...] = ()
    index_labels: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()
    status: SchemaStatus = SchemaStatus.CREATED
    ttl: int = 0
    ttl_start_time: str | None = None
    enable_label_index: bool = True
    user_data: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    kind = VERTEX_LABEL

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "id_strategy": self.id_strategy.value,
            "primary_keys": list(self.primary_keys),
            **_label_tail_json(self),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> VertexLabel:
        return cls(
            id=int(d["id"]),
            name=d["name"],
            id_strategy=IdStrategy(d.get("id_strategy") or "AUTOMATIC"),
            primary_keys=tuple(d.get("primary_keys") or ()),
            **_label_tail_fields(d),
        )


@dataclass(frozen=True)
class EdgeLabel:
    id: int
    name: str
    source_label: str | None = None
    target_label: str | None = None
    frequency: Frequency = Frequency.SINGLE
    sort_keys: tuple[str, ...] = ()
    nullable_keys: tuple[str, ...] = ()
    index_labels: tuple[str, ...] = ()
    properties: tuple[str, ...] = ()
    status: SchemaStatus = SchemaStatus.CREATED
    ttl: int = 0
    ttl_start_time: str | None = None
    enable_label_index: bool = True
    user_data: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
    edgelabel_type: EdgeLabelType = EdgeLabelType.NORMAL
    parent_label: str | None = None
    # (source, target) pairs; NORMAL/SUB labels have exactly one, equal to source/target_label
    links: tuple[tuple[str, str], ...] = ()

    kind = EDGE_LABEL

    def to_json(self) -> dict[str, Any]:
        links = [{s: t} for s, t in self.links]
        if self.edgelabel_type == EdgeLabelType.PARENT:
            out: dict[str, Any] = {"id": self.id, "name": self.name, "edgelabel_type": "PARENT"}
            if links:
                out["links"] = links
            return out
        out = {"id": self.id, "name": self.name, "edgelabel_type": self.edgelabel_type.value}
        if self.edgelabel_type == EdgeLabelType.SUB:
            out["parent_label"] = self.parent_label
        out.update(
            {
                "source_label": self.source_label,
                "target_label": self.target_label,
                "links": links,
                "frequency": self.frequency.value,
                "sort_keys": list(self.sort_keys),
                **_label_tail_json(self),
            }
        )
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EdgeLabel:
        links = tuple((s, t) for link in d.get("links") or () for s, t in link.items())
        return cls(
            id=int(d["id"]),
            name=d["name"],
            source_label=d.get("source_label"),
            target_label=d.get("target_label"),
            frequency=Frequency(d.get("frequency") or "SINGLE"),
            sort_keys=tuple(d.get("sort_keys") or ()),
            **_label_tail_fields(d),
            edgelabel_type=EdgeLabelType(d.get("edgelabel_type") or "NORMAL"),
            parent_label=d.get("parent_label"),
            links=links,
        )


@dataclass(frozen=True)
class IndexLabel:
    id: int
    name: str
    base_type: BaseType
    base_value: str
    index_type: IndexType = IndexType.SECONDARY
    fields: tuple[str, ...] = ()
    status: SchemaStatus = SchemaStatus.CREATED
    user_data: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
    rebuild: bool = True

    kind = INDEX_LABEL

    @property
    def on_vertices(self) -> bool:
        return self.base_type == BaseType.VERTEX_LABEL

    def to_json(self, *, public_range: bool = True) -> dict[str, Any]:
        """`public_range`: report RANGE_* as RANGE (the `/schema/indexlabels` API does, the
        whole-schema `GET /schema` does not)."""
        return {
            "id": self.id,
            "name": self.name,
            "base_type": self.base_type.value,
            "base_value": self.base_value,
            "index_type": self.index_type.public_name if public_range else self.index_type.value,
            "fields": list(self.fields),
            "status": self.status.value,
            "user_data": dict(self.user_data),
        }

    def to_store_json(self) -> dict[str, Any]:
        out = self.to_json(public_range=False)
        out["rebuild"] = self.rebuild
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> IndexLabel:
        return cls(
            id=int(d["id"]),
            name=d["name"],
            base_type=BaseType(d["base_type"]),
            base_value=d["base_value"],
            index_type=IndexType(d.get("index_type") or "SECONDARY"),
            fields=tuple(d.get("fields") or ()),
            status=SchemaStatus(d.get("status") or "CREATED"),
            user_data=_ud(d.get("user_data")),
            rebuild=bool(d.get("rebuild", True)),
        )


SchemaElement = PropertyKey | VertexLabel | EdgeLabel | IndexLabel
MODEL_OF: dict[str, type[PropertyKey] | type[VertexLabel] | type[EdgeLabel] | type[IndexLabel]] = {
    PROPERTY_KEY: PropertyKey,
    VERTEX_LABEL: VertexLabel,
    EDGE_LABEL: EdgeLabel,
    INDEX_LABEL: IndexLabel,
}


def store_json(element: SchemaElement) -> dict[str, Any]:
    """The JSON the service persists: the public shape, plus what that shape leaves out."""
    if isinstance(element, IndexLabel):
        return element.to_store_json()
    return element.to_json()
