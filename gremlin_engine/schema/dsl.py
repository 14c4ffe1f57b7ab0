"""HugeGraph's Gremlin schema DSL: `graph.schema().propertyKey('age').asInt().create()`.

Builders collect a definition in the REST body shape and hand it to the same service calls
REST uses (`create`, `update`, `remove`, `rebuild`), so both entry points share every rule
and message. Each class lists the methods a script may call in `gremlin_methods`; the
script host dispatches to nothing else (the sandbox), calling `invoke(name, args)`.

Changes run in the script's write transaction (`tx`). Jobs they start (an index build, a
label removal) run after that transaction commits, so `create()` on an index label returns
the label while its build is still queued, as HugeGraph's asynchronous schema API does.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.errors import IllegalArgument, UnsupportedSyntax
from gremlin_engine.schema.model import EDGE_LABEL, INDEX_LABEL, PROPERTY_KEY, VERTEX_LABEL
from storage import Tx


def _flat(args: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = []
    for a in args:
        out.extend(a if isinstance(a, (list, tuple)) else [a])
    return out


def _enum_name(value: Any) -> str:
    """`Cardinality.set`, 'SET', IdStrategy tokens... as HugeGraph's upper-case name."""
    return str(getattr(value, "value", getattr(value, "name", value))).upper()


class _Dispatch:
    gremlin_methods: frozenset[str] = frozenset()

    def invoke(self, name: str, args: tuple[Any, ...] = ()) -> Any:
        """The script host's entry point: only whitelisted methods are reachable."""
        if name not in self.gremlin_methods:
            raise UnsupportedSyntax(f"Method '{name}' is not supported on {type(self).__name__}")
        return getattr(self, name)(*args)


class SchemaManager(_Dispatch):
    """`graph.schema()`: the builders' factory and the schema getters."""

    gremlin_methods = frozenset({
        "propertyKey", "vertexLabel", "edgeLabel", "indexLabel",
        "getPropertyKey", "getPropertyKeys", "getVertexLabel", "getVertexLabels",
        "getEdgeLabel", "getEdgeLabels", "getIndexLabel", "getIndexLabels",
    })

    def __init__(self, service: Any, tx: Tx | None = None) -> None:
        self.service = service
        self.tx = tx

    def propertyKey(self, name: str) -> PropertyKeyBuilder:
        return PropertyKeyBuilder(self, name)

    def vertexLabel(self, name: str) -> VertexLabelBuilder:
        return VertexLabelBuilder(self, name)

    def edgeLabel(self, name: str) -> EdgeLabelBuilder:
        return EdgeLabelBuilder(self, name)

    def indexLabel(self, name: str) -> IndexLabelBuilder:
        return IndexLabelBuilder(self, name)

    def _get(self, kind: str, name: str) -> Any:
        return self.service.get(kind, name)

    def getPropertyKey(self, name: str) -> Any:
        return self._get(PROPERTY_KEY, name)

    def getVertexLabel(self, name: str) -> Any:
        return self._get(VERTEX_LABEL, name)

    def getEdgeLabel(self, name: str) -> Any:
        return self._get(EDGE_LABEL, name)

    def getIndexLabel(self, name: str) -> Any:
        return self._get(INDEX_LABEL, name)

    def getPropertyKeys(self) -> list[Any]:
        return self.service.property_keys()

    def getVertexLabels(self) -> list[Any]:
        return self.service.vertex_labels()

    def getEdgeLabels(self) -> list[Any]:
        return self.service.edge_labels()

    def getIndexLabels(self) -> list[Any]:
        return self.service.index_labels()


