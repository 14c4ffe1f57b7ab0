"""Map steps: element accessors (`id`, `label`, `values`, `properties`, `valueMap`,
`propertyMap`, `elementMap`, `key`, `value`), `constant`, `map`, `path`, `select`,
`project`, `math`, `loops`, `index`.

Property readers set `loads = True`, so each batch of elements is loaded with one
`access.load` call before any of them is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.elements import Edge, Element, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import ByModulated, FlatMapStep, MapStep, Step, token_value
from gremlin_engine.traversal.steps.filter import labelled_value
from gremlin_engine.traversal.steps.flatmap import AdjacentStream
from gremlin_engine.traversal.steps.math_expr import MathExpression
from gremlin_engine.traversal.steps.paths import path_segment
from gremlin_engine.traversal.tokens import Column, Direction, Pop, T, WithOptions
from gremlin_engine.traversal.traverser import Context, Traverser, checked
from gremlin_engine.traversal.values import MapEntry, as_set


class IdStep(MapStep):
    name = "id"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if isinstance(it, AdjacentStream):
            it.heads_only()  # ids need no neighbour properties
        id_stream = getattr(it, "id_stream", None)  # a batch write step's output (hgAddVertices)
        if id_stream is not None:
            ids: Iterator[Traverser] = id_stream()
            return ids
        return super().process(it, ctx)

    def map(self, t: Traverser, ctx: Context) -> Any:
        return token_value(t.obj, T.id)


class LabelStep(MapStep):
    name = "label"

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        if isinstance(it, AdjacentStream):
            it.heads_only()
        return super().process(it, ctx)

    def map(self, t: Traverser, ctx: Context) -> Any:
        return token_value(t.obj, T.label)


def _props(obj: Any, keys: tuple[str, ...]) -> Iterable[Any]:
    if isinstance(obj, Vertex | Edge):
        return obj.properties(*keys)
    if isinstance(obj, VertexProperty):
        return [Property(k, v, obj) for k, v in obj.meta.items() if not keys or k in keys]
    raise TraversalError(f"properties can only be read from elements, not {obj!r}")


class PropertiesStep(FlatMapStep):
    name = "properties"
    loads = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*(a for a in args if a is not None))  # a null key names nothing

    def flat(self, t: Traverser, ctx: Context) -> Iterable[Any]:
        return _props(t.obj, self.args)


class ValuesStep(FlatMapStep):
    name = "values"
    loads = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*(a for a in args if a is not None))  # a null key names nothing

    def flat(self, t: Traverser, ctx: Context) -> Iterable[Any]:
        obj = t.obj
        if isinstance(obj, Mapping):
            return [obj[k] for k in self.args if k in obj] if self.args else list(obj.values())
        return [p.value for p in _props(obj, self.args)]


class KeyStep(MapStep):
    name = "key"

    def map(self, t: Traverser, ctx: Context) -> Any:
        return token_value(t.obj, T.key)


class ValueStep(MapStep):
    name = "value"

    def map(self, t: Traverser, ctx: Context) -> Any:
        return token_value(t.obj, T.value)


class _PropertyMapBase(ByModulated, MapStep):
    """valueMap/propertyMap/elementMap share key selection, `with(tokens)` and `by()`."""

    loads = True
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.include_tokens = bool(args and args[0] is True)
        self.keys = tuple(a for a in args if isinstance(a, str))
        self.tokens_mode: Any = WithOptions.all if self.include_tokens else None
        self.bys = []

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "with":
            if args and args[0] in (WithOptions.tokens, WithOptions.tokens.value):
                self.tokens_mode = args[1] if len(args) > 1 else WithOptions.all
            return
        super().modulate(name, args)

    def _tokens(self, obj: Any) -> dict[Any, Any]:
        mode = self.tokens_mode
        if mode in (None, WithOptions.none):
            return {}
        out: dict[Any, Any] = {}
        if mode in (WithOptions.all, WithOptions.ids):
            out[T.id] = obj.id
        if mode in (WithOptions.all, WithOptions.labels):
            out[T.label] = obj.label
        if isinstance(obj, VertexProperty) and mode in (WithOptions.all, WithOptions.keys):
            out[T.key] = obj.key
        if isinstance(obj, VertexProperty) and mode in (WithOptions.all, WithOptions.values):
            out[T.value] = obj.value
        return out


class ValueMapStep(_PropertyMapBase):
    name = "valueMap"

    def map(self, t: Traverser, ctx: Context) -> Any:
        obj = t.obj
        out = self._tokens(obj)
        grouped: dict[str, list[Any]] = {}
        for p in _props(obj, self.keys):
            grouped.setdefault(p.key, []).append(p.value)
        for k, vals in grouped.items():
            out[k] = vals if isinstance(obj, Vertex) else vals[0]
        if self.bys:
            by = self.by_at(0)
            for k in grouped:
                v = by.value_of(out[k], ctx)
                if v is not NOTHING:
                    out[k] = v
        return out


class PropertyMapStep(_PropertyMapBase):
    name = "propertyMap"

    def map(self, t: Traverser, ctx: Context) -> Any:
        obj = t.obj
        out = self._tokens(obj)
        for p in _props(obj, self.keys):
            if isinstance(obj, Vertex):
                out.setdefault(p.key, []).append(p)
            else:
                out[p.key] = p
        return out


class ElementMapStep(_PropertyMapBase):
    name = "elementMap"

    def map(self, t: Traverser, ctx: Context) -> Any:
        obj = t.obj
        if not isinstance(obj, Element | VertexProperty):
            raise TraversalError(f"elementMap() can only be applied to an element, not {obj!r}")
        out: dict[Any, Any] = {T.id: obj.id, T.label: obj.label}
        if isinstance(obj, VertexProperty):
            out = {T.id: obj.id, T.key: obj.key, T.value: obj.value}
        if isinstance(obj, Edge):
            out[Direction.IN] = {T.id: obj.in_v.id, T.label: obj.in_v.label}
            out[Direction.OUT] = {T.id: obj.out_v.id, T.label: obj.out_v.label}
        for p in _props(obj, self.keys):
            out.setdefault(p.key, p.value)
        return out


class ConstantStep(MapStep):
    name = "constant"

    def map(self, t: Traverser, ctx: Context) -> Any:
        return self.args[0]


class MapTraversalStep(MapStep):
    name = "map"

    def map(self, t: Traverser, ctx: Context) -> Any:
        return first_result(self.args[0], t, ctx)


class PathStep(ByModulated, MapStep):
    name = "path"
    requires_path = True
    full_path = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.bys = []
        self.from_label: str | None = None
        self.to_label: str | None = None

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name in ("from", "to") and len(args) == 1 and isinstance(args[0], str):
            setattr(self, f"{name}_label", args[0])
        else:
            super().modulate(name, args)

    def map(self, t: Traverser, ctx: Context) -> Any:
        if self.from_label is None and self.to_label is None:
            path = t.make_path()
        else:
            entries = path_segment(t.path_entries(), self.from_label, self.to_label)
            path = Path(tuple(e.labels for e in entries), tuple(e.obj for e in entries))
        if not self.bys:
            return path
        objs = []
        for i, o in enumerate(path.objects):
            v = self.by_at(i).value_of(o, ctx)
            if v is NOTHING:
                return NOTHING
            objs.append(v)
        return Path(path.labels, tuple(objs))


class SelectStep(ByModulated, MapStep):
    """`select([pop,] 'a', 'b', ...)`: a map of labelled objects (one key: the object)."""

    name = "select"
    requires_path = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.pop = args[0] if args and isinstance(args[0], Pop) else Pop.last
        self.keys = tuple(a for a in args if not isinstance(a, Pop))
        self.bys = []

    def _one(self, t: Traverser, key: Any, i: int, ctx: Context) -> Any:
        v = _select_value(t, key, self.pop, ctx)
        if v is NOTHING or not self.bys:
            return v
        if self.pop is Pop.all and isinstance(v, list) and not isinstance(self.by_at(i).key, CompiledTraversal):
            return [self.by_at(i).value_of(x, ctx) for x in v]
        return self.by_at(i).value_of(v, ctx)

    def map(self, t: Traverser, ctx: Context) -> Any:
        if len(self.keys) == 1:
            return self._one(t, self.keys[0], 0, ctx)
        out = {}
        for i, k in enumerate(self.keys):
            v = self._one(t, k, i, ctx)
            if v is NOTHING:
                return NOTHING
            out[k] = v
        return out


def _select_value(t: Traverser, key: Any, pop: Pop, ctx: Context) -> Any:
    if pop is Pop.mixed:
        found = t.labelled(key)
        if len(found) > 1:
            return found
        pop = Pop.last
    if isinstance(t.obj, Mapping) and key in t.obj and not t.labelled(key):
        return t.obj[key]
    return labelled_value(t, key, ctx, pop)


class SelectTraversalStep(ByModulated, MapStep):
    """`select(traversal)`: the child's result names the key to select."""

    name = "select"
    requires_path = True
    max_bys = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.bys = []

    def map(self, t: Traverser, ctx: Context) -> Any:
        pop = self.args[0] if isinstance(self.args[0], Pop) else Pop.last
        key = first_result(self.args[-1], t, ctx)
        if key is NOTHING:
            return NOTHING
        v = _select_value(t, key, pop, ctx)
        return v if v is NOTHING or not self.bys else self.bys[0].value_of(v, ctx)


