"""The traversal machine: compile a `TraversalIR` into steps, optimise, and run it lazily
against a `GraphAccess`.

    run(ir, access, cancel=None, strategies=True) -> Iterator[result objects]
    compile_traversal(ir, strategies=True) -> CompiledTraversal   (options on `.options`)
    explain(ir) -> str

Results are yielded lazily with bulk expanded; callers (the runtime) may stop pulling at
any time. Side-effects, sacks and paths are per call.

Compiled traversals are cached by IR (`_compiled`) when every argument is a plain constant
(strings, numbers, booleans, None, tokens, predicates over those) and no step keeps lazily built state: compiling
and applying the strategies cost about a fifth of a point lookup's CPU, and steps keep their
per-run state in the `Context`, so one compiled traversal serves any number of runs, on any
thread. The key carries each constant's type, so `inject(1)`, `inject(1.0)`, `inject(true)`
and `inject(1L)` never share an entry.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from enum import Enum
from typing import Any

from gremlin_engine.access import GraphAccess
from gremlin_engine.limits import CancelToken
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.compiler import SourceOptions, compile_ir
from gremlin_engine.traversal.executor import CompiledTraversal, execute, objects
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.slots import (
    Unslottable,
    binder,
    make_plan,
    marker,
    slot_class,
    slot_kind,
    with_markers,
)
from gremlin_engine.traversal.tokens import Operator
from gremlin_engine.traversal.traverser import Context

__all__ = ["CompiledTraversal", "compile_traversal", "explain", "run"]


def compile_traversal(ir: TraversalIR, *, strategies: bool = True) -> CompiledTraversal:
    """IR -> steps (+ strategies). The source options are attached as `.options`."""
    compiled = compile_ir(ir, strategies=strategies)
    traversal = compiled.traversal
    traversal.options = compiled.options  # type: ignore[attr-defined]
    return traversal


#: compiled traversals kept (LRU)
CACHE_SIZE = 1024
#: step classes that build state lazily on first run: never shared between runs
_UNSHAREABLE = frozenset({"MatchStep", "WhereTraversalStep"})
_ATOMS = (str, int, float, type(None), Enum, uuid.UUID)

_cache: OrderedDict[Any, CompiledTraversal] = OrderedDict()
_cache_lock = threading.Lock()


_SLOT = "$slot"


class _NoKey(Exception):
    """An argument that is not a plain constant: the traversal is compiled afresh."""


def _arg_key(a: Any) -> Any:
    if isinstance(a, TraversalIR):
        return _ir_key(a)
    if isinstance(a, float):  # by bits: 0.0 == -0.0 but they print differently
        return (type(a), a.hex())
    if isinstance(a, _ATOMS):
        return (type(a), a)
    if type(a) is tuple:
        return (tuple, tuple(_arg_key(x) for x in a))
    if isinstance(a, P):  # predicates are never changed once built; their lists neither
        v = a.value
        vkey = (list, tuple(_arg_key(x) for x in v)) if type(v) is list else _arg_key(v)
        return (type(a), a.op, vkey)
    raise _NoKey


def _ins_key(ins: Instruction) -> Any:
    return (ins.name, tuple(_arg_key(a) for a in ins.args))


def _ir_key(ir: TraversalIR) -> Any:
    return (ir.anonymous, tuple(_ins_key(i) for i in ir.source), tuple(_ins_key(i) for i in ir.steps))


_PLAIN = frozenset({str, int, Long, Int, bool, type(None)})


def _shape_arg(a: Any, values: list[Any]) -> Any:
    t = type(a)
    if t in _PLAIN:  # the common case, ahead of the general key
        return (t, a)
    if t is TraversalIR:
        return _shape_ir(a, values)
    if type(a) is tuple:
        return (tuple, tuple(_shape_arg(x, values) for x in a))
    return _arg_key(a)


def _shape_ir(ir: TraversalIR, values: list[Any]) -> Any:
    """`_ir_key` with the slot values (`slots.py`) left out, appended to `values` instead."""
    out = []
    for n, ins in enumerate(ir.steps):
        name, args = ins.name, ins.args
        kind = slot_kind(ir, n, name, args) if args and (name == "has" or n == 0) else None
        if kind is None:
            out.append((name, tuple([_shape_arg(a, values) for a in args])))
        elif kind == "ids":
            values.extend(args)
            out.append((name, _SLOT, tuple(slot_class(a) for a in args)))
        else:
            out.append((name, tuple(_arg_key(a) for a in args[:-1]), _SLOT, slot_class(args[-1])))
            values.append(args[-1])
    return (ir.anonymous, tuple([_ins_key(i) for i in ir.source]) if ir.source else (), tuple(out))


def _has_atom(key: Any, atoms: set[Any]) -> bool:
    """Whether a (type, value) pair of `atoms` occurs anywhere in a cache key."""
    if type(key) is not tuple:
        return False
    if len(key) == 2 and type(key[0]) is type:
        try:
            if key in atoms:
                return True
        except TypeError:
            pass
    return any(_has_atom(k, atoms) for k in key)


class _Template:
    """A compiled traversal with markers in its slots, and the plan to rebind them."""

    __slots__ = ("traversal", "plan", "bind")

    def __init__(self, traversal: CompiledTraversal, plan: Any) -> None:
        self.traversal = traversal
        self.plan = plan
        self.bind = binder(plan)


#: cache entry of a slotted shape whose steps cannot be rebound: cached per literal instead
_REFUSED: Any = object()


def _remember(key: Any, entry: Any) -> None:
    with _cache_lock:
        _cache[key] = entry
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def _shareable(traversal: CompiledTraversal) -> bool:
    if any(type(s).__name__ in _UNSHAREABLE for s in traversal.walk()):
        return False
    traversal.path_flags = _path_flags(traversal)  # type: ignore[attr-defined]
    return True


def _compiled(ir: TraversalIR, strategies: bool) -> CompiledTraversal:
    """`compile_traversal`, shared through the cache when the IR allows it: by shape (its
    slot values bound into a copy of the cached template) or else by literal IR."""
    values: list[Any] = []
    try:
        key: Any = (strategies, _shape_ir(ir, values))
    except _NoKey:
        return compile_traversal(ir, strategies=strategies)
    found = _cached(key)
    if found is not None:
        if not values:
            return found  # type: ignore[no-any-return]
        if found is not _REFUSED:
            return found.bind(values)  # type: ignore[no-any-return]
        return _by_literal(ir, strategies)
    if not values:
        return _compile_remembered(key, ir, strategies)
    template = _template(ir, values, strategies, key)
    if template is None:
        _remember(key, _REFUSED)
        return _by_literal(ir, strategies)
    _remember(key, template)
    return template.bind(values)  # type: ignore[no-any-return]


def _template(ir: TraversalIR, values: list[Any], strategies: bool, key: Any) -> _Template | None:
    """The shape's template, or None when its slots cannot be rebound exactly."""
    markers = [marker(v, i) for i, v in enumerate(values)]
    if _has_atom(key, {(type(m), m) for m in markers if type(m) is not dict}):  # request maps: by identity
        return None
    try:
        traversal = compile_traversal(with_markers(ir, markers), strategies=strategies)
    except Exception:  # the literal compile below raises the real error
        return None
    if not _shareable(traversal):
        return None
    try:
        plan = make_plan(traversal, markers)
    except Unslottable:
        return None
    return _Template(traversal, plan)


