"""Script templates: a one-traversal script is turned into IR once, its bindings as slots.

A server sees the same few script texts over and over with new binding values
(`g.V(vid).values('name')` with `vid` bound). The parse is cached by text, but walking the
AST into a `TraversalIR` (evaluating every argument, building each instruction) was redone on
every call: about a tenth of a point lookup's CPU. Here that walk is done once per text and
*name classification*, and a call only copies the instructions whose arguments are bindings.

Which scripts qualify (anything else runs through the interpreter as before):

* one expression statement, a chain of method calls whose root is a name that resolves to a
  traversal source (`g`, `__g_<graph>`, an alias of one);
* source modifiers (`withSideEffect`, ...) with constant arguments, one spawn (`V`, `E`,
  `inject`, ...), then steps, then at most one terminal (`toList`, `next`, ...) with constant
  arguments;
* a binding may stand as a whole top-level argument of the spawn or of a step (a slot); a
  binding anywhere else (inside a predicate, a list, a nested `__` traversal, a source
  modifier, a terminal) disqualifies the script for that set of bindings;
* every constant argument is immutable (strings, numbers, tokens, predicates, tuples, nested
  traversals of those) and evaluated the same way every time: no named arguments, and no
  argument-less `datetime()` / `UUID()` calls (those read the clock or draw a random value).

Exactness: the cache key is the script text plus how each name of the script resolves *now*
(a binding, the traversal source it names, or unbound), so a binding named `g`, a new alias
or a graph created or dropped since never reuses an old template. A slot receives the binding
value exactly as the interpreter would pass it (`_arg_value`), and the terminal and the result
shaping run through the interpreter's own methods. Nothing new is evaluated: the tree was
sandbox-checked before, and binding values are only ever placed into instructions.
"""

from __future__ import annotations

import datetime
import decimal
import threading
import uuid
from collections import OrderedDict
from enum import Enum
from typing import Any

from gremlin_engine.syntax import ast, names
from gremlin_engine.syntax.host import BoundTraversal, TraversalSourceRef
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P

#: templates kept (LRU), keyed by (text, classification)
CACHE_SIZE = 2048
#: False sends every script through the interpreter (for A/B measurements and tests)
ENABLED = True

_BINDING = "binding"
_UNBOUND = "unbound"
_NO: Any = object()  # "this text does not qualify" (per text, or per classification)
_ATOMS = (str, int, float, bool, type(None), Enum, uuid.UUID, decimal.Decimal, datetime.datetime)


class _Refuse(Exception):
    """The script does not qualify: run it through the interpreter."""


class Template:
    """A script's traversal IR with `None` where each binding goes."""

    __slots__ = ("graph", "source", "steps", "slots", "terminal")

    def __init__(
        self,
        graph: str,
        source: tuple[Instruction, ...],
        steps: tuple[Instruction, ...],
        slots: tuple[tuple[int, tuple[tuple[int, str], ...]], ...],
        terminal: tuple[str, tuple[Any, ...], ast.Pos] | None,
    ) -> None:
        self.graph = graph
        self.source = source
        self.steps = steps
        self.slots = slots  # (step index, ((argument index, binding name), ...))
        self.terminal = terminal

    def traversal(self, bindings: dict[str, Any]) -> BoundTraversal:
        """The traversal this script builds with `bindings` (a fresh IR; the template's own
        instructions are shared, they are immutable)."""
        steps = self.steps
        if self.slots:
            out = list(steps)
            for index, positions in self.slots:
                ins = out[index]
                args = list(ins.args)
                for arg_index, name in positions:
                    value = bindings[name]
                    args[arg_index] = value.ir if isinstance(value, BoundTraversal) else value
                out[index] = Instruction(ins.name, tuple(args), ins.pos)
            steps = tuple(out)
        return BoundTraversal(self.graph, TraversalIR(self.source, steps, False))


class _Shape:
    """What a text's tree says independently of bindings: its root name and every name."""

    __slots__ = ("root", "names")

    def __init__(self, root: str, names_: tuple[str, ...]) -> None:
        self.root = root
        self.names = names_


_shapes: dict[str, Any] = {}
_templates: OrderedDict[Any, Any] = OrderedDict()
_lock = threading.Lock()


def clear() -> None:
    with _lock:
        _shapes.clear()
        _templates.clear()


def lookup(text: str, tree: ast.Script, host: Any, interpreter: Any) -> Template | None:
    """The template for `text` under `host`'s current names, built on first use; None when
    the script must run through the interpreter."""
    bindings = getattr(host, "bindings", None)
    if not ENABLED or type(bindings) is not dict:
        return None
    shape = _shapes.get(text)
    if shape is None:
        shape = _shape(tree)
        with _lock:
            if len(_shapes) >= CACHE_SIZE:
                _shapes.clear()
            _shapes[text] = shape
    if shape is _NO:
        return None
    key = _classify(shape, bindings, host)
    if key is None:
        return None
    key = (text, key)
    with _lock:
        found = _templates.get(key)
        if found is not None:
            _templates.move_to_end(key)
    if found is None:
        try:
            found = _build(tree, key[1], shape, interpreter)
        except _Refuse:
            found = _NO
        except Exception:  # the interpreter raises the real error when it runs the script
            found = _NO
        with _lock:
            _templates[key] = found
            if len(_templates) > CACHE_SIZE:
                _templates.popitem(last=False)
    return None if found is _NO else found  # type: ignore[no-any-return]


