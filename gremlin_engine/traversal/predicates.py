"""`P` and `TextP`: Gremlin predicates as plain, inspectable values.

A predicate is an operator name plus its argument(s), so strategies and the runtime can
push it into SQL (`.op`, `.value`) and anything else can simply call `.test(v)`.
Comparisons follow TinkerPop's Comparability semantics (`compare.py`): values of different
kinds, NaN and nulls against non-nulls are *errors* that test as `False`; they never raise.

Connectives are predicates too: `P.eq(1).and_(P.gt(0))` is a `P` with op `"and"` and the
two children in `.value`. `negate()` gives the complementary predicate (TinkerPop's
`P.not`), which again tests `False` for incomparable values (an error stays an error).
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.traversal.compare import compare, equals
from gremlin_engine.traversal.regex import Regex, compile_pattern
from gremlin_engine.traversal.tokens import GType


def _cmp_op(accept: Callable[[int], bool]) -> Callable[[Any, Any], bool]:
    def test(v: Any, arg: Any) -> bool:
        c = compare(v, arg)
        return c is not None and accept(c)

    return test


def _within(v: Any, arg: Any) -> bool:
    return any(equals(v, x) for x in arg)


def _range(lo_ok: Callable[[int], bool], hi_ok: Callable[[int], bool]) -> Callable[[Any, Any], bool]:
    def test(v: Any, arg: Any) -> bool:
        lo, hi = compare(v, arg[0]), compare(v, arg[1])
        return lo is not None and hi is not None and lo_ok(lo) and hi_ok(hi)

    return test


def _outside(v: Any, arg: Any) -> bool:
    lo, hi = compare(v, arg[0]), compare(v, arg[1])
    return (lo is not None and lo < 0) or (hi is not None and hi > 0)


def _not_inside(v: Any, arg: Any) -> bool:
    lo, hi = compare(v, arg[0]), compare(v, arg[1])
    return (lo is not None and lo <= 0) or (hi is not None and hi >= 0)


def _not_between(v: Any, arg: Any) -> bool:
    lo, hi = compare(v, arg[0]), compare(v, arg[1])
    return (lo is not None and lo < 0) or (hi is not None and hi >= 0)


def _text(fn: Callable[[str, Any], bool], negated: bool) -> Callable[[Any, Any], bool]:
    def test(v: Any, arg: Any) -> bool:
        if not isinstance(v, str) or not isinstance(arg, str | Regex):
            return False  # TextP on a non-string is an error, i.e. filtered out
        return fn(v, arg) != negated

    return test


def _type_matches(v: Any, t: GType) -> bool:
    jt = num.java_type(v)
    checks: dict[GType, Callable[[Any], bool]] = {
        GType.NULL: lambda x: x is None,
        GType.BOOLEAN: lambda x: isinstance(x, bool),
        GType.NUMBER: lambda x: jt is not None,
        GType.BYTE: lambda x: jt is num.Byte,
        GType.SHORT: lambda x: jt is num.Short,
        GType.INT: lambda x: jt is num.Int,
        GType.LONG: lambda x: jt is num.Long,
        GType.BIGINT: lambda x: jt is num.BigInt,
        GType.FLOAT: lambda x: jt is num.Float,
        GType.DOUBLE: lambda x: jt is float,
        GType.BIGDECIMAL: lambda x: jt is decimal.Decimal,
        GType.STRING: lambda x: isinstance(x, str),
        GType.CHAR: lambda x: False,  # Python has no char type
        GType.UUID: lambda x: isinstance(x, uuid.UUID),
        GType.DATETIME: lambda x: isinstance(x, datetime.datetime),
        GType.DURATION: lambda x: isinstance(x, datetime.timedelta),
        GType.BINARY: lambda x: isinstance(x, bytes | bytearray),
        GType.LIST: lambda x: isinstance(x, list | tuple) and type(x).__name__ != "BulkSet",
        GType.SET: lambda x: isinstance(x, set | frozenset) or type(x).__name__ == "BulkSet",
        GType.MAP: lambda x: isinstance(x, Mapping) and type(x).__name__ != "Tree",
        GType.TREE: lambda x: type(x).__name__ == "Tree",
        GType.PATH: lambda x: isinstance(x, Path),
        GType.VERTEX: lambda x: isinstance(x, Vertex),
        GType.EDGE: lambda x: isinstance(x, Edge),
        GType.VPROPERTY: lambda x: isinstance(x, VertexProperty),
        GType.PROPERTY: lambda x: isinstance(x, Property),
        GType.GRAPH: lambda x: type(x).__name__ == "Subgraph",
    }
    return checks[t](v)


# op -> (test(value, arg), negated op)
_OPS: dict[str, tuple[Callable[[Any, Any], bool], str]] = {
    "eq": (equals, "neq"),
    "neq": (lambda v, a: not equals(v, a), "eq"),
    "lt": (_cmp_op(lambda c: c < 0), "gte"),
    "lte": (_cmp_op(lambda c: c <= 0), "gt"),
    "gt": (_cmp_op(lambda c: c > 0), "lte"),
    "gte": (_cmp_op(lambda c: c >= 0), "lt"),
    "within": (_within, "without"),
    "without": (lambda v, a: not _within(v, a), "within"),
    "inside": (_range(lambda c: c > 0, lambda c: c < 0), "notInside"),
    "notInside": (_not_inside, "inside"),
    "between": (_range(lambda c: c >= 0, lambda c: c < 0), "notBetween"),
    "notBetween": (_not_between, "between"),
    "outside": (_outside, "notOutside"),
    "notOutside": (_range(lambda c: c >= 0, lambda c: c <= 0), "outside"),
    "typeOf": (lambda v, a: _type_matches(v, a), "notTypeOf"),
    "notTypeOf": (lambda v, a: not _type_matches(v, a), "typeOf"),
    "containing": (_text(lambda s, a: a in s, False), "notContaining"),
    "notContaining": (_text(lambda s, a: a in s, True), "containing"),
    "startingWith": (_text(lambda s, a: s.startswith(a), False), "notStartingWith"),
    "notStartingWith": (_text(lambda s, a: s.startswith(a), True), "startingWith"),
    "endingWith": (_text(lambda s, a: s.endswith(a), False), "notEndingWith"),
    "notEndingWith": (_text(lambda s, a: s.endswith(a), True), "endingWith"),
    "regex": (_text(lambda s, a: a.search(s), False), "notRegex"),
    "notRegex": (_text(lambda s, a: a.search(s), True), "regex"),
}
_TEXT_OPS = {"containing", "notContaining", "startingWith", "notStartingWith", "endingWith",
             "notEndingWith", "regex", "notRegex"}


class P:
    """A predicate: `op` is the Gremlin name (`gt`, `within`, `and`, ...), `value` its argument
    (a list for within/without, a (lo, hi) pair for ranges, child predicates for and/or)."""

    __slots__ = ("op", "value", "_pattern")
    family = "P"

    def __init__(self, op: str, value: Any) -> None:
        if op not in _OPS and op not in ("and", "or"):
            raise StepArgumentError(f"unknown predicate {self.family}.{op}")
        self.op = op
        self.value = value
        self._pattern = compile_pattern(value) if op in ("regex", "notRegex") and isinstance(value, str) else None

    def test(self, v: Any) -> bool:
        if self.op == "and":
            return all(p.test(v) for p in self.value)
        if self.op == "or":
            return any(p.test(v) for p in self.value)
        fn = _OPS[self.op][0]
        return fn(v, self._pattern if self._pattern is not None else self.value)

    __call__ = test

    def and_(self, other: P) -> P:
        return P("and", [*self._children("and"), other])

    def or_(self, other: P) -> P:
        return P("or", [*self._children("or"), other])

    def negate(self) -> P:
        if self.op == "and":
            return P("or", [p.negate() for p in self.value])
        if self.op == "or":
            return P("and", [p.negate() for p in self.value])
        return _make(self.op and _OPS[self.op][1], self.value)

    def map_values(self, fn: Callable[[Any], Any]) -> P:
        """The same predicate over transformed argument(s): `where(P.eq('a'))` resolves the
        step label 'a' to the labelled object before testing."""
        if self.op in ("and", "or"):
            return P(self.op, [p.map_values(fn) for p in self.value])
        if self.op in ("within", "without"):
            out: list[Any] = []
            for x in self.value:  # a label naming a collection (side-effect) contributes its items
                v = fn(x)
                out.extend(v) if isinstance(v, list | tuple | set | frozenset) else out.append(v)
            return _make(self.op, out)
        if self.op in ("inside", "notInside", "between", "notBetween", "outside",
                       "notOutside"):
            return _make(self.op, [fn(x) for x in self.value])
        if self.op in ("typeOf", "notTypeOf"):
            return self
        return _make(self.op, fn(self.value))

    def values(self) -> list[Any]:
        """Every argument value, flattened through connectives (for `where` label lookups)."""
        if self.op in ("and", "or"):
            return [x for p in self.value for x in p.values()]
        if isinstance(self.value, list | tuple):
            return list(self.value)
        return [self.value]

    def _children(self, op: str) -> list[P]:
        return list(self.value) if self.op == op else [self]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, P) and other.op == self.op and other.value == self.value

    def __hash__(self) -> int:
        return hash((self.op, repr(self.value)))

    def __repr__(self) -> str:
        if self.op in ("and", "or"):
            return f"{self.op}({', '.join(map(repr, self.value))})"
        return f"{self.op}({self.value!r})"


class TextP(P):
    __slots__ = ()
    family = "TextP"


def _make(op: str, value: Any) -> P:
    return TextP(op, value) if op in _TEXT_OPS else P(op, value)


_ARITY: dict[str, int] = {
    "eq": 1, "neq": 1, "lt": 1, "lte": 1, "gt": 1, "gte": 1, "inside": 2, "outside": 2, "between": 2,
    "typeOf": 1,
}


def _type_token(arg: Any) -> GType:
    if isinstance(arg, GType):
        return arg
    if isinstance(arg, str):
        for t in GType:
            if arg in (t.value, t.name):
                return t
    raise StepArgumentError(f"P.typeOf(): {arg!r} is not a registered type name")


def make_predicate(family: str, name: str, args: Iterable[Any]) -> P:
    """Builds `P.<name>(*args)` / `TextP.<name>(*args)` as the script interpreter and the
    bytecode decoder see them; raises `StepArgumentError` for an unknown name or arity."""
    args = tuple(args)
    if family == "TextP":
        if name not in _TEXT_OPS:
            raise StepArgumentError(f"unknown predicate TextP.{name}")
        if len(args) != 1 or not isinstance(args[0], str):
            raise StepArgumentError(f"TextP.{name}() takes one string argument")
        return TextP(name, args[0])
    if family != "P":
        raise StepArgumentError(f"unknown predicate family {family}")
    if name in ("within", "without"):
        if len(args) == 1 and isinstance(args[0], list | tuple | set | frozenset):
            return P(name, list(args[0]))
        return P(name, list(args))
    if name == "not":
        if len(args) != 1 or not isinstance(args[0], P):
            raise StepArgumentError("P.not() takes one predicate")
        return args[0].negate()
    if name in ("and", "or"):
        if len(args) < 2 or not all(isinstance(a, P) for a in args):
            raise StepArgumentError(f"P.{name}() takes predicates")
        return P(name, list(args))
    if name in _TEXT_OPS:  # gremlinpython sends TextP ops under P in some versions
        return make_predicate("TextP", name, args)
    if name not in _ARITY:
        raise StepArgumentError(f"unknown predicate P.{name}")
    if len(args) != _ARITY[name]:
        raise StepArgumentError(f"P.{name}() takes {_ARITY[name]} argument(s), got {len(args)}")
    if name == "typeOf":
        return P(name, _type_token(args[0]))
    return P(name, args[0] if _ARITY[name] == 1 else [args[0], args[1]])


