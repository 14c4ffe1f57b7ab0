"""Java-typed numbers for the engine.

Gremlin results are observed by clients that know Java's numeric types (gremlinpython
serialises Int32 and Int64 differently; the TinkerPop conformance tables say `d[1].i` or
`d[1].l`). Python has one `int` and one `float`, so the engine marks the Java type with
thin subclasses that compare and hash exactly like the plain value:

=========  ==================  ===============================================
Java       Python class        notes
=========  ==================  ===============================================
Byte       ``Byte(int)``       -128..127
Short      ``Short(int)``      -32768..32767
Integer    ``Int(int)``        also what a plain ``int`` means when it fits 32 bits
Long       ``Long(int)``       counts, ids, any plain ``int`` beyond 32 bits
BigInteger ``BigInt(int)``     ``n`` suffix
Float      ``Float(float)``    ``f`` suffix
Double     plain ``float``     ``d`` suffix and the default for decimals we compute
BigDecimal ``decimal.Decimal`` ``m`` suffix
=========  ==================  ===============================================

Arithmetic on the subclasses returns plain Python numbers; `promote` and `java_add`
re-apply Java's widening rules where a step (sum, math, sack) needs them.
"""

from __future__ import annotations

import decimal
from typing import Any

from gremlin_engine.errors import LimitExceeded
from gremlin_engine.limits import MAX_BIGINT_BITS


class Byte(int):
    java_name = "Byte"

    def __repr__(self) -> str:
        return f"{int(self)}b"


class Short(int):
    java_name = "Short"

    def __repr__(self) -> str:
        return f"{int(self)}s"


class Int(int):
    java_name = "Integer"

    def __repr__(self) -> str:
        return f"{int(self)}i"


class Long(int):
    java_name = "Long"

    def __repr__(self) -> str:
        return f"{int(self)}L"


#: the largest BigInteger the engine makes, in bits: the scripts' bound (~4,200 digits).
#: Java has no such bound, but Python multiplies big integers holding the GIL
#: (`sack(mult).by(sack())` in a `repeat` squares one each round, uninterruptibly past ~2**28
#: bits), and refuses to write an integer of more than 4,300 digits as text, so a larger
#: one could be computed but never answered (a 500 before issue 16). One bound for both.
MAX_BIG_INTEGER_BITS = MAX_BIGINT_BITS


class BigInt(int):
    java_name = "BigInteger"

    def __new__(cls, value: Any = 0, *base: Any) -> BigInt:
        self = super().__new__(cls, value, *base)
        if self.bit_length() > MAX_BIG_INTEGER_BITS:
            raise LimitExceeded(
                f"a BigInteger of {self.bit_length():,} bits is too large "
                f"(MAX_BIG_INTEGER_BITS is {MAX_BIG_INTEGER_BITS:,})"
            )
        return self

    def __repr__(self) -> str:
        return f"{int(self)}n"


class Float(float):
    java_name = "Float"

    def __repr__(self) -> str:
        return f"{float(self)}f"


BigDecimal = decimal.Decimal

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1

# Widening order used by Java binary numeric promotion (and TinkerPop's NumberHelper).
_RANK = {Byte: 0, Short: 1, Int: 2, Long: 3, BigInt: 4, Float: 5, float: 6, decimal.Decimal: 7}


def java_type(value: Any) -> type | None:
    """The Java numeric class a value stands for, or None for non-numbers (bool is not a number)."""
    if isinstance(value, bool):
        return None
    t = type(value)
    if t in _RANK:
        return t
    if isinstance(value, int):
        return Int if INT_MIN <= value <= INT_MAX else Long
    if isinstance(value, float):
        return float
    if isinstance(value, decimal.Decimal):
        return decimal.Decimal
    return None


def is_number(value: Any) -> bool:
    return java_type(value) is not None


def wrap(cls: type, value: Any) -> Any:
    """Builds `value` as Java type `cls`, overflowing integral types the way Java does."""
    if cls is float:
        return float(value)
    if cls is decimal.Decimal:
        return value if isinstance(value, decimal.Decimal) else decimal.Decimal(str(value))
    if cls is Float:
        return Float(value)
    if cls in (Byte, Short, Int, Long):
        bits = {Byte: 8, Short: 16, Int: 32, Long: 64}[cls]
        v = int(value)
        v = (v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
        return cls(v)
    return cls(int(value))


def promote(a: Any, b: Any) -> type:
    """The Java result type of a binary arithmetic operation on `a` and `b`.

    Java promotes byte/short/int arithmetic to int; TinkerPop's NumberHelper instead keeps the
    wider of the two operand types and widens further only on overflow (127b + 1b is 128s,
    2147483647i + 1i is a Long). Callers handle the overflow step; this gives the base type.
    """
    ta, tb = java_type(a), java_type(b)
    if ta is None or tb is None:
        raise TypeError(f"not a number: {a!r} / {b!r}")
    return ta if _RANK[ta] >= _RANK[tb] else tb


def normalize(value: Any) -> Any:
    """Gives a plain Python int/float its Java meaning (Int or Long, Double)."""
    if isinstance(value, bool) or type(value) in _RANK:
        return value
    if isinstance(value, int):
        return Int(value) if INT_MIN <= value <= INT_MAX else Long(value)
    return value