class SelectColumnStep(MapStep):
    """`select(keys)` / `select(values)` on a map (or a map entry)."""

    name = "select"

    def map(self, t: Traverser, ctx: Context) -> Any:
        obj, col = t.obj, self.args[0]
        if isinstance(obj, MapEntry):
            return obj.key if col is Column.keys else obj.value
        if isinstance(obj, Mapping):
            if col is Column.keys:
                return as_set(obj.keys())  # Java's keySet()
            return list(obj.values())
        if isinstance(obj, Path):
            return list(obj.labels) if col is Column.keys else list(obj.objects)
        raise TraversalError(f"select({col!r}) can only be applied to a map, not {obj!r}")


def select_step(*args: Any) -> Step:
    if len(args) == 1 and isinstance(args[0], Column):
        return SelectColumnStep(args[0])
    if isinstance(args[-1], CompiledTraversal):
        return SelectTraversalStep(*args)
    return SelectStep(*args)


class ProjectStep(ByModulated, MapStep):
    name = "project"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if len(set(args)) != len(args):
            raise StepArgumentError("project() keys must be unique")
        self.bys = []

    def map(self, t: Traverser, ctx: Context) -> Any:
        out = {}
        for i, k in enumerate(self.args):
            by = self.bys[i] if i < len(self.bys) else None
            v = by.value(t, ctx) if by else t.obj
            if v is not NOTHING:
                out[k] = v
        return out


