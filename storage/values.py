"""The stored form of an untyped value (an element id, an index value, a property body) on
each dialect, so that both index and compare it the same way.

SQLite keeps such values in columns without type affinity (`AnyValue`, declared ``BLOB``)
and compares them by its own rule: NULL < numbers (ints and reals compared numerically, so
``1 == 1.0``) < text (by UTF-8 bytes, the BINARY collation) < blobs (memcmp). PostgreSQL
has no untyped column, so there the same values are stored as ``BYTEA`` holding an
*order-preserving encoding* (`encode`): comparing two encodings byte by byte (PostgreSQL's
``bytea`` order is memcmp, then length) gives exactly SQLite's order of the two values, and
two values SQLite calls equal encode to the same bytes, so the unique indexes and equality
lookups agree too. On SQLite nothing changes: `AnyValue` is the untyped pass-through it
always was (no layout change, no migration, no cost).

Why not a library: the maintained order-preserving key codecs (FoundationDB's tuple layer,
CockroachDB's key encoding, ``lexicographic-encoding``) give ints and floats distinct type
codes (``1`` and ``1.0`` differ, and every int sorts before every float), which is not
SQLite's rule; this module is small and tested against SQLite's own ordering
(`tests/storage/test_values.py`).

The encoding (one tag byte, then the body):

* ``0x10`` numbers, then a class byte: ``0x01`` -inf, ``0x02`` negative, ``0x03`` zero
  (``0`` and ``-0.0`` alike, as SQLite), ``0x04`` positive, ``0x05`` +inf. A finite nonzero
  magnitude is written exactly as ``2**E * 1.f``: ``E + 1100`` in two bytes, then the 64 bits
  of ``f`` (every int64 and every double fits exactly), big-endian; a negative number's ten
  bytes are inverted so that a larger magnitude sorts first.
* ``0x20`` text: its UTF-8 bytes. ``0x30`` blob: its bytes. SQL NULL stays NULL, and a NaN
  is stored as NULL, as SQLite stores it.

Decoding gives back int, float, str or bytes. One difference from SQLite, the price of
``1 == 1.0`` being one key: a real number with an integral value below 2**63 in magnitude
comes back as an int (``1.0`` -> ``1``); SQLite remembers it was a real.
"""

from __future__ import annotations

import math
import struct
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine, UserDefinedType

from storage.errors import StoreError

NUMBER, TEXT, BLOB = 0x10, 0x20, 0x30
_NEG_INF, _NEG, _ZERO, _POS, _POS_INF = 1, 2, 3, 4, 5
_BIAS = 1100  # smallest double exponent is -1074: E + _BIAS is always positive
_BODY = struct.Struct(">HQ")
_INVERT = bytes.maketrans(bytes(range(256)), bytes(range(255, -1, -1)))
_INT64 = 1 << 63

_ZERO_KEY = bytes((NUMBER, _ZERO))
_INF_KEYS = {math.inf: bytes((NUMBER, _POS_INF)), -math.inf: bytes((NUMBER, _NEG_INF))}


def _magnitude(x: int | float) -> bytes:
    """The ten body bytes of a finite, positive number: exponent and 64 fraction bits."""
    if isinstance(x, int):
        e = x.bit_length() - 1
        frac = (x ^ (1 << e)) << (64 - e)
    else:
        m, exp = math.frexp(x)  # x = m * 2**exp, 0.5 <= m < 1, m exact in 53 bits
        e = exp - 1
        frac = (int(m * (1 << 53)) - (1 << 52)) << 12
    return _BODY.pack(e + _BIAS, frac)


def _number(x: int | float) -> bytes | None:
    if isinstance(x, float):
        if x != x:  # NaN: SQLite stores NULL
            return None
        if x in _INF_KEYS:
            return _INF_KEYS[x]
    elif not -_INT64 <= x < _INT64:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")
    if x == 0:
        return _ZERO_KEY
    if x > 0:
        return bytes((NUMBER, _POS)) + _magnitude(x)
    return bytes((NUMBER, _NEG)) + _magnitude(-x).translate(_INVERT)


def encode(value: Any) -> bytes | None:
    """The stored bytes of `value` (int, float, str, bytes-like; None stays None)."""
    t = type(value)
    if t is str:
        return b"\x20" + str.encode(value)
    if t is int or t is float or t is bool:
        return _number(int(value) if t is bool else value)
    if t is bytes:
        return b"\x30" + bytes(value)
    if value is None:
        return None
    if isinstance(value, bytes | bytearray | memoryview):
        return b"\x30" + bytes(value)
    if isinstance(value, str):
        return b"\x20" + str(value).encode()
    if isinstance(value, int | float):
        return _number(value)
    raise StoreError(f"a stored value must be a number, a string or bytes, not {t.__name__}")


def decode(data: bytes | memoryview | None) -> Any:
    """The value `encode` wrote (see the module docstring for integral reals)."""
    if data is None:
        return None
    data = bytes(data)
    tag = data[0]
    if tag == TEXT:
        return data[1:].decode()
    if tag == BLOB:
        return data[1:]
    if tag != NUMBER:
        raise StoreError(f"not a stored value: {data[:16]!r}")
    cls = data[1]
    if cls == _ZERO:
        return 0
    if cls == _POS_INF:
        return math.inf
    if cls == _NEG_INF:
        return -math.inf
    body = data[2:12] if cls == _POS else data[2:12].translate(_INVERT)
    biased, frac = _BODY.unpack(body)
    e = biased - _BIAS
    mantissa = (1 << 64) | frac  # 1.f scaled by 2**64
    shift = 64 - e
    if 0 <= e < (63 if cls == _POS else 64) and mantissa & ((1 << shift) - 1) == 0:
        n = mantissa >> shift  # integral and an int64: an int (see above)
        if cls == _POS or n <= _INT64:
            return n if cls == _POS else -n
    x = math.ldexp(float(mantissa), e - 64)
    return x if cls == _POS else -x


def encode_all(values: Any) -> list[bytes | None]:
    """`encode` of every value of an iterable, in order."""
    return [encode(v) for v in values]


class _Untyped(UserDefinedType[Any]):
    """SQLite: a column with no type affinity (declared ``BLOB``), values passed untouched."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "BLOB"


class _Bytea(UserDefinedType[Any]):
    """PostgreSQL: ``BYTEA`` holding `encode`'s bytes; results are decoded by the driver's
    loader (`dialects.register_loaders`), so that raw SQL gets them decoded as well."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "BYTEA"


class AnyValue(TypeDecorator[Any]):
    """A column holding an int, float, str or bytes as its dialect stores it (the module
    docstring): untouched on SQLite, `encode`d on PostgreSQL."""

    impl = _Untyped
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        return dialect.type_descriptor(_Bytea() if dialect.name == "postgresql" else _Untyped())

    def bind_processor(self, dialect: Dialect) -> Any:
        return encode if dialect.name == "postgresql" else None

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return encode(value) if dialect.name == "postgresql" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return value
