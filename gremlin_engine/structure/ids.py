"""The one id codec: every vertex and edge id is built, printed and parsed here.

HugeGraph clients see ids in three places (reference/hugegraph/ids-and-formats.md): as JSON
values in bodies (number or string), as JSON *literals* in URLs (`"1:marko"`, `123`,
`U"<uuid>"`), and spliced inside edge ids (`S1:marko>2>2>>S2:lop`). Keeping all of that in
one module is what lets the engine, the REST layer and the Gremlin layer agree on an id.

In-engine id values:

=================  ==========================  ==========================================
strategy           Python value                storage `id` column
=================  ==========================  ==========================================
PRIMARY_KEY        ``str`` (``"1:marko"``)      text
AUTOMATIC          ``Long``                     integer
CUSTOMIZE_STRING   ``str``                      text
CUSTOMIZE_NUMBER   ``Long``                     integer
CUSTOMIZE_UUID     ``uuid.UUID``                16 bytes
edge (strict)      ``str`` (5-part edge id)     text
auto schema mode   as given: int→Long, str,     as on the left
                   UUID; generated ids Long
=================  ==========================  ==========================================

AUTOMATIC ids: HugeGraph uses snowflake longs. We use a per-graph increasing Long counter
(kept by the runtime in store metadata) instead: ids stay unique, increase with insertion
order and are short, which is all clients may rely on; a snowflake's clock bits buy nothing
for a single-process store.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import re
import struct
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.structure.elements import Element
from gremlin_engine.structure.numbers import LONG_MAX, LONG_MIN, Float, Long

MAX_VERTEX_ID_BYTES = 16384

# ---------------------------------------------------------------------------------------
# LongEncoding: the sortable base-64 number encoding used in primary-key and sort-key ids
# ---------------------------------------------------------------------------------------

_B64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}
_LEN = "0123456789ABCDEF"
_LONG_MIN = -(1 << 63)
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


def _to_signed(bits: int, width: int) -> int:
    return bits - (1 << width) if bits >= 1 << (width - 1) else bits


def sortable_bits(value: Any, data_type: str | None = None) -> int:
    """The signed long whose order equals the value's order (Java's NumericUtil).

    Floats use IEEE bits with the magnitude bits flipped for negatives; FLOAT keys use the
    32-bit form, DOUBLE keys (and plain Python floats) the 64-bit form; dates epoch millis."""
    dt = (data_type or "").upper()
    if isinstance(value, _dt.datetime):
        return date_to_millis(value)
    if isinstance(value, bool):
        raise IllegalArgument(f"Can't encode boolean {value!r} as a number")
    if isinstance(value, float | decimal.Decimal) or dt in ("FLOAT", "DOUBLE"):
        if dt == "FLOAT" or (not dt and isinstance(value, Float)):
            bits = _to_signed(struct.unpack(">I", struct.pack(">f", float(value)))[0], 32)
            return bits ^ ((bits >> 31) & 0x7FFFFFFF)
        bits = _to_signed(struct.unpack(">Q", struct.pack(">d", float(value)))[0], 64)
        return bits ^ ((bits >> 63) & 0x7FFFFFFFFFFFFFFF)
    return int(value)


def encode_sortable_long(n: int) -> str:
    """`LongEncoding.encodeSortable`: length-prefixed base 64, negatives prefixed with `0`."""
    neg = n < 0
    if neg:
        n -= _LONG_MIN  # n + 2^63: two's complement order
    digits = []
    while True:
        digits.append(_B64[n & 63])
        n >>= 6
        if n == 0:
            break
    body = "".join(reversed(digits))
    return ("0" if neg else "") + _LEN[len(body)] + body


def decode_sortable_long(text: str) -> int:
    neg = text.startswith("0")
    if neg:
        text = text[1:]
    if not text or text[0] not in _LEN or _LEN.index(text[0]) != len(text) - 1:
        raise IllegalArgument(f"Invalid sortable number encoding: '{text}'")
    n = 0
    for c in text[1:]:
        n = (n << 6) | _B64_INDEX[c]
    return n + _LONG_MIN if neg else n


def encode_number(value: Any, data_type: str | None = None) -> str:
    return encode_sortable_long(sortable_bits(value, data_type))


def date_to_millis(value: _dt.datetime) -> int:
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.UTC)
    return (value - _EPOCH) // _dt.timedelta(milliseconds=1)


def millis_to_date(ms: int) -> _dt.datetime:
    return _EPOCH + _dt.timedelta(milliseconds=ms)


# ---------------------------------------------------------------------------------------
# escaping (IdUtil.escape / unescape, escape char backtick)
# ---------------------------------------------------------------------------------------

_ESC = "`"


def escape_join(splitor: str, parts: Sequence[str]) -> str:
    """Joins parts with `splitor`, prefixing every splitor inside a part with a backtick."""
    joined = splitor.join(parts)
    if joined.count(splitor) == len(parts) - 1:  # no part holds one (every id of a batch write)
        return joined
    return splitor.join([p.replace(splitor, _ESC + splitor) if splitor in p else p for p in parts])


_SPLIT_CACHE: dict[str, re.Pattern[str]] = {}


def unescape_split(text: str, splitor: str) -> list[str]:
    """Splits on splitors not preceded by a backtick, then removes those escapes."""
    pattern = _SPLIT_CACHE.get(splitor)
    if pattern is None:
        pattern = _SPLIT_CACHE[splitor] = re.compile(f"(?<!{re.escape(_ESC)}){re.escape(splitor)}")
    return [p.replace(_ESC + splitor, splitor) for p in pattern.split(text)]


# ---------------------------------------------------------------------------------------
# primary-key ids and sort values
# ---------------------------------------------------------------------------------------

_NUMERIC_TYPES = {"BYTE", "INT", "LONG", "FLOAT", "DOUBLE", "DATE"}


def encode_key_value(value: Any, data_type: str | None = None) -> str:
    """One primary-key or sort-key value as it appears inside an id (`encodeValue`)."""
    if type(value) is str and data_type == "TEXT" and value and value[0] > "\u0003":
        return value  # the usual primary key: a plain text, as the general case below gives it
    dt = (data_type or "").upper()
    if isinstance(value, str) and dt in ("", "TEXT"):
        if not value:
            raise IllegalArgument("The value of primary key can't be empty")
        if "\u0000" <= value[0] <= "\u0003":
            raise IllegalArgument(f"Illegal leading char '\\u{ord(value[0])}' in index property: '{value}'")
        return value
    if dt in _NUMERIC_TYPES or (
        not dt and not isinstance(value, bool) and isinstance(value, int | float | decimal.Decimal | _dt.datetime)
    ):
        return encode_number(value, dt or None)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def primary_key_name(values: list[tuple[Any, str | None]]) -> str:
    """`<v1>!<v2>...` from (value, data type) pairs in primary-key order."""
    return escape_join("!", [encode_key_value(v, t) for v, t in values])


def primary_key_id(label_id: int, values: list[tuple[Any, str | None]]) -> str:
    """`<label id>:<primary values>`, e.g. `1:marko`, `2:ripple!java`, `3:1T`."""
    if len(values) == 1:  # one primary key (the usual label): nothing to escape in most values
        part = encode_key_value(*values[0])
        if "!" not in part and ":" not in part:
            return f"{int(label_id)}:{part}"
    return escape_join(":", [str(int(label_id)), primary_key_name(values)])


def parse_primary_key_id(text: str) -> tuple[int, list[str]]:
    """(label id, encoded primary values) of a PRIMARY_KEY id; IllegalArgument otherwise."""
    parts = unescape_split(text, ":")
    if len(parts) != 2:
        raise IllegalArgument(f"Invalid primary key id: '{text}'")
    try:
        label_id = int(parts[0])
    except ValueError:
        raise IllegalArgument(f"Invalid primary key id: '{text}'") from None
    return label_id, unescape_split(parts[1], "!")


# ---------------------------------------------------------------------------------------
# edge ids: <P><source> > <label id> > <sub label id> > <sort values> > <P><target>
# ---------------------------------------------------------------------------------------


def id_prefix(vid: Any) -> str:
    if isinstance(vid, uuid.UUID):
        return "U"
    if isinstance(vid, int) and not isinstance(vid, bool):
        return "L"
    if isinstance(vid, str):
        return "S"
    raise IllegalArgument(f"Invalid vertex id type {type(vid).__name__}: {vid!r}")


def _prefixed(vid: Any) -> str:
    if type(vid) is str:
        return "S" + vid
    prefix = id_prefix(vid)
    return prefix + (str(int(vid)) if prefix == "L" else str(vid))


def _unprefixed(text: str, whole: str) -> Any:
    kind, body = text[:1], text[1:]
    try:
        if kind == "S":
            return body
        if kind == "L":
            return Long(int(body))
        if kind == "U":
            return uuid.UUID(body)
    except ValueError:
        pass
    raise NotFound(f"Invalid format of edge id '{whole}'")


@dataclass(frozen=True)
class EdgeId:
    """The parts of a HugeGraph edge id; `source` is always the OUT vertex."""

    source: Any
    label_id: int
    sub_label_id: int
    sort_values: str
    target: Any

    def __str__(self) -> str:
        return format_edge_id(self.source, self.label_id, self.sub_label_id, self.sort_values, self.target)


def format_edge_id(source: Any, label_id: int, sub_label_id: int, sort_values: str, target: Any) -> str:
    """The 1.5 five-part external form: `S1:marko>2>2>>S2:lop`."""
    if type(source) is str and type(target) is str:  # string ends (every REST batch): one format
        text = f"S{source}>{int(label_id)}>{int(sub_label_id)}>{sort_values}>S{target}"
        if text.count(">") == 4:  # no part to escape
            return text
    return escape_join(
        ">", [_prefixed(source), str(int(label_id)), str(int(sub_label_id)), sort_values, _prefixed(target)]
    )


def parse_edge_id(text: str) -> EdgeId:
    """Parses the 5-part (external) or 6-part (directed, `owner>O|I>...`) edge id.

    Raises NotFound with HugeGraph's messages, which the REST layer turns into 404s."""
    parts = unescape_split(text, ">")
    if len(parts) == 6:
        owner, direction, label, sub, sort, other = parts
        if direction not in ("O", "I"):
            raise NotFound(f"Invalid format of edge id '{text}'")
        src, tgt = (owner, other) if direction == "O" else (other, owner)
    elif len(parts) == 5:
        src, label, sub, sort, tgt = parts
    else:
        raise NotFound(f"Edge id must be formatted as 5~6 parts, but got {len(parts)} parts: '{text}'")
    try:
        label_id, sub_id = int(label), int(sub)
    except ValueError:
        raise NotFound(f"Invalid format of edge id '{text}'") from None
    return EdgeId(_unprefixed(src, text), label_id, sub_id, sort, _unprefixed(tgt, text))


