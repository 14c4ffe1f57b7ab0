"""Filter steps: has-family, is, where, not/and/or, dedup, simplePath/cyclicPath, coin,
filter, discard, any/all/none.

`HasStep` keeps its conditions as `(key, P)` pairs, the same shape `GraphAccess` takes, so
the has-folding strategy can move them into `V()`/`E()` unchanged.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.traversal.compare import equals, hashable
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, produces, results
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.base import ByModulated, FilterStep, IdentityStep, Step
from gremlin_engine.traversal.tokens import Pop, Scope, T
from gremlin_engine.traversal.traverser import Context, Traverser, checked
from gremlin_engine.traversal.values import as_set


def as_predicate(value: Any) -> P:
    return value if isinstance(value, P) else P("eq", value)


def element_values(obj: Any, key: Any) -> list[Any]:
    """The values a has-container on `key` sees for `obj` (several for multi-properties)."""
    if key is T.id:
        return [obj.id] if isinstance(obj, Element | VertexProperty) else []
    if key is T.label:
        return [obj.label] if isinstance(obj, Element | VertexProperty) else []
    if key is T.key:
        return [obj.key] if isinstance(obj, VertexProperty | Property) else []
    if key is T.value:
        return [obj.value] if isinstance(obj, VertexProperty | Property) else []
    if isinstance(obj, Vertex):
        return [vp.value for vp in obj.properties(key)]
    if isinstance(obj, Edge):
        return [p.value for p in obj.properties(key)]
    if isinstance(obj, VertexProperty):
        return [obj.meta[key]] if key in obj.meta else []
    return []


class HasStep(FilterStep):
    """`has(key)`, `has(key, v|P)`, `has(label, key, v|P)`, `has(T.x, ...)`, `has(key, trav)`,
    and the `hasLabel/hasId/hasKey/hasValue` spellings, all as `(key, P)` conditions."""

    name = "has"
    loads = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.conditions: list[tuple[Any, P]] = []
        self.exists: list[Any] = []
        self.traversals: list[tuple[Any, CompiledTraversal]] = []
        self.never = False
        if len(args) == 1:
            if args[0] is None:
                self.never = True
            elif isinstance(args[0], T):
                self.conditions.append((args[0], P("neq", NOTHING)))  # every element has id/label
            else:
                self.exists.append(args[0])
        elif len(args) == 2:
            key, value = args
            if key is None:
                self.never = True
            elif isinstance(value, CompiledTraversal):
                self.traversals.append((key, value))
            else:
                self.conditions.append((key, as_predicate(value)))
        elif len(args) == 3:
            label, key, value = args
            self.conditions.append((T.label, as_predicate(label)))
            if key is None:
                self.never = True
            else:
                self.conditions.append((key, as_predicate(value)))
        else:
            raise StepArgumentError(f"has() takes 1 to 3 arguments, got {len(args)}")

    @property
    def foldable(self) -> bool:
        """Only plain `(key, P)` conditions can move into the source step."""
        return not (self.exists or self.traversals or self.never or self.labels)

    def keep(self, t: Traverser, ctx: Context) -> bool:
        if self.never:
            return False
        obj = t.obj
        for key, p in self.conditions:
            vals = element_values(obj, key)
            if not any(p.test(v) for v in vals):
                # an id given as a string finds the element ("2" is vertex 2), as TinkerGraph does
                if not (key is T.id and _string_id_match(p, vals)):
                    return False
        for key in self.exists:
            if not element_values(obj, key):
                return False
        for key, trav in self.traversals:
            if not any(produces(trav, t.split(v), ctx) for v in element_values(obj, key)):
                return False
        return True

    def __repr__(self) -> str:
        parts = [f"{k!r}, {p!r}" for k, p in self.conditions] + [repr(k) for k in self.exists]
        return f"has({'; '.join(parts)})" + "".join(f".as({lb!r})" for lb in self.labels)


def _has_many(key: Any, name: str, args: tuple[Any, ...]) -> HasStep:
    step = HasStep.__new__(HasStep)
    Step.__init__(step, *args)
    step.conditions, step.exists, step.traversals, step.never = [], [], [], False
    if len(args) == 1 and isinstance(args[0], P):
        step.conditions.append((key, args[0]))
    else:
        # one list argument is the list of values; a list among several is one value
        values = list(args[0]) if len(args) == 1 and isinstance(args[0], list | tuple | set) else list(args)
        if not values:
            step.never = True  # hasId([]) matches nothing
            step.name = name  # type: ignore[misc]
            return step
        if key is T.id:
            values = _id_forms(values)
        if all(v is None for v in values) and key in (T.key, T.value, T.label):
            step.never = key is not T.value
            if key is T.value:
                step.conditions.append((key, P("within", [None])))
        else:
            step.conditions.append((key, P("within", [v.id if isinstance(v, Element) else v for v in values])))
    step.name = name  # type: ignore[misc]
    return step


def _string_id_match(p: P, ids: list[Any]) -> bool:
    """Whether a predicate over string ids accepts a numeric id in its string form."""
    if not any(isinstance(x, str) for x in p.values()):
        return False
    return any(p.test(str(int(v))) for v in ids if isinstance(v, int) and not isinstance(v, bool))


def _id_forms(values: list[Any]) -> list[Any]:
    return [v.id if isinstance(v, Element) else v for v in values]


def has_label(*args: Any) -> HasStep:
    return _has_many(T.label, "hasLabel", args)


def has_id(*args: Any) -> HasStep:
    return _has_many(T.id, "hasId", args)


def has_key(*args: Any) -> HasStep:
    return _has_many(T.key, "hasKey", args)


def has_value(*args: Any) -> HasStep:
    return _has_many(T.value, "hasValue", args)


class HasNotStep(FilterStep):
    name = "hasNot"
    loads = True

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return not element_values(t.obj, self.args[0])


class IsStep(FilterStep):
    name = "is"

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.predicate = as_predicate(value)

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return self.predicate.test(t.obj)


def scope_of(args: tuple[Any, ...]) -> tuple[Scope, tuple[Any, ...]]:
    if args and isinstance(args[0], Scope):
        return args[0], args[1:]
    return Scope.global_, args


def labelled_value(t: Traverser, label: str, ctx: Context, pop: Pop = Pop.last) -> Any:
    """What `select(label)` sees: path labels first, then side-effects, then map keys."""
    found = t.labelled(label)
    if found:
        return found if pop is Pop.all else (found[0] if pop is Pop.first else found[-1])
    if label in ctx.side_effects:
        return ctx.side_effects[label]
    if isinstance(t.obj, Mapping) and label in t.obj:
        return t.obj[label]
    return NOTHING


class WherePredicateStep(ByModulated, FilterStep):
    """`where(P)` / `where('a', P)`: predicate arguments are step labels (or side-effect
    keys) resolved per traverser; `by()` modulators project both sides."""

    name = "where"
    requires_path = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.start = args[0] if len(args) == 2 else None
        self.predicate: P = args[-1]
        self.bys = []

    def keep(self, t: Traverser, ctx: Context) -> bool:
        n = 0

        def resolve(label: Any) -> Any:
            nonlocal n
            n += 1
            v = labelled_value(t, label, ctx) if isinstance(label, str) else label
            return v if v is NOTHING else self._by(n, v, ctx)

        if self.start is not None:
            left = labelled_value(t, self.start, ctx)
        else:
            left = t.obj
        if left is NOTHING:
            return False
        left = self._by(0, left, ctx)
        pred = self.predicate.map_values(resolve)
        if left is NOTHING or any(v is NOTHING for v in pred.values()):
            return False
        return pred.test(left)

    def _by(self, i: int, obj: Any, ctx: Context) -> Any:
        if not self.bys:
            return obj
        return self.by_at(i).value_of(obj, ctx)


class WhereTraversalStep(FilterStep):
    """`where(traversal)`: a leading `as('a')` starts the child at label a, a trailing
    `as('b')` requires the child's result to equal label b (TinkerPop's where-traversal)."""

    name = "where"
    requires_path = True

    def __init__(self, traversal: CompiledTraversal) -> None:
        super().__init__(traversal)
        self.traversal = traversal
        steps = traversal.steps
        self.start_label = steps[0].labels[0] if steps and steps[0].name == "identity" and steps[0].labels else None
        self.end_label = steps[-1].labels[-1] if steps and steps[-1].labels and (len(steps) > 1 or not self.start_label) else None
        if self.end_label is not None:
            steps[-1].labels = tuple(lb for lb in steps[-1].labels if lb != self.end_label)
        self.requires_path = bool(self.start_label or self.end_label)  # type: ignore[misc]

    def _connective(self) -> Any:
        """`where(and(as('a')..., or(as('b')...)))`: the connective's branches are match-style
        patterns over the path's labels (None when the child is an ordinary traversal)."""
        if not hasattr(self, "_pattern"):
            self._pattern = None
            steps = self.traversal.steps
            if len(steps) == 1 and isinstance(steps[0], AndStep | OrStep | NotStep):
                branches = [c.steps[0] for c in steps[0].args if c.steps]
                if any(isinstance(s, IdentityStep) and s.labels for s in branches):
                    from gremlin_engine.traversal.steps.match import FilterPattern

                    self._pattern = FilterPattern(steps[0])
        return self._pattern

    def keep(self, t: Traverser, ctx: Context) -> bool:
        pattern = self._connective()
        if pattern is not None:
            bindings = {}
            for lb in pattern.labels:
                v = labelled_value(t, lb, ctx)
                if v is not NOTHING:
                    bindings[lb] = v
            return bool(pattern.holds(bindings, ctx))
        start = t
        if self.start_label is not None:
            v = labelled_value(t, self.start_label, ctx)
            if v is NOTHING:
                return False
            start = t.replace(v)
        if self.end_label is None:
            return produces(self.traversal, start, ctx)
        want = labelled_value(t, self.end_label, ctx)
        return any(equals(r.obj, want) for r in _results(self.traversal, start, ctx))


