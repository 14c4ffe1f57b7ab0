"""HugeGraph's batch-update strategies (`PUT .../vertices/batch`, `.../edges/batch`).

When a batch update meets an element that already exists (or the same element twice in one
request), each property named in `update_strategies` merges the old value with the new one:

======================  ==========================================================
SUM                     numbers added
BIGGER / SMALLER        the larger / smaller number or date kept
UNION / INTERSECTION    set (or list) union / intersection
APPEND                  list elements appended
ELIMINATE               list or set elements removed
OVERRIDE                the new value wins
======================  ==========================================================

For every strategy an absent (null) new value keeps the old one; a property with no strategy
is simply what the new element says, null included (the element is rewritten whole). Values
arrive already coerced to their property key's type, so a type clash here is a wrong
strategy for the key, reported with HugeGraph's message.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema.coercion import java_class_name
from gremlin_engine.traversal.compare import equals

NAMES = ("SUM", "BIGGER", "SMALLER", "UNION", "INTERSECTION", "APPEND", "ELIMINATE", "OVERRIDE")


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float | decimal.Decimal) and not isinstance(v, bool)


def _type_error(strategy: str, expect: str, old: Any, new: Any) -> IllegalArgument:
    return IllegalArgument(
        f"Property type must be {expect} for strategy {strategy}, "
        f"but got type {java_class_name(old)}, {java_class_name(new)}"
    )


def _numbers(strategy: str, old: Any, new: Any) -> None:
    if not (_is_number(old) and _is_number(new)):
        raise _type_error(strategy, "Number", old, new)


def _comparable(strategy: str, old: Any, new: Any) -> None:
    dates = isinstance(old, dt.datetime) and isinstance(new, dt.datetime)
    if not dates and not (_is_number(old) and _is_number(new)):
        raise _type_error(strategy, "Date or Number", old, new)


def _collections(strategy: str, old: Any, new: Any) -> None:
    if not (isinstance(old, list) and isinstance(new, list)):
        raise _type_error(strategy, "Set or List", old, new)


def _sum(old: Any, new: Any) -> Any:
    _numbers("SUM", old, new)
    return old + new


def _bigger(old: Any, new: Any) -> Any:
    _comparable("BIGGER", old, new)
    return new if new > old else old


def _smaller(old: Any, new: Any) -> Any:
    _comparable("SMALLER", old, new)
    return new if new < old else old


def _contains(items: list[Any], x: Any) -> bool:
    return any(equals(x, y) for y in items)


def _union(old: Any, new: Any) -> Any:
    _collections("UNION", old, new)
    out = list(old)
    for x in new:
        if not _contains(out, x):
            out.append(x)
    return out


def _intersection(old: Any, new: Any) -> Any:
    _collections("INTERSECTION", old, new)
    return [x for x in old if _contains(new, x)]


def _append(old: Any, new: Any) -> Any:
    _collections("APPEND", old, new)
    return [*old, *new]


def _eliminate(old: Any, new: Any) -> Any:
    _collections("ELIMINATE", old, new)
    return [x for x in old if not _contains(new, x)]


def _override(old: Any, new: Any) -> Any:
    return new


MERGE: dict[str, Callable[[Any, Any], Any]] = {
    "SUM": _sum,
    "BIGGER": _bigger,
    "SMALLER": _smaller,
    "UNION": _union,
    "INTERSECTION": _intersection,
    "APPEND": _append,
    "ELIMINATE": _eliminate,
    "OVERRIDE": _override,
}


def check_strategies(strategies: Mapping[str, Any]) -> dict[str, str]:
    """Validates `update_strategies` (names are HugeGraph's enum names, case-sensitive)."""
    if not strategies:
        raise IllegalArgument("Parameter 'update_strategies' can't be empty")
    out: dict[str, str] = {}
    for key, name in strategies.items():
        if name not in MERGE:
            raise IllegalArgument(
                f"Invalid update strategy '{name}' for property '{key}', expect one of [{', '.join(NAMES)}]"
            )
        out[str(key)] = str(name)
    return out


def merge_properties(old: Mapping[str, Any], new: dict[str, Any], strategies: Mapping[str, str]) -> dict[str, Any]:
    """The properties an updated element gets: `new`, with each strategy key merged with
    `old` (absent or null new values keep the old one). `new` is not changed."""
    out = dict(new)
    for key, strategy in strategies.items():
        before = old.get(key)
        if before is None:
            continue
        after = out.get(key)
        out[key] = before if after is None else MERGE[strategy](before, after)
    return out
