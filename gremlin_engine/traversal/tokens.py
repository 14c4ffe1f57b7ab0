"""TinkerPop's enum tokens, shared by the script interpreter, bytecode decoding and the steps.

Member names are the Gremlin spellings (`T.id`, `Order.desc`, `Scope.local`), so decoding
script text or gremlinpython bytecode is a lookup by name: `TOKENS["Order"]["desc"]`.
"""

from __future__ import annotations

from enum import Enum


class _Token(Enum):
    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class T(_Token):
    id = "id"
    label = "label"
    key = "key"
    value = "value"


class Direction(_Token):
    OUT = "OUT"
    IN = "IN"
    BOTH = "BOTH"
    from_ = "from"  # Direction.from_ / Direction.to are aliases of OUT / IN in 3.8
    to = "to"


class Order(_Token):
    asc = "asc"
    desc = "desc"
    shuffle = "shuffle"


class Scope(_Token):
    local = "local"
    global_ = "global"


class Column(_Token):
    keys = "keys"
    values = "values"


class Pop(_Token):
    first = "first"
    last = "last"
    all = "all"
    mixed = "mixed"


class Cardinality(_Token):
    single = "single"
    list = "list"
    set = "set"


class Operator(_Token):
    sum = "sum"
    minus = "minus"
    mult = "mult"
    div = "div"
    min = "min"
    max = "max"
    assign = "assign"
    and_ = "and"
    or_ = "or"
    addAll = "addAll"
    sumLong = "sumLong"


class Pick(_Token):
    any = "any"
    none = "none"
    unproductive = "unproductive"


class Merge(_Token):
    onCreate = "onCreate"
    onMatch = "onMatch"
    outV = "outV"
    inV = "inV"


class DT(_Token):
    second = "second"
    minute = "minute"
    hour = "hour"
    day = "day"


class Barrier(_Token):
    normSack = "normSack"


class WithOptions(_Token):
    """`with_(WithOptions.tokens)` keys and values for valueMap/propertyMap/index."""

    tokens = "~tinkerpop.valueMap.tokens"
    none = "none"
    ids = "ids"
    labels = "labels"
    keys = "keys"
    values = "values"
    all = "all"
    indexer = "~tinkerpop.index.indexer"
    list = "list"
    map = "map"


class GType(_Token):
    """Type tokens for `P.typeOf(GType.INT)` (TinkerPop 3.8); values are Java simple names."""

    BIGDECIMAL = "BigDecimal"
    BIGINT = "BigInteger"
    BINARY = "Binary"
    BOOLEAN = "Boolean"
    BYTE = "Byte"
    CHAR = "Character"
    DATETIME = "OffsetDateTime"
    DOUBLE = "Double"
    DURATION = "Duration"
    EDGE = "Edge"
    FLOAT = "Float"
    GRAPH = "Graph"
    INT = "Integer"
    LIST = "List"
    LONG = "Long"
    MAP = "Map"
    NULL = "Null"
    NUMBER = "Number"
    PATH = "Path"
    PROPERTY = "Property"
    SET = "Set"
    SHORT = "Short"
    STRING = "String"
    TREE = "Tree"
    UUID = "UUID"
    VERTEX = "Vertex"
    VPROPERTY = "VertexProperty"


TOKEN_ENUMS: dict[str, type[_Token]] = {
    cls.__name__: cls
    for cls in (
        T, Direction, Order, Scope, Column, Pop, Cardinality, Operator, Pick, Merge, DT, Barrier, WithOptions, GType
    )
}


def token(enum_name: str, member: str) -> _Token:
    """Looks a token up by its Gremlin spelling: token('Scope', 'global') -> Scope.global_."""
    cls = TOKEN_ENUMS[enum_name]
    for m in cls:
        if m.name == member or m.value == member or m.name.rstrip("_") == member:
            return m
    raise KeyError(f"{enum_name}.{member}")
