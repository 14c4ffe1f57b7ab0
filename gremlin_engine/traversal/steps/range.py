"""Ranging steps: `range`, `limit`, `skip`, `tail`, `sample`, global and local.

Global ranges count bulk, stop pulling upstream once past the high bound (so an upstream
`V()` scan ends early), and expose `low`/`high` for the limit push-down strategy.
Local ranges slice the incoming collection and keep its type (3.8: a list stays a list,
a map a map); non-collections pass through unchanged.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure.numbers import is_number
from gremlin_engine.traversal.bulking import merge_traversers
from gremlin_engine.traversal.executor import NOTHING
from gremlin_engine.traversal.steps.base import ByModulated, Step
from gremlin_engine.traversal.steps.filter import scope_of
from gremlin_engine.traversal.tokens import Scope
from gremlin_engine.traversal.traverser import Context, Traverser, checked


def _int(step: str, v: Any) -> int:
    if not is_number(v) or int(v) != v:
        raise StepArgumentError(f"{step}() takes whole numbers, not {v!r}")
    return int(v)


def slice_local(obj: Any, low: int, high: int) -> Any:
    """`range(local, low, high)` on one object; high -1 means to the end."""
    if isinstance(obj, Mapping):
        items = list(obj.items())
        return dict(items[low:] if high == -1 else items[low:high])
    if isinstance(obj, list | tuple):
        return list(obj[low:] if high == -1 else obj[low:high])
    if isinstance(obj, set | frozenset):
        items = list(obj)
        return set(items[low:] if high == -1 else items[low:high])
    return obj


class RangeStep(Step):
    """`range([scope,] low, high)`; `limit`, `skip` build one with the right bounds."""

    name = "range"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope, rest = scope_of(args)
        if len(rest) != 2:
            raise StepArgumentError("range() takes [scope,] low, high")
        self.low, self.high = _int("range", rest[0]), _int("range", rest[1])
        if self.high != -1 and self.high < self.low:
            raise StepArgumentError(f"Not a legal range: [{self.low}, {self.high}]")

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                yield t.split(slice_local(t.obj, self.low, self.high))
            return
        seen = 0
        low, high = self.low, self.high
        if high != -1 and high <= low:
            return
        for t in checked(it, ctx):
            start, end = seen, seen + t.bulk
            seen = end
            keep_from, keep_to = max(start, low), end if high == -1 else min(end, high)
            if keep_to > keep_from:
                yield t if keep_to - keep_from == t.bulk else t.with_bulk(keep_to - keep_from)
            if high != -1 and seen >= high:
                return

    def __repr__(self) -> str:
        scope = "local, " if self.scope is Scope.local else ""
        return f"range({scope}{self.low}, {self.high})" + "".join(f".as({lb!r})" for lb in self.labels)


def limit_step(*args: Any) -> RangeStep:
    scope, rest = scope_of(args)
    if len(rest) != 1:
        raise StepArgumentError("limit() takes [scope,] n")
    step = RangeStep(scope, 0, _int("limit", rest[0]))
    return step


def skip_step(*args: Any) -> RangeStep:
    scope, rest = scope_of(args)
    if len(rest) != 1:
        raise StepArgumentError("skip() takes [scope,] n")
    return RangeStep(scope, _int("skip", rest[0]), -1)


class TailStep(Step):
    name = "tail"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope, rest = scope_of(args)
        self.n = _int("tail", rest[0]) if rest else 1

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        n = self.n
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                obj = t.obj
                size = len(obj) if isinstance(obj, Mapping | list | tuple | set) else 0
                yield t.split(slice_local(obj, max(0, size - n), -1) if size else obj)
            return
        window: deque[Traverser] = deque()
        total = 0
        for t in checked(it, ctx):
            window.append(t)
            total += t.bulk
            while window and total - window[0].bulk >= n:
                total -= window.popleft().bulk
        if window and total > n:
            first = window.popleft()
            window.appendleft(first.with_bulk(first.bulk - (total - n)))
        yield from window


def _share(weight: float, remaining: float) -> float:
    """`weight / remaining` as a Java double division (x/0 is infinite, 0/0 never matches)."""
    if remaining == 0:
        return math.inf if weight > 0 else -math.inf
    return weight / remaining


class SampleStep(ByModulated, Step):
    """`sample(n)`: n traversers chosen at random (weighted by a `by()` value if given)."""

    name = "sample"
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope, rest = scope_of(args)
        self.n = _int("sample", rest[0])
        self.bys = []

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        rng = ctx.random_for(self)
        if rng is not None:
            yield from (self._seeded_local(it, ctx, rng) if self.scope is Scope.local else
                        self._seeded_global(it, ctx, rng))
            return
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                obj = t.obj
                if isinstance(obj, list | tuple):
                    yield t.split(random.sample(list(obj), min(self.n, len(obj))))
                elif isinstance(obj, Mapping):
                    keys = random.sample(list(obj), min(self.n, len(obj)))
                    yield t.split({k: obj[k] for k in keys})
                else:
                    yield t
            return
        pool = list(checked(it, ctx))
        if self.bys:
            weights = [float(w) if is_number(w := self.bys[0].value(t, ctx)) else 0.0 for t in pool]
            chosen: list[Traverser] = []
            while pool and len(chosen) < self.n and any(weights):
                i = random.choices(range(len(pool)), weights=weights)[0]
                chosen.append(pool.pop(i))
                weights.pop(i)
            yield from chosen
            return
        yield from random.sample(pool, min(self.n, len(pool)))

    # ---- under SeedStrategy: TinkerPop's algorithms, drawing from java.util.Random ------

    def _seeded_local(self, it: Iterator[Traverser], ctx: Context, rng: Any) -> Iterator[Traverser]:
        """SampleLocalStep: while short of n, remove the element at `nextInt(remaining)`."""
        for t in checked(it, ctx):
            obj = t.obj
            if not isinstance(obj, list | tuple | Mapping) or len(obj) <= self.n:
                yield t
                continue
            items = list(obj.items()) if isinstance(obj, Mapping) else list(obj)
            picked = [items.pop(rng.next_int(len(items))) for _ in range(self.n)]
            yield t.split(dict(picked) if isinstance(obj, Mapping) else picked)

    def _seeded_global(self, it: Iterator[Traverser], ctx: Context, rng: Any) -> Iterator[Traverser]:
        """SampleGlobalStep over its TraverserSet (equal traversers merged, bulks summed):
        each round walks the set in order, drawing `nextDouble()` once per unsampled unit
        against `weight / remaining weight` (the remainder dropping by the weight on a miss),
        and starts again from the top after each pick."""

        pool: list[Traverser] = []
        weights: list[float] = []
        for t in merge_traversers(checked(it, ctx), ctx):
            if not self.bys:
                w: Any = 1.0
            else:
                w = self.bys[0].value(t, ctx)
                if w is NOTHING:
                    continue
                if not is_number(w):
                    raise StepArgumentError(f"Traverser {t.obj!r} does not evaluate to a number with sample()'s by()")
            pool.append(t)
            weights.append(float(w))
        if sum(t.bulk for t in pool) <= self.n:
            yield from pool
            return
        total = sum(w * t.bulk for w, t in zip(weights, pool, strict=True))
        picked: dict[int, int] = {}  # index into pool -> sampled bulk, in pick order

        def left() -> float:  # weight not yet sampled; Java would spin forever at zero
            return sum(w * (t.bulk - picked.get(i, 0)) for i, (w, t) in enumerate(zip(weights, pool, strict=True)))

        while sum(picked.values()) < self.n and left() > 0:
            ctx.check()
            remaining = total
            for i, t in enumerate(pool):
                have = picked.get(i, 0)
                if have >= t.bulk:
                    continue
                hit = False
                for unit in range(t.bulk - have):
                    if unit & 0xFFF == 0xFFF:
                        ctx.check()  # a big bulk draws once per unit, as in Java
                    if rng.next_double() <= _share(weights[i], remaining):
                        picked[i] = have + 1
                        hit = True
                        break
                    remaining -= weights[i]
                if hit or sum(picked.values()) >= self.n:
                    break
        for i, bulk in picked.items():
            yield pool[i].with_bulk(bulk)