def canonical_edge_id(text: str) -> str | None:
    """The 5-part form of any parsable edge id string, or None when it is not one."""
    try:
        return str(parse_edge_id(text))
    except NotFound:
        return None


# ---------------------------------------------------------------------------------------
# JSON-literal ids (URL path and query parameters)
# ---------------------------------------------------------------------------------------


def parse_id_literal(text: str) -> Any:
    """`"1:marko"` → str, `123` → Long, `U"<uuid>"` → UUID; anything else is a 400."""
    bad = IllegalArgument(f"The vertex id must be formatted as Number/String/UUID, but got '{text}'")
    if text is None:
        raise bad
    raw = text.strip()
    if raw.startswith('U"'):
        try:
            inner = orjson.loads(raw[1:])
            if isinstance(inner, str):
                return parse_uuid(inner)
        except (orjson.JSONDecodeError, IllegalArgument):
            pass
        raise bad
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise bad from None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise bad
    if isinstance(value, str):
        if not value:
            raise IllegalArgument("The id can't be empty")
        return value
    return long_id(value)


def format_id_literal(vid: Any) -> str:
    """The inverse of `parse_id_literal` (for page tokens and messages)."""
    if isinstance(vid, uuid.UUID):
        return 'U"' + str(vid) + '"'
    return orjson.dumps(vid).decode()


