"""Runs a script AST against a `ScriptHost`: `interpret(script, host) -> list`.

The interpreter understands the Groovy subset itself — variables, literals, operators,
`g`/`__` traversal chains, predicates, tokens, strategies — and turns traversal chains into
`TraversalIR` values (`host.py`: `TraversalSourceRef` -> `BoundTraversal`). Steps are not
validated here: a chain is pure syntax until the engine compiles it. Terminal methods
(`toList`, `next`, `iterate`, ...) call `host.run`; any other method on a host object
(`graph.schema()...`, `graph.addVertex(...)`, `v.addEdge(...)`) goes to
`host.call_method`, the runtime's whitelist. `sandbox.check` has already refused unsafe
constructs before the first statement runs.

The script's value is the value of its last statement, shaped like Gremlin Server's result
stream: a traversal nobody iterated is iterated (`toList`), a list/set/iterator gives one
result per item, a map gives one single-entry map per entry, anything else one result.
As in Groovy, a traversal built by an earlier statement and never iterated does nothing.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from gremlin_engine.bytecode import CardinalityValue, StrategySpec
from gremlin_engine.errors import GremlinSyntaxError, StepArgumentError, UnsupportedSyntax
from gremlin_engine.structure.numbers import Byte, Float, Int, Long, Short
from gremlin_engine.structure.result_size import check_result_size
from gremlin_engine.syntax import ast, names, operators, sandbox, script_shape
from gremlin_engine.syntax.checked import checked
from gremlin_engine.syntax.host import BoundTraversal, ScriptHost, TraversalSourceRef
from gremlin_engine.syntax.literals import LiteralError, parse_datetime, parse_uuid
from gremlin_engine.syntax.value_bounds import ValueBounds, is_handle
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P, make_predicate
from gremlin_engine.traversal.prepared import Prepared, PreparedCache
from gremlin_engine.traversal.tokens import TOKEN_ENUMS, Cardinality, token

# TinkerPop's IO "enum" is a set of string constants (what gremlinpython sends too).
IO_CONSTANTS = {
    "reader": "~tinkerpop.io.reader",
    "writer": "~tinkerpop.io.writer",
    "graphson": "graphson",
    "gryo": "gryo",
    "graphml": "graphml",
}

# Bare tokens (`desc`, `local`, `values`, `OUT`), first enum wins on a shared spelling.
_BARE_TOKEN_ORDER = (
    "T", "Column", "Scope", "Order", "Pop", "Cardinality", "Direction", "Operator", "Pick", "Merge", "DT", "Barrier",
)  # fmt: skip


@dataclass(frozen=True)
class Exhausted:
    """What `iterate()` leaves: Groovy returns the drained traversal, which yields nothing."""

    graph: str


#: the IR of a traversal a prepared entry compiled (`BoundTraversal.prepared` is what runs)
_NO_IR = TraversalIR()


@cache
def _bare_tokens() -> dict[str, Any]:
    table: dict[str, Any] = {}
    for enum_name in _BARE_TOKEN_ORDER:
        for member in TOKEN_ENUMS[enum_name]:
            table.setdefault(member.name.rstrip("_"), member)
    return table


def interpret(
    script: ast.Script | str, host: ScriptHost, *, as_value: bool = False, tree: ast.Script | None = None,
    text: script_shape.ScriptText | None = None, cache: PreparedCache | None = None,
) -> Any:
    """Runs a script and returns its result list (see the module docstring).

    With `as_value`, a script whose last statement is not a traversal or a collection gives
    that value itself (`1 + 2` -> `3`, not `[3]`): HugeGraph's async Gremlin jobs store a
    job's result that way, while Gremlin Server always streams a list. `tree` is the text's
    `checked` tree, `text` its `script_shape.ScriptText` and `cache` the registry's prepared
    traversals when the caller has them (the runtime's script door does): a prepared
    one-traversal script then runs without its tree being looked up at all."""
    try:
        if isinstance(script, str):
            if cache is None:
                cache = getattr(host, "prepared", None)  # a host without a registry has none
            if cache is not None:
                if text is None:
                    text = script_shape.text_record(cache, script, _cancel_of(host))
                entry = script_shape.lookup(cache, text, host, Interpreter)
                if entry is not None:
                    return run_prepared(entry, host, as_value)
        if tree is None:
            tree = checked(script, _cancel_of(host)) if isinstance(script, str) else sandbox.check(script)
        return Interpreter(host).run(tree, as_value=as_value)
    except RecursionError:
        raise GremlinSyntaxError("script is nested too deeply to evaluate") from None


def _cancel_of(host: ScriptHost) -> Any:
    """The run's CancelToken, where the host has one (RuntimeHost's session does)."""
    return getattr(getattr(host, "session", None), "cancel", None)


def run_prepared(entry: Prepared, host: Any, as_value: bool) -> Any:
    """What `Interpreter.run` gives for the one-traversal script `entry` was prepared from:
    its traversal bound to the host's bindings and run by the one executor (through
    `host.run_compiled`, as `host.run` would), then the terminal and the result shaping of
    the interpreter's own methods. An interpreter is made only when a terminal or the
    shaping of a value needs one."""
    graph = entry.graph
    assert graph is not None
    value: Any
    if entry.traversal is not None:
        names, bindings = entry.names, host.bindings
        compiled = entry.compiled([bindings[names[0]]] if len(names) == 1 else [bindings[n] for n in names])
        if entry.terminal is None:  # iterated as `results` would: no BoundTraversal needed
            return _stream(host.run_compiled(graph, compiled), weighed=True)
        value = BoundTraversal(graph, _NO_IR, compiled)
    else:
        value = BoundTraversal(graph, entry.script_ir(host.bindings, _arg_value))
    interp = Interpreter(host)
    if entry.terminal is not None:
        name, args, pos = entry.terminal
        value = interp.call(value, name, args, pos)
    if as_value and not _is_stream(value):
        return value
    return interp.results(value)


class Interpreter:
    """One script run: holds the script's local variables."""

    def __init__(self, host: ScriptHost) -> None:
        self.host = host
        self.vars: dict[str, Any] = {}

    @cached_property
    def bounds(self) -> ValueBounds:
        """The run's value bounds, made when the script first computes something of its own
        (a prepared one-traversal script never does); polls the run's CancelToken, where the
        host has one (RuntimeHost's session does)."""
        return ValueBounds(getattr(getattr(self.host, "session", None), "cancel", None))

    # ---- statements -----------------------------------------------------------------
    def run(self, script: ast.Script, as_value: bool = False) -> Any:
        value: Any = None
        ran = False
        for stmt in script.statements:
            self.bounds.budget.spend(1, "a statement")
            value = self.execute(stmt)
            ran = True
        if as_value and ran and not _is_stream(value):
            return value
        return self.results(value) if ran else []

    def argument(self, node: ast.Expr) -> Any:
        """A step argument written in the script, evaluated as the IR wants it."""
        return _arg_value(self.evaluate(node))

    def execute(self, stmt: ast.Stmt) -> Any:
        if isinstance(stmt, ast.Assign):
            value = self.evaluate(stmt.value)
            self.vars[stmt.name] = value
            return value
        if isinstance(stmt, ast.ExprStmt):
            return self.evaluate(stmt.expr)
        raise UnsupportedSyntax(f"unsupported statement {type(stmt).__name__}" + sandbox.where(stmt.pos))

    def results(self, value: Any) -> list[Any]:
        """The result stream of a script whose last statement gave `value`."""
        if isinstance(value, BoundTraversal):
            value = self.host.run(value, "toList", ())
        elif isinstance(value, Exhausted):
            return []
        elif isinstance(value, TraversalSourceRef):
            return [f"graphtraversalsource[{value.graph}, standard]"]
        elif isinstance(value, TraversalIR):
            raise UnsupportedSyntax(
                "an anonymous traversal (`__...`) cannot be iterated without a traversal source"
            )
        else:  # a script's own value: script objects may sit anywhere inside it
            value = _script_value(value)
        return _stream(value)

    # ---- expressions ----------------------------------------------------------------
    def evaluate(self, node: ast.Expr) -> Any:
        method = _DISPATCH.get(type(node))
        if method is None:
            raise UnsupportedSyntax(f"unsupported expression {type(node).__name__}" + sandbox.where(node.pos))
        return method(self, node)

    def _literal(self, node: ast.Literal) -> Any:
        return node.value

    def _list(self, node: ast.ListLit) -> list[Any]:
        return self.bounds.sized([self.evaluate(i) for i in node.items], "a list literal")

    def _set(self, node: ast.SetLit) -> set[Any]:
        return self.bounds.sized({_hashable(self.evaluate(i)) for i in node.items}, "a set literal")

    def _map(self, node: ast.MapLit) -> dict[Any, Any]:
        return self.bounds.sized({_hashable(self.evaluate(k)): self.evaluate(v) for k, v in node.entries}, "a map literal")

    def _paren(self, node: ast.Paren) -> Any:
        return self.evaluate(node.expr)

    def _var(self, node: ast.VarRef) -> Any:
        name = node.name
        if name in self.vars:
            return self.vars[name]
        try:
            return self.host.lookup(name)
        except KeyError:
            pass
        bare = _bare_tokens().get(name)
        if bare is not None:
            return bare
        if names.STRATEGY_NAME.match(name):
            return StrategySpec(name, {})
        raise GremlinSyntaxError(f"No such property: {name} for class: Script", *(node.pos or (None, None)))

    def _token(self, node: ast.TokenRef) -> Any:
        if node.enum == "IO" and node.member in IO_CONSTANTS:
            return IO_CONSTANTS[node.member]
        if node.enum not in TOKEN_ENUMS:
            raise UnsupportedSyntax(f"the enum `{node.enum}` is not supported" + sandbox.where(node.pos))
        try:
            return token(node.enum, node.member)
        except KeyError:
            raise GremlinSyntaxError(
                f"No such property: {node.member} for class: {node.enum}", *(node.pos or (None, None))
            ) from None

    def _token_call(self, node: ast.TokenCall) -> Any:
        if node.enum != "Cardinality":
            raise UnsupportedSyntax(
                f"`{node.enum}.{node.member}(...)` is not supported" + sandbox.where(node.pos)
            )
        card = self._token(ast.TokenRef(node.enum, node.member, node.pos))
        args = self.args(node.args)
        if len(args) != 1:
            raise StepArgumentError(f"Cardinality.{node.member}() takes one value")
        assert isinstance(card, Cardinality)
        return CardinalityValue(card, args[0])

    def _anon(self, node: ast.AnonTraversal) -> TraversalIR:
        return TraversalIR(anonymous=True)

    def _predicate(self, node: ast.PredicateCall) -> P:
        args = self.args(node.args)
        try:
            return make_predicate(node.family, node.name, args)
        except StepArgumentError as e:  # e.g. a regex RE2 cannot run: say where it is
            raise StepArgumentError(str(e) + sandbox.where(node.pos)) from None

    def _function(self, node: ast.FunctionCall) -> Any:
        args = self.args(node.args)
        try:
            if node.name in ("datetime", "DateTime"):
                if not args:
                    return datetime.datetime.now(datetime.UTC)
                if len(args) == 1 and isinstance(args[0], str):
                    return parse_datetime(args[0])
                raise StepArgumentError(f"{node.name}() takes one ISO-8601 string")
            if node.name == "UUID":
                if not args:
                    return uuid.uuid4()
                if len(args) == 1 and isinstance(args[0], str):
                    return parse_uuid(args[0])
                raise StepArgumentError("UUID() takes one string")
        except LiteralError as e:
            raise StepArgumentError(str(e)) from None
        # `not`: the predicate for a predicate argument, the step otherwise
        if len(args) == 1 and isinstance(args[0], P):
            return make_predicate("P", "not", args)
        return TraversalIR(anonymous=True).then("not", *args, pos=node.pos)

    def _new(self, node: ast.NewObject) -> StrategySpec:
        if not names.STRATEGY_NAME.match(node.class_name):
            raise UnsupportedSyntax(f"object construction `new {node.class_name}(...)` is not supported")
        config: dict[str, Any] = {}
        for a in node.args:
            if not isinstance(a, ast.NamedArg):
                raise StepArgumentError(
                    f"{node.class_name} takes named arguments only, e.g. `{node.class_name}(k: v)`"
                )
            config[a.name] = _arg_value(self.evaluate(a.value))
        return StrategySpec(node.class_name, config)

    def _unary(self, node: ast.UnaryOp) -> Any:
        return operators.unary(node.op, self.evaluate(node.operand))

    def _binary(self, node: ast.BinaryOp) -> Any:
        if node.op == "&&":
            return operators.truthy(self.evaluate(node.left)) and operators.truthy(self.evaluate(node.right))
        if node.op == "||":
            return operators.truthy(self.evaluate(node.left)) or operators.truthy(self.evaluate(node.right))
        left, right = self.evaluate(node.left), self.evaluate(node.right)
        what = f"the operator '{node.op}'" + sandbox.where(node.pos)
        if node.op == "+" and (isinstance(left, str) or isinstance(right, str)):
            # bounded before the string is built: the operand's text is about its weight
            for side in (left, right):
                if not isinstance(side, str) and isinstance(side, list | tuple):
                    self.bounds.sized(side, f"an operand of {what}")
        try:
            result = operators.binary(node.op, left, right)
        except (decimal.DecimalException, OverflowError) as e:
            raise StepArgumentError(f"{what} cannot be computed: {type(e).__name__}") from None
        if isinstance(result, str | list):
            return self.bounds.sized(result, f"the value of {what}")
        return self.bounds.number(result, what)

    def _chain(self, node: ast.MethodCall | ast.PropertyGet) -> Any:
        # Unwound iteratively: a 1000-step chain must not recurse 1000 deep.
        links: list[ast.MethodCall | ast.PropertyGet] = []
        cur: ast.Expr = node
        while isinstance(cur, ast.MethodCall | ast.PropertyGet):
            links.append(cur)
            cur = cur.target
        value = self.evaluate(cur)
        for link in reversed(links):
            if isinstance(link, ast.MethodCall):
                value = self.call(value, link.name, self.args(link.args), link.pos)
            else:
                value = self.get(value, link.name, link.pos)
        return value

    def _reject(self, node: ast.Expr) -> Any:
        sandbox.check(ast.Script((ast.ExprStmt(node, node.pos),)))
        raise UnsupportedSyntax(f"unsupported construct {type(node).__name__}" + sandbox.where(node.pos))

    # ---- calls ----------------------------------------------------------------------
    def args(self, nodes: tuple[ast.Expr, ...]) -> tuple[Any, ...]:
        """Evaluates call arguments; Groovy named arguments become one leading map."""
        positional: list[Any] = []
        named: dict[str, Any] = {}
        for n in nodes:
            if isinstance(n, ast.NamedArg):
                named[n.name] = _arg_value(self.evaluate(n.value))
            else:
                positional.append(_arg_value(self.evaluate(n)))
        return (named, *positional) if named else tuple(positional)

    def call(self, target: Any, name: str, args: tuple[Any, ...], pos: ast.Pos) -> Any:
        if isinstance(target, BoundTraversal):
            if name == "iterate":
                self.host.run(target, name, args)
                return Exhausted(target.graph)
            if name in names.TERMINALS:
                return self.host.run(target, name, args)
            return BoundTraversal(target.graph, target.ir.then(name, *args, pos=pos))
        if isinstance(target, TraversalIR):
            if name in names.TERMINALS:
                raise UnsupportedSyntax(
                    f"`{name}()` on an anonymous traversal: `__` traversals cannot be iterated"
                    + sandbox.where(pos)
                )
            return target.then(name, *args, pos=pos)
        if isinstance(target, TraversalSourceRef):
            return self.source_call(target, name, args, pos)
        if isinstance(target, Exhausted):
            drained = {
                "toList": [],
                "toSet": set(),
                "toBulkSet": [],
                "hasNext": False,
                "tryNext": None,
                "iterate": target,
            }
            if name in drained and not args:
                return drained[name]
            raise UnsupportedSyntax(f"`.{name}()` on an iterated traversal" + sandbox.where(pos))
        if isinstance(target, P):
            if name in ("and", "or") and len(args) == 1 and isinstance(args[0], P):
                return target.and_(args[0]) if name == "and" else target.or_(args[0])
            if name == "negate" and not args:
                return target.negate()
            raise UnsupportedSyntax(
                f"`.{name}()` is not a predicate method (and, or, negate)" + sandbox.where(pos)
            )
        if _is_plain_value(target):
            raise UnsupportedSyntax(
                f"method calls on {sandbox.literal_kind(target)} values are not supported: `.{name}()`"
                + sandbox.where(pos)
            )
        return self.host.call_method(target, name, args)

    def source_call(self, src: TraversalSourceRef, name: str, args: tuple[Any, ...], pos: ast.Pos) -> Any:
        if name in names.SPAWNS:
            ir = TraversalIR(src.ir.source, (Instruction(name, args, pos),))
            return BoundTraversal(src.graph, ir)
        if name == "withStrategies":
            # As the bytecode decoder does: strategies first, then OptionsStrategy's entries
            # as `with(k, v)` (what gremlinpython's `g.with_(k, v)` sends).
            specs, options = [], []
            for a in args:
                if not isinstance(a, StrategySpec):
                    raise StepArgumentError(f"withStrategies() takes strategies, not {a!r}")
                if a.name == "OptionsStrategy":
                    options.extend(a.config.items())
                else:
                    specs.append(a)
            ir = src.ir.with_source("withStrategies", *specs) if specs else src.ir
            for k, v in options:
                ir = ir.with_source("with", k, v)
            return TraversalSourceRef(src.graph, ir)
        if name == "withoutStrategies":
            strategy_names = tuple(a.name if isinstance(a, StrategySpec) else str(a) for a in args)
            return TraversalSourceRef(src.graph, src.ir.with_source(name, *strategy_names))
        if name in names.SOURCE_MODIFIERS:
            return TraversalSourceRef(src.graph, src.ir.with_source(name, *args))
        return self.host.call_method(src, name, args)

    def get(self, target: Any, name: str, pos: ast.Pos) -> Any:
        if isinstance(
            target, BoundTraversal | TraversalIR | TraversalSourceRef | P | Exhausted
        ) or _is_plain_value(target):
            kind = "traversal" if not _is_plain_value(target) else sandbox.literal_kind(target)
            raise UnsupportedSyntax(
                f"property access on {kind} values is not supported: `.{name}`" + sandbox.where(pos)
            )
        return self.host.get_property(target, name)


