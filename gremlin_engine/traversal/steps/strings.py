"""String steps (TinkerPop 3.7+): `toUpper`, `toLower`, `length`, `trim`, `lTrim`, `rTrim`,
`reverse`, `concat`, `split`, `substring`, `replace`, `asString`, each global or local
(local applies to every string in an incoming list). Null passes through as null."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gremlin_engine.errors import TraversalError
from gremlin_engine.structure.numbers import Int
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import MapStep
from gremlin_engine.traversal.tokens import Scope
from gremlin_engine.traversal.traverser import Context, Traverser


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
            raise TraversalError(f"{self.name}() can only be applied to a string, not {s!r}")
        return type(self).fn(s, *self.params)

    def map(self, t: Traverser, ctx: Context) -> Any:
        if self.local or (isinstance(t.obj, list) and self.name != "reverse"):
            if not isinstance(t.obj, list):
                return self._one(t.obj)
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


def _reverse(v: Any) -> Any:
    if isinstance(v, list):
        return list(reversed(v))
    return v[::-1]


class ReverseStep(MapStep):
    name = "reverse"

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if v is None or isinstance(v, str | list):
            return v if v is None else _reverse(v)
        return v


class ConcatStep(MapStep):
    """`concat('a', __.x, ...)`: appends strings (or child results) to the incoming string."""

    name = "concat"

    def map(self, t: Traverser, ctx: Context) -> Any:
        parts = [] if t.obj is None or self.is_start else [t.obj]
        for a in self.args:
            if isinstance(a, CompiledTraversal):
                v = first_result(a, t, ctx)
                a = None if v is NOTHING else v
            parts.append(a)
        return "".join(str(p) for p in parts if p is not None)


class AsStringStep(MapStep):
    name = "asString"

    def map(self, t: Traverser, ctx: Context) -> Any:
        v = t.obj
        if v is None:
            raise TraversalError("asString() cannot be applied to null")
        if isinstance(v, bool):
            return "true" if v else "false"
        return str(v) if not isinstance(v, float) else repr(v)


STEPS: dict[str, tuple[Any, str]] = {
    "toUpper": (_step("toUpper", str.upper), "Scope?"),
    "toLower": (_step("toLower", str.lower), "Scope?"),
    "length": (_step("length", lambda s: Int(len(s))), "Scope?"),
    "trim": (_step("trim", str.strip), "Scope?"),
    "lTrim": (_step("lTrim", str.lstrip), "Scope?"),
    "rTrim": (_step("rTrim", str.rstrip), "Scope?"),
    "split": (_step("split", lambda s, sep: s.split(sep) if sep else list(s)), "Scope? str/none"),
    "substring": (_step("substring", _substring), "Scope? int int?"),
    "replace": (_step("replace", lambda s, a, b: s.replace(a, b)), "Scope? str str"),
    "reverse": (ReverseStep, ""),
    "concat": (ConcatStep, "str/trav/none*"),
    "asString": (AsStringStep, "Scope?"),
}
