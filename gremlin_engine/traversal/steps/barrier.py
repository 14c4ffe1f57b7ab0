"""Barrier steps: reducers (`count`, `sum`, `min`, `max`, `mean`, `fold`), `order`, `group`,
`groupCount`, `tree`, `barrier`.

Reducing barriers consume their whole input and emit one fresh traverser (empty input:
`count()` and `fold()` still emit, the numeric reducers emit nothing). Each reducer also
has a local form that reduces the collection inside one traverser. Numeric results keep
TinkerPop's Java typing: `count()` is Long, `sum` widens on overflow, `mean` is Double,
`min`/`max` of mixed numbers take the widest type.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from gremlin_engine.access import offers_property_values
from gremlin_engine.errors import TraversalError
from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Edge, Path, Vertex
from gremlin_engine.traversal.bulking import merge_traversers, normalize_sacks
from gremlin_engine.traversal.compare import compare, hashable, order_compare, order_key
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, execute
from gremlin_engine.traversal.operators import apply_operator, java_add
from gremlin_engine.traversal.seeded import hashmap_order
from gremlin_engine.traversal.steps.base import By, ByModulated, Step
from gremlin_engine.traversal.steps.flatmap import AdjacentStream
from gremlin_engine.traversal.tokens import Barrier, Column, Operator, Order, Scope
from gremlin_engine.traversal.traverser import Context, Traverser, batches, checked
from gremlin_engine.traversal.values import KeyMap, Tree


def _numbers(items: Iterable[Any], step: str) -> list[Any]:
    out = []
    for x in items:
        if x is None:
            continue
        if not num.is_number(x):
            raise TraversalError(f"{step}() can only be applied to numbers, not {x!r}")
        out.append(x)
    return out


def reduce_sum(items: Iterable[Any]) -> Any:
    vals = _numbers(items, "sum")
    if not vals:
        return NOTHING
    total = vals[0]
    for v in vals[1:]:
        total = java_add(total, v)
    return num.normalize(total)


def reduce_mean(items: Iterable[Any]) -> Any:
    vals = _numbers(items, "mean")
    if not vals:
        return NOTHING
    import decimal

    if all(isinstance(v, decimal.Decimal) for v in vals):
        return sum(vals) / len(vals)
    return float(sum(float(v) for v in vals)) / len(vals)


def reduce_extreme(items: Iterable[Any], sign: int) -> Any:
    best = NOTHING
    kinds = []
    for x in items:
        if x is None:
            continue
        if best is NOTHING:
            best = x
        else:
            c = compare(x, best)
            if c is None:
                c = order_compare(x, best)
            if c * sign > 0:
                best = x
        kinds.append(x)
    if best is not NOTHING and num.is_number(best) and all(num.is_number(k) for k in kinds):
        cls = num.java_type(best)
        for k in kinds:
            cls = num.promote(num.wrap(cls, best) if cls else best, k)
        return num.wrap(cls, best) if cls is not None else best
    return best


def _local_items(obj: Any) -> list[Any]:
    """What a `local` reducer (count, sum, min, max, mean) reads of one object: a map's
    values, a collection's members, a path's objects (TinkerPop's `Path` is an `Iterable`,
    and `count(local)` is its size), else the object itself."""
    if isinstance(obj, Mapping):
        return list(obj.values())
    if isinstance(obj, list | tuple | set | frozenset | Path):
        return list(obj)
    return [obj]


class ReducingStep(Step):
    """Base for count/sum/min/max/mean: `reduce(list of (obj, bulk))`."""

    empty_result: Any = NOTHING

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope = args[0] if args else Scope.global_

    def reduce(self, items: list[tuple[Any, int]]) -> Any:
        raise NotImplementedError

    def _reduce(self, items: list[tuple[Any, int]]) -> Any:
        r = self.reduce(items)
        if r is NOTHING and items and all(x is None for x, _ in items):
            return None  # only nulls seen: the numeric reducers give null, not nothing
        return r

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                r = self._reduce([(x, 1) for x in _local_items(t.obj)])
                if r is not NOTHING:
                    yield t.split(r)
            return
        items = [(t.obj, t.bulk) for t in checked(it, ctx)]
        r = self._reduce(items)
        if r is not NOTHING:
            yield ctx.new_traverser(r)


def _bulk_as(x: Any, bulk: int) -> Any:
    """The bulk as a number of x's own type, so x * bulk keeps x's Java type."""
    cls = num.java_type(x)
    if cls in (num.Byte, num.Short, num.Int):
        return num.Byte(1) if bulk == 1 else num.Int(bulk) if bulk <= num.INT_MAX else num.Long(bulk)
    return num.wrap(cls, bulk) if cls is not None else bulk


def _expand(items: list[tuple[Any, int]]) -> Iterator[Any]:
    for obj, bulk in items:
        for _ in range(bulk):
            yield obj


class CountStep(ReducingStep):
    name = "count"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        # `out().count()`: the number of neighbours, without building them (flatmap.py)
        if self.scope is not Scope.local and isinstance(it, AdjacentStream) and it.countable():
            yield ctx.new_traverser(num.Long(it.count_bulk()))
            return
        yield from super().process(it, ctx)

    def reduce(self, items: list[tuple[Any, int]]) -> Any:
        return num.Long(sum(b for _, b in items))


class SumStep(ReducingStep):
    name = "sum"

    def reduce(self, items: list[tuple[Any, int]]) -> Any:
        # a bulked number counts `bulk` times: add it multiplied (Java typing kept)
        return reduce_sum(x if b == 1 or not num.is_number(x) else apply_operator(Operator.mult, x, num.Long(b) if isinstance(x, num.Long) else _bulk_as(x, b)) for x, b in items)


class MeanStep(ReducingStep):
    name = "mean"

    def reduce(self, items: list[tuple[Any, int]]) -> Any:
        return reduce_mean(_expand(items))


class MinStep(ReducingStep):
    name = "min"

    def reduce(self, items: list[tuple[Any, int]]) -> Any:
        return reduce_extreme((o for o, _ in items), -1)


class MaxStep(ReducingStep):
    name = "max"

    def reduce(self, items: list[tuple[Any, int]]) -> Any:
        return reduce_extreme((o for o, _ in items), 1)


class FoldStep(Step):
    name = "fold"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if not self.args:
            yield ctx.new_traverser([o for t in checked(it, ctx) for o in [t.obj] * t.bulk])
            return
        seed, op = self.args
        acc = list(seed) if isinstance(seed, list) else seed
        for t in checked(it, ctx):
            for _ in range(t.bulk):
                acc = apply_operator(op, acc, t.obj)
        yield ctx.new_traverser(acc)


class OrderStep(ByModulated, Step):
    """`order([local]).by(...)...`; values a `by()` cannot produce are filtered out."""

    name = "order"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.scope = args[0] if args else Scope.global_
        self.bys = []

    def _sort(self, items: list[Any], value: Any, ctx: Context) -> list[Any]:
        bys = self.bys or [By()]
        keyed = []
        for x in items:
            ks = [value(b, x) for b in bys]
            if any(k is NOTHING for k in ks):
                continue
            keyed.append((ks, x))
        for i in reversed(range(len(bys))):
            order = bys[i].order or Order.asc
            if order is Order.shuffle:
                rng = ctx.random_for(self)
                if rng is None:
                    random.shuffle(keyed)
                else:  # java.util.Collections.shuffle(list, random)
                    for j in range(len(keyed) - 1, 0, -1):
                        k = rng.next_int(j + 1)
                        keyed[j], keyed[k] = keyed[k], keyed[j]
            else:
                def by_key(kx: tuple[list[Any], Any], i: int = i) -> Any:
                    return order_key(kx[0][i])

                keyed.sort(key=by_key, reverse=order is Order.desc)
        return [x for _, x in keyed]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.scope is Scope.local:
            for t in checked(it, ctx):
                yield t.split(self._local(t.obj, ctx))
            return
        batch = list(checked(it, ctx))
        if any(b.is_element_key() for b in self.bys):
            ctx.load(t.obj for t in batch)
        yield from self._sort(batch, lambda b, t: b.value(t, ctx), ctx)

    def _local(self, obj: Any, ctx: Context) -> Any:
        if isinstance(obj, Mapping):
            entries = self._sort(list(obj.items()), lambda b, kv: _entry_value(b, kv, ctx), ctx)
            return dict(entries)
        if isinstance(obj, list | tuple | set):
            return self._sort(list(obj), lambda b, x: b.value_of(x, ctx), ctx)
        return obj


def _entry_value(b: By, kv: tuple[Any, Any], ctx: Context) -> Any:
    if b.key is Column.keys:
        return kv[0]
    if b.key is Column.values:
        return kv[1]
    if b.key is None:
        return kv[0]
    return b.value_of(dict([kv]), ctx)


def map_key(k: Any) -> Any:
    """A map key as Python can hold it: lists become tuples, sets frozensets (their
    comparison form is unchanged: a tuple compares like the list)."""
    if isinstance(k, list | tuple):
        return tuple(map_key(x) for x in k)
    if isinstance(k, set | frozenset):
        return frozenset(map_key(x) for x in k)
    if isinstance(k, dict) and not isinstance(k, KeyMap):
        return KeyMap({map_key(x): v for x, v in k.items()})
    return k


class GroupStep(ByModulated, Step):
    """`group([sideEffectKey]).by(key).by(value)`.

    Values follow TinkerPop's rules: with no value `by()` the list of objects; `by('name')`
    or a token, the list of those values; `by(traversal)`, the traversal's *first* result
    over the group's traversers (so `by(count())` is a number, `by(fold())` a list), and a
    group whose value traversal yields nothing is left out. A side-effect group keeps its
    members across runs (inside `repeat()` or `local()`), so later runs extend it."""

    name = "group"
    max_bys = 2

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.side_effect = args[0] if args else None
        self.bys = []

    def _add(self, it: Iterable[Traverser], ctx: Context, groups: dict[Any, tuple[Any, list[Traverser]]]) -> None:
        key_by = self.bys[0] if self.bys else By()
        batch = list(it)
        if key_by.is_element_key() or (len(self.bys) > 1 and self.bys[1].is_element_key()):
            ctx.load(t.obj for t in batch)
        for t in batch:
            k = key_by.value(t, ctx)
            if k is NOTHING:
                continue
            groups.setdefault(hashable(k), (map_key(k), []))[1].append(t)

    def _value(self, members: list[Traverser], ctx: Context) -> Any:
        if len(self.bys) < 2:
            return [t.obj for t in members for _ in range(t.bulk)]
        vb = self.bys[1]
        if isinstance(vb.key, CompiledTraversal) and vb.key.steps:
            # members at the same object travel as one bulked traverser (TinkerPop bulks them)
            for r in execute(vb.key, iter(merge_traversers((t.clone() for t in members), ctx)), ctx):
                return r.obj
            return NOTHING
        vals = [vb.value(t, ctx) for t in members for _ in range(t.bulk)]
        return [v for v in vals if v is not NOTHING]

    def build(self, groups: dict[Any, tuple[Any, list[Traverser]]], ctx: Context) -> dict[Any, Any]:
        entries = list(groups.values())
        order: list[int] = list(range(len(entries)))
        if ctx.seed is not None:
            # seeded draws in value traversals go to the groups in Java HashMap order
            order = hashmap_order([k for k, _ in entries])
        values = {i: self._value(entries[i][1], ctx) for i in order}
        return {k: values[i] for i, (k, _) in enumerate(entries) if values[i] is not NOTHING}

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.side_effect is None:
            groups: dict[Any, tuple[Any, list[Traverser]]] = {}
            self._add(checked(it, ctx), ctx, groups)
            yield ctx.new_traverser(self.build(groups, ctx))
            return
        seen = list(checked(it, ctx))
        groups = ctx.side_effects.setdefault(f"~group-members:{self.side_effect}", {})
        self._add(seen, ctx, groups)
        ctx.side_effects[self.side_effect] = self.build(groups, ctx)
        yield from seen


class GroupCountStep(ByModulated, Step):
    """`groupCount([sideEffectKey]).by(key)`: counts (bulk-aware) per key. The side-effect
    form is a barrier, so a later `select(key)` sees the complete counts."""

    name = "groupCount"
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.side_effect = args[0] if args else None
        self.bys = []

    def build(self, it: Iterable[Traverser], ctx: Context, into: dict[Any, Any] | None = None) -> dict[Any, Any]:
        out: dict[Any, Any] = into if into is not None else {}
        keys: dict[Any, Any] = {hashable(k): k for k in out}
        by = self.bys[0] if self.bys else By()
        for t, k in self._keyed(it, by, ctx):
            if k is NOTHING:
                continue
            h = hashable(k)
            k = keys.setdefault(h, map_key(k))
            out[k] = num.Long(out.get(k, 0) + t.bulk)
        return out

    @staticmethod
    def _keyed(it: Iterable[Traverser], by: By, ctx: Context) -> Iterator[tuple[Traverser, Any]]:
        """(traverser, by-value) pairs. `by('key')` over elements asks the access for that
        one key per batch (`property_values`, when its class offers it): the elements stay
        unloaded, so a whole-graph groupCount decodes one key per row, not every property."""
        access = ctx.access
        if not offers_property_values(access) or not by.is_element_key():
            for t in it:
                yield t, by.value(t, ctx)
            return
        for batch in batches(it, ctx.batch_size, ctx):
            elems = [t for t in batch if isinstance(t.obj, Vertex | Edge)]
            got = access.property_values([t.obj for t in elems], by.key, NOTHING) if elems else []
            found = {id(t): v for t, v in zip(elems, got, strict=True)}
            for t in batch:
                if id(t) not in found:
                    yield t, by.value(t, ctx)
                    continue
                v = found[id(t)]
                yield t, (None if v is NOTHING and ctx.productive_by else v)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.side_effect is None:
            yield ctx.new_traverser(self.build(checked(it, ctx), ctx))
            return
        into = ctx.side_effects.setdefault(self.side_effect, {})
        seen = list(checked(it, ctx))
        self.build(seen, ctx, into)
        yield from seen


class TreeStep(ByModulated, Step):
    name = "tree"
    requires_path = True
    full_path = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.side_effect = args[0] if args else None
        self.bys = []

    def _add(self, tree: Tree, t: Traverser, ctx: Context) -> None:
        objs = [e.obj for e in t.path_entries()]
        if self.bys:
            values = []
            for i, o in enumerate(objs):
                v = self.by_at(i).value_of(o, ctx)
                if v is NOTHING:
                    break  # an unproductive by() ends the branch there
                values.append(v)
            objs = values
        tree.add_path(objs)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if self.side_effect is None:
            tree = Tree()
            for t in checked(it, ctx):
                self._add(tree, t, ctx)
            yield ctx.new_traverser(tree)
            return
        tree = ctx.side_effects.setdefault(self.side_effect, Tree())
        seen = list(checked(it, ctx))  # a barrier: select(key) after it sees the whole tree
        for t in seen:
            self._add(tree, t, ctx)
        yield from seen


class BarrierStep(Step):
    """`barrier([n])` / `barrier(Barrier.normSack)`: materialises the stream and merges equal
    traversers (bulk summed, sacks merged; see `traversal/bulking.py`)."""

    name = "barrier"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        items = list(checked(it, ctx))
        if self.args and self.args[0] is Barrier.normSack:
            items = normalize_sacks(items)
        yield from merge_traversers(items, ctx)