def _results(child: CompiledTraversal, t: Traverser, ctx: Context) -> Iterator[Traverser]:
    return results(child, t, ctx)


class TraversalFilterStep(FilterStep):
    """`filter(traversal)`."""

    name = "filter"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return produces(self.args[0], t, ctx)


class NotStep(FilterStep):
    name = "not"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return not produces(self.args[0], t, ctx)


class AndStep(FilterStep):
    name = "and"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return all(produces(c, t, ctx) for c in self.args)


class OrStep(FilterStep):
    name = "or"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return any(produces(c, t, ctx) for c in self.args)


class DedupStep(ByModulated, Step):
    """`dedup()`, `dedup('a','b')` over labelled objects, `dedup(local)` within a collection."""

    name = "dedup"

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "by" and getattr(self, "bys", None):
            raise StepArgumentError("Dedup step can only have one by modulator")
        super().modulate(name, args)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope, rest = scope_of(args)
        self.dedup_labels = tuple(rest)
        self.bys = []
        self.requires_path = bool(rest)  # type: ignore[misc]

    def _key(self, t: Traverser, ctx: Context) -> Any:
        by = self.bys[0] if self.bys else None
        if self.dedup_labels:
            vals = [labelled_value(t, lb, ctx) for lb in self.dedup_labels]
            vals = [by.value_of(v, ctx) if by else v for v in vals]
            return tuple(hashable(v) for v in vals)
        v = by.value(t, ctx) if by else t.obj
        return hashable(v)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.scope is Scope.local:
            return (t.split(self._local(t.obj, ctx)) for t in checked(it, ctx))
        # inside repeat() the seen-set outlives one iteration (TinkerPop's step keeps it)
        seen: set[Any] = ctx.loop_state.setdefault(id(self), set()) if ctx.loop_state is not None else set()
        return self._global(it, ctx, seen)

    def _global(self, it: Iterator[Traverser], ctx: Context, seen: set[Any]) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            k = self._key(t, ctx)
            if k is NOTHING or (isinstance(k, tuple) and NOTHING in k):
                continue
            if k not in seen:
                seen.add(k)
                yield t.with_bulk(1) if t.bulk != 1 else t

    def _local(self, obj: Any, ctx: Context) -> Any:
        if isinstance(obj, Mapping) and self.dedup_labels:
            return obj
        items = list(obj.items()) if isinstance(obj, Mapping) else list(obj) if isinstance(obj, list | tuple | set) else [obj]
        seen: set[Any] = set()
        out = []
        by = self.bys[0] if self.bys else None
        for x in items:
            k = hashable(by.value_of(x, ctx) if by else x)
            if k not in seen:
                seen.add(k)
                out.append(x)
        if isinstance(obj, Mapping) or not isinstance(obj, list | tuple | set):
            return out

        return as_set(out)  # TinkerPop 3.8: dedup(local) of a collection is a (linked) set


