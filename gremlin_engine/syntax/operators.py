"""Groovy operators on script values: `1 + 2`, `'a' + x`, `n * 2`, `a == b`, `!done`.

Scripts sent to `/gremlin` are sometimes plain arithmetic (`"1 + 2"` answers `[3]`), or
compute a step argument (`g.V().limit(n * 2)`). The rules are Groovy's, not TinkerPop's
NumberHelper: byte/short/int arithmetic gives an int that wraps at 32 bits, long wraps at
64, float arithmetic gives a double, `/` on integers gives a BigDecimal (`1/2` is `0.5`),
`+` with a string on either side concatenates.
"""

from __future__ import annotations

import decimal
import math
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.schema.coercion import java_class_name
from gremlin_engine.structure import numbers as num
from gremlin_engine.syntax.host import BoundTraversal
from gremlin_engine.traversal.ir import TraversalIR

_DIV_CONTEXT = decimal.Context(prec=34)


def _type(v: Any) -> str:
    """A value's type as a Groovy user knows it (`null`, `Integer`, `ArrayList`), never a
    Python class name (`NoneType`, `dict`)."""
    if isinstance(v, TraversalIR | BoundTraversal):
        return "DefaultGraphTraversal"
    return java_class_name(v)


def _is_num(v: Any) -> bool:
    return num.java_type(v) is not None


def groovy_str(v: Any) -> str:
    """Groovy's string form of a value (for concatenation)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        return (
            repr(float(v))
            if math.isfinite(v)
            else ("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))
        )
    if isinstance(v, list | tuple):
        return "[" + ", ".join(groovy_str(x) for x in v) + "]"
    return str(v)


def truthy(v: Any) -> bool:
    """Groovy truth: null, false, 0, empty strings and collections are false."""
    if v is None:
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float | decimal.Decimal | str | list | tuple | dict | set | frozenset):
        return bool(v)
    return True


def _result_type(a: Any, b: Any) -> type:
    ta, tb = num.java_type(a), num.java_type(b)
    if decimal.Decimal in (ta, tb):
        return float if {ta, tb} & {float, num.Float} else decimal.Decimal
    if {ta, tb} & {float, num.Float}:
        return float
    if num.BigInt in (ta, tb):
        return num.BigInt
    if num.Long in (ta, tb):
        return num.Long
    return num.Int


def _arith(op: str, a: Any, b: Any) -> Any:
    cls = _result_type(a, b)
    if op == "/" and cls in (num.Int, num.Long, num.BigInt):
        if b == 0:
            raise StepArgumentError("Division by zero")
        q = _DIV_CONTEXT.divide(decimal.Decimal(int(a)), decimal.Decimal(int(b)))
        if q == q.to_integral_value():
            return decimal.Decimal(int(q))
        return q.quantize(decimal.Decimal("1e-10"), rounding=decimal.ROUND_HALF_UP).normalize()
    if cls is decimal.Decimal:
        x, y = decimal.Decimal(str(a)), decimal.Decimal(str(b))
    elif cls is float:
        x, y = float(a), float(b)
    else:
        x, y = int(a), int(b)
    if op in ("/", "%") and y == 0 and cls is not float:
        raise StepArgumentError("Division by zero")
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "/":
        r = x / y if y or cls is not float else (math.copysign(math.inf, x) if x else math.nan)
    else:  # % keeps the sign of the dividend, as in Java
        if cls is float:
            r = math.fmod(x, y) if y and not math.isinf(x) else math.nan  # Java: Infinity % y is NaN
        elif cls is decimal.Decimal:
            r = x % y  # Decimal's % keeps the dividend's sign
        else:
            r = abs(x) % abs(y) * (1 if x >= 0 else -1)
    return num.wrap(cls, r) if cls in (num.Int, num.Long) else (cls(r) if cls is not decimal.Decimal else r)


def binary(op: str, a: Any, b: Any) -> Any:
    """Applies a (non short-circuit) binary operator."""
    if op == "+" and (isinstance(a, str) or isinstance(b, str)):
        return groovy_str(a) + groovy_str(b)
    if op == "+" and isinstance(a, list) and isinstance(b, list):
        return a + b
    if op in ("+", "-", "*", "/", "%"):
        if _is_num(a) and _is_num(b):
            return _arith(op, a, b)
        raise StepArgumentError(
            f"operator '{op}' is not defined for {_type(a)} and {_type(b)}"
        )
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if (_is_num(a) and _is_num(b)) or (isinstance(a, str) and isinstance(b, str)):
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
    raise StepArgumentError(f"operator '{op}' is not defined for {_type(a)} and {_type(b)}")


def unary(op: str, v: Any) -> Any:
    if op == "!":
        return not truthy(v)
    if op == "-" and _is_num(v):
        cls = num.java_type(v)
        if cls in (num.Byte, num.Short, num.Int):
            return num.wrap(num.Int, -int(v))
        if cls is num.Long:
            return num.wrap(num.Long, -int(v))
        return cls(-v) if cls is not float else -float(v)
    raise StepArgumentError(f"operator '{op}' is not defined for {_type(v)}")
