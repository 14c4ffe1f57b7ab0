"""A tiny fluent IR builder for tests: `g.V().out('knows').values('name')` builds the same
`TraversalIR` the script interpreter would, without depending on the parser."""

from __future__ import annotations

from typing import Any

from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.predicates import make_predicate

_RENAMES = {"as_": "as", "in_": "in", "not_": "not", "and_": "and", "or_": "or", "is_": "is",
            "from_": "from", "with_": "with", "filter_": "filter", "map_": "map", "sum_": "sum",
            "min_": "min", "max_": "max", "range_": "range", "id_": "id", "all_": "all", "any_": "any",
            "none_": "none"}


class Builder:
    def __init__(self, ir: TraversalIR) -> None:
        self.ir = ir

    def __getattr__(self, name: str) -> Any:
        step = _RENAMES.get(name, name)

        def call(*args: Any) -> Builder:
            args = tuple(a.ir if isinstance(a, Builder) else a for a in args)
            if self.ir.steps or self.ir.anonymous:
                return Builder(self.ir.then(step, *args))
            if step.startswith("with"):
                return Builder(self.ir.with_source(step, *args))
            return Builder(self.ir.then(step, *args))

        return call


class _Anon:
    def __getattr__(self, name: str) -> Any:
        return getattr(Builder(TraversalIR(anonymous=True)), name)


g = Builder(TraversalIR())
__ = _Anon()


class _P:
    def __getattr__(self, name: str) -> Any:
        return lambda *a: make_predicate("P", name.rstrip("_"), a)


class _TextP:
    def __getattr__(self, name: str) -> Any:
        return lambda *a: make_predicate("TextP", name, a)


P = _P()
TextP = _TextP()
