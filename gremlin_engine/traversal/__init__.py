"""The traversal machine: compile a `TraversalIR` into steps, optimise, and run it lazily
against a `GraphAccess`.

    run(ir, access, cancel=None, strategies=True, cache=None) -> Iterable[result objects]
    run_compiled(compiled, access, cancel=None) -> Iterable[result objects]
    compile_traversal(ir, strategies=True) -> CompiledTraversal   (options on `.options`)
    explain(ir) -> str

Results are yielded lazily with bulk expanded; callers (the runtime) may stop pulling at
any time (a one-fused-step traversal answers with its finished list). Side-effects, sacks
and paths are per call.

Compiled traversals are shared through the caller's prepared-traversal cache
(`prepared.py`, one per graph registry) by IR shape: compiling and applying the strategies
cost more than a point read, and steps keep their per-run state in the `Context`, so one
compiled traversal serves any number of runs, on any thread.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, Literal, overload

from gremlin_engine.access import GraphAccess
from gremlin_engine.errors import StepArgumentError
from gremlin_engine.limits import CancelToken
from gremlin_engine.traversal.compiler import SourceOptions
from gremlin_engine.traversal.executor import CompiledTraversal, execute, objects
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.prepared import BoundAnswer, PreparedCache, compile_traversal, path_flags
from gremlin_engine.traversal.strategies import apply_strategies
from gremlin_engine.traversal.tokens import Operator
from gremlin_engine.traversal.traverser import Context
from gremlin_engine.traversal.views import verify, wrap_access

__all__ = ["CompiledTraversal", "PreparedCache", "compile_traversal", "explain", "run", "run_compiled"]


def _sack_merge(sack: tuple[Any, ...] | None) -> Any:
    """withSack(initial[, split], merge) / withSack(initial, merge): the merge Operator."""
    if sack is None or len(sack) < 2:
        return None
    last = sack[-1]
    return last if isinstance(last, Operator) else None


def _context(traversal: CompiledTraversal, access: GraphAccess, cancel: CancelToken | None) -> Context:
    opts: SourceOptions = traversal.options or SourceOptions()
    track_paths, full_paths = getattr(traversal, "path_flags", None) or path_flags(traversal)
    sack = None
    if opts.sack is not None:
        initial = opts.sack[0]

        def sack() -> Any:
            return copy.copy(initial)

    if opts.strategies:
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
        seed=_seed(opts.strategies),
    )


def _seed(strategies: dict[str, dict[str, Any]]) -> int | None:
    """`SeedStrategy(seed: n)`'s seed (a Java long), or None."""
    config = strategies.get("SeedStrategy")
    if config is None:
        return None
    try:
        return int(config.get("seed", 0))
    except (TypeError, ValueError):
        raise StepArgumentError(f"SeedStrategy: the seed is a long, not {config.get('seed')!r}") from None


@overload
def run_compiled(
    traversal: CompiledTraversal | BoundAnswer, access: GraphAccess, *, cancel: CancelToken | None = None,
    answer_only: Literal[False] = False,
) -> Iterable[Any]: ...


@overload
def run_compiled(
    traversal: CompiledTraversal | BoundAnswer, access: GraphAccess, *, cancel: CancelToken | None = None,
    answer_only: Literal[True],
) -> list[Any] | None: ...


def run_compiled(
    traversal: CompiledTraversal | BoundAnswer, access: GraphAccess, *, cancel: CancelToken | None = None,
    answer_only: bool = False,
) -> Iterable[Any] | None:
    """Runs a compiled traversal; a generator of result objects (bulk expanded), or the
    finished list of them.

    A traversal that is ONE step offering `answer(access)` (the fused point reads of
    `steps/point.py`: a list of results, or None to run as usual) with the default source
    options is answered by that method: its results are plain objects of bulk one, so
    no context, traverser or generator is needed to produce them, and its list is returned
    as it is.

    `answer_only`: the fused step's answer alone, or its None (declined, or no fused step):
    for an access over a single-statement read (`Session.answer_once`), on which the
    general path must never run, since its statement may have been spent already."""
    if traversal.answers:
        if cancel is not None:
            cancel.check()
        found = traversal.answer(access, cancel)
        if found is not None or answer_only:
            return found
    elif answer_only:
        return None
    whole = traversal.whole()
    ctx = _context(whole, access, cancel)
    return objects(execute(whole, (), ctx), ctx.cancel)


def run(
    ir: TraversalIR,
    access: GraphAccess,
    *,
    cancel: CancelToken | None = None,
    strategies: bool = True,
    cache: PreparedCache | None = None,
) -> Iterable[Any]:
    """Compiles `ir` (through `cache`, the registry's prepared traversals, when given) and runs
    it; result objects (bulk expanded), as `run_compiled` gives them.

    Errors in the traversal text (unknown step, bad arguments) raise at the call; runtime
    errors raise while iterating."""
    compiled = cache.compiled(ir, strategies) if cache is not None else compile_traversal(ir, strategies=strategies)
    return run_compiled(compiled, access, cancel=cancel)


def explain(ir: TraversalIR) -> str:
    """The traversal as compiled, then after each strategy (like TinkerPop's explain())."""

    traversal = compile_traversal(ir, strategies=False)
    trace: list[str] = [f"{'Original':<28} {traversal!r}"]
    apply_strategies(traversal, disabled=(traversal.options or SourceOptions()).strategies_off, trace=trace)
    trace.append(f"{'Final':<28} {traversal!r}")
    return "\n".join(trace)