def parse_uuid(value: Any) -> uuid.UUID:
    """A CUSTOMIZE_UUID id from a UUID or its 36-char dashed / 32-char hex string."""
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, str) and len(value) in (32, 36):
        try:
            return uuid.UUID(value)
        except ValueError:
            pass
    raise IllegalArgument(f"Invalid UUID string: {value}")


# ---------------------------------------------------------------------------------------
# user-supplied vertex ids per strategy, and the storage form of ids
# ---------------------------------------------------------------------------------------


def long_id(value: int) -> Long:
    """A number id as a Long: ids are Java longs (and SQLite INTEGERs), so a client's
    number past 64 bits is refused with a message, not carried to storage."""
    if not LONG_MIN <= value <= LONG_MAX:
        raise IllegalArgument(f"The id must be a number in the range of a 64-bit long, but got {int(value)}")
    return Long(value)


def customized_vertex_id(value: Any, strategy: str, label: str) -> Any:
    """Validates a client-given vertex id against the label's CUSTOMIZE_* strategy."""
    if strategy == "CUSTOMIZE_STRING":
        if not isinstance(value, str):
            raise IllegalArgument(f"Must customize vertex string id when id strategy is '{strategy}' for vertex label '{label}'")
        return check_id_length(value)
    if strategy == "CUSTOMIZE_NUMBER":
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalArgument(f"Must customize vertex number id when id strategy is '{strategy}' for vertex label '{label}'")
        return long_id(value)
    if strategy == "CUSTOMIZE_UUID":
        if not isinstance(value, uuid.UUID | str):
            raise IllegalArgument(f"Must customize vertex uuid id when id strategy is '{strategy}' for vertex label '{label}'")
        return parse_uuid(value)
    raise IllegalArgument(f"Can't customize vertex id when id strategy is '{strategy}' for vertex label '{label}'")


