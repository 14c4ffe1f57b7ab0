"""Lark tree -> script AST (`ast.py`). Shapes and classifies; never evaluates.

The grammar leaves every chain flat (`chain(primary, trailer...)`); here the chain becomes
nested `MethodCall`/`PropertyGet` nodes, and the spellings that have a fixed meaning in
Gremlin are recognised by name: `T.id` is a `TokenRef`, `P.gt(1)` a `PredicateCall`,
`__.out()` and a bare `out()` start an anonymous traversal, `datetime(...)` is a
`FunctionCall`. Literal text becomes its typed value here (numbers carry Java types).
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, v_args

from gremlin_engine.syntax import ast, literals, names


def _pos(tok: Any) -> ast.Pos:
    if isinstance(tok, Token) and tok.line is not None:
        return (tok.line, tok.column)
    return getattr(tok, "pos", None)


def _meta_pos(meta: Any) -> ast.Pos:
    return (meta.line, meta.column) if not getattr(meta, "empty", True) else None


def _as_closure(node: ast.Expr) -> ast.Closure:
    """A brace right after a method name is a Groovy closure even without `->`."""
    if isinstance(node, ast.Closure):
        return node
    assert isinstance(node, ast.SetLit)
    return ast.Closure((), tuple(ast.ExprStmt(i, i.pos) for i in node.items), node.pos)


class AstBuilder(Transformer):
    """The callbacks follow the `-> alias` names in grammar/gremlin.lark."""

    # ---- statements -----------------------------------------------------------------
    def start(self, stmts: list[ast.Stmt]) -> ast.Script:
        return ast.Script(tuple(stmts), (1, 1))

    def declare(self, c: list[Any]) -> ast.Assign:
        return ast.Assign(str(c[0]), c[1], True, _pos(c[0]))

    def assign(self, c: list[Any]) -> ast.Assign:
        return ast.Assign(str(c[0]), c[1], False, _pos(c[0]))

    @v_args(meta=True)
    def import_stmt(self, meta: Any, c: list[str]) -> ast.Import:
        return ast.Import(" ".join(c), _meta_pos(meta))

    def import_path(self, c: list[Any]) -> str:
        return ".".join(str(x) for x in c) if c else "*"

    def annotation(self, c: list[Any]) -> ast.Annotation:
        return ast.Annotation(str(c[0]), _pos(c[0]))

    def expr_stmt(self, c: list[ast.Expr]) -> ast.ExprStmt:
        return ast.ExprStmt(c[0], c[0].pos)

    def closure_body(self, stmts: list[ast.Stmt]) -> tuple[ast.Stmt, ...]:
        return tuple(stmts)

    # ---- operators ------------------------------------------------------------------
    def operators(self, c: list[Any]) -> ast.Expr:
        """Operator precedence over the flat `operand (op operand)*` list (left-assoc)."""
        operands: list[ast.Expr] = [c[0]]
        ops: list[Token] = []

        def reduce_top() -> None:
            op = ops.pop()
            right = operands.pop()
            left = operands.pop()
            operands.append(ast.BinaryOp(str(op), left, right, _pos(op)))

        for op, operand in zip(c[1::2], c[2::2], strict=True):
            while ops and _PRECEDENCE[ops[-1].type] >= _PRECEDENCE[op.type]:
                reduce_top()
            ops.append(op)
            operands.append(operand)
        while ops:
            reduce_top()
        return operands[0]

    def unop(self, c: list[Any]) -> ast.Expr:
        op, operand = c
        if str(op) == "+":
            return operand
        if str(op) == "-" and isinstance(operand, ast.Literal) and _negatable(operand.value):
            return ast.Literal(type(operand.value)(-operand.value), _pos(op))
        return ast.UnaryOp(str(op), operand, _pos(op))

    # ---- primaries ------------------------------------------------------------------
    def number(self, c: list[Token]) -> ast.Literal:
        return ast.Literal(literals.number(str(c[0])), _pos(c[0]))

    def string(self, c: list[Token]) -> ast.Expr:
        text = str(c[0])
        if literals.is_gstring(text):
            return ast.GString(text, _pos(c[0]))
        return ast.Literal(literals.string(text), _pos(c[0]))

    def var(self, c: list[Token]) -> ast.Expr:
        name = str(c[0])
        if name in names.LITERAL_NAMES:
            return ast.Literal(names.LITERAL_NAMES[name], _pos(c[0]))
        if name == "__":
            return ast.AnonTraversal(False, _pos(c[0]))
        return ast.VarRef(name, _pos(c[0]))

    def bare_call(self, c: list[Any]) -> ast.Expr:
        return _bare_call(str(c[0]), tuple(c[1]), _pos(c[0]))

    def bare_closure_call(self, c: list[Any]) -> ast.Expr:
        args = tuple(c[1]) if len(c) == 3 else ()
        return _bare_call(str(c[0]), (*args, _as_closure(c[-1])), _pos(c[0]))

    @v_args(meta=True)
    def paren(self, meta: Any, c: list[ast.Expr]) -> ast.Paren:
        return ast.Paren(c[0], _meta_pos(meta))

    def new_obj(self, c: list[Any]) -> ast.NewObject:
        return ast.NewObject(".".join(str(t) for t in c[:-1]), tuple(c[-1]), True, _pos(c[0]))

    def call_args(self, c: list[ast.Expr]) -> tuple[ast.Expr, ...]:
        return tuple(c)

    def named_arg(self, c: list[Any]) -> ast.NamedArg:
        return ast.NamedArg(str(c[0]), c[1], _pos(c[0]))

    @v_args(meta=True)
    def list(self, meta: Any, c: list[ast.Expr]) -> ast.ListLit:
        return ast.ListLit(tuple(c), _meta_pos(meta))

    @v_args(meta=True)
    def empty_map(self, meta: Any, c: list[Any]) -> ast.MapLit:
        return ast.MapLit((), _meta_pos(meta))

    @v_args(meta=True)
    def map(self, meta: Any, c: list[tuple[ast.Expr, ast.Expr]]) -> ast.MapLit:
        return ast.MapLit(tuple(c), _meta_pos(meta))

    def map_entry(self, c: list[ast.Expr]) -> tuple[ast.Expr, ast.Expr]:
        key, value = c
        if isinstance(key, ast.VarRef):  # [name: 1] -> "name" (Groovy); [(name): 1] evaluates
            key = ast.Literal(key.name, key.pos)
        elif isinstance(key, ast.AnonTraversal):
            key = ast.Literal("__", key.pos)
        elif isinstance(key, ast.Paren):
            key = key.expr
        return (key, value)

    @v_args(meta=True)
    def set_lit(self, meta: Any, c: list[ast.Expr]) -> ast.SetLit:
        return ast.SetLit(tuple(c), _meta_pos(meta))

    @v_args(meta=True)
    def closure(self, meta: Any, c: list[Any]) -> ast.Closure:
        arrow = next(i for i, x in enumerate(c) if isinstance(x, Token) and x.type == "ARROW")
        body = c[arrow + 1] if len(c) > arrow + 1 else ()
        return ast.Closure(tuple(c[:arrow]), tuple(body), _meta_pos(meta))

    # ---- chains ---------------------------------------------------------------------
    def t_member(self, c: list[Token]) -> tuple[str, str, tuple[ast.Expr, ...] | None, ast.Pos]:
        return ("member", str(c[0]), None, _pos(c[0]))

    def t_call(self, c: list[Any]) -> tuple[str, str, tuple[ast.Expr, ...] | None, ast.Pos]:
        return ("call", str(c[0]), tuple(c[1]), _pos(c[0]))

    def t_closure_call(self, c: list[Any]) -> tuple[str, str, tuple[ast.Expr, ...] | None, ast.Pos]:
        args = tuple(c[1]) if len(c) == 3 else ()
        return ("call", str(c[0]), (*args, _as_closure(c[-1])), _pos(c[0]))

    def chain(self, c: list[Any]) -> ast.Expr:
        cur: ast.Expr = c[0]
        for i, (kind, name, args, pos) in enumerate(c[1:]):
            if i == 0 and isinstance(cur, ast.VarRef):
                head = cur.name
                if head in names.ENUM_CLASSES:
                    cur = (
                        ast.TokenRef(head, name, pos)
                        if kind == "member"
                        else ast.TokenCall(head, name, args, pos)
                    )
                    continue
                if head in names.PREDICATE_FAMILIES and kind == "call":
                    cur = ast.PredicateCall(head, name, args, pos)
                    continue
            cur = (
                ast.PropertyGet(cur, name, pos) if kind == "member" else ast.MethodCall(cur, name, args, pos)
            )
        return cur


_PRECEDENCE = {
    "OROR": 1,
    "ANDAND": 2,
    "COMPARE": 3,
    "PLUS": 4,
    "MINUS": 4,
    "STAR": 5,
    "SLASH": 5,
    "PERCENT": 5,
}


def _negatable(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _bare_call(name: str, args: tuple[ast.Expr, ...], pos: ast.Pos) -> ast.Expr:
    """Classifies `name(args)` written without a target."""
    if name in names.FUNCTIONS:
        return ast.FunctionCall(name, args, pos)
    if name in names.P_NAMES:
        return ast.PredicateCall("P", name, args, pos)
    if name in names.TEXTP_NAMES:
        return ast.PredicateCall("TextP", name, args, pos)
    if names.STRATEGY_NAME.match(name):
        return ast.NewObject(name, args, False, pos)
    return ast.MethodCall(ast.AnonTraversal(True, pos), name, args, pos)