def _is_plain_value(v: Any) -> bool:
    """Values the script language owns; no method of theirs is exposed to scripts."""
    return v is None or isinstance(
        v,
        str
        | bytes
        | int
        | float
        | decimal.Decimal
        | list
        | tuple
        | dict
        | set
        | frozenset
        | enum.Enum
        | datetime.datetime
        | uuid.UUID
        | StrategySpec
        | CardinalityValue,
    )


def _arg_value(v: Any) -> Any:
    """A step argument as the IR wants it: a spawned traversal passes its IR. A host handle
    (`graph.schema()`, a schema builder) is no value: it may not travel into a traversal,
    a side effect, a sack or a strategy, where a result would carry it out."""
    if isinstance(v, BoundTraversal):
        return v.ir
    if isinstance(v, TraversalSourceRef):
        raise UnsupportedSyntax("a traversal source (`g`) cannot be passed as an argument")
    if _is_handle(v):
        raise UnsupportedSyntax(f"a {type(v).__name__} cannot be passed as an argument")
    return v


def _is_handle(v: Any) -> bool:
    return is_handle(v, _is_plain_value(v))


def _stream(value: Any, weighed: bool = False) -> list[Any]:
    """The result stream of a value: a map gives one single-entry map per entry, a
    collection one result per item, anything else one result (host handles renamed).
    `weighed`: `value` is a result list the host has weighed already."""
    if type(value) is dict:
        return _bounded([{k: _shown(v)} for k, v in value.items()])
    if type(value) is list and _SHOWN_AS_IS.issuperset(map(type, value)):
        # a listing of ids, names or counts: nothing to rename
        return value if weighed else _bounded(value)
    if isinstance(value, list | tuple | set | frozenset | Iterator):
        return _bounded([_shown(v) for v in value])
    return _bounded([_shown(value)])