def script_names(text: str) -> tuple[str, ...] | None:
    """Every name `text` mentions, its root first, once `lookup` has seen the text; None
    when it has not or when the text can never be a template."""
    shape = _shapes.get(text)
    return shape.names if type(shape) is _Shape else None


def template_for(text: str, host: Any) -> Template | None:
    """`lookup` for a script the interpreter has run (so its sandbox-checked tree is cached):
    the template it would use under `host`'s names, or None."""
    from gremlin_engine.syntax.interpreter import Interpreter, _checked

    return lookup(text, _checked(text), host, Interpreter(host))


def _classify(shape: _Shape, bindings: dict[str, Any], host: Any) -> tuple[Any, ...] | None:
    """How each name resolves now: a binding, the source the root names, or unbound."""
    out: list[Any] = []
    for name in shape.names:
        if name in bindings:
            if name == shape.root:
                return None
            out.append(_BINDING)
            continue
        try:
            value = host.lookup(name)
        except KeyError:
            out.append(_UNBOUND)
            continue
        if name != shape.root or type(value) is not TraversalSourceRef:
            return None
        out.append(value)
    return tuple(out)


def _links(expr: ast.Expr) -> tuple[str, list[ast.MethodCall]]:
    links: list[ast.MethodCall] = []
    cur = expr
    while isinstance(cur, ast.MethodCall):
        links.append(cur)
        cur = cur.target
    if not isinstance(cur, ast.VarRef) or not links:
        raise _Refuse
    links.reverse()
    return cur.name, links


def _shape(tree: ast.Script) -> Any:
    if len(tree.statements) != 1 or not isinstance(tree.statements[0], ast.ExprStmt):
        return _NO
    try:
        root, links = _links(tree.statements[0].expr)
    except _Refuse:
        return _NO
    found: dict[str, None] = {root: None}
    stack: list[ast.Node] = [a for link in links for a in link.args]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.NamedArg | ast.Closure | ast.GString | ast.NewObject):
            return _NO
        if isinstance(node, ast.FunctionCall) and not node.args:
            return _NO  # datetime() / UUID(): a new value on every call
        if isinstance(node, ast.VarRef):
            found.setdefault(node.name, None)
        stack.extend(ast.children(node))
    return _Shape(root, tuple(found))


def _build(tree: ast.Script, classes: tuple[Any, ...], shape: _Shape, interpreter: Any) -> Template:
    bound = {n for n, c in zip(shape.names, classes, strict=True) if c is _BINDING}
    _root, links = _links(tree.statements[0].expr)  # type: ignore[attr-defined]
    value = classes[0]  # the root's TraversalSourceRef
    slots: list[tuple[int, tuple[tuple[int, str], ...]]] = []
    terminal = None
    for k, link in enumerate(links):
        name = link.name
        if isinstance(value, TraversalSourceRef):
            if name in names.SPAWNS:
                args, positions = _args(link.args, bound, interpreter)
                if positions:
                    slots.append((0, positions))
                value = BoundTraversal(value.graph, TraversalIR(value.ir.source, (Instruction(name, args, link.pos),)))
            elif name in names.SOURCE_MODIFIERS and name != "withStrategies":
                args, positions = _args(link.args, bound, interpreter)
                if positions:
                    raise _Refuse
                value = interpreter._source_call(value, name, args, link.pos)
                if type(value) is not TraversalSourceRef:
                    raise _Refuse
            else:
                raise _Refuse
        elif isinstance(value, BoundTraversal):
            args, positions = _args(link.args, bound, interpreter)
            if name in names.TERMINALS:
                if positions or k != len(links) - 1:
                    raise _Refuse
                terminal = (name, args, link.pos)
                break
            if positions:
                slots.append((len(value.ir.steps), positions))
            value = BoundTraversal(value.graph, value.ir.then(name, *args, pos=link.pos))
        else:
            raise _Refuse
    if not isinstance(value, BoundTraversal):
        raise _Refuse
    return Template(value.graph, value.ir.source, value.ir.steps, tuple(slots), terminal)


def _args(nodes: tuple[ast.Expr, ...], bound: set[str], interpreter: Any) -> tuple[tuple[Any, ...], tuple[tuple[int, str], ...]]:
    """Evaluated constant arguments, with None where a binding goes, and those positions."""
    from gremlin_engine.syntax.interpreter import _arg_value

    args: list[Any] = []
    positions: list[tuple[int, str]] = []
    for i, node in enumerate(nodes):
        if isinstance(node, ast.VarRef) and node.name in bound:
            positions.append((i, node.name))
            args.append(None)
            continue
        if _mentions(node, bound):
            raise _Refuse
        value = _arg_value(interpreter.evaluate(node))
        if not _frozen(value):
            raise _Refuse
        args.append(value)
    return tuple(args), tuple(positions)


def _mentions(node: ast.Node, bound: set[str]) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.VarRef) and n.name in bound:
            return True
        stack.extend(ast.children(n))
    return False


def _frozen(value: Any) -> bool:
    """Whether a constant argument can be shared by every call (nothing can change it)."""
    if isinstance(value, _ATOMS):
        return True
    if type(value) is tuple:
        return all(_frozen(x) for x in value)
    if isinstance(value, P):
        v = value.value
        return all(_frozen(x) for x in v) if type(v) is list else _frozen(v)
    if isinstance(value, TraversalIR):
        return all(_frozen(a) for ins in (*value.source, *value.steps) for a in ins.args)
    return False