class MathStep(ByModulated, MapStep):
    """`math('_ + a * 2')`: variables are `_` (the current object) and step labels; `by()`s
    apply to the variables in order of first appearance."""

    name = "math"

    def __init__(self, expr: str) -> None:
        super().__init__(expr)
        self.expr = MathExpression(expr)
        self.requires_path = any(v != "_" for v in self.expr.variables)  # type: ignore[misc]
        self.bys = []

    def map(self, t: Traverser, ctx: Context) -> Any:
        env: dict[str, Any] = {}
        for i, var in enumerate(self.expr.variables):
            raw = t.obj if var == "_" else labelled_value(t, var, ctx)
            if raw is NOTHING:
                raise TraversalError(f"math(): no value for variable {var!r}")
            if not self.bys:
                v = raw
            elif var == "_":
                v = self.by_at(i).value(t, ctx)  # the traverser itself: by(sack()) reads its sack
            else:
                v = self.by_at(i).value_of(raw, ctx)
            if v is NOTHING:
                return NOTHING
            env[var] = v
        return self.expr.evaluate(env)


class LoopsStep(MapStep):
    name = "loops"

    def map(self, t: Traverser, ctx: Context) -> Any:
        return Int(t.loop_count(self.args[0] if self.args else None))


class IndexStep(Step):
    """`index()`: pairs each item of a collection with its position ([item, i] lists, or a
    map with `with(WithOptions.indexer, WithOptions.map)`)."""

    name = "index"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.as_map = False

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name == "with" and args and args[0] in (WithOptions.indexer, WithOptions.indexer.value):
            self.as_map = len(args) > 1 and args[1] in (WithOptions.map, 1)
            return
        super().modulate(name, args)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            obj = t.obj
            items = list(obj.items()) if isinstance(obj, Mapping) else list(obj) if isinstance(obj, list | tuple | set) else [obj]
            items = [dict([x]) if isinstance(obj, Mapping) else x for x in items]
            if self.as_map:
                yield t.split({Int(i): x for i, x in enumerate(items)})
            else:
                yield t.split([[x, Int(i)] for i, x in enumerate(items)])


def long(n: int) -> Long:
    return Long(n)
