"""Literal text to runtime values: numbers with Java types, strings with Groovy escapes,
`datetime(...)` and `UUID(...)` arguments.

Number rules follow GremlinLang (TinkerPop 3.8) and Groovy:

* integer suffixes `b` Byte, `s` Short, `i` Integer, `l`/`L` Long, `n`/`N` BigInteger, and
  `f`/`F` Float, `d`/`D` Double, `m`/`M` BigDecimal on integer or decimal digits;
* an integer without suffix is an Integer when it fits 32 bits, else a Long, else a
  BigInteger;
* a decimal without suffix is a Double: the TinkerPop corpus expects `g.inject(5.0).asNumber()`
  to give `d[5].d` (Groovy itself would say BigDecimal; Gremlin servers follow GremlinLang);
* hex `0x1F`, binary `0b101` and octal `017` integers (Java spellings).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import re
import uuid

from gremlin_engine import limits
from gremlin_engine.structure.numbers import (
    INT_MAX,
    INT_MIN,
    LONG_MAX,
    LONG_MIN,
    BigInt,
    Byte,
    Float,
    Int,
    Long,
    Short,
)


class LiteralError(ValueError):
    """A literal that lexes but has no value (out of range, bad escape, bad date)."""


_RANGES = {
    Byte: (-(2**7), 2**7 - 1, "byte"),
    Short: (-(2**15), 2**15 - 1, "short"),
    Int: (INT_MIN, INT_MAX, "int"),
    Long: (LONG_MIN, LONG_MAX, "long"),
}
_INT_SUFFIX = {"b": Byte, "s": Short, "i": Int, "l": Long, "n": BigInt}
_FLOATISH = {"f": Float, "d": float, "m": decimal.Decimal}


def number(text: str) -> object:
    """The Java-typed value of a NUMBER token (sign included)."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-")
    lower = body.lower()
    if lower.startswith(("0x", "0b")):
        suffix = lower[-1] if lower[-1] in "lins" else ""  # none of these is a hex digit
        digits = body[2 : len(body) - len(suffix)]
        return _integer(sign * int(digits, 16 if lower.startswith("0x") else 2), suffix, text)
    suffix = lower[-1] if lower[-1].isalpha() else ""
    digits = body[: len(body) - len(suffix)]
    is_decimal = "." in digits or "e" in digits.lower()
    if suffix in _FLOATISH:
        cls = _FLOATISH[suffix]
        signed = ("-" if sign < 0 else "") + digits
        if cls is decimal.Decimal:
            return decimal.Decimal(signed)
        return Float(float(signed)) if cls is Float else float(signed)
    if is_decimal:
        if suffix:
            raise LiteralError(f"invalid suffix '{suffix}' on decimal literal {text}")
        return float(("-" if sign < 0 else "") + digits)
    if len(digits) > 1 and digits.startswith("0"):
        if not set(digits) <= set("01234567"):
            raise LiteralError(f"invalid octal literal {text}")
        return _integer(sign * int(digits, 8), suffix, text)
    if len(digits) > _MAX_DECIMAL_DIGITS:  # Python refuses to read more than 4,300 digits
        raise LiteralError(
            f"integer literal is too large ({len(digits):,} digits, MAX_BIGINT_BITS is {limits.MAX_BIGINT_BITS:,})"
        )
    return _integer(sign * int(digits), suffix, text)


#: the most decimal digits an integer of MAX_BIGINT_BITS bits has (checked before reading them)
_MAX_DECIMAL_DIGITS = len(str(2**limits.MAX_BIGINT_BITS))


def _integer(value: int, suffix: str, text: str) -> object:
    if value.bit_length() > limits.MAX_BIGINT_BITS:
        # Python cannot even write such an integer back as text (4,300 digits at most)
        raise LiteralError(
            f"integer literal is too large ({value.bit_length():,} bits, MAX_BIGINT_BITS is {limits.MAX_BIGINT_BITS:,})"
        )
    if suffix:
        cls = _INT_SUFFIX[suffix]
        if cls in _RANGES:
            lo, hi, name = _RANGES[cls]
            if not lo <= value <= hi:
                raise LiteralError(f"value {text} is out of range for {name}")
        return cls(value)
    if INT_MIN <= value <= INT_MAX:
        return Int(value)
    if LONG_MIN <= value <= LONG_MAX:
        return Long(value)
    return BigInt(value)


_ESCAPES = {
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "f": "\f",
    "r": "\r",
    '"': '"',
    "'": "'",
    "\\": "\\",
    "$": "$",
    "/": "/",
}
_ESCAPE_RE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-3]?[0-7]{1,2}|.|\n)", re.S)


def is_gstring(token_text: str) -> bool:
    """Whether a double-quoted string interpolates (`"${x}"`): those are Groovy GStrings,
    which would evaluate code, so the interpreter rejects them. A lone `$` (as in Java class
    names `Outer$Inner`) is kept literally, as GremlinLang does."""
    if not token_text.startswith('"'):
        return False
    return re.search(r"(?<!\\)(?:\\\\)*\$\{", token_text) is not None


def string(token_text: str) -> str:
    """Decodes a STRING token: strips the quotes (one or three) and applies escapes."""
    quote = 3 if token_text[:3] in ("'''", '"""') else 1
    body = token_text[quote:-quote]

    def repl(m: re.Match[str]) -> str:
        esc = m.group(1)
        if esc[0] == "u":
            return chr(int(esc.lstrip("u"), 16))
        if esc[0].isdigit():
            return chr(int(esc, 8))
        if esc == "\n":  # backslash-newline continues the line
            return ""
        if esc in _ESCAPES:
            return _ESCAPES[esc]
        raise LiteralError(f"invalid escape sequence '\\{esc}' in string literal")

    if "\\" not in body:
        return body
    text = _ESCAPE_RE.sub(repl, body)
    return _join_surrogates(text) if _SURROGATE_RE.search(text) else text


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _join_surrogates(text: str) -> str:
    """Java strings are UTF-16, so `'\\ud83d\\ude00'` is one character written as two escapes:
    join such pairs. A lone surrogate is no character at all; no JSON or GraphBinary answer
    could carry it, so the literal is refused here rather than failing at serialisation."""
    try:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        bad = _SURROGATE_RE.search(text)
        code = ord(bad.group()) if bad else 0
        raise LiteralError(f"invalid escape sequence '\\u{code:04x}' in string literal: "
                           "a lone UTF-16 surrogate is not a character") from None


def parse_datetime(text: str) -> _dt.datetime:
    """`datetime('2023-08-08T00:00:00Z')`: ISO-8601, timezone-aware UTC (naive means UTC)."""
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    try:
        value = _dt.datetime.fromisoformat(s)
    except ValueError as e:
        raise LiteralError(f"invalid datetime '{text}': {e}") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.UTC)
    return value.astimezone(_dt.UTC)


def parse_uuid(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise LiteralError(f"invalid UUID '{text}'") from None
