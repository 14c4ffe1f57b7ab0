"""Gremlin script text -> a gremlinpython traversal, by calling gremlinpython by name.

The bytecode mode of the wire conformance run must send what a Python user would send:
bytecode built by gremlinpython's own `GraphTraversalSource`, `__`, `P`, `TextP`, enums and
strategy classes. The scenario text is parsed with our parser (`gremlin_engine.syntax.parse`,
nothing is evaluated) and the AST is walked: every method call becomes the gremlinpython
method of that name (`hasLabel` -> `has_label`, `as` -> `as_`, `in` -> `in_`, `V` -> `V`),
every literal a gremlinpython value (`values.to_gp`), every token its gremlinpython enum.

A construct gremlinpython cannot express raises `Untranslatable`, which the runner counts
as a failure of that scenario (in practice none of the corpus does).
"""

from __future__ import annotations

import datetime
import inspect
import uuid
from collections.abc import Mapping
from functools import cache
from typing import Any

from gremlin_python import statics
from gremlin_python.process import strategies as gp_strategies
from gremlin_python.process import traversal as gpt
from gremlin_python.process.graph_traversal import GraphTraversal, GraphTraversalSource, __
from gremlin_python.structure.io.util import SymbolUtil

from gremlin_engine.syntax import ast, parse
from gremlin_engine.syntax.literals import parse_datetime, parse_uuid
from gremlin_engine.traversal.tokens import TOKEN_ENUMS
from tests.wire.conformance.values import gp_token, to_gp

# the bare tokens the script language accepts (`desc`, `local`, `values`), first enum wins,
# in the interpreter's order
_BARE_ORDER = ("T", "Column", "Scope", "Order", "Pop", "Cardinality", "Direction", "Operator", "Pick", "Merge",
               "DT", "Barrier")
_IO = {"reader": gpt.IO.reader, "writer": gpt.IO.writer, "graphson": gpt.IO.graphson, "gryo": gpt.IO.gryo,
       "graphml": gpt.IO.graphml}


class Untranslatable(Exception):
    """The text uses something gremlinpython has no call for."""


@cache
def _bare_tokens() -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for enum_name in _BARE_ORDER:
        for member in TOKEN_ENUMS[enum_name]:
            spelled = member.value if enum_name == "Direction" else member.name.rstrip("_")
            table.setdefault(member.name.rstrip("_"), (enum_name, spelled))
    return table


def method_name(owner: Any, name: str) -> str:
    """gremlinpython's spelling of a Gremlin step on `owner` (a class): snake case, with a
    trailing `_` where the name is a Python keyword or builtin (`as_`, `in_`, `sum_`)."""
    snake = SymbolUtil.to_snake_case(name)
    for candidate in (snake, snake + "_", name):
        if inspect.getattr_static(owner, candidate, None) is not None:
            return candidate
    raise Untranslatable(f"gremlinpython has no step {name}() on {owner.__name__}")


def strategy(name: str, config: Mapping[str, Any] | None = None) -> Any:
    """A gremlinpython strategy object by class name, configured with Gremlin's (camelCase)
    option names, exactly as the Java class would receive them."""
    cls = getattr(gp_strategies, name, None)
    if not (isinstance(cls, type) and issubclass(cls, gpt.TraversalStrategy)):
        raise Untranslatable(f"gremlinpython has no strategy {name}")
    try:
        obj = cls()
    except TypeError:  # required options (SeedStrategy(seed)): pass them by their Python names
        kwargs = {SymbolUtil.to_snake_case(k): v for k, v in (config or {}).items()}
        if kwargs:
            return cls(**kwargs)
        params = [p for p in inspect.signature(cls).parameters.values() if p.default is p.empty]
        obj = cls(**{p.name: None for p in params})  # only named (withoutStrategies)
        obj.configuration.clear()
    obj.configuration.update(config or {})
    return obj


def translate(text: str, g: GraphTraversalSource, bindings: Mapping[str, Any]) -> GraphTraversal:
    """The scenario text as a gremlinpython traversal spawned from `g`; `bindings` are engine
    values (they are converted like literals)."""
    tree = parse(text)
    if len(tree.statements) != 1 or not isinstance(tree.statements[0], ast.ExprStmt):
        raise Untranslatable("only a single traversal expression can be sent as bytecode")
    out = _Walker(g, bindings).eval(tree.statements[0].expr)
    if not isinstance(out, GraphTraversal):
        raise Untranslatable(f"the text is not a traversal but a {type(out).__name__}")
    return out


