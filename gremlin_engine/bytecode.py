"""gremlinpython `Bytecode` to the traversal IR: the boundary for every bytecode request.

A bytecode traversal reaches the engine two ways: decoded from a WebSocket frame by the
GraphBinary/GraphSON readers in `rest_adapter/serializers/`, or handed over directly by
`gremlin_engine.embedded.EmbeddedConnection`. Both give gremlinpython objects (`Bytecode`,
`P`, `TextP`, its enums, `Binding`, `TraversalStrategy`, its `Vertex`/`Edge`, `statics.long`
...), and the readers additionally give our Java-typed numbers. This module turns all of
that into `TraversalIR` with engine values, so nothing past it sees a gremlinpython object:

* numbers become `gremlin_engine.structure.numbers` types (a plain `int` Integer or Long by
  size, `statics.long` Long, `SingleByte` Byte, gremlinpython `BigDecimal` a `Decimal`);
* enums become `gremlin_engine.traversal.tokens` members, `P`/`TextP` our predicates,
  nested bytecode an anonymous `TraversalIR`;
* `withStrategies(OptionsStrategy(k=v))` (what `g.with_('k', v)` sends) becomes one source
  instruction `with(k, v)` per option; other strategies become `withStrategies(StrategySpec)`
  and `withoutStrategies(Class)` arguments become strategy simple names;
* `with_(WithOptions.tokens, WithOptions.ids)` arrives as `("~tinkerpop.valueMap.tokens", 1)`
  and becomes `(WithOptions.tokens, WithOptions.ids)` again;
* lambdas are refused: scripts and bytecode never run client-supplied code.

gremlin_python is imported lazily so that the engine stays importable without it (it is an
optional, server-side dependency); `embedded.py` is the only other module that needs it.
"""

from __future__ import annotations

import datetime
import decimal
import types
import uuid
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gremlin_engine.errors import NotSupported, StepArgumentError
from gremlin_engine.schema.coercion import java_class_name
from gremlin_engine.structure import numbers as num
from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P, make_predicate
from gremlin_engine.traversal.tokens import TOKEN_ENUMS, WithOptions, token

OPTIONS_STRATEGY = "OptionsStrategy"
_VALUEMAP_TOKENS = "~tinkerpop.valueMap.tokens"
_INDEXER = "~tinkerpop.index.indexer"
_TOKENS_BY_MASK = {
    0: WithOptions.none, 1: WithOptions.ids, 2: WithOptions.labels, 4: WithOptions.keys,
    8: WithOptions.values, 15: WithOptions.all,
}
_INDEXER_BY_CODE = {0: WithOptions.list, 1: WithOptions.map}


@dataclass(frozen=True)
class StrategySpec:
    """A traversal strategy named by a client: `SubgraphStrategy(vertices=__.has(...))`.

    `name` is the simple class name, `config` its configuration with engine values."""

    name: str
    config: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class CardinalityValue:
    """`Cardinality.single('x')` inside `mergeV`/`property` maps (gremlinpython's
    `CardinalityValue`)."""

    cardinality: Any
    value: Any


@dataclass(frozen=True)
class GraphOp:
    """`g.tx().commit()` / `.rollback()` sent as bytecode (source instruction `tx`)."""

    name: str  # "commit" | "rollback"


@cache
def _gp() -> types.SimpleNamespace:
    """The gremlinpython classes we recognise, imported on first use."""
    from gremlin_python import statics
    from gremlin_python.process import traversal as tr
    from gremlin_python.structure import graph as gs
    from gremlin_python.structure.io.util import SymbolUtil

    return types.SimpleNamespace(
        statics=statics, Bytecode=tr.Bytecode, Traversal=tr.Traversal, P=tr.P, TextP=tr.TextP,
        Binding=tr.Binding, TraversalStrategy=tr.TraversalStrategy, Traverser=tr.Traverser,
        Vertex=gs.Vertex, Edge=gs.Edge, VertexProperty=gs.VertexProperty, Property=gs.Property,
        Path=gs.Path, camel=SymbolUtil.to_camel_case,
    )


# ---- public entry points ----------------------------------------------------------------
def graph_op(bytecode: Any) -> GraphOp | None:
    """The transaction operation a bytecode stands for, or None for an ordinary traversal."""
    gp = _gp()
    bc = bytecode.bytecode if isinstance(bytecode, gp.Traversal) else bytecode
    src = getattr(bc, "source_instructions", None) or []
    if not getattr(bc, "step_instructions", None) and len(src) == 1 and src[0][0] == "tx":
        op = src[0][1] if len(src[0]) > 1 else None
        if op in ("commit", "rollback"):
            return GraphOp(op)
        raise StepArgumentError(f"unknown transaction operation tx({op!r}); use commit or rollback")
    return None