class CoinStep(FilterStep):
    """`coin(p)`: keeps each traverser with probability p. Under SeedStrategy it draws as
    TinkerPop's CoinStep does (`seeded.py`): one `nextDouble()` per unit of a bulk below 100,
    kept when `p >= draw`, the bulk becoming the number kept; a bulk of 100 or more becomes
    `round(p * bulk)` without drawing."""

    name = "coin"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        p = float(self.args[0])
        return p >= 1.0 or (p > 0.0 and random.random() < p)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        rng = ctx.random_for(self)
        if rng is None:
            yield from super().process(it, ctx)
            return
        p = float(self.args[0])
        for t in self._stream(it, ctx):
            if t.bulk < 100:
                kept = sum(1 for _ in range(t.bulk) if p >= rng.next_double())
            else:
                kept = int(math.floor(p * t.bulk + 0.5))  # Java's Math.round
            if kept:
                yield t if kept == t.bulk else t.with_bulk(kept)


class DiscardStep(FilterStep):
    """`discard()` (3.8; `none()` without arguments in older versions): filters everything."""

    name = "discard"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        return False


class ListPredicateStep(FilterStep):
    """`any(P)`, `all(P)`, `none(P)` over a list-like incoming object."""

    name = "any"

    def __init__(self, pred: P) -> None:
        super().__init__(pred)
        self.predicate = pred

    def keep(self, t: Traverser, ctx: Context) -> bool:
        obj = t.obj
        if not isinstance(obj, list | tuple | set):
            return False
        results = [self.predicate.test(x) for x in obj]
        if self.name == "any":
            return any(results)
        if self.name == "all":
            return all(results)
        return not any(results)


class AnyStep(ListPredicateStep):
    name = "any"


class AllStep(ListPredicateStep):
    name = "all"


class NoneStep(ListPredicateStep):
    name = "none"


def none_step(*args: Any) -> Step:
    return NoneStep(args[0]) if args else DiscardStep()


def where_step(*args: Any) -> Step:
    if len(args) == 1 and isinstance(args[0], CompiledTraversal):
        return WhereTraversalStep(args[0])
    if args and isinstance(args[-1], P) and (len(args) == 1 or isinstance(args[0], str)):
        return WherePredicateStep(*args)
    raise StepArgumentError(f"where() does not accept {args!r}")
