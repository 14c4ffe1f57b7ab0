"""Gremlin's value semantics: equality, comparability and orderability (TinkerPop 3.6+).

Three different relations, because TinkerPop has three (features/semantics/*.feature):

* **equality** (`equals`): numbers are equal across Java types by value (`1b == 1.0d`),
  `null == null`, `NaN != NaN`, booleans are never numbers, lists/maps/sets compare
  element-wise with the same rule, elements by id.
* **comparability** (`compare`): `lt/gt/...` only between values of one comparable kind
  (numbers with numbers, strings with strings, ...). Anything else is an *error* that
  predicates turn into `False`, never an exception. `compare` returns None for it.
* **orderability** (`order_key` / `order_compare`): a total order across all types used by
  `order()`: null < boolean < number < date < string < UUID < vertex < edge < vertex
  property < property < path < set < list < map < anything else; NaN sorts after +Infinity.
"""

from __future__ import annotations

import datetime
import decimal
import functools
import math
import uuid
from collections.abc import Mapping
from typing import Any

from gremlin_engine.structure.elements import Edge, Element, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import is_number
from gremlin_engine.traversal.tokens import T


def _is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _kind(v: Any) -> int:
    """The orderability rank of a value's type."""
    if v is None:
        return 0
    if isinstance(v, bool):
        return 1
    if is_number(v):
        return 2
    if isinstance(v, datetime.datetime | datetime.date):
        return 3
    if isinstance(v, str) or isinstance(v, T):
        return 4
    if isinstance(v, uuid.UUID):
        return 5
    if isinstance(v, Vertex):
        return 6
    if isinstance(v, Edge):
        return 7
    if isinstance(v, VertexProperty):
        return 8
    if isinstance(v, Property):
        return 9
    if isinstance(v, Path):
        return 10
    if isinstance(v, set | frozenset):
        return 11
    if isinstance(v, list | tuple):
        return 12
    if isinstance(v, Mapping):
        return 13
    return 14


def _num_cmp(a: Any, b: Any) -> int:
    """Numeric comparison across Java types (Decimal vs float compares exactly)."""
    if isinstance(a, decimal.Decimal) != isinstance(b, decimal.Decimal):
        if isinstance(a, float) and math.isinf(a):
            return 1 if a > 0 else -1
        if isinstance(b, float) and math.isinf(b):
            return -1 if b > 0 else 1
        a, b = decimal.Decimal(a), decimal.Decimal(b)
    order: int = (a > b) - (a < b)
    return order


def equals(a: Any, b: Any) -> bool:
    """Gremlin equality (`P.eq`, `within`, `dedup` membership checks)."""
    if type(a) is str and type(b) is str:  # the usual test (a name), as the general path ends
        return a == b
    if a is None or b is None:
        return a is None and b is None
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return False
    if ka == 2:
        if _is_nan(a) or _is_nan(b):
            return False
        return _num_cmp(a, b) == 0
    if ka == 12:
        return len(a) == len(b) and all(equals(x, y) for x, y in zip(a, b, strict=True))
    if ka == 13:
        if len(a) != len(b):
            return False
        for k, v in a.items():
            match = [bk for bk in b if equals(bk, k)]
            if not match or not equals(v, b[match[0]]):
                return False
        return True
    if ka == 11:
        return len(a) == len(b) and all(any(equals(x, y) for y in b) for x in a)
    if ka == 10:
        return equals(list(a.objects), list(b.objects))
    try:
        return bool(a == b)
    except TypeError:
        return False


def compare(a: Any, b: Any) -> int | None:
    """Comparability: -1/0/1, or None when the values cannot be compared (an 'error')."""
    if a is None or b is None:
        return 0 if a is None and b is None else None
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return None
    if ka == 2:
        if _is_nan(a) or _is_nan(b):
            return None
        return _num_cmp(a, b)
    if ka in (1, 3, 4, 5):
        try:
            order: int = (a > b) - (a < b)
            return order
        except TypeError:
            return None
    # elements, collections and unknown types: only equality is defined
    return 0 if equals(a, b) else None