class _Builder(_Dispatch):
    kind = ""
    _common = frozenset({"userdata", "ifNotExist", "checkExist", "create", "append", "eliminate", "remove", "id", "build"})

    def __init__(self, manager: SchemaManager, name: str) -> None:
        if not isinstance(name, str):
            raise IllegalArgument(f"The name must be a string, but got '{name}'")
        self.manager = manager
        self.body: dict[str, Any] = {"name": name}

    def _set(self, key: str, value: Any) -> _Builder:
        self.body[key] = value
        return self

    def _add(self, key: str, values: tuple[Any, ...]) -> _Builder:
        current = self.body.setdefault(key, [])
        for v in _flat(values):
            if v not in current:
                current.append(v)
        return self

    def userdata(self, key: Any, value: Any = None) -> _Builder:
        ud = self.body.setdefault("user_data", {})
        if isinstance(key, dict):
            ud.update(key)
        else:
            ud[key] = value
        return self

    def ifNotExist(self) -> _Builder:
        return self._set("check_exist", False)

    def checkExist(self, check: bool = True) -> _Builder:
        return self._set("check_exist", bool(check))

    def id(self, value: int) -> _Builder:
        return self._set("id", int(value))

    def create(self) -> Any:
        element, _task = self.manager.service.create(self.kind, dict(self.body), tx=self.manager.tx)
        return element

    build = create

    def append(self) -> Any:
        return self.manager.service.update(self.kind, self.body["name"], "append", dict(self.body), tx=self.manager.tx)

    def eliminate(self) -> Any:
        return self.manager.service.update(self.kind, self.body["name"], "eliminate", dict(self.body), tx=self.manager.tx)

    def remove(self) -> Any:
        service = self.manager.service
        if service.element(self.kind, self.body["name"]) is None:
            return None
        return service.remove(self.kind, self.body["name"], tx=self.manager.tx)

    def rebuildIndex(self) -> Any:
        return self.manager.service.rebuild(self.kind, self.body["name"], tx=self.manager.tx)


_DATA_TYPES = {
    "asText": "TEXT", "asInt": "INT", "asLong": "LONG", "asFloat": "FLOAT", "asDouble": "DOUBLE",
    "asBoolean": "BOOLEAN", "asByte": "BYTE", "asDate": "DATE", "asUUID": "UUID", "asBlob": "BLOB",
    "asObject": "OBJECT",
}
_AGGREGATES = {"calcMax": "MAX", "calcMin": "MIN", "calcSum": "SUM", "calcOld": "OLD", "calcSet": "SET", "calcList": "LIST"}


class PropertyKeyBuilder(_Builder):
    kind = PROPERTY_KEY
    gremlin_methods = _Builder._common | frozenset(_DATA_TYPES) | frozenset(_AGGREGATES) | frozenset({
        "valueSingle", "valueList", "valueSet", "cardinality", "dataType", "aggregateType", "writeType",
    })

    def __getattr__(self, name: str) -> Any:
        if name in _DATA_TYPES:
            return lambda: self._set("data_type", _DATA_TYPES[name])
        if name in _AGGREGATES:
            return lambda: self._set("aggregate_type", _AGGREGATES[name])
        raise AttributeError(name)

    def valueSingle(self) -> _Builder:
        return self._set("cardinality", "SINGLE")

    def valueList(self) -> _Builder:
        return self._set("cardinality", "LIST")

    def valueSet(self) -> _Builder:
        return self._set("cardinality", "SET")

    def cardinality(self, value: Any) -> _Builder:
        return self._set("cardinality", _enum_name(value))

    def dataType(self, value: Any) -> _Builder:
        return self._set("data_type", _enum_name(value))

    def aggregateType(self, value: Any) -> _Builder:
        return self._set("aggregate_type", _enum_name(value))

    def writeType(self, value: Any) -> _Builder:
        return self._set("write_type", _enum_name(value))


class _LabelBuilder(_Builder):
    _label_methods = frozenset({"properties", "nullableKeys", "enableLabelIndex", "ttl", "ttlStartTime", "rebuildIndex"})

    def properties(self, *names: str) -> _Builder:
        return self._add("properties", names)

    def nullableKeys(self, *names: str) -> _Builder:
        return self._add("nullable_keys", names)

    def enableLabelIndex(self, enable: bool = True) -> _Builder:
        return self._set("enable_label_index", bool(enable))

    def ttl(self, ms: int) -> _Builder:
        return self._set("ttl", int(ms))

    def ttlStartTime(self, key: str) -> _Builder:
        return self._set("ttl_start_time", key)