class _Walker:
    def __init__(self, g: GraphTraversalSource, bindings: Mapping[str, Any]) -> None:
        self.g = g
        self.bindings = bindings

    def eval(self, node: ast.Expr) -> Any:
        fn = getattr(self, "_" + type(node).__name__, None)
        if fn is None:
            raise Untranslatable(f"{type(node).__name__} has no bytecode form")
        return fn(node)

    def args(self, nodes: tuple[ast.Expr, ...]) -> list[Any]:
        if any(isinstance(n, ast.NamedArg) for n in nodes):
            raise Untranslatable("named arguments outside a strategy")
        return [self.eval(n) for n in nodes]

    # ---- values ------------------------------------------------------------------------
    def _Literal(self, node: ast.Literal) -> Any:
        return to_gp(node.value)

    def _ListLit(self, node: ast.ListLit) -> list[Any]:
        return self.args(node.items)

    def _SetLit(self, node: ast.SetLit) -> set[Any]:
        return {tuple(v) if isinstance(v, list) else v for v in self.args(node.items)}

    def _MapLit(self, node: ast.MapLit) -> dict[Any, Any]:
        return {self.eval(k): self.eval(v) for k, v in node.entries}

    def _Paren(self, node: ast.Paren) -> Any:
        return self.eval(node.expr)

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.eval(node.operand)
        if node.op == "-" and isinstance(value, int | float) and not isinstance(value, bool):
            return type(value)(-value) if isinstance(value, statics.long | statics.bigint) else -value
        if node.op == "+" and isinstance(value, int | float):
            return value
        raise Untranslatable(f"operator {node.op} has no bytecode form")

    def _VarRef(self, node: ast.VarRef) -> Any:
        name = node.name
        if name == "g":
            return self.g
        if name in self.bindings:
            return to_gp(self.bindings[name])
        bare = _bare_tokens().get(name)
        if bare is not None:
            return gp_token(*bare)
        if name.endswith("Strategy"):
            return strategy(name)
        raise Untranslatable(f"unknown name {name}")

    def _TokenRef(self, node: ast.TokenRef) -> Any:
        if node.enum == "IO":
            return _IO[node.member]
        return gp_token(node.enum, node.member)

    def _TokenCall(self, node: ast.TokenCall) -> Any:
        if node.enum != "Cardinality":
            raise Untranslatable(f"{node.enum}.{node.member}(...)")
        (value,) = self.args(node.args)
        return gpt.CardinalityValue(gp_token("Cardinality", node.member), value)

    def _AnonTraversal(self, node: ast.AnonTraversal) -> Any:
        return __

    def _PredicateCall(self, node: ast.PredicateCall) -> Any:
        family = gpt.TextP if node.family == "TextP" else gpt.P
        return getattr(family, method_name(family, node.name))(*self.args(node.args))

    def _FunctionCall(self, node: ast.FunctionCall) -> Any:
        args = self.args(node.args)
        if node.name in ("datetime", "DateTime"):
            return parse_datetime(args[0]) if args else datetime.datetime.now(datetime.UTC)
        if node.name == "UUID":
            return parse_uuid(args[0]) if args else uuid.uuid4()
        if node.name == "not":
            if len(args) == 1 and isinstance(args[0], gpt.P):
                return gpt.P.not_(args[0])
            return __.not_(*args)
        raise Untranslatable(f"{node.name}()")

    def _NewObject(self, node: ast.NewObject) -> Any:
        config: dict[str, Any] = {}
        for a in node.args:
            if not isinstance(a, ast.NamedArg):
                raise Untranslatable(f"{node.class_name} takes named arguments")
            config[a.name] = self.eval(a.value)
        return strategy(node.class_name, config)

    # ---- calls -------------------------------------------------------------------------
    def _MethodCall(self, node: ast.MethodCall) -> Any:
        links: list[ast.MethodCall] = []
        cur: ast.Expr = node
        while isinstance(cur, ast.MethodCall):
            links.append(cur)
            cur = cur.target
        value = self.eval(cur)
        for link in reversed(links):
            value = self.call(value, link.name, self.args(link.args))
        return value

    def call(self, target: Any, name: str, args: list[Any]) -> Any:
        if isinstance(target, gpt.P):
            if name in ("and", "or"):
                return getattr(target, name + "_")(*args)
            raise Untranslatable(f"P.{name}()")
        owner = target if target is __ else type(target)
        if owner not in (__, GraphTraversal, GraphTraversalSource) and not isinstance(target, GraphTraversal):
            raise Untranslatable(f".{name}() on {type(target).__name__}")
        if isinstance(target, GraphTraversalSource):
            if name == "withoutStrategies":
                args = [statics.GremlinType(a.fqcn) if isinstance(a, gpt.TraversalStrategy) else a for a in args]
        return getattr(target, method_name(owner, name))(*args)
