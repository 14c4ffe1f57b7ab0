"""Checking and converting property values against their property key.

HugeGraph validates every property value against the key's data type and cardinality and
answers bad values with `IllegalArgumentException`s whose messages clients show to users
(`Invalid property value '29' for key 'age', expect a value of type Integer, actual type
String`), so the messages here follow HugeGraph's wording and Java type names.

Conversions are the lenient ones HugeGraph performs: numbers widen (an Integer fits a LONG
key, any number fits a DOUBLE key), DATE accepts HugeGraph's date strings and epoch millis,
UUID accepts its string form, BLOB accepts base64, `0x` hex or a list of byte values.
Values come back as engine values (`structure/numbers.py` classes, aware UTC datetimes,
`uuid.UUID`, `bytes`); LIST and SET keys give a Python list (SET de-duplicated, first
occurrence order kept).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import decimal
import math
import uuid
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema.model import Cardinality, DataType, PropertyKey
from gremlin_engine.structure.numbers import (
    INT_MAX,
    INT_MIN,
    LONG_MAX,
    LONG_MIN,
    Byte,
    Float,
    Int,
    Long,
    Short,
)

DATE_FORMATS = ("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d")
_DATE_HELP = "[yyyy-MM-dd, yyyy-MM-dd HH:mm:ss, yyyy-MM-dd HH:mm:ss.SSS]"
_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def java_class_name(value: Any) -> str:
    """The Java class name HugeGraph would report for a value in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "Boolean"
    java = getattr(type(value), "java_name", None)
    if java:
        return java
    if isinstance(value, int):
        return "Integer" if INT_MIN <= value <= INT_MAX else "Long"
    if isinstance(value, float):
        return "Double"
    if isinstance(value, decimal.Decimal):
        return "BigDecimal"
    if isinstance(value, str):
        return "String"
    if isinstance(value, (list, tuple)):
        return "ArrayList"
    if isinstance(value, (set, frozenset)):
        return "HashSet"
    if isinstance(value, dict):
        return "LinkedHashMap"
    if isinstance(value, dt.datetime):
        return "Date"
    if isinstance(value, uuid.UUID):
        return "UUID"
    if isinstance(value, (bytes, bytearray)):
        return "byte[]"
    return type(value).__name__