def _bounded(results: list[Any]) -> list[Any]:
    """A script's results, once within MAX_RESULT_BYTES written out."""
    check_result_size(results)
    return results


def _script_value(v: Any) -> Any:
    """A script value with the script objects inside it (`[g]`, `[g.V()]`, `[P.gt(1)]`)
    written as Groovy's `toString` shows them: they are no result values, and a
    Python repr (`TraversalSourceRef(graph='g', ...)`) or a serialisation error (599 on the
    wire) is all a client got for them before."""
    if isinstance(v, TraversalSourceRef):
        return f"graphtraversalsource[{v.graph}, standard]"
    if isinstance(v, BoundTraversal):
        return str(v.ir)
    if isinstance(v, TraversalIR | P):
        return str(v)
    if type(v) is list:
        return [_script_value(x) for x in v]
    if type(v) is tuple:  # a list inside a set (`{[]}`): hashable, so kept a tuple
        return tuple(_script_value(x) for x in v)
    if type(v) is dict:
        return {k: _script_value(x) for k, x in v.items()}
    if type(v) is set or type(v) is frozenset:
        return type(v)(_script_value(x) for x in v)
    return v


#: result types that are never a host handle (`_shown` gives them back unchanged)
_SHOWN_AS_IS = frozenset({str, int, float, bool, type(None), Int, Long, Float, Byte, Short})


