"""Scripts that are one traversal over bindings, prepared once per text and name classes.

A server sees the same few script texts over and over with new binding values
(`g.V(vid).values('name')` with `vid` bound). The parse is cached by text; here the rest of the
work is done once per text and *name classes* and kept in the registry's prepared-traversal
cache (`traversal/prepared.py`): the walk of the AST into a `TraversalIR` and, when every
binding stands where the IR has a slot (a root `V(id)`/`E(id)`, the value of `has(k, v)`), the
compiled traversal with its slot binder, so a call binds its values and runs. When a binding
stands anywhere else the entry keeps the IR with the binding positions, and a call puts its
values in and takes the cache's IR door.

Which scripts qualify (anything else runs through the interpreter):

* one expression statement, a chain of method calls whose root is a name that resolves to a
  traversal source (`g`, `__g_<graph>`, an alias of one);
* source modifiers (`withSideEffect`, ...) with constant arguments, one spawn (`V`, `E`,
  `inject`, ...), then steps, then at most one terminal (`toList`, `next`, ...) with constant
  arguments;
* a binding may stand as a whole top-level argument of the spawn or of a step; a binding
  anywhere else (inside a predicate, a list, a nested `__` traversal, a source modifier, a
  terminal) disqualifies the script for that set of bindings;
* every constant argument is immutable (strings, numbers, tokens, predicates, tuples, nested
  traversals of those) and evaluated the same way every time: no named arguments, and no
  argument-less `datetime()` / `UUID()` calls (those read the clock or draw a random value).

Exactness: the key is the script text plus how each name of the script resolves *now* (a
binding with the type class of its value, the traversal source it names, or unbound), so a
binding named `g`, a new alias or another binding type never reuses an old entry (the
registry clears the cache when graphs come and go). A slot receives the binding value exactly
as the interpreter would pass it (`Interpreter.argument`), and the terminal and the result shaping run
through the interpreter's own methods. Nothing new is evaluated: the tree was sandbox-checked
before, and binding values are only ever placed into instructions.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable
from enum import Enum
from typing import Any

from gremlin_engine.syntax import ast, names
from gremlin_engine.syntax.checked import checked
from gremlin_engine.syntax.host import BoundTraversal, TraversalSourceRef
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.prepared import (
    REFUSED,
    NoKey,
    Prepared,
    PreparedCache,
    has_atom,
    ir_key,
    ir_shape,
    template,
)
from gremlin_engine.traversal.slot_binder import marker, slot_class

_BINDING = "binding"
_UNBOUND = "unbound"
_ATOMS = (str, int, float, bool, type(None), Enum, uuid.UUID, decimal.Decimal, datetime.datetime)
_SHAPE = "script shape"
#: prepared entries kept per script text (one per way its names resolve; past this many the
#: text's entries start over)
MAX_CLASSES = 8
_SOURCE = "source"


class _Refuse(Exception):
    """The script does not qualify: run it through the interpreter."""


class ScriptText:
    """What a script text says whatever its bindings, kept once per text (a hit means the
    text was parsed and passed the sandbox before): the text itself (the cache key's own
    string), whether it may write (`writes`, filled by the runtime's intent scan, None until
    asked), and for a one-traversal chain its root name and every name it mentions (`root`
    None: the script never qualifies)."""

    __slots__ = ("text", "root", "names", "writes", "entries")

    def __init__(self, text: str, root: str | None, names_: tuple[str, ...], writes: bool | None) -> None:
        self.text = text
        self.root = root
        self.names = names_
        self.writes = writes
        #: the prepared entries of this text by name classes: they live and die with the
        #: text's record in the cache (a handful per text; `MAX_CLASSES` at most)
        self.entries: dict[tuple[Any, ...], Any] = {}


def text_record(
    cache: PreparedCache, text: str, cancel: Any = None, writes_of: Callable[[ast.Script], bool] | None = None,
) -> ScriptText:
    """The `ScriptText` of `text`, made from its parsed, sandbox-checked tree (`checked`,
    polling `cancel`) on first sight; `writes_of(tree)` fills `writes` when given. A hit
    is one cache read."""
    key = (_SHAPE, text)
    found: ScriptText | None = cache.get(key)
    if found is None or (found.writes is None and writes_of is not None):
        tree = checked(text, cancel)
        if found is None:
            found = _shape(text, tree)
            cache.put(key, found)
        if writes_of is not None:
            found.writes = writes_of(tree)
    return found


def lookup(cache: PreparedCache, record: ScriptText, host: Any, make_interpreter: Callable[[Any], Any]) -> Prepared | None:
    """The prepared entry for `record`'s text under `host`'s current names and binding types,
    made on first use (with `make_interpreter(host)` evaluating its constant arguments);
    None when the script must run through the interpreter.

    The entry's key is how each name of the text resolves now: a binding (with its value's
    slot class), the source the root names, or unbound."""
    root = record.root
    if root is None:
        return None
    bindings = host.bindings
    if type(bindings) is not dict:
        return None
    out: list[Any] = []
    plain = host.plain_source  # every host that has a prepared cache (RuntimeHost) says
    for name in record.names:
        if name in bindings:
            if name == root:
                return None
            out.append((_BINDING, slot_class(bindings[name])))
            continue
        if name == root:
            graph = plain(name)  # `g` as the default graph's plain source, without making one
            if graph is not None:
                out.append((_SOURCE, graph))
                continue
        try:
            value = host.lookup(name)
        except KeyError:
            out.append(_UNBOUND)
            continue
        if name != root or type(value) is not TraversalSourceRef:
            return None
        # a plain source by its graph's name: hashing and comparing the dataclass (and its
        # empty IR) cost more than the rest of the key
        out.append((_SOURCE, value.graph) if not value.ir.source else value)
    classes = tuple(out)
    entries = record.entries
    found = entries.get(classes)
    if found is None:
        try:
            tree = checked(record.text, getattr(getattr(host, "session", None), "cancel", None))
            found = _build(tree, classes, record, make_interpreter(host), bindings, host)
        except _Refuse:
            found = REFUSED
        except Exception:  # the interpreter raises the real error when it runs the script
            found = REFUSED
        if len(entries) >= MAX_CLASSES:
            entries.clear()
        entries[classes] = found
    return None if found is REFUSED else found  # type: ignore[no-any-return]


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


def _shape(text: str, tree: ast.Script) -> ScriptText:
    refused = ScriptText(text, None, (), None)
    if len(tree.statements) != 1 or not isinstance(tree.statements[0], ast.ExprStmt):
        return refused
    try:
        root, links = _links(tree.statements[0].expr)
    except _Refuse:
        return refused
    found: dict[str, None] = {root: None}
    stack: list[ast.Node] = [a for link in links for a in link.args]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.NamedArg | ast.Closure | ast.GString | ast.NewObject):
            return refused
        if isinstance(node, ast.FunctionCall) and not node.args:
            return refused  # datetime() / UUID(): a new value on every call
        if isinstance(node, ast.VarRef):
            found.setdefault(node.name, None)
        stack.extend(ast.children(node))
    return ScriptText(text, root, tuple(found), None)


def _build(
    tree: ast.Script, classes: tuple[Any, ...], shape: ScriptText, interpreter: Any, bindings: dict[str, Any], host: Any,
) -> Prepared:
    bound = {n for n, c in zip(shape.names, classes, strict=True) if type(c) is tuple and c[0] == _BINDING}
    _root, links = _links(tree.statements[0].expr)  # type: ignore[attr-defined]
    value = host.lookup(shape.root)  # the root's TraversalSourceRef (classified above)
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
                value = interpreter.source_call(value, name, args, link.pos)
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
    entry = _compiled_entry(value.ir, tuple(slots), classes, terminal, host, value.graph)
    if entry is None:  # the bindings cannot be slots: keep the IR, the IR door compiles it
        entry = Prepared(None)
        entry.ir, entry.ir_slots = value.ir, tuple(slots)
    entry.graph, entry.terminal = value.graph, terminal
    return entry


def _compiled_entry(
    ir: TraversalIR, slots: tuple[tuple[int, tuple[tuple[int, str], ...]], ...], classes: tuple[Any, ...],
    terminal: tuple[str, tuple[Any, ...], ast.Pos] | None, host: Any, graph: str,
) -> Prepared | None:
    """The compiled template of a script whose every binding stands where the IR has a slot
    (so no compiler decision or strategy can depend on its value), or None."""
    if not slots or (terminal is not None and terminal[0] == "explain"):
        return None
    if any(type(c) is tuple and c[0] == _BINDING and c[1] in (None, dict) for c in classes):
        return None  # a binding of a type that is never a slot
    order = tuple(name for _index, positions in slots for _arg, name in positions)
    markers = [marker(host.bindings[name], i) for i, name in enumerate(order)]
    try:
        atoms = {(type(m), m) for m in markers}
        if has_atom(ir_key(ir), atoms):
            return None  # a marker value is written in the script itself
    except NoKey:
        return None
    steps = list(ir.steps)
    it = iter(markers)
    for index, positions in slots:
        ins = steps[index]
        args = list(ins.args)
        for arg_index, _name in positions:
            args[arg_index] = next(it)
        steps[index] = Instruction(ins.name, tuple(args), ins.pos)
    marked = TraversalIR(ir.source, tuple(steps), ir.anonymous)
    values: list[Any] = []
    ir_shape(marked, values)
    if len(values) != len(markers) or any(type(v) is not type(m) or v != m for v, m in zip(values, markers, strict=True)):
        return None  # a binding outside the IR's slot positions, or a constant in one
    strategies_for = getattr(host, "strategies_for", None)  # a graph may run unoptimised
    strategies = strategies_for(graph) if strategies_for is not None else True
    entry = template(marked, markers, strategies)
    if entry is not None:
        entry.names = order
    return entry


def _args(nodes: tuple[ast.Expr, ...], bound: set[str], interpreter: Any) -> tuple[tuple[Any, ...], tuple[tuple[int, str], ...]]:
    """Evaluated constant arguments, with None where a binding goes, and those positions."""
    args: list[Any] = []
    positions: list[tuple[int, str]] = []
    for i, node in enumerate(nodes):
        if isinstance(node, ast.VarRef) and node.name in bound:
            positions.append((i, node.name))
            args.append(None)
            continue
        if _mentions(node, bound):
            raise _Refuse
        value = interpreter.argument(node)
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
