"""IR -> step instances.

The compiler walks a `TraversalIR`'s instructions once:

* ordinary steps are looked up in the registry (arity and argument kinds checked there),
  their nested anonymous traversals compiled first;
* modulators (`as`, `by`, `from`, `to`, `times`, `until`, `emit`, `option`, `with`) are folded
  into the step they modulate; `until/emit/times` written *before* `repeat` are held and
  handed to the next `repeat`;
* `property(k, v)` right after `addV`/`addE` with constant arguments is folded into the
  new element, so the runtime creates it with its properties in one call (HugeGraph's
  strict schema checks required properties at creation);
* source instructions (`withSideEffect`, `withSack`, ...) become `SourceOptions`.

Strategies run afterwards (`strategies.apply`), on the root and every child traversal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gremlin_engine.errors import NotSupported, StepArgumentError, UnsupportedStep
from gremlin_engine.traversal import retraction
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.registry import REGISTRY, check_args
from gremlin_engine.traversal.steps.base import IdentityStep, Step
from gremlin_engine.traversal.steps.source import AddElementStep, PropertySpec
from gremlin_engine.traversal.strategies import apply_strategies, connective
from gremlin_engine.traversal.tokens import Cardinality, Direction

MODULATORS = frozenset({"as", "by", "from", "to", "times", "until", "emit", "option", "with", "read", "write"})
PRE_REPEAT = frozenset({"until", "emit", "times"})
SOURCE_STEPS = frozenset({"V", "E", "addV", "addE", "inject", "mergeV", "mergeE", "call", "union", "io"})


@dataclass
class SourceOptions:
    """What `g.withX(...)` configured for one traversal."""

    side_effects: dict[str, Any] = field(default_factory=dict)
    side_effect_ops: dict[str, Any] = field(default_factory=dict)  # key -> reducing Operator
    sack: tuple[Any, ...] | None = None  # (initial, [split,] [merge])
    strategies_off: set[str] = field(default_factory=set)
    strategies: dict[str, dict[str, Any]] = field(default_factory=dict)  # withStrategies: name -> config
    bulk: bool = True


@dataclass
class Compiled:
    traversal: CompiledTraversal
    options: SourceOptions


def compile_source(source: tuple[Instruction, ...]) -> SourceOptions:
    opts = SourceOptions()
    for ins in source:
        if ins.name == "withSideEffect":
            if len(ins.args) < 2:
                raise StepArgumentError("withSideEffect() takes a key and an initial value")
            opts.side_effects[ins.args[0]] = ins.args[1]
            if len(ins.args) > 2 and ins.args[2] is not None:
                opts.side_effect_ops[ins.args[0]] = ins.args[2]
        elif ins.name == "withSack":
            if not ins.args:
                raise StepArgumentError("withSack() takes an initial value")
            opts.sack = tuple(ins.args)
        elif ins.name == "withoutStrategies":
            opts.strategies_off |= {a if isinstance(a, str) else type(a).__name__ for a in ins.args}
        elif ins.name == "withBulk":
            opts.bulk = bool(ins.args[0]) if ins.args else True
        elif ins.name in ("withComputer",):
            raise NotSupported("withComputer(): graph computers are not supported")
        elif ins.name == "withStrategies":
            for spec in ins.args:
                name = getattr(spec, "name", None) or (spec if isinstance(spec, str) else type(spec).__name__)
                opts.strategies[name] = dict(getattr(spec, "config", None) or {})
        elif ins.name in ("with", "withPath", "withRemote", "tx"):
            continue  # options without effect on this engine
        else:
            raise UnsupportedStep(f"unknown traversal source step {ins.name}()")
    return opts


def compile_steps(ir: TraversalIR, root: bool) -> CompiledTraversal:
    steps: list[Step] = []
    pending: list[Instruction] = []  # until/emit/times seen before their repeat
    for ins in ir.steps:
        name, args = ins.name, ins.args
        last = steps[-1] if steps else None
        if name == "as":
            if not args or not all(isinstance(a, str) for a in args):
                raise StepArgumentError("as() takes step labels (strings)")
            if last is None:
                last = IdentityStep()
                steps.append(last)
            last.labels = (*last.labels, *args)
            continue
        if name in PRE_REPEAT and (last is None or last.name != "repeat" or pending):
            pending.append(Instruction(name, _compile_args(args)))
            continue
        if name == "to" and args and isinstance(args[0], Direction):
            name, args = {Direction.OUT: "out", Direction.IN: "in"}.get(args[0], "both"), args[1:]
        if name in MODULATORS:
            if last is None:
                raise StepArgumentError(f"{name}() must follow a step it modulates")
            last.modulate(name, _compile_args(args))
            continue
        if name == "property" and isinstance(last, AddElementStep) and not last.labels and _foldable_property(args):
            last.fold_property(_property_spec(args))
            continue
        step = _make_step(name, args, ins.pos)
        if name == "repeat" and pending:
            for p in pending:
                step.modulate(p.name, p.args)
                step.modulate_position(p.name, before=True)  # type: ignore[attr-defined]
            pending = []
        placed = getattr(step, "placed", None)
        if placed is not None:  # a step whose meaning depends on what precedes it (VertexProgram steps)
            placed(steps, root)
        if not root and not steps and name == "inject":
            step.child_start = True  # type: ignore[attr-defined]
        if root and not steps:
            if name not in SOURCE_STEPS:
                raise StepArgumentError(f"a traversal must start with a source step (V, E, addV, ...), not {name}()")
            step.is_start = True
        steps.append(step)
    if pending:
        raise StepArgumentError(f"The repeat()-traversal was not defined: {pending[0].name}() must modulate a repeat() step")
    for s in steps:
        s.finish()
    return CompiledTraversal(steps, anonymous=not root)


def _make_step(name: str, args: tuple[Any, ...], pos: tuple[int, int] | None) -> Step:
    spec = REGISTRY.get(name)
    if spec is None:
        where = f" at line {pos[0]}, column {pos[1]}" if pos else ""
        raise UnsupportedStep(f"the step {name}() is not supported{where}")
    compiled = _compile_args(args)
    check_args(name, spec, compiled)
    try:
        step: Step = spec.factory(*compiled)
        return step
    except (StepArgumentError, UnsupportedStep, NotSupported):
        raise
    except ValueError as exc:
        raise StepArgumentError(f"{name}() does not accept the arguments {args!r}: {exc}") from exc
    except (TypeError, IndexError) as exc:  # Python's own text names its internals, not the step's rule
        raise StepArgumentError(f"{name}() does not accept the arguments {args!r}") from exc


#: exact argument types `_compile_arg` returns as they are (no traversal inside)
_OPAQUE = frozenset({dict, str, int, float, bool, type(None)})


def _compile_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    if len(args) > 4 and _OPAQUE.issuperset(map(type, args)):
        # many plain arguments (a REST batch injects 500 item maps): nothing to compile,
        # and one pass in C instead of a call per argument
        return tuple(args)
    return tuple(_compile_arg(a) for a in args)


def _compile_arg(a: Any) -> Any:
    if isinstance(a, TraversalIR):
        return compile_steps(a, root=False)  # a child starts from its parent's traverser
    if isinstance(a, list) and any(isinstance(x, TraversalIR) for x in a):
        return [_compile_arg(x) for x in a]
    return a


def _foldable_property(args: tuple[Any, ...]) -> bool:
    if not args or isinstance(args[0], dict) or (isinstance(args[0], Cardinality) and len(args) > 1 and isinstance(args[1], dict)):
        return False
    body = args[1:] if isinstance(args[0], Cardinality) else args
    if len(body) < 2 or len(body) % 2:
        return False
    if body[0] is None:
        return False
    return not any(isinstance(a, TraversalIR) for a in body[2:])


def _property_spec(args: tuple[Any, ...]) -> PropertySpec:
    card = args[0] if isinstance(args[0], Cardinality) else None
    body = _compile_args(args[1:] if card is not None else args)
    meta = {body[i]: body[i + 1] for i in range(2, len(body), 2)}
    return PropertySpec(card, body[0], body[1], meta)


def compile_ir(ir: TraversalIR, *, strategies: bool = True) -> Compiled:
    """Compiles a root (or anonymous) traversal and applies the default strategies."""

    options = compile_source(ir.source)
    traversal = compile_steps(ir, root=not ir.anonymous)
    if "ConnectiveStrategy" not in options.strategies_off:
        connective.apply(traversal)
    if strategies:
        apply_strategies(traversal, disabled=options.strategies_off)
    # not an optimisation: TinkerGraph's answers depend on it (always on, as there)
    retraction.apply(traversal, options.strategies_off)
    return Compiled(traversal, options)