def _shown(v: Any) -> Any:
    """A result value, with host handles (see `_is_handle`) named by their class only."""
    if _is_handle(v):
        return type(v).__name__
    if type(v) is dict:
        return {k: _shown(x) for k, x in v.items()}
    return v


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict | set):
        raise StepArgumentError(f"a {type(v).__name__} cannot be a set element or map key")
    return v


_DISPATCH: dict[type, Any] = {
    ast.Literal: Interpreter._literal,
    ast.ListLit: Interpreter._list,
    ast.SetLit: Interpreter._set,
    ast.MapLit: Interpreter._map,
    ast.Paren: Interpreter._paren,
    ast.VarRef: Interpreter._var,
    ast.TokenRef: Interpreter._token,
    ast.TokenCall: Interpreter._token_call,
    ast.AnonTraversal: Interpreter._anon,
    ast.PredicateCall: Interpreter._predicate,
    ast.FunctionCall: Interpreter._function,
    ast.NewObject: Interpreter._new,
    ast.UnaryOp: Interpreter._unary,
    ast.BinaryOp: Interpreter._binary,
    ast.MethodCall: Interpreter._chain,
    ast.PropertyGet: Interpreter._chain,
    ast.Closure: Interpreter._reject,
    ast.GString: Interpreter._reject,
    ast.NamedArg: Interpreter._reject,
}


def _is_stream(value: Any) -> bool:
    """Whether a script value is iterated into several results (traversals, collections)."""
    return isinstance(
        value, BoundTraversal | Exhausted | TraversalSourceRef | TraversalIR | list | tuple | set | frozenset | Iterator
    )