def _by_literal(ir: TraversalIR, strategies: bool) -> CompiledTraversal:
    """The cache by literal IR, for shapes whose slots cannot be rebound."""
    try:
        key: Any = (strategies, "literal", _ir_key(ir))
    except _NoKey:
        return compile_traversal(ir, strategies=strategies)
    found = _cached(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    return _compile_remembered(key, ir, strategies)


def _cached(key: Any) -> Any:
    """The cache entry of `key` (marked most recently used), or None."""
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
    return found


def _compile_remembered(key: Any, ir: TraversalIR, strategies: bool) -> CompiledTraversal:
    """Compiles `ir` and keeps it under `key` when its steps may be shared between runs."""
    traversal = compile_traversal(ir, strategies=strategies)
    if _shareable(traversal):
        _remember(key, traversal)
    return traversal


def _sack_merge(sack: tuple[Any, ...] | None) -> Any:
    """withSack(initial[, split], merge) / withSack(initial, merge): the merge Operator."""
    if sack is None or len(sack) < 2:
        return None
    last = sack[-1]
    return last if isinstance(last, Operator) else None


def _path_flags(traversal: CompiledTraversal) -> tuple[bool, bool]:
    """(track paths, full paths): walks every step, so a cached traversal keeps them."""
    return traversal.needs_paths(), any(s.full_path for s in traversal.walk())


def _context(traversal: CompiledTraversal, access: GraphAccess, cancel: CancelToken | None) -> Context:
    opts: SourceOptions = getattr(traversal, "options", None) or SourceOptions()
    track_paths, full_paths = getattr(traversal, "path_flags", None) or _path_flags(traversal)
    sack = None
    if opts.sack is not None:
        initial = opts.sack[0]

        def sack() -> Any:
            return copy.copy(initial)

    if opts.strategies:
        from gremlin_engine.traversal.views import verify, wrap_access

        verify(traversal, opts.strategies)
        access = wrap_access(access, opts.strategies, lambda raw: Context(access=raw, cancel=cancel or CancelToken()))
    if any(getattr(s, "computer", False) for s in traversal.steps):
        from gremlin_engine.computer.view import ComputedAccess

        access = ComputedAccess(access)  # VertexProgram steps' results, as a view (computer/view.py)
    return Context(
        access=access,
        cancel=cancel or CancelToken(),
        side_effects={k: copy.copy(v) for k, v in opts.side_effects.items()},
        side_effect_ops=dict(opts.side_effect_ops),
        productive_by="ProductiveByStrategy" in opts.strategies,
        sack_initial=sack,
        sack_merge=_sack_merge(opts.sack),
        track_paths=track_paths,
        full_paths=full_paths,
        bulk=opts.bulk,
    )


def run_compiled(
    traversal: CompiledTraversal, access: GraphAccess, *, cancel: CancelToken | None = None
) -> Iterator[Any]:
    """Runs a compiled traversal; a generator of result objects (bulk expanded).

    A traversal that is ONE step offering `answer(access)` (the fused point reads of
    `steps/point.py`: a list of results, or None to run as usual) with the default source
    options is answered by that method: its results are plain objects of bulk one, so
    no context, traverser or generator is needed to produce them."""
    steps = traversal.steps
    if len(steps) == 1 and _plain_options(traversal):
        answer = getattr(steps[0], "answer", None)
        if answer is not None:
            token = cancel or CancelToken()
            token.check()
            found = answer(access)
            if found is not None:
                return iter(found)
    ctx = _context(traversal, access, cancel)
    return objects(execute(traversal, (), ctx), ctx.cancel)


def _plain_options(traversal: CompiledTraversal) -> bool:
    """No side effects, sack or view strategies (which wrap the access) on the source."""
    opts: SourceOptions | None = getattr(traversal, "options", None)
    return opts is None or (not opts.side_effects and opts.sack is None and not opts.strategies)


def run(
    ir: TraversalIR,
    access: GraphAccess,
    *,
    cancel: CancelToken | None = None,
    strategies: bool = True,
) -> Iterator[Any]:
    """Compiles and runs `ir`; a generator of result objects (bulk expanded).

    Errors in the traversal text (unknown step, bad arguments) raise at the call; runtime
    errors raise while iterating."""
    return run_compiled(_compiled(ir, strategies), access, cancel=cancel)


def explain(ir: TraversalIR) -> str:
    """The traversal as compiled, then after each strategy (like TinkerPop's explain())."""
    from gremlin_engine.traversal.strategies import apply_strategies

    traversal = compile_traversal(ir, strategies=False)
    trace: list[str] = [f"{'Original':<28} {traversal!r}"]
    apply_strategies(traversal, disabled=traversal.options.strategies_off, trace=trace)
    trace.append(f"{'Final':<28} {traversal!r}")
    return "\n".join(trace)
