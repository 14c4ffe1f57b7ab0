"""Turning the text of one field into the value its property key expects.

A CSV or TEXT file holds only text; which text means a number, a date or a list is said by
the schema (the property key's data type and cardinality) and by the input (its
`date_format`, `time_zone` and `list_format`), as hugegraph-loader reads them client-side.
This module does only that reading: the engine still checks and converts every value
against its key on write (`schema/coercion.py`), so a value read here is never trusted
further than "the text's obvious meaning".
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.io.mapping import InputSpec
from gremlin_engine.schema.model import Cardinality, DataType, PropertyKey

_TRUE = frozenset({"true", "1", "yes", "y", "on"})
_FALSE = frozenset({"false", "0", "no", "n", "off"})
_INTEGRAL = (DataType.BYTE, DataType.INT, DataType.LONG)

#: Java `SimpleDateFormat` letters -> `strptime` directives (the ones date columns use)
_JAVA_DATE = {"yyyy": "%Y", "yy": "%y", "MM": "%m", "M": "%m", "dd": "%d", "d": "%d", "HH": "%H", "H": "%H",
              "hh": "%I", "h": "%I", "mm": "%M", "m": "%M", "ss": "%S", "s": "%S", "SSS": "%f", "a": "%p",
              "Z": "%z", "XXX": "%z", "X": "%z", "EEE": "%a", "MMM": "%b"}
_JAVA_TOKEN = re.compile(r"'[^']*'|y+|M+|d+|H+|h+|m+|s+|S+|a|Z+|X+|E+")


def _same(value: Any) -> Any:
    return value


class FieldError(IllegalArgument):
    """A field whose text does not read as its property key's type."""


def strptime_pattern(java: str) -> str:
    """`yyyy-MM-dd HH:mm:ss` -> `%Y-%m-%d %H:%M:%S`; refuses letters it cannot map."""

    def one(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok.startswith("'"):
            return tok[1:-1].replace("%", "%%") or "'"
        if tok in _JAVA_DATE:
            return _JAVA_DATE[tok]
        if tok[0] == "y":
            return "%Y"
        raise IllegalArgument(f"date_format {java!r}: the pattern letters {tok!r} are not supported")

    return _JAVA_TOKEN.sub(one, java.replace("%", "%%"))


def time_zone(name: str) -> dt.tzinfo:
    """`GMT+8`, `UTC`, `GMT-05:30` or an IANA name such as `Asia/Shanghai`."""
    m = re.fullmatch(r"(?:GMT|UTC)(?:([+-])(\d{1,2})(?::?(\d{2}))?)?", name.strip())
    if m:
        if not m.group(1):
            return dt.UTC
        delta = dt.timedelta(hours=int(m.group(2)), minutes=int(m.group(3) or 0))
        return dt.timezone(-delta if m.group(1) == "-" else delta)
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise IllegalArgument(f"time_zone {name!r} is not a time zone (GMT+8, UTC, Asia/Shanghai)") from None


class ValueReader:
    """Reads field text for one input: `read(key, text)` gives the value to write."""

    def __init__(self, spec: InputSpec) -> None:
        self.spec = spec
        self.timestamp = spec.date_format.lower() == "timestamp"
        self.date_pattern = "" if self.timestamp else strptime_pattern(spec.date_format)
        self.zone = time_zone(spec.time_zone)

    def converter(self, pk: PropertyKey) -> Any:
        """A quick `read` for `pk`'s common cases (single text and numbers); it may raise
        `ValueError`, after which the caller asks `read`, which words the error."""
        if pk.cardinality is Cardinality.SINGLE:
            if pk.data_type is DataType.TEXT:
                return _same
            if pk.data_type in _INTEGRAL:
                return int
            if pk.data_type in (DataType.FLOAT, DataType.DOUBLE):
                return float
        return lambda value: self.read(pk, value)

    def read(self, pk: PropertyKey, value: Any) -> Any:
        if pk.cardinality is not Cardinality.SINGLE and isinstance(value, str):
            return [self.one(pk, part) for part in self.split_list(value)]
        if isinstance(value, list):
            return [self.one(pk, part) for part in value]
        return self.one(pk, value)

    def split_list(self, text: str) -> list[str]:
        lf = self.spec.list_format
        inner = text.strip()
        if lf.start_symbol and inner.startswith(lf.start_symbol):
            inner = inner[len(lf.start_symbol):]
        if lf.end_symbol and inner.endswith(lf.end_symbol):
            inner = inner[:-len(lf.end_symbol)]
        if not inner:
            return []
        return inner.split(lf.elem_delimiter) if lf.elem_delimiter else [inner]

    def one(self, pk: PropertyKey, value: Any) -> Any:
        """One element's value; non-text values (from JSON inputs) pass through."""
        if not isinstance(value, str):
            return value
        t = pk.data_type
        text = value.strip()
        try:
            if t in _INTEGRAL:
                return int(text)
            if t in (DataType.FLOAT, DataType.DOUBLE):
                return float(text)
        except ValueError:
            raise FieldError(f"'{value}' is not a number, as key '{pk.name}' ({t.value}) needs") from None
        if t is DataType.BOOLEAN:
            low = text.lower()
            if low in _TRUE or low in _FALSE:
                return low in _TRUE
            raise FieldError(f"'{value}' is not a boolean (true/false), as key '{pk.name}' needs")
        if t is DataType.DATE:
            return self.date(pk, text)
        return value

    def date(self, pk: PropertyKey, text: str) -> dt.datetime | int:
        if self.timestamp:
            try:
                return int(text)
            except ValueError:
                raise FieldError(f"'{text}' is not a timestamp in milliseconds, as key '{pk.name}' needs") from None
        try:
            parsed = dt.datetime.strptime(text, self.date_pattern)
        except ValueError:
            raise FieldError(
                f"'{text}' does not match the date_format '{self.spec.date_format}' of key '{pk.name}'"
            ) from None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=self.zone)