class VertexLabelBuilder(_LabelBuilder):
    kind = VERTEX_LABEL
    gremlin_methods = _Builder._common | _LabelBuilder._label_methods | frozenset({
        "primaryKeys", "idStrategy", "useAutomaticId", "usePrimaryKeyId", "useCustomizeStringId",
        "useCustomizeNumberId", "useCustomizeUuidId",
    })

    def _strategy(self, strategy: str) -> _Builder:
        current = self.body.get("id_strategy")
        if current not in (None, "DEFAULT", strategy):
            raise IllegalArgument(f"Not allowed to change id strategy for vertex label '{self.body['name']}'")
        return self._set("id_strategy", strategy)

    def idStrategy(self, value: Any) -> _Builder:
        return self._strategy(_enum_name(value))

    def useAutomaticId(self) -> _Builder:
        return self._strategy("AUTOMATIC")

    def usePrimaryKeyId(self) -> _Builder:
        return self._strategy("PRIMARY_KEY")

    def useCustomizeStringId(self) -> _Builder:
        return self._strategy("CUSTOMIZE_STRING")

    def useCustomizeNumberId(self) -> _Builder:
        return self._strategy("CUSTOMIZE_NUMBER")

    def useCustomizeUuidId(self) -> _Builder:
        return self._strategy("CUSTOMIZE_UUID")

    def primaryKeys(self, *names: str) -> _Builder:
        if not names:
            return self
        if self.body.get("primary_keys"):
            raise IllegalArgument("Not allowed to assign primary keys multitimes")
        keys = _flat(names)
        if len(set(keys)) != len(keys):
            raise IllegalArgument(f"Invalid primary keys {keys}, which contains some duplicate properties")
        return self._set("primary_keys", keys)


class EdgeLabelBuilder(_LabelBuilder):
    kind = EDGE_LABEL
    gremlin_methods = _Builder._common | _LabelBuilder._label_methods | frozenset({
        "sourceLabel", "targetLabel", "link", "links", "singleTime", "multiTimes", "frequency",
        "sortKeys", "asBase", "withBase",
    })

    def sourceLabel(self, label: str) -> _Builder:
        return self._set("source_label", label)

    def targetLabel(self, label: str) -> _Builder:
        return self._set("target_label", label)

    def link(self, source: str, target: str) -> _Builder:
        self.body.setdefault("links", []).append({source: target})
        return self

    def links(self, *pairs: Any) -> _Builder:
        for pair in _flat(pairs):
            if isinstance(pair, dict):
                self.body.setdefault("links", []).append(dict(pair))
        return self

    def singleTime(self) -> _Builder:
        return self._set("frequency", "SINGLE")

    def multiTimes(self) -> _Builder:
        return self._set("frequency", "MULTIPLE")

    def frequency(self, value: Any) -> _Builder:
        return self._set("frequency", _enum_name(value))

    def sortKeys(self, *names: str) -> _Builder:
        return self._add("sort_keys", names)

    def asBase(self) -> _Builder:
        return self._set("edgelabel_type", "PARENT")

    def withBase(self, parent: str) -> _Builder:
        self.body["edgelabel_type"] = "SUB"
        return self._set("parent_label", parent)


class IndexLabelBuilder(_Builder):
    kind = INDEX_LABEL
    gremlin_methods = _Builder._common | frozenset({
        "onV", "onE", "on", "by", "secondary", "range", "search", "shard", "unique", "indexType",
        "rebuild", "rebuildIndex",
    })

    def onV(self, label: str) -> _Builder:
        self.body["base_type"] = "VERTEX_LABEL"
        return self._set("base_value", label)

    def onE(self, label: str) -> _Builder:
        self.body["base_type"] = "EDGE_LABEL"
        return self._set("base_value", label)

    def on(self, base_type: Any, label: str) -> _Builder:
        kind = _enum_name(base_type)
        self.body["base_type"] = "EDGE_LABEL" if kind.startswith("E") else "VERTEX_LABEL"
        return self._set("base_value", label)

    def by(self, *fields: str) -> _Builder:
        return self._add("fields", fields)

    def secondary(self) -> _Builder:
        return self._set("index_type", "SECONDARY")

    def range(self) -> _Builder:
        return self._set("index_type", "RANGE")

    def search(self) -> _Builder:
        return self._set("index_type", "SEARCH")

    def shard(self) -> _Builder:
        return self._set("index_type", "SHARD")

    def unique(self) -> _Builder:
        return self._set("index_type", "UNIQUE")

    def indexType(self, value: Any) -> _Builder:
        return self._set("index_type", _enum_name(value))

    def rebuild(self, flag: Any = None) -> Any:
        """`rebuild(false)` on a builder sets the create-time flag; `rebuild()` alone
        rebuilds an existing index label (HugeGraph's `rebuild()` job)."""
        if flag is None:
            return self.rebuildIndex()
        return self._set("rebuild", bool(flag))
