"""Type-conversion and date steps (TinkerPop 3.7/3.8): `asNumber`, `asBool`, `asDate`,
`dateAdd`, `dateDiff`, `format`, and `element()`.

Numbers keep their Java type (`asNumber()` of a Short stays a Short; of a string, the
narrowest of Integer/Long/BigInteger or a Double); `asNumber(GType.X)` converts with
Java's overflow checks. Dates are timezone-aware datetimes; their number form is epoch
milliseconds (a Long), which is what `asNumber()`/`asDate()` round-trip through.
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Element, Property, VertexProperty
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import ByModulated, MapStep, property_value
from gremlin_engine.traversal.steps.filter import labelled_value
from gremlin_engine.traversal.steps.lists import java_type_name
from gremlin_engine.traversal.steps.strings import string_of
from gremlin_engine.traversal.tokens import DT, GType
from gremlin_engine.traversal.traverser import Context, Traverser

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)

_INTEGRAL = {
    GType.BYTE: (num.Byte, 8),
    GType.SHORT: (num.Short, 16),
    GType.INT: (num.Int, 32),
    GType.LONG: (num.Long, 64),
}
_NUMERIC = {*_INTEGRAL, GType.BIGINT, GType.FLOAT, GType.DOUBLE, GType.BIGDECIMAL, GType.NUMBER}
_JAVA_NAME = {num.Byte: "Byte", num.Short: "Short", num.Int: "Integer", num.Long: "Long"}


def epoch_millis(d: datetime.datetime) -> int:
    if d.tzinfo is None:
        d = d.replace(tzinfo=datetime.UTC)
    delta = d - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000


def from_millis(ms: int) -> datetime.datetime:
    return EPOCH + datetime.timedelta(milliseconds=int(ms))


def parse_number(s: str) -> Any:
    """A string as TinkerPop's asNumber() reads it: integers (decimal or 0x hex) become the
    narrowest of Integer/Long/BigInteger, anything with a fraction or exponent a Double."""
    text = s.strip()
    try:
        if re.fullmatch(r"[+-]?0[xX][0-9a-fA-F]+", text):
            return _narrowest(int(text, 16))
        if re.fullmatch(r"[+-]?\d+", text):
            return _narrowest(int(text))
        if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text):
            return float(text)
    except ValueError:
        pass
    raise TraversalError(f"Can't parse string '{s}' as number.")


def _narrowest(n: int) -> Any:
    if num.INT_MIN <= n <= num.INT_MAX:
        return num.Int(n)
    if num.LONG_MIN <= n <= num.LONG_MAX:
        return num.Long(n)
    return num.BigInt(n)


def convert_number(v: Any, target: GType) -> Any:
    """`asNumber(GType.X)` of a number: truncates fractions, refuses overflow."""
    if target is GType.NUMBER:
        return v
    if target in _INTEGRAL:
        cls, bits = _INTEGRAL[target]
        if isinstance(v, float | decimal.Decimal) and (math.isnan(v) or math.isinf(v)):
            raise TraversalError(f"Can't convert {v} to {_JAVA_NAME[cls]}.")
        n = int(v)
        if not -(1 << (bits - 1)) <= n < (1 << (bits - 1)):
            raise TraversalError(
                f"Can't convert number of type {java_type_name(v)} to {_JAVA_NAME[cls]} due to overflow."
            )
        return cls(n)
    if target is GType.BIGINT:
        return num.BigInt(int(v))
    if target is GType.FLOAT:
        return num.Float(float(v))
    if target is GType.DOUBLE:
        return float(v)
    if isinstance(v, decimal.Decimal):
        return v
    return decimal.Decimal(int(v)) if isinstance(v, int) else decimal.Decimal(repr(float(v)))


class AsNumberStep(MapStep):
    name = "asNumber"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.target: GType | None = args[0] if args else None
        if self.target is not None and self.target not in _NUMERIC:
            raise StepArgumentError(f"asNumber() requires a numeric type token, got {self.target.name}")

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if v is None:
            return None
        if isinstance(v, datetime.datetime):
            v = num.Long(epoch_millis(v))
        elif isinstance(v, str):
            v = parse_number(v)
        elif isinstance(v, bool) or not num.is_number(v):
            raise TraversalError(f"Can't parse type {java_type_name(v)} as number.")
        return num.normalize(v) if self.target is None else convert_number(v, self.target)


class AsBoolStep(MapStep):
    name = "asBool"

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if isinstance(v, bool):
            return v
        if v is None:
            raise TraversalError("Can't parse null as Boolean.")
        if num.is_number(v):
            return not (v == 0 or (isinstance(v, float) and math.isnan(v)))
        if isinstance(v, str):
            if v.lower() in ("true", "false"):
                return v.lower() == "true"
            raise TraversalError(f"Can't parse {v} as Boolean.")
        raise TraversalError(f"Can't parse {string_of(v)} as Boolean.")


def parse_date(s: str) -> datetime.datetime:
    text = s.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        d = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise TraversalError(f"Can't parse {s} as Date.") from None
    return d if d.tzinfo is not None else d.replace(tzinfo=datetime.UTC)


class AsDateStep(MapStep):
    name = "asDate"

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if isinstance(v, datetime.datetime):
            return v
        if isinstance(v, str):
            return parse_date(v)
        if num.is_number(v) and not isinstance(v, float | num.Float | decimal.Decimal):
            return from_millis(int(v))
        raise TraversalError(f"Can't parse {string_of(v)} as Date.")


def _date_in(step: str, v: Any) -> datetime.datetime:
    if not isinstance(v, datetime.datetime):
        raise TraversalError(f"{step} can only take Date as argument, encountered {java_type_name(v)}")
    return v


class DateAddStep(MapStep):
    name = "dateAdd"
    _UNITS = {DT.second: "seconds", DT.minute: "minutes", DT.hour: "hours", DT.day: "days"}

    def __init__(self, unit: DT, value: Any) -> None:
        super().__init__(unit, value)
        self.delta = datetime.timedelta(**{self._UNITS[unit]: int(value)})

    def map(self, t: Traverser, ctx: Context) -> Any:
        return _date_in("dateAdd()", t.obj) + self.delta


class DateDiffStep(MapStep):
    """`dateDiff(date | traversal)`: milliseconds from the argument to the incoming date (a
    null argument counts as the epoch)."""

    name = "dateDiff"

    def map(self, t: Traverser, ctx: Context) -> Any:
        other = self.args[0]
        if isinstance(other, CompiledTraversal):
            other = first_result(other, t, ctx)
            other = None if other is NOTHING else other
        mine = _date_in("dateDiff()", t.obj)
        other_ms = 0 if other is None else epoch_millis(_date_in("dateDiff()", other))
        return num.Long(epoch_millis(mine) - other_ms)


_VAR = re.compile(r"%\{([^}]*)\}")


class FormatStep(ByModulated, MapStep):
    """`format('%{name} is %{age}')`: variables are element properties or map keys of the
    incoming object, else step labels/side-effects; `%{_}` takes the next `by()` value.
    A variable without a value filters the traverser out."""

    name = "format"
    requires_path = True
    loads = True

    def __init__(self, template: str) -> None:
        super().__init__(template)
        self.template = template
        self.bys = []

    def _variable(self, name: str, t: Traverser, ctx: Context) -> Any:
        obj = t.obj
        if isinstance(obj, Element):
            v = property_value(obj, name)
            if v is not NOTHING:
                return v
        elif isinstance(obj, Mapping) and name in obj:
            return obj[name]
        return labelled_value(t, name, ctx)

    def map(self, t: Traverser, ctx: Context) -> Any:
        out: list[str] = []
        pos = 0
        positional = 0
        for m in _VAR.finditer(self.template):
            out.append(self.template[pos : m.start()])
            pos = m.end()
            name = m.group(1)
            if name == "_":
                if not self.bys:
                    return NOTHING
                v = self.by_at(positional).value(t, ctx)
                positional += 1
            else:
                v = self._variable(name, t, ctx)
            if v is NOTHING:
                return NOTHING
            out.append(string_of(v))
        out.append(self.template[pos:])
        return "".join(out)


class ElementStep(MapStep):
    """`element()`: the element a property belongs to."""

    name = "element"

    def map(self, t: Traverser, ctx: Context) -> Any:
        p = t.obj
        if isinstance(p, VertexProperty):
            return p.vertex
        if isinstance(p, Property):
            return p.element
        raise TraversalError(f"element() can only be applied to a property, not {string_of(p)}")


STEPS: dict[str, tuple[Any, str]] = {
    "asNumber": (AsNumberStep, "GType?"),
    "asBool": (AsBoolStep, ""),
    "asDate": (AsDateStep, ""),
    "dateAdd": (DateAddStep, "DT int"),
    "dateDiff": (DateDiffStep, "any"),
    "format": (FormatStep, "str"),
    "element": (ElementStep, ""),
}
