"""The script AST: what a parsed Gremlin/Groovy script *says*, before anything runs.

Built by `build.py` from the Lark tree, walked by `sandbox.py` (static rejection of unsafe
constructs) and `interpreter.py` (evaluation). Nodes are frozen dataclasses so a parsed
script can be cached by its text and shared between threads; every node that can be the
subject of an error message carries `pos = (line, column)` (1-based, excluded from `==` so
that two spellings of one script compare equal).

Some nodes exist only to be rejected with a precise message (`Closure`, `Import`,
`Annotation`, `GString`, `NewObject` of a non-strategy class): the grammar accepts their
shape so that the error can name the construct instead of pointing at an odd token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Pos = tuple[int, int] | None


def _pos() -> Any:
    return field(default=None, compare=False, repr=False)


class Node:
    """Base of all AST nodes (for isinstance checks and type hints)."""

    pos: Pos


class Expr(Node):
    pass


class Stmt(Node):
    pass


# ---- statements ------------------------------------------------------------------------


@dataclass(frozen=True)
class Script(Node):
    statements: tuple[Stmt, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class Assign(Stmt):
    """`x = expr` or (declare=True) `def x = expr`."""

    name: str
    value: Expr
    declare: bool = False
    pos: Pos = _pos()


@dataclass(frozen=True)
class ExprStmt(Stmt):
    expr: Expr
    pos: Pos = _pos()


@dataclass(frozen=True)
class Import(Stmt):
    """`import a.b.C` — parsed only to be rejected."""

    path: str
    pos: Pos = _pos()


@dataclass(frozen=True)
class Annotation(Stmt):
    """`@Grab(...)` — parsed only to be rejected."""

    name: str
    pos: Pos = _pos()


# ---- literals --------------------------------------------------------------------------


@dataclass(frozen=True)
class Literal(Expr):
    """A number (already Java-typed), string, boolean, null, NaN or Infinity."""

    value: Any
    pos: Pos = _pos()


@dataclass(frozen=True)
class GString(Expr):
    """A double-quoted string with `${...}` interpolation — rejected, never evaluated."""

    raw: str
    pos: Pos = _pos()


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class SetLit(Expr):
    """GremlinLang `{a, b}`."""

    items: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class MapLit(Expr):
    """`[k: v, ...]`; bare-word keys are already string Literals, `(expr)` keys are exprs."""

    entries: tuple[tuple[Expr, Expr], ...]
    pos: Pos = _pos()


# ---- names, tokens, calls --------------------------------------------------------------


@dataclass(frozen=True)
class VarRef(Expr):
    """A bare name: a script variable, a binding/graph, or a bare enum token (`desc`)."""

    name: str
    pos: Pos = _pos()


@dataclass(frozen=True)
class Paren(Expr):
    """`(expr)`: evaluates as `expr`; kept because a parenthesised map key is evaluated."""

    expr: Expr
    pos: Pos = _pos()


@dataclass(frozen=True)
class TokenRef(Expr):
    """`T.id`, `Order.desc`, `GType.INT`: an enum token by class and Gremlin spelling."""

    enum: str
    member: str
    pos: Pos = _pos()


@dataclass(frozen=True)
class TokenCall(Expr):
    """`Cardinality.single(43)`: a token applied to a value."""

    enum: str
    member: str
    args: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class AnonTraversal(Expr):
    """The `__` root of an anonymous traversal; `implicit` when a bare step call such as
    `out()` or `aggregate("a")` started it."""

    implicit: bool = False
    pos: Pos = _pos()


@dataclass(frozen=True)
class NamedArg(Expr):
    """`name: value` inside call arguments (Groovy named arguments)."""

    name: str
    value: Expr
    pos: Pos = _pos()


@dataclass(frozen=True)
class MethodCall(Expr):
    """`target.name(args)`; a trailing closure is the last arg (and is rejected)."""

    target: Expr
    name: str
    args: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class PropertyGet(Expr):
    """`target.name` without a call."""

    target: Expr
    name: str
    pos: Pos = _pos()


@dataclass(frozen=True)
class PredicateCall(Expr):
    """`P.gt(1)`, `TextP.containing('x')`, and bare `gt(1)`/`within(...)`."""

    family: str
    name: str
    args: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class FunctionCall(Expr):
    """A bare call that is not a step: `datetime(...)`, `UUID(...)`, and `not(...)` (which
    is `P.not` for a predicate argument and the `not` step otherwise)."""

    name: str
    args: tuple[Expr, ...]
    pos: Pos = _pos()


@dataclass(frozen=True)
class NewObject(Expr):
    """`new X(args)` or a bare `XStrategy(args)`; only traversal strategies are built."""

    class_name: str
    args: tuple[Expr, ...]
    explicit_new: bool = True
    pos: Pos = _pos()


@dataclass(frozen=True)
class UnaryOp(Expr):
    op: str
    operand: Expr
    pos: Pos = _pos()


@dataclass(frozen=True)
class BinaryOp(Expr):
    op: str
    left: Expr
    right: Expr
    pos: Pos = _pos()


@dataclass(frozen=True)
class Closure(Expr):
    """`{ x -> ... }` or a block after a method name — parsed only to be rejected."""

    params: tuple[Expr, ...]
    body: tuple[Stmt, ...]
    pos: Pos = _pos()


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-nodes of `node`, for walkers that need no per-class code."""
    out: list[Node] = []
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "pos":
            continue
        value = getattr(node, name)
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    out.append(item)
                elif isinstance(item, tuple):
                    out.extend(x for x in item if isinstance(x, Node))
    return tuple(out)


