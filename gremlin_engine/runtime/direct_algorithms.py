"""Running a traverser request's direct plan: `inject(<request map>).hg_<name>()` as one call.

The ordinary run of a light traverser request (k-out depth 1, k-neighbor depth 2) spends
more in the machinery around the algorithm than in the algorithm: a `Session` (pool
checkout, ``BEGIN``, ``ROLLBACK``, checkin, a per-call schema bridge), a bound copy of the
cached template, a `Context`, an injected traverser stream and the step's generator, then
`load_results`. An algorithm step needs none of it: `AlgorithmStep.process` only hands each
request map to `run(req, Walker(ctx, request=req))`, and the walker asks its context for
nothing but `access` and `check()`. So the plan (`traversal/direct.py`, kind "algorithm")
is run here as exactly that call, over a `StoreAccess` of one `storage.read_once` read
with ``snapshot=True`` (``BEGIN``/``ROLLBACK`` around it: an algorithm reads many times and
must see one snapshot, as a session's read transaction does).

Sameness with the pipeline, case by case:

* result: `[run(req, walker)]`, loaded by `load_results`, as the session path returns it;
* errors (unknown source, bad label, capacity...): raised by the same `run`, translated
  as a session's (`translate_store_error`); a read has nothing to roll back;
* a bounded run (`algorithms/budget.py`): the walker picks the budget up from the calling
  context as before, so `OverBudget` reaches the caller, which reruns in the pool;
* cancel / timeout: the same token (`make_token`) is the context's, checked before the
  read starts and wherever the walker checks it;
* schema: the graph's own mode. A strict graph shares the read-only schema bridge of the
  other direct plans (`direct._access`); an auto-mode graph gets its own bridge over this
  read, as `StoreAccess.for_graph` makes it (auto mode resolves ids and labels itself, in
  the access, which is the same class either way). A read that tries to write (it never
  should: algorithms only read) falls back to the ordinary path, which reruns as a writer.

A GET k-out / k-neighbor of depth 1 or 2 whose parameters `light.settle` remembers is
answered before any of that by `algorithms/light_once.py`: depth 1 in ONE statement (the
source lookup and its adjacency read joined, `tx.source_adjacency`) in autocommit mode,
which is its own snapshot, so no ``BEGIN``/``ROLLBACK``; depth 2 in three (that statement
and the second layer's read inside one snapshot). A request it declines has read nothing.

`traverse` is the REST handlers' entry: it takes the direct plan on any schema mode
(`direct.usable` keeps the other direct shapes off auto-mode graphs, whose point reads
answer differently there; this one does not), else `graph.traverse`.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine import traversal as engine
from gremlin_engine.algorithms import light, light_once
from gremlin_engine.algorithms.base import Walker
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import direct
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.runtime.materialize import load_results
from gremlin_engine.runtime.session import make_token, translate_store_error
from gremlin_engine.traversal.traverser import Context
from storage import ReadOnlyTransaction
from storage.read_once import read_once


def usable(graph: Any) -> bool:
    """Whether `graph`'s traverser requests may take the direct plan: direct plans on
    (`HUGELITE_DIRECT_PLANS`) and strategies on (`gremlin.strategies=none` runs everything
    through the pipeline); any schema mode."""
    if not direct.ENABLED:
        return False
    ok = getattr(graph, "_direct_algorithms_ok", None)
    if ok is None:  # a graph's config does not change while it is open
        ok = str(graph.config.extra.get("gremlin.strategies", "default")).lower() != "none"
        graph._direct_algorithms_ok = ok
    return ok  # type: ignore[no-any-return]


#: step name -> its direct plan: the plan of `inject(<request map>).hg_<name>()` depends on
#: the name alone (the map is the slot, keyed by its type), so a handler's IR need not be
#: shaped and looked up again per request (~25 us of a ~180 us k-out). Only found plans are
#: kept, so the memo holds at most one entry per algorithm step.
_PLANS: dict[str, Any] = {}


def _plan(ir: Any) -> tuple[Any, list[Any]] | None:
    """`engine.direct_plan(ir)`, from `_PLANS` when `ir` is exactly a handler's shape."""
    steps = ir.steps
    if (len(steps) == 2 and not ir.source and not ir.anonymous and steps[0].name == "inject"
            and len(steps[0].args) == 1 and type(steps[0].args[0]) is dict and not steps[1].args):
        plan = _PLANS.get(steps[1].name)
        if plan is not None:
            return plan, [steps[0].args[0]]
        found = engine.direct_plan(ir)
        if found is not None and found[0].kind == "algorithm":
            _PLANS[steps[1].name] = found[0]
        return found
    return engine.direct_plan(ir)  # type: ignore[no-any-return]