def order_compare(a: Any, b: Any) -> int:
    """Orderability: a total order over every value (used by `order()`)."""
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return -1 if ka < kb else 1
    if ka == 0:
        return 0
    if ka == 2:
        na, nb = _is_nan(a), _is_nan(b)
        if na or nb:
            return (na > nb) - (na < nb)
        return _num_cmp(a, b)
    if ka == 4 and (isinstance(a, T) or isinstance(b, T)):
        a, b = (x.value if isinstance(x, T) else x for x in (a, b))  # T.id orders as "id"
    if ka in (1, 3, 4, 5):
        try:
            order: int = (a > b) - (a < b)
            return order
        except TypeError:
            return _fallback(a, b)
    if ka in (6, 7):
        return order_compare(a.id, b.id)
    if ka == 8:
        return order_compare(a.id, b.id) or _seq_cmp([a.key, a.value], [b.key, b.value])
    if ka == 9:
        return _seq_cmp([a.key, a.value], [b.key, b.value])
    if ka == 10:
        return _seq_cmp(list(a.objects), list(b.objects))
    if ka == 11:
        return _seq_cmp(sorted(a, key=order_key), sorted(b, key=order_key))
    if ka == 12:
        return _seq_cmp(list(a), list(b))
    if ka == 13:
        ea = sorted(a.items(), key=lambda kv: order_key(kv[0]))
        eb = sorted(b.items(), key=lambda kv: order_key(kv[0]))
        for (xk, xv), (yk, yv) in zip(ea, eb, strict=False):
            c = order_compare(xk, yk) or order_compare(xv, yv)
            if c:
                return c
        return (len(ea) > len(eb)) - (len(ea) < len(eb))
    return _fallback(a, b)


def _seq_cmp(a: list[Any], b: list[Any]) -> int:
    for x, y in zip(a, b, strict=False):
        c = order_compare(x, y)
        if c:
            return c
    return (len(a) > len(b)) - (len(a) < len(b))


def _fallback(a: Any, b: Any) -> int:
    sa, sb = (type(a).__name__, str(a)), (type(b).__name__, str(b))
    return (sa > sb) - (sa < sb)


order_key = functools.cmp_to_key(order_compare)


def hashable(v: Any) -> Any:
    """A hashable stand-in that respects Gremlin equality (for dedup/group/groupCount keys).

    Numbers collapse to one representation so `1i` and `1L` group together; lists become
    tuples, maps frozensets of pairs. NaN maps to a marker so dedup keeps one NaN.
    """
    if v is None or isinstance(v, bool | str):
        return v
    if is_number(v):
        if _is_nan(v):
            return ("__nan__",)
        if isinstance(v, float) and math.isinf(v):
            return v
        if isinstance(v, decimal.Decimal | float) and v == int(v):
            return int(v)
        return v
    if isinstance(v, list | tuple):
        if any(isinstance(x, _COLLECTIONS) for x in v):
            return _nested_key(v, {})
        return ("__list__", tuple(hashable(x) for x in v))
    if isinstance(v, set | frozenset):
        return ("__set__", frozenset(hashable(x) for x in v))  # items are hashable: no lists
    if isinstance(v, Mapping):
        if any(isinstance(x, _COLLECTIONS) for x in v.values()):
            return _nested_key(v, {})
        return ("__map__", frozenset((hashable(k), hashable(x)) for k, x in v.items()))
    if isinstance(v, Path):
        if any(isinstance(x, _COLLECTIONS) for x in v.objects):
            return _nested_key(v, {})
        return ("__path__", tuple(hashable(x) for x in v.objects))
    if isinstance(v, Element):
        return v
    try:
        hash(v)
        return v
    except TypeError:
        return ("__repr__", repr(v))


_COLLECTIONS = (list, tuple, set, frozenset, Mapping, Path)


class _Key(tuple):  # type: ignore[type-arg]
    """A collection's key that hashes once: `hashable()` of a collection shared many times
    (`fold()` of `union(identity(), identity())`, nested n deep, holds 2n lists but 2**n
    leaves) reuses one key per distinct collection, and a plain tuple would rehash every
    shared key in full each time (Python does not cache tuple hashes). Equal to, and
    hashing as, the plain tuple of the same items."""

    def __hash__(self) -> int:
        h: int | None = self.__dict__.get("h")
        if h is None:
            h = self.__dict__["h"] = tuple.__hash__(self)
        return h


def _nested_key(v: Any, memo: dict[int, Any]) -> Any:
    """`hashable()` of a collection: each distinct collection inside keyed once (`memo`,
    by id; the collections are alive for the whole call, so their ids are unique)."""
    if not isinstance(v, _COLLECTIONS):
        return hashable(v)
    known = memo.get(id(v))
    if known is not None:
        return known
    if isinstance(v, list | tuple):
        key: Any = _Key(("__list__", _Key(_nested_key(x, memo) for x in v)))
    elif isinstance(v, set | frozenset):
        key = _Key(("__set__", frozenset(_nested_key(x, memo) for x in v)))
    elif isinstance(v, Mapping):
        key = _Key(("__map__", frozenset((_nested_key(k, memo), _nested_key(x, memo)) for k, x in v.items())))
    else:
        key = _Key(("__path__", _Key(_nested_key(x, memo) for x in v.objects)))
    memo[id(v)] = key
    return key
