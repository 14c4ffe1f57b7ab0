"""How many bytes a result takes once a serializer writes it out (an estimate of its JSON).

Results may share values: `fold()` of `union(identity(), identity())` nested n deep holds 2n
lists in memory and 2**n items written out, and one string held by 1,024 list slots is 8 KiB
of pointers in memory but 1,024 copies on the wire (a 248-byte script answered 671 MB when
the bound counted items, a shared string once). `MAX_RESULT_BYTES` bounds what is written
out; this module weighs it without expanding anything: iteratively, each distinct container
and element weighed once (`memo`, by id) and counted as often as it is referenced, stopping
past the cap. It is the one rule for the interpreter's script results and for every result
the engine hands out (`runtime/materialize.load_results`: bytecode, REST, streams).

Weights follow compact JSON: a string its length plus quotes, a number 8, a container its
brackets plus its items (keys and values for a map) and separators, an element its id and
label plus its properties, a path its objects. Non-ASCII text and GraphSON type wrappers
write more than this counts; the bound is a guard against blow-ups, not an exact size.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine import limits
from gremlin_engine.errors import LimitExceeded
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Byte, Float, Int, Long, Short

#: what a number, a boolean, null or an unknown scalar weighs
SCALAR = 8
#: an element's fixed part (braces, "id", "label", "type", "properties" and their separators)
ELEMENT = 48
_TEXT = (str, bytes, bytearray)
_COMPOUND = (list, tuple, set, frozenset, dict, Path, Vertex, Edge, VertexProperty, Property)


_PLAIN_NUMBERS = frozenset({int, float, bool, type(None), Int, Long, Float, Byte, Short})
_INTEGERS = frozenset({int, Int, Long, Byte, Short})
_STR = {str}


def _leaf(v: Any) -> int:
    t = type(v)
    if t is str:
        return len(v) + 3
    if t in _PLAIN_NUMBERS:
        if t is float or t is bool or v is None or -(2**63) <= v < 2**64:
            return SCALAR
        return v.bit_length() // 3 + 1  # decimal digits, about
    if isinstance(v, _TEXT):
        return len(v) + 3
    if isinstance(v, int):
        return _leaf(int(v))
    return SCALAR


def _flat_element(v: Any) -> int | None:
    """A loaded or unloaded vertex or edge whose ids and property values are all scalars,
    weighed at once (the common case: a point lookup, a listing); None when something
    inside is compound (a list property, a meta-property), for the general walk."""
    props = v._props
    if type(v) is Edge:
        w = ELEMENT + 16 + _leaf(v.id) + len(v.label) + _leaf(v.out_v.id) + _leaf(v.in_v.id)
        if props is not None:
            for key, value in props.items():
                t = type(value)
                if t is str:
                    w += len(key) + len(value) + 8
                elif t in _PLAIN_NUMBERS:
                    w += len(key) + 5 + _leaf(value)
                elif isinstance(value, _COMPOUND):
                    return None
                else:
                    w += len(key) + 5 + _leaf(value)
        return w
    w = ELEMENT + _leaf(v.id) + len(v.label)
    if props is not None:
        for key, vps in props.items():
            w += 2 * len(key) + 8
            for vp in vps:
                value = vp.value
                t = type(value)
                if t is str:
                    w += 19 + len(value)
                elif vp.meta or isinstance(value, _COMPOUND):
                    return None
                else:
                    w += 16 + _leaf(value)
                ident = vp.id
                if ident is not None:
                    if isinstance(ident, _COMPOUND):
                        return None
                    w += _leaf(ident)
    return w


def _flat_sequence(v: Any) -> int | None:
    """The weight of a list, tuple or set of plain integers within 64 bits, or of strings
    (what `_leaf` gives each item, plus brackets and separators), found in C; None for any
    other kind of items. Why: a traverser's id listing (`{"vertices": [ids]}`) is such a
    list nested in a map, and the item by item walk took ~1.4 µs an id (two `isinstance`
    tests against the compound types and a `_leaf` call each), ~0.5 ms for 400 ids."""
    kinds = set(map(type, v))
    if kinds <= _INTEGERS:
        if not v or (-(2**63) <= min(v) and max(v) < 2**64):
            return 2 + len(v) + SCALAR * len(v)
    elif kinds == _STR:
        return 2 + len(v) + sum(map(len, v)) + 3 * len(v)
    return None


def _flat_map(v: dict[Any, Any], memo: dict[int, int], depth: int = 1) -> int | None:
    """The weight of a map with text keys whose values are scalars, flat sequences
    (`_flat_sequence`) or, `depth` levels down, such maps: what the walk gives it, without
    the walk's set-up; None for anything else. Why: every traverser answer is such a map
    (`{"vertices_size": n, "measure": {...}}`, `{"vertices": [ids], ...}`), and the walk
    cost it ~10 µs of a ~150 µs k-out. Each inner sequence or map is weighed once (`memo`,
    as the walk does): one list under every key of a large map is not weighed per key."""
    if not _STR.issuperset(map(type, v)):
        return None
    w = 2 + 5 * len(v) + sum(map(len, v))  # braces, separators, each key's text and quotes
    for value in v.values():
        t = type(value)
        if t is str or t in _PLAIN_NUMBERS:
            w += _leaf(value)
            continue
        inner = memo.get(id(value))
        if inner is None:
            if t is list or t is tuple:
                inner = _flat_sequence(value)
            elif t is dict and depth > 0:
                inner = _flat_map(value, memo, depth - 1)
            if inner is None:
                return None
            memo[id(value)] = inner
        w += inner
    return w


def _parts(v: Any, memo: dict[int, int]) -> tuple[int, list[Any]]:
    """(own weight, the values inside it) of a compound value."""
    if type(v) is dict:
        flat = _flat_map(v, memo)
        if flat is not None:
            return flat, []
    if isinstance(v, dict):
        items = [*v.keys(), *v.values()]
        return 2 + 2 * len(v), items
    if isinstance(v, list | tuple | set | frozenset):
        flat = _flat_sequence(v)
        if flat is not None:
            return flat, []
        return 2 + len(v), list(v)
    if isinstance(v, Vertex):
        inside: list[Any] = [v.id, v.label]
        if v._props is not None:
            for key, vps in v._props.items():
                inside.append(key)
                inside.extend(vps)
        return ELEMENT, inside
    if isinstance(v, Edge):
        inside = [v.id, v.label, v.out_v.id, v.in_v.id]
        if v._props is not None:
            for key, value in v._props.items():
                inside.append(key)
                inside.append(value)
        return ELEMENT + 16, inside
    if isinstance(v, VertexProperty):
        return 16, [v.id, v.key, v.value, *v.meta.keys(), *v.meta.values()]
    if isinstance(v, Property):
        return 8, [v.key, v.value]
    assert isinstance(v, Path)
    return 2 + len(v.objects), [*v.objects, *(label for labels in v.labels for label in labels)]


def written_size(value: Any, memo: dict[int, int], cap: int) -> int:
    """The bytes a serializer writes for `value` (see the module docstring), a value held N
    times counted N times; each distinct compound weighed once (`memo`, by id; the caller
    keeps them alive), iteratively (a result may nest deeper than Python recursion). Stops
    counting past `cap` (returns cap + 1)."""
    if not isinstance(value, _COMPOUND):
        return _leaf(value)
    if type(value) is dict:
        flat = memo.get(id(value))
        if flat is None:
            flat = _flat_map(value, memo)
        if flat is not None:
            memo[id(value)] = flat = flat if flat <= cap else cap + 1
            return flat
    if type(value) is Vertex or type(value) is Edge:
        known = memo.get(id(value))
        if known is None:
            known = _flat_element(value)
            if known is not None:
                memo[id(value)] = known
        if known is not None:
            return known
    stack: list[tuple[Any, bool]] = [(value, False)]
    opened: dict[int, list[Any]] = {}  # weighing started: its parts, met again it holds itself
    own: dict[int, int] = {}
    while stack:
        v, ready = stack.pop()
        k = id(v)
        if k in memo:
            continue
        if ready:
            total = own.pop(k)
            for item in opened.pop(k):
                # a compound holding itself never ends once written out
                total += memo.get(id(item), cap + 1) if isinstance(item, _COMPOUND) else _leaf(item)
                if total > cap:
                    break
            memo[k] = total if total <= cap else cap + 1  # a flat part's own weight may pass it too
            continue
        if k in opened:
            continue  # a cycle: its own ready marker finds no weight for it
        if type(v) is Vertex or type(v) is Edge:
            flat = _flat_element(v)
            if flat is not None:
                memo[k] = flat
                continue
        base, items = _parts(v, memo)
        opened[k] = items
        own[k] = base
        stack.append((v, True))
        stack.extend((item, False) for item in items if isinstance(item, _COMPOUND) and id(item) not in memo)
    return memo[id(value)]


def check_result_size(values: Iterable[Any], kinds: set[type] | None = None) -> None:
    """Refuses results that written out take more than `MAX_RESULT_BYTES`, naming the limit:
    the one rule for a script's results (the interpreter) and every result the engine hands
    out (`runtime/materialize.load_results`). `kinds`: the types in `values`, when the caller
    has them."""
    limit = limits.MAX_RESULT_BYTES
    if not limit:
        return
    if type(values) is list and values:
        # the common listings, weighed in C: ids (integers within 64 bits weigh SCALAR) or
        # strings (their length and quotes), one separator each
        if kinds is None:
            kinds = set(map(type, values))
        if kinds <= _INTEGERS:
            if -(2**63) <= min(values) and max(values) < 2**64 and (SCALAR + 1) * len(values) <= limit:
                return
        elif kinds == _STR and sum(map(len, values)) + 4 * len(values) <= limit:
            return
    memo: dict[int, int] = {}
    total = 0
    for item in values:
        t = type(item)
        if t is Vertex or t is Edge:  # a listing's elements: weighed without the walk's set-up
            w = _flat_element(item)
            total += (written_size(item, memo, limit) if w is None else w) + 1
        elif t is str:
            total += len(item) + 4
        else:
            total += written_size(item, memo, limit) + 1
        if total > limit:
            raise LimitExceeded(
                "the results are too large to send: written out they take more than "
                f"MAX_RESULT_BYTES ({limit:,} bytes; HUGELITE_MAX_RESULT_MB), counting a value "
                "shared N times N times"
            )
