"""Static rejection of everything outside the script subset, before anything runs.

`check(script)` walks the whole AST once and raises `UnsupportedSyntax` naming the first
construct a sandboxed script may not use: closures, imports, annotations, GString
interpolation, `new` of anything but a traversal strategy, Java/Groovy/Python escape
hatches (`System`, `Runtime`, `Class`, `this`, `__import__`, `open`, `eval`...), reflective
members (`.class`, `getClass()`, `_private`), and method calls on literal values
(`'id'.execute()`). Because it runs before the first statement, a script such as
`g.addV('x'); System.exit(0)` writes nothing.

This is the second line of defence: the interpreter itself only knows the subset, and every
method call it does not understand goes to `ScriptHost.call_method`, which whitelists.
"""

from __future__ import annotations

from gremlin_engine.errors import UnsupportedSyntax
from gremlin_engine.syntax import ast, names

_LITERAL_KINDS: dict[type, str] = {
    ast.ListLit: "list",
    ast.MapLit: "map",
    ast.SetLit: "set",
    ast.GString: "string",
    ast.BinaryOp: "computed",
    ast.UnaryOp: "computed",
}


def where(pos: ast.Pos) -> str:
    return f" (line {pos[0]}, column {pos[1]})" if pos else ""


def literal_kind(value: object) -> str:
    """How a runtime value is named in "method calls on <kind> values" messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int | float) or type(value).__name__ == "Decimal":
        return "number"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "map"
    if isinstance(value, set | frozenset):
        return "set"
    return type(value).__name__


def check(script: ast.Script) -> ast.Script:
    """Raises `UnsupportedSyntax` for the first forbidden construct; returns the script."""
    # Pre-order, except that a member access is checked after its target: in
    # `Runtime.getRuntime().exec()` the culprit named is `Runtime`, not `.exec()`, while a
    # closure is named before whatever it contains. Iterative: chains can be 1000s deep.
    stack: list[tuple[ast.Node, bool]] = [(script, False)]
    while stack:
        node, check_only = stack.pop()
        if check_only:
            _check_node(node)
            continue
        kids = ast.children(node)
        if isinstance(node, ast.MethodCall | ast.PropertyGet):
            stack.extend((child, False) for child in reversed(kids[1:]))  # args last
            stack.append((node, True))
            stack.append((kids[0], False))  # the target first
        else:
            _check_node(node)
            stack.extend((child, False) for child in reversed(kids))
    return script


def _check_node(node: ast.Node) -> None:
    if isinstance(node, ast.Closure):
        raise UnsupportedSyntax(
            "closures (lambdas) are not supported: `{ ... }` after a method or with `->`" + where(node.pos)
        )
    if isinstance(node, ast.Import):
        raise UnsupportedSyntax(
            f"import statements are not supported: `import {node.path}`" + where(node.pos)
        )
    if isinstance(node, ast.Annotation):
        raise UnsupportedSyntax(f"annotations are not supported: `@{node.name}`" + where(node.pos))
    if isinstance(node, ast.GString):
        raise UnsupportedSyntax(
            "GString interpolation `${...}` is not supported; use single quotes or bindings" + where(node.pos)
        )
    if isinstance(node, ast.NewObject):
        if "." in node.class_name or not names.STRATEGY_NAME.match(node.class_name):
            raise UnsupportedSyntax(
                f"object construction `new {node.class_name}(...)` is not supported "
                "(only traversal strategies such as `new SeedStrategy(seed: 1)`)" + where(node.pos)
            )
    elif isinstance(node, ast.VarRef):
        if names.forbidden_name(node.name):
            raise UnsupportedSyntax(f"`{node.name}` is not accessible from scripts" + where(node.pos))
    elif isinstance(node, ast.Assign):
        if names.forbidden_name(node.name) or node.name in names.LITERAL_NAMES or node.name == "__":
            raise UnsupportedSyntax(f"cannot assign to `{node.name}`" + where(node.pos))
    elif isinstance(node, ast.MethodCall | ast.PropertyGet):
        _check_member(node)
    elif isinstance(node, ast.FunctionCall):
        if names.forbidden_name(node.name):
            raise UnsupportedSyntax(f"`{node.name}` is not accessible from scripts" + where(node.pos))


def _check_member(node: ast.MethodCall | ast.PropertyGet) -> None:
    call = isinstance(node, ast.MethodCall)
    shown = f"{node.name}()" if call else node.name
    target = node.target
    while isinstance(target, ast.Paren):
        target = target.expr
    if isinstance(target, ast.AnonTraversal) and target.implicit:
        # a bare call of a free name (eval, open, __import__ with arguments) or `if (x) {...}`
        if node.name in names.GROOVY_KEYWORDS:
            raise UnsupportedSyntax(f"'{node.name}' statements are not supported" + where(node.pos))
        if names.forbidden_name(node.name) or names.forbidden_member(node.name):
            raise UnsupportedSyntax(f"`{node.name}(...)` is not accessible from scripts" + where(node.pos))
        return
    if names.forbidden_member(node.name):
        raise UnsupportedSyntax(f"`.{shown}` is not accessible from scripts" + where(node.pos))
    if isinstance(target, ast.Literal):
        kind = literal_kind(target.value)
    else:
        kind = _LITERAL_KINDS.get(type(target), "")
    if kind:
        what = "method calls" if call else "property access"
        raise UnsupportedSyntax(f"{what} on {kind} values are not supported: `.{shown}`" + where(node.pos))
