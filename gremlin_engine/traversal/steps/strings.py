"""String steps (TinkerPop 3.7+): `toUpper`, `toLower`, `length`, `trim`, `lTrim`, `rTrim`,
`reverse`, `concat`, `split`, `substring`, `replace`, `asString`, each global or local
(local applies to every string in an incoming list). Null passes through as null.

`string_of` is Java's `toString()` of an engine value (`v[1]`, `{name=[marko]}`, `29`),
which `asString`, `concat` and `conjoin` must reproduce for the corpus to match.
"""

from __future__ import annotations

import datetime
import decimal
import math
from collections.abc import Callable, Mapping
from typing import Any

from gremlin_engine.errors import TraversalError
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Int, java_type
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import MapStep
from gremlin_engine.traversal.tokens import Scope
from gremlin_engine.traversal.traverser import Context, Traverser


def _double(x: float) -> str:
    """Java's Double.toString: `1.0`, `0.5`, `1.0E10`, `NaN`, `Infinity`."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == int(x) and abs(x) < 1e7:
        return f"{int(x)}.0"
    if 1e-3 <= abs(x) < 1e7:
        return repr(x)
    sign, digits, exp = decimal.Decimal(repr(x)).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    e10 = len(digits) + int(exp) - 1
    return f"{'-' if sign else ''}{ds[0]}.{ds[1:] or '0'}E{e10}"


def string_of(v: Any) -> str:
    """Java's `String.valueOf` for an engine value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    jt = java_type(v)
    if jt is not None:
        if isinstance(v, float):
            return _double(float(v))
        if isinstance(v, decimal.Decimal):
            return str(v)
        return str(int(v))
    if isinstance(v, Vertex):
        return f"v[{string_of(v.id)}]"
    if isinstance(v, Edge):
        return f"e[{string_of(v.id)}][{string_of(v.out_v.id)}-{v.label}->{string_of(v.in_v.id)}]"
    if isinstance(v, VertexProperty):
        return f"vp[{v.key}->{string_of(v.value)}]"
    if isinstance(v, Property):
        return f"p[{v.key}->{string_of(v.value)}]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{string_of(k)}={string_of(x)}" for k, x in v.items()) + "}"
    if isinstance(v, Path):
        return "path[" + ", ".join(string_of(x) for x in v.objects) + "]"
    if isinstance(v, list | tuple | set | frozenset):
        return "[" + ", ".join(string_of(x) for x in v) + "]"
    if isinstance(v, datetime.datetime):
        return v.isoformat().replace("+00:00", "Z")
    name = getattr(v, "name", None)
    if isinstance(name, str) and hasattr(type(v), "__members__"):
        return name.rstrip("_")
    return str(v)


class StringStep(MapStep):
    """One string function applied to the incoming string (or each one, with local scope)."""

    fn: Callable[..., Any]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.local = bool(args) and args[0] is Scope.local
        self.params = tuple(a for a in args if not isinstance(a, Scope))

    def _one(self, s: Any) -> Any:
        if s is None:
            return None
        if not isinstance(s, str):
            if self.local:
                raise TraversalError(f"The {self.name}(local) step can only take string or list of strings, encountered {s!r}")
            raise TraversalError(f"The {self.name}() step can only take string as argument, encountered {s!r}")
        return type(self).fn(s, *self.params)

    def map(self, t: Traverser, ctx: Context) -> Any:
        if self.local and isinstance(t.obj, list | tuple):
            return [self._one(s) for s in t.obj]
        return self._one(t.obj)


def _step(step_name: str, fn: Callable[..., Any]) -> type[StringStep]:
    return type(f"{step_name.title()}Step", (StringStep,), {"name": step_name, "fn": staticmethod(fn)})


def _substring(s: str, start: int, end: int | None = None) -> str:
    n = len(s)
    b = max(0, n + start if start < 0 else start)
    if end is None:
        return s[b:]
    e = n + end if end < 0 else min(end, n)
    return s[b:e] if e > b else ""


def _split(s: str, sep: str | None) -> list[str]:
    if sep is None:
        return s.split()
    if sep == "":
        return list(s)
    return s.split(sep)


def _reverse(v: Any) -> Any:
    if isinstance(v, list):
        return list(reversed(v))
    return v[::-1]


class ReverseStep(MapStep):
    name = "reverse"

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if isinstance(v, Path):
            return list(reversed(v.objects))
        if v is None or isinstance(v, str | list):
            return v if v is None else _reverse(v)
        return v


class ConcatStep(MapStep):
    """`concat('a', __.x, ...)`: appends strings (or child results) to the incoming string."""

    name = "concat"

    def map(self, t: Traverser, ctx: Context) -> Any:
        obj = None if self.is_start else t.obj
        if obj is not None and not isinstance(obj, str):
            raise TraversalError(f"String concat() can only take string as argument, encountered {string_of(obj)}")
        parts = [] if obj is None else [obj]
        for a in self.args:
            if isinstance(a, CompiledTraversal):
                v = first_result(a, t, ctx)
                a = None if v is NOTHING else v
            if a is not None:
                parts.append(string_of(a))
        if obj is None and not parts:
            return None
        return "".join(parts)


class AsStringStep(MapStep):
    name = "asString"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.local = bool(args) and args[0] is Scope.local

    @staticmethod
    def _one(v: Any) -> str:
        if v is None:
            raise TraversalError("Can't parse null as String.")
        return string_of(v)

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if self.local and isinstance(v, list | tuple | set):
            return [self._one(x) for x in v]
        return self._one(v)


STEPS: dict[str, tuple[Any, str]] = {
    "toUpper": (_step("toUpper", str.upper), "Scope?"),
    "toLower": (_step("toLower", str.lower), "Scope?"),
    "length": (_step("length", lambda s: Int(len(s))), "Scope?"),
    "trim": (_step("trim", str.strip), "Scope?"),
    "lTrim": (_step("lTrim", str.lstrip), "Scope?"),
    "rTrim": (_step("rTrim", str.rstrip), "Scope?"),
    "split": (_step("split", _split), "Scope? str/none"),
    "substring": (_step("substring", _substring), "Scope? int int?"),
    "replace": (_step("replace", lambda s, a, b: s if a is None else s.replace(a, b or "")), "Scope? str/none str/none"),
    "reverse": (ReverseStep, ""),
    "concat": (ConcatStep, "str/trav/none*"),
    "asString": (AsStringStep, "Scope?"),
}