def check_id_length(vid: str) -> str:
    if not vid:
        raise IllegalArgument("The id can't be empty")
    n = len(vid.encode("utf-8"))
    if n > MAX_VERTEX_ID_BYTES:
        raise IllegalArgument(f"The max length of vertex id is {MAX_VERTEX_ID_BYTES}, but got {n} {{{vid}}}")
    return vid


def auto_mode_id(value: Any) -> Any:
    """A user id in auto (TinkerGraph-like) mode: ints become Long, str and UUID are kept."""
    if isinstance(value, bool):
        raise IllegalArgument(f"Unsupported id type Boolean: {value!r}")
    if isinstance(value, int):
        return long_id(value)
    if isinstance(value, str | uuid.UUID):
        return value
    raise IllegalArgument(f"Unsupported id type {type(value).__name__}: {value!r}")


def lookup_id(value: Any) -> Any:
    """Normalises an id given to `g.V(...)`/`g.E(...)` for a storage lookup; None if it can
    never match (floats, booleans...)."""
    ident = value.id if isinstance(value, Element) else value
    if isinstance(ident, bool):
        return None
    if isinstance(ident, int):
        return Long(ident) if LONG_MIN <= ident <= LONG_MAX else None  # past 64 bits: no stored id
    if isinstance(ident, str | uuid.UUID):
        return ident
    return None


def to_storage(vid: Any) -> Any:
    """int and str ids are stored as they are; UUIDs as their 16 bytes."""
    if isinstance(vid, uuid.UUID):
        return vid.bytes
    if isinstance(vid, int) and not isinstance(vid, bool):
        return int(vid)
    return vid


def from_storage(raw: Any) -> Any:
    if isinstance(raw, bytes | bytearray | memoryview):
        return uuid.UUID(bytes=bytes(raw))
    if isinstance(raw, int):
        return Long(raw)
    return raw