def java_repr(value: Any) -> str:
    """`String.valueOf(value)` as Java would print it, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(float(value))
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(java_repr(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{java_repr(k)}={java_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, dt.datetime):
        return format_date(value)
    return str(value)


def format_date(value: dt.datetime) -> str:
    """`yyyy-MM-dd HH:mm:ss.SSS` in the server's local time zone (HugeGraph's date format)."""
    local = value.astimezone() if value.tzinfo else value
    return local.strftime("%Y-%m-%d %H:%M:%S.") + f"{local.microsecond // 1000:03d}"


def parse_date(text: str) -> dt.datetime:
    """A HugeGraph date string (server local time) as an aware UTC datetime."""
    stripped = text.strip()
    for fmt in DATE_FORMATS:
        try:
            naive = dt.datetime.strptime(stripped, fmt)
        except ValueError:
            continue
        return naive.astimezone(dt.UTC)  # naive → interpreted as local time
    raise IllegalArgument(f"Expected date format is: {_DATE_HELP}, but got '{text}'")


def _invalid(pk: PropertyKey, value: Any) -> IllegalArgument:
    return IllegalArgument(
        f"Invalid property value '{java_repr(value)}' for key '{pk.name}', expect a value of type "
        f"{pk.data_type.java_name}, actual type {java_class_name(value)}"
    )


def _integral(pk: PropertyKey, value: Any, cls: type, lo: int, hi: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float, decimal.Decimal)):
        raise _invalid(pk, value)
    if isinstance(value, (float, decimal.Decimal)):
        if not math.isfinite(value) or value != int(value):
            raise IllegalArgument(f"Can't read '{java_repr(value)}' as {cls.__name__.lower()}")
        value = int(value)
    if isinstance(value, Float):
        raise _invalid(pk, value)
    if not lo <= int(value) <= hi:
        raise _invalid(pk, value)
    return cls(int(value))


def _coerce_one(pk: PropertyKey, value: Any) -> Any:
    t = pk.data_type
    if value is None:
        raise IllegalArgument(f"Property value of key '{pk.name}' can't be null")
    if t is DataType.TEXT:
        if not isinstance(value, str):
            raise _invalid(pk, value)
        return value
    if t is DataType.BOOLEAN:
        if not isinstance(value, bool):
            raise _invalid(pk, value)
        return value
    if t is DataType.BYTE:
        return _integral(pk, value, Byte, -128, 127)
    if t is DataType.INT:
        if isinstance(value, Long):
            raise _invalid(pk, value)
        return _integral(pk, value, Int, INT_MIN, INT_MAX)
    if t is DataType.LONG:
        return _integral(pk, value, Long, LONG_MIN, LONG_MAX)
    if t in (DataType.FLOAT, DataType.DOUBLE):
        if isinstance(value, str) and value in _SPECIAL_FLOATS:
            value = _SPECIAL_FLOATS[value]
        if isinstance(value, bool) or not isinstance(value, (int, float, decimal.Decimal)):
            raise _invalid(pk, value)
        return Float(value) if t is DataType.FLOAT else float(value)
    if t is DataType.DATE:
        return _coerce_date(pk, value)
    if t is DataType.UUID:
        if isinstance(value, uuid.UUID):
            return value
        if isinstance(value, str):
            try:
                return uuid.UUID(value)
            except ValueError:
                raise _invalid(pk, value) from None
        raise _invalid(pk, value)
    if t is DataType.BLOB:
        return _coerce_blob(pk, value)
    return value  # OBJECT: anything goes


def _coerce_date(pk: PropertyKey, value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC) if value.tzinfo else value.astimezone(dt.UTC)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day).astimezone(dt.UTC)
    if isinstance(value, str):
        return parse_date(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return dt.datetime.fromtimestamp(int(value) / 1000, dt.UTC)
    raise _invalid(pk, value)


def _coerce_blob(pk: PropertyKey, value: Any) -> bytes:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        if value.startswith(("0x", "0X")):
            try:
                return bytes.fromhex(value[2:])
            except ValueError:
                raise _invalid(pk, value) from None
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise _invalid(pk, value) from None
    if isinstance(value, (list, tuple)) and all(isinstance(b, int) and not isinstance(b, bool) for b in value):
        return bytes(b & 0xFF for b in value)
    raise _invalid(pk, value)


def coerce(pk: PropertyKey, value: Any) -> Any:
    """Validates `value` for `pk` and converts it to the key's type and cardinality.

    SINGLE keys refuse collections; LIST/SET keys accept a collection or a single value and
    return a list."""
    if pk.cardinality is Cardinality.SINGLE:
        if isinstance(value, (list, tuple, set, frozenset)) and pk.data_type not in (DataType.BLOB, DataType.OBJECT):
            raise _invalid(pk, value)
        return _coerce_one(pk, value)
    items = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
    out = [_coerce_one(pk, v) for v in items]
    if pk.cardinality is Cardinality.SET:
        seen: list[Any] = []
        for v in out:
            if v not in seen:
                seen.append(v)
        return seen
    return out


def infer_data_type(value: Any) -> tuple[DataType, Cardinality]:
    """The property key type auto mode creates for a first value (TinkerGraph-like use)."""
    if isinstance(value, (list, tuple)):
        return (infer_data_type(value[0])[0] if value else DataType.OBJECT), Cardinality.LIST
    if isinstance(value, (set, frozenset)):
        first = next(iter(value), None)
        return (infer_data_type(first)[0] if value else DataType.OBJECT), Cardinality.SET
    single = Cardinality.SINGLE
    if isinstance(value, bool):
        return DataType.BOOLEAN, single
    if isinstance(value, Byte):
        return DataType.BYTE, single
    if isinstance(value, (Short, Int)):
        return DataType.INT, single
    if isinstance(value, int):
        return (DataType.INT if INT_MIN <= value <= INT_MAX and not isinstance(value, Long) else DataType.LONG), single
    if isinstance(value, Float):
        return DataType.FLOAT, single
    if isinstance(value, float):
        return DataType.DOUBLE, single
    if isinstance(value, str):
        return DataType.TEXT, single
    if isinstance(value, dt.datetime):
        return DataType.DATE, single
    if isinstance(value, uuid.UUID):
        return DataType.UUID, single
    if isinstance(value, (bytes, bytearray)):
        return DataType.BLOB, single
    return DataType.OBJECT, single


def fits(pk: PropertyKey, value: Any) -> bool:
    try:
        coerce(pk, value)
    except IllegalArgument:
        return False
    return True


def coercer(pk: PropertyKey) -> Any:
    """`lambda value: coerce(pk, value)`, specialised once per key for batch writes.

    A batch load coerces the same few keys hundreds of times per request, almost always from
    the JSON type the key expects (a `str` for TEXT, an `int` for INT/LONG, a `float` or
    `int` for DOUBLE). Those exact types are converted inline; every other input goes
    through `coerce` itself, so results and error messages stay identical."""
    t = pk.data_type
    if pk.cardinality is not Cardinality.SINGLE:
        return lambda value: coerce(pk, value)
    if t is DataType.TEXT:
        def text(value: Any) -> Any:
            return value if type(value) is str else coerce(pk, value)
        return text
    if t is DataType.INT:
        def int_(value: Any) -> Any:
            if (type(value) is int or type(value) is Int) and INT_MIN <= value <= INT_MAX:
                return Int(value)
            return coerce(pk, value)
        return int_
    if t is DataType.LONG:
        def long_(value: Any) -> Any:
            tv = type(value)
            if (tv is int or tv is Int or tv is Long) and LONG_MIN <= value <= LONG_MAX:
                return Long(value)
            return coerce(pk, value)
        return long_
    if t is DataType.DOUBLE:
        def double(value: Any) -> Any:
            tv = type(value)
            if tv is float:
                return value
            if tv is int:
                return float(value)
            return coerce(pk, value)
        return double
    if t is DataType.BOOLEAN:
        def boolean(value: Any) -> Any:
            return value if type(value) is bool else coerce(pk, value)
        return boolean
    return lambda value: coerce(pk, value)