def dump(node: Any) -> str:
    """A compact, stable text form used by the snapshot tests: `Call(Var(g).V()).out('x')`."""
    if isinstance(node, Script):
        return "\n".join(dump(s) for s in node.statements)
    if isinstance(node, Assign):
        return f"{'def ' if node.declare else ''}{node.name} = {dump(node.value)}"
    if isinstance(node, ExprStmt):
        return dump(node.expr)
    if isinstance(node, Import):
        return f"import {node.path}"
    if isinstance(node, Annotation):
        return f"@{node.name}"
    if isinstance(node, Literal):
        return repr(node.value)
    if isinstance(node, GString):
        return f"GString({node.raw})"
    if isinstance(node, ListLit):
        return "[" + ", ".join(dump(i) for i in node.items) + "]"
    if isinstance(node, SetLit):
        return "{" + ", ".join(dump(i) for i in node.items) + "}"
    if isinstance(node, MapLit):
        if not node.entries:
            return "[:]"
        return "[" + ", ".join(f"{dump(k)}: {dump(v)}" for k, v in node.entries) + "]"
    if isinstance(node, VarRef):
        return node.name
    if isinstance(node, Paren):
        return f"({dump(node.expr)})"
    if isinstance(node, TokenRef):
        return f"<{node.enum}.{node.member}>"
    if isinstance(node, TokenCall):
        return f"<{node.enum}.{node.member}>({_args(node.args)})"
    if isinstance(node, AnonTraversal):
        return "__" if not node.implicit else "__?"
    if isinstance(node, NamedArg):
        return f"{node.name}: {dump(node.value)}"
    if isinstance(node, MethodCall):
        return f"{dump(node.target)}.{node.name}({_args(node.args)})"
    if isinstance(node, PropertyGet):
        return f"{dump(node.target)}.{node.name}"
    if isinstance(node, PredicateCall):
        return f"{node.family}.{node.name}({_args(node.args)})"
    if isinstance(node, FunctionCall):
        return f"{node.name}!({_args(node.args)})"
    if isinstance(node, NewObject):
        return f"{'new ' if node.explicit_new else ''}{node.class_name}({_args(node.args)})"
    if isinstance(node, UnaryOp):
        return f"({node.op}{dump(node.operand)})"
    if isinstance(node, BinaryOp):
        return f"({dump(node.left)} {node.op} {dump(node.right)})"
    if isinstance(node, Closure):
        return "{" + _args(node.params) + " -> " + "; ".join(dump(s) for s in node.body) + "}"
    raise TypeError(f"not an AST node: {node!r}")


def _args(args: tuple[Any, ...]) -> str:
    return ", ".join(dump(a) for a in args)