def to_ir(bytecode: Any, anonymous: bool = False) -> TraversalIR:
    """Converts a gremlinpython `Bytecode` (or `Traversal`) into a `TraversalIR`."""
    gp = _gp()
    bc = bytecode.bytecode if isinstance(bytecode, gp.Traversal) else bytecode
    if not isinstance(bc, gp.Bytecode):
        raise StepArgumentError(f"expected traversal bytecode, got {java_class_name(bytecode)}")
    source: list[Instruction] = []
    for inst in bc.source_instructions:
        source.extend(_source_instruction(inst[0], inst[1:]))
    steps = tuple(_step_instruction(inst[0], inst[1:]) for inst in bc.step_instructions)
    return TraversalIR(tuple(source), steps, anonymous)


def request_options(ir: TraversalIR) -> dict[str, Any]:
    """The `with(k, v)` source options of a traversal (`evaluationTimeout`, `batchSize`...)."""
    return {i.args[0]: (i.args[1] if len(i.args) > 1 else True) for i in ir.source if i.name == "with" and i.args}


def from_wire(value: Any) -> Any:
    """One argument or binding value from gremlinpython's model to the engine's."""
    if value is None or type(value) in _PASS:
        return value
    if isinstance(value, bool):
        return value
    gp = _gp()
    st = gp.statics
    if isinstance(value, int):
        if isinstance(value, st.long):
            return num.Long(value)
        if isinstance(value, st.short):
            return num.Short(value)
        if isinstance(value, st.SingleByte):
            return num.Byte(value)
        if isinstance(value, st.bigint):
            return num.BigInt(value)
        return num.normalize(int(value))
    if isinstance(value, float):
        if isinstance(value, num.Float):
            return value
        if isinstance(value, st.timestamp):
            return datetime.datetime.fromtimestamp(float(value), datetime.UTC)
        return float(value)
    if isinstance(value, str):
        return str(value)  # drops SingleChar
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=datetime.UTC)
        return value.astimezone(datetime.UTC)
    if isinstance(value, decimal.Decimal):
        return value
    if isinstance(value, st.BigDecimal):
        return decimal.Decimal(value.unscaled_value).scaleb(-value.scale)
    if isinstance(value, gp.Bytecode | gp.Traversal):
        return _nested(value)
    if isinstance(value, gp.P):
        return _predicate(value)
    if isinstance(value, gp.Binding):
        return from_wire(value.value)
    if isinstance(value, list | tuple):
        return [from_wire(v) for v in value]
    if isinstance(value, set | frozenset):
        return {_hashable(from_wire(v)) for v in value}
    if isinstance(value, dict):
        return {_hashable(from_wire(k)): from_wire(v) for k, v in value.items()}
    enum_name = type(value).__name__
    if enum_name in TOKEN_ENUMS and type(value).__module__.startswith("gremlin_python"):
        return _token(enum_name, value.name)
    if isinstance(value, gp.TraversalStrategy):
        return _strategy(value)
    if isinstance(value, st.GremlinType):
        return _simple_name(value.gremlin_type)
    if isinstance(value, type):
        return value.__name__  # withoutStrategies(ReadOnlyStrategy) handed over in-process
    if isinstance(value, types.FunctionType | types.LambdaType | types.BuiltinFunctionType):
        raise NotSupported(f"lambdas are not supported (got {_lambda_text(value)}); "
                           "use Gremlin steps instead of a closure")
    if isinstance(value, gp.Vertex):
        return Vertex(from_wire(value.id), value.label or "vertex")
    if isinstance(value, gp.Edge):
        return Edge(from_wire(value.id), value.label, from_wire(value.outV), from_wire(value.inV))
    if isinstance(value, gp.VertexProperty):
        return VertexProperty(from_wire(value.id), value.label, from_wire(value.value))
    if isinstance(value, gp.Property):
        return Property(value.key, from_wire(value.value))
    if isinstance(value, gp.Path):
        return Path(tuple(frozenset(ls) for ls in value.labels), tuple(from_wire(o) for o in value.objects))
    if isinstance(value, gp.Traverser):
        return from_wire(value.object)
    if type(value).__module__.startswith("gremlin_engine"):
        return value  # already ours (tokens, predicates, elements)
    raise StepArgumentError(f"unsupported argument type {type(value).__name__}: {value!r}")


