"""List steps (TinkerPop 3.7+): `combine`, `merge`, `product`, `difference`, `intersect`,
`disjunct`, `conjoin`.

Each takes the incoming collection (a list, set, path or array; `merge` also a map) and
one argument: a constant collection or a child traversal whose first result is one.
Set-like results (`merge`, `difference`, `intersect`, `disjunct`) are Python sets when
every member is hashable, else a de-duplicated list (Gremlin equality decides duplicates
either way). The error messages follow TinkerPop's word for word: the corpus matches them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Path, Vertex
from gremlin_engine.structure.numbers import java_type
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import MapStep
from gremlin_engine.traversal.steps.strings import string_of
from gremlin_engine.traversal.traverser import Context, Traverser
from gremlin_engine.traversal.values import BulkSet, as_set


def java_type_name(obj: Any) -> str:
    """The Java class name TinkerPop's messages show for a value."""

    jt = java_type(obj)
    if jt is not None:
        return getattr(jt, "java_name", None) or ("Double" if jt is float else jt.__name__)
    if isinstance(obj, str):
        return "String"
    if isinstance(obj, bool):
        return "Boolean"
    if isinstance(obj, Mapping):
        return "LinkedHashMap"
    if isinstance(obj, list | tuple):
        return "ArrayList"
    if isinstance(obj, set | frozenset):
        return "LinkedHashSet"
    if isinstance(obj, Vertex):
        return "DetachedVertex"
    if isinstance(obj, Edge):
        return "DetachedEdge"
    return type(obj).__name__


def _iterable(obj: Any) -> bool:
    return isinstance(obj, list | tuple | set | frozenset | Path | BulkSet)


class ListStep(MapStep):
    """Checks and resolves the incoming collection and the argument; `combine_lists`
    does the step's own work."""

    accepts_map = False

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if not args or args[0] is None:
            raise StepArgumentError(f"Argument provided for {self.name} step can't be null")
        arg = args[0]
        if not isinstance(arg, CompiledTraversal) and not _iterable(arg) and not (self.accepts_map and isinstance(arg, Mapping)):
            raise StepArgumentError(
                f"{self.name} step can only take an array or an Iterable as an argument, encountered {java_type_name(arg)}"
            )
        self.arg = arg

    def _incoming(self, obj: Any) -> Any:
        if obj is None:
            raise TraversalError(f"Incoming traverser for {self.name} step can't be null")
        if _iterable(obj) or (self.accepts_map and isinstance(obj, Mapping)):
            return obj
        raise TraversalError(
            f"{self.name} step can only take an array or an Iterable type for incoming traversers, "
            f"encountered {java_type_name(obj)}"
        )

    def _argument(self, t: Traverser, ctx: Context, incoming: Any) -> Any:
        arg = self.arg
        if isinstance(arg, CompiledTraversal):
            value = first_result(arg, t, ctx)
            if value is NOTHING or value is None:
                raise TraversalError(f"traversal argument for {self.name} step must yield an iterable type, not null")
            if isinstance(incoming, Mapping):
                if not isinstance(value, Mapping):
                    raise TraversalError(
                        f"{self.name} step expected provided argument to evaluate to a Map, encountered {java_type_name(value)}"
                    )
                return value
            if not _iterable(value):
                raise TraversalError(
                    f"traversal argument for {self.name} step must yield an iterable type, encountered {java_type_name(value)}"
                )
            return value
        if isinstance(incoming, Mapping) and not isinstance(arg, Mapping):
            raise TraversalError(
                f"{self.name} step expected provided argument to evaluate to a Map, encountered {java_type_name(arg)}"
            )
        if not isinstance(incoming, Mapping) and isinstance(arg, Mapping):
            raise TraversalError("step type mismatch: expected argument to be Iterable but got Map")
        return arg

    def map(self, t: Traverser, ctx: Context) -> Any:
        incoming = self._incoming(t.obj)
        return self.combine_lists(incoming, self._argument(t, ctx, incoming))

    def combine_lists(self, a: Any, b: Any) -> Any:
        raise NotImplementedError


class CombineStep(ListStep):
    name = "combine"

    def combine_lists(self, a: Any, b: Any) -> Any:
        return list(a) + list(b)


class MergeStep(ListStep):
    """`merge`: set union of two collections, or two maps merged (the argument wins)."""

    name = "merge"
    accepts_map = True

    def combine_lists(self, a: Any, b: Any) -> Any:
        if isinstance(a, Mapping):
            return {**a, **b}
        return as_set([*a, *b])


class ProductStep(ListStep):
    name = "product"

    def combine_lists(self, a: Any, b: Any) -> Any:
        right = list(b)
        return [[x, y] for x in a for y in right]


class DifferenceStep(ListStep):
    name = "difference"

    def combine_lists(self, a: Any, b: Any) -> Any:
        drop = {hashable(x) for x in b}
        return as_set(x for x in a if hashable(x) not in drop)


class IntersectStep(ListStep):
    name = "intersect"

    def combine_lists(self, a: Any, b: Any) -> Any:
        keep = {hashable(x) for x in b}
        return as_set(x for x in a if hashable(x) in keep)


class DisjunctStep(ListStep):
    name = "disjunct"

    def combine_lists(self, a: Any, b: Any) -> Any:
        left, right = list(a), list(b)
        lk, rk = {hashable(x) for x in left}, {hashable(x) for x in right}
        return as_set([x for x in left if hashable(x) not in rk] + [x for x in right if hashable(x) not in lk])


class ConjoinStep(MapStep):
    """`conjoin(delimiter)`: the members' string forms joined; nulls are left out."""

    name = "conjoin"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if not args or args[0] is None:
            raise StepArgumentError("Argument provided for conjoin step can't be null")
        self.delimiter = str(args[0])

    def map(self, t: Traverser, ctx: Context) -> Any:
        obj = t.obj
        if obj is None:
            raise TraversalError("Incoming traverser for conjoin step can't be null")
        if not _iterable(obj):
            raise TraversalError(
                "conjoin step can only take an array or an Iterable type for incoming traversers, "
                f"encountered {java_type_name(obj)}"
            )
        return self.delimiter.join(string_of(x) for x in obj if x is not None)


STEPS: dict[str, tuple[Any, str]] = {
    "combine": (CombineStep, "any"),
    "merge": (MergeStep, "any"),
    "product": (ProductStep, "any"),
    "difference": (DifferenceStep, "any"),
    "intersect": (IntersectStep, "any"),
    "disjunct": (DisjunctStep, "any"),
    "conjoin": (ConjoinStep, "any"),
}