def traverse(graph: Any, ir: Any, timeout_ms: float | None = None, cancel: CancelToken | None = None) -> list[Any]:
    """`graph.traverse(ir)`, by the direct plan when `ir` is a traverser request's."""
    if usable(graph):
        found = _plan(ir)
        if found is not None and found[0].kind == "algorithm":
            results = _translated(graph, found[0], found[1], timeout_ms, cancel)
            if results is not direct.FALLBACK:
                return results  # type: ignore[no-any-return]
    return graph.traverse(ir, timeout_ms=timeout_ms, cancel=cancel)  # type: ignore[no-any-return]


def request(graph: Any, name: str, req: dict[str, Any], timeout_ms: float | None = None,
            cancel: CancelToken | None = None) -> list[Any] | None:
    """`traverse(graph, <inject(req).<name>()>)` without that IR, or None (nothing run) when
    no direct plan of `name` is known yet or the graph takes none: the REST traverser
    handlers' entry (a caller then builds the IR and calls `graph.traverse_request`).
    Building the IR and finding its plan again were ~5% of a light depth-2 request's
    instructions over HTTP. Same plan, token, errors and fall-back as `traverse`."""
    plan = _PLANS.get(name)
    if plan is None or not usable(graph):
        return None
    results = _translated(graph, plan, [req], timeout_ms, cancel)
    if results is direct.FALLBACK:
        return None  # a read that tried to write: the caller's `traverse_request` reruns it
    return results  # type: ignore[no-any-return]


def _translated(graph: Any, plan: Any, values: list[Any], timeout_ms: float | None,
                cancel: CancelToken | None) -> Any:
    """`run`, its storage errors translated as a session's."""
    try:
        return run(graph, plan, values, timeout_ms, cancel)
    except BaseException as exc:
        err = translate_store_error(exc)
        if err is exc:
            raise
        raise err from exc


def run(graph: Any, plan: Any, values: list[Any], timeout_ms: float | None = None,
        cancel: CancelToken | None = None) -> Any:
    """The result list of the algorithm plan `plan` for the request map `values[0]`, or
    `direct.FALLBACK`. Storage errors leave untranslated (the caller translates)."""
    token = make_token(timeout_ms, cancel)
    token.check()
    step = plan.algorithm
    try:
        if step.name in light.NAMES:  # a light GET k-out / k-neighbor (depth 1: one statement)
            prepared = light_once.prepare(graph, step.name, values[0], graph.config.schema_mode == "auto")
            if prepared is not light.SLOW:
                result = read_once(graph.store, light_once.answer, prepared, values[0], token,
                                   snapshot=light_once.snapshot(prepared))
                if result is not light.SLOW:
                    return [result]
        return read_once(graph.store, _answer, graph, step, values[0], token, snapshot=True)
    except ReadOnlyTransaction:
        return direct.FALLBACK


def _answer(tx: Any, graph: Any, step: Any, req: dict[str, Any], token: CancelToken) -> list[Any]:
    if step.name in light.NAMES:  # a GET k-out / k-neighbor: the reads and the answer alone
        result = light.answer(tx, graph, step.name, req, token, lambda: _access(tx, graph).schema,
                              graph.config.schema_mode == "auto")
        if result is not light.SLOW:
            return [result]  # ids and counts: nothing for `load_results` to load
    access = _access(tx, graph)
    result = step.run(req, Walker(Context(access, token), request=req))
    results = [result]
    if not _plain(result):
        load_results(access, results)
    return results


_ATOMS = frozenset({int, str, float, bool, type(None)})


def _plain(result: Any) -> bool:
    """A result map of plain values and maps of them (a count-only answer, the `measure`):
    no element in it to load, known without `load_results`' general walk."""
    if type(result) is not dict:
        return False
    for v in result.values():
        t = type(v)
        if t in _ATOMS:
            continue
        if t is not dict or not _ATOMS.issuperset(map(type, v.values())):
            return False
    return True


def _access(tx: Any, graph: Any) -> StoreAccess:
    mode = graph.config.schema_mode
    if mode != "auto":
        return direct._access(tx, graph)
    access = StoreAccess(tx, graph.schema, mode, None)
    access.graph_name = graph.name
    return access