_PASS = frozenset({str, num.Int, num.Long, num.Short, num.Byte, num.BigInt, num.Float, float, uuid.UUID, bytes,
                   datetime.timedelta})


# ---- helpers ------------------------------------------------------------------------------
def _source_instruction(name: str, args: tuple[Any, ...] | list[Any]) -> list[Instruction]:
    gp = _gp()
    if name == "withStrategies":
        out: list[Instruction] = []
        specs = []
        for a in args:
            if isinstance(a, gp.TraversalStrategy) and _simple_name(a.fqcn or a.strategy_name) == OPTIONS_STRATEGY:
                out.extend(Instruction("with", (str(k), from_wire(v))) for k, v in a.configuration.items())
            else:
                specs.append(from_wire(a))
        if specs:
            out.insert(0, Instruction("withStrategies", tuple(specs)))
        return out
    if name == "withoutStrategies":
        return [Instruction(name, tuple(_strategy_name(a) for a in args))]
    if name == "tx":
        raise StepArgumentError("g.tx() commit/rollback must be sent on its own, not inside a traversal")
    return [Instruction(name, tuple(from_wire(a) for a in args))]


def _step_instruction(name: str, args: tuple[Any, ...] | list[Any]) -> Instruction:
    if name == "with" and args and args[0] in (_VALUEMAP_TOKENS, _INDEXER):
        key = WithOptions.tokens if args[0] == _VALUEMAP_TOKENS else WithOptions.indexer
        table = _TOKENS_BY_MASK if key is WithOptions.tokens else _INDEXER_BY_CODE
        rest = tuple(table.get(int(a), from_wire(a)) if isinstance(a, int) else from_wire(a) for a in args[1:])
        return Instruction(name, (key, *rest))
    return Instruction(name, tuple(from_wire(a) for a in args))


def _nested(value: Any) -> Any:
    gp = _gp()
    bc = value.bytecode if isinstance(value, gp.Traversal) else value
    src = bc.source_instructions
    if src and src[0][0] == "CardinalityValueTraversal":
        _, card, val = src[0]
        return CardinalityValue(from_wire(card), from_wire(val))
    return to_ir(bc, anonymous=True)


def _predicate(p: Any) -> P:
    gp = _gp()
    family = "TextP" if isinstance(p, gp.TextP) else "P"
    op = p.operator
    if op in ("and", "or"):
        return make_predicate("P", op, [_predicate_arg(p.value), _predicate_arg(p.other)])
    if op == "not":
        return make_predicate("P", "not", [_predicate_arg(p.value)])
    if p.other is not None:
        args = [from_wire(p.value), from_wire(p.other)]
    elif op in ("within", "without"):
        v = from_wire(p.value)
        args = v if isinstance(v, list) else [v]
    elif op in ("between", "inside", "outside") and isinstance(p.value, list | tuple):
        args = [from_wire(v) for v in p.value]
    else:
        args = [from_wire(p.value)]
    return make_predicate(family, op, args)


def _predicate_arg(v: Any) -> P:
    out = from_wire(v)
    if not isinstance(out, P):
        raise StepArgumentError(f"expected a predicate, got {out!r}")
    return out


def _token(enum_name: str, member: str) -> Any:
    name = _gp().camel(member)
    try:
        return token(enum_name, name)
    except KeyError:
        raise StepArgumentError(f"unknown token {enum_name}.{name}") from None


def _strategy(s: Any) -> StrategySpec:
    name = _simple_name(s.fqcn or s.strategy_name)
    return StrategySpec(name, {str(k): from_wire(v) for k, v in (s.configuration or {}).items()})


def _strategy_name(a: Any) -> str:
    gp = _gp()
    if isinstance(a, gp.TraversalStrategy):
        return _simple_name(a.fqcn or a.strategy_name)
    if isinstance(a, type):
        return a.__name__
    if isinstance(a, gp.statics.GremlinType):
        return _simple_name(a.gremlin_type)
    return _simple_name(str(a))


def _simple_name(fqcn: str) -> str:
    return fqcn.rsplit(".", 1)[-1].rsplit(":", 1)[-1]


def _lambda_text(fn: Any) -> str:
    try:
        out = fn()
        return repr(out if isinstance(out, str) else out[0])
    except Exception:  # a real Python callable, not a gremlinpython lambda
        return "a Python callable"


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple((k, _hashable(x)) for k, x in v.items())
    if isinstance(v, set):
        return frozenset(v)
    return v
