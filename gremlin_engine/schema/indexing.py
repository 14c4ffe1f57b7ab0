"""What an index label stores for an element, and what a lookup asks the store for.

Storage keeps index entries as `(index_id, value, elem_key)` and compares values itself
(equality for secondary/unique/search/shard, numeric order for range). This module decides
those values, once for writes (`entries_for`) and once for lookups (`lookup_value`), so the
two always agree:

* SECONDARY / UNIQUE / SHARD: one text value per element; the field values are coerced to
  their keys' types first and joined with `\\x00`, so `age=29` written as Int and queried as
  Long meet. A LIST/SET field yields one entry per element of the collection (HugeGraph
  indexes each value of a multi-valued property).
* RANGE_*: one number per element; DATE fields index epoch milliseconds.
* SEARCH: one entry per lower-cased word of the text (a simple analyzer instead of HugeGraph's
  configurable word segmenters); `textContains`-style lookups search for each word.

An element lacking any indexed field gets no entry (nullable keys are simply not indexed).
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from itertools import product
from typing import Any

from gremlin_engine.schema.model import IndexLabel, IndexType

_SEP = "\x00"
_WORD = re.compile(r"\w+", re.UNICODE)


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        f = float(value)
        return str(int(f)) if f.is_integer() else repr(f)
    if isinstance(value, dt.datetime):
        return str(date_millis(value))
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def date_millis(value: dt.datetime) -> int:
    if value.tzinfo is None:
        value = value.astimezone()
    return int(value.timestamp() * 1000)


def range_number(value: Any) -> int | float:
    """The number a range index stores for a (coerced) value."""
    if isinstance(value, dt.datetime):
        return date_millis(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return int(value)
    return float(value)


def words(text: str) -> list[str]:
    """The search analyzer: lower-cased word tokens, de-duplicated, first-occurrence order."""
    seen: dict[str, None] = {}
    for w in _WORD.findall(text.lower()):
        seen.setdefault(w, None)
    return list(seen)


def _as_values(v: Any) -> list[Any]:
    return list(v) if isinstance(v, (list, tuple, set, frozenset)) else [v]


def secondary_value(values: Sequence[Any]) -> str:
    """The stored text for one combination of field values (already coerced)."""
    return _SEP.join(_scalar_text(v) for v in values)


def entries_for(index: IndexLabel, props: Mapping[str, Any]) -> list[Any]:
    """The index values `index` holds for an element with properties `props` (name → coerced
    value, lists for multi-valued keys)."""
    if any(f not in props or props[f] is None for f in index.fields):
        return []
    t = index.index_type
    if t.is_range:
        return [range_number(v) for v in _as_values(props[index.fields[0]])]
    if t is IndexType.SEARCH:
        out: list[str] = []
        for v in _as_values(props[index.fields[0]]):
            out.extend(w for w in words(str(v)) if w not in out)
        return out
    combos = product(*(_as_values(props[f]) for f in index.fields))
    seen: dict[str, None] = {}
    for combo in combos:
        seen.setdefault(secondary_value(combo), None)
    return list(seen)


def index_entries_of(indexes: Iterable[IndexLabel], props: Mapping[str, Any]) -> list[tuple[int, Any]]:
    return [(il.id, value) for il in indexes for value in entries_for(il, props)]


def lookup_value(index: IndexLabel, values: Sequence[Any]) -> Any:
    """The stored value to look up for an equality query on `index` (values coerced, one per
    field, in field order)."""
    if index.index_type.is_range:
        return range_number(values[0])
    return secondary_value(values)
