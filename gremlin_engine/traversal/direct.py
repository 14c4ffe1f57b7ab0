"""Direct plans: a compiled traversal that is one fused read, described as data.

After the strategies, `g.V(id).values('name')`, `g.V(id).out('knows').id()`,
`g.V().has('person', 'name', x).id()`, `g.V(id).out().out().count()` and a bare `g.V(id)` /
`g.E(id)` (a REST GET by id) are a source plus one fused step (`steps/point.py`,
`strategies/walk_count.py`) whose answer is one storage statement. Running them through the
step pipeline (a `Context`, traversers, generators, a bound copy of the template) costs
several times that statement. So when a cached template (`traversal/__init__.py`) has one
of these shapes, `describe` records a `Direct` for it once, at compile time: what to ask
the graph access and which slot value goes where. The runtime (`runtime/direct.py`) runs a
`Direct` as one call with the run's slot values: no traverser, no step, no copy.

Only exact shapes qualify; the rest of the engine is untouched:

* the template's source options are the defaults (no side effects, sack, view strategies
  such as SubgraphStrategy, or `withBulk(false)`), so nothing per run can change the result;
* exactly one slot, holding the start id (or the `has()` value of the indexed lookup);
* the fused step is the whole traversal (a walk count may follow its `V(id)` start), with
  no step labels, so no path, select or side effect could see a difference.

A traverser request (`inject(<request map>).hg_kout()`, built by the REST handlers; the
map is the slot) is the other direct shape: an algorithm step only reads, maps its one
request to one result, and needs nothing of a run but a graph access and a cancel check,
so `runtime/direct_algorithms.py` calls its `run(req, Walker)` directly ("algorithm").

A `Direct` holds no values of a run and, apart from the runtime's schema memo, never
changes: one serves every thread.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.slots import sub_binder
from gremlin_engine.traversal.steps.point import HopIdsStep, IndexIdsStep, PointStep
from gremlin_engine.traversal.steps.source import EStep, GraphStep, InjectStep, VStep
from gremlin_engine.traversal.strategies.walk_count import WalkCountStep


class Direct:
    """What one fused read asks (see module). `kind` is one of:

    * "point": `V(id).values(keys)|id()|label()` (`mode`, `keys`);
    * "hop": `V(id).out|in|both(labels).id()` (`direction`, `labels`);
    * "index": `V()[.hasLabel(l)].has(k, v).id()` (`label_filter`, `bind_conditions` makes
      the condition list with the run's value; `snapshot`: may take several statements);
    * "walk": `V(id)` then a walk count (`hops`);
    * "element": `V(id)` / `E(id)` alone, the element itself (`element_kind`);
    * "algorithm": `inject(<request map>).hg_<name>()` (`algorithm`: the step, whose `run`
      answers the request).
    """

    __slots__ = ("kind", "mode", "keys", "direction", "labels", "label_filter", "bind_conditions",
                 "hops", "element_kind", "snapshot", "memo", "algorithm")

    def __init__(self, kind: str, **fields: Any) -> None:
        self.kind = kind
        self.mode = fields.get("mode", "")
        self.keys: tuple[str, ...] = fields.get("keys", ())
        self.direction = fields.get("direction")
        self.labels: tuple[str, ...] = fields.get("labels", ())
        self.label_filter: tuple[str, ...] | None = fields.get("label_filter")
        self.bind_conditions = fields.get("bind_conditions")
        self.hops: tuple[Any, ...] = fields.get("hops", ())
        self.element_kind = fields.get("element_kind", "vertex")
        self.snapshot: bool = fields.get("snapshot", False)
        self.algorithm: Any = fields.get("algorithm")
        #: the runtime's own cache of schema-derived facts, tagged with the schema snapshot
        #: they came from (replaced whole, so threads never see half of one)
        self.memo: Any = None

    def __repr__(self) -> str:
        return f"Direct({self.kind})"


def describe(traversal: CompiledTraversal, plan: Any, markers: list[Any]) -> Direct | None:
    """The `Direct` of a template compiled with `markers` in its slots, or None."""
    opts = getattr(traversal, "options", None)
    if opts is None or opts.side_effects or opts.sack is not None or opts.strategies or not opts.bulk:
        return None
    if len(markers) != 1 or traversal.anonymous:
        return None
    if type(markers[0]) is dict:
        return _algorithm(traversal.steps, markers[0])
    mark = markers[0]
    steps = traversal.steps
    if len(steps) == 2:
        start, walk = steps
        if type(start) is VStep and _point_source(start, mark) and _plain_walk(walk):
            return Direct("walk", hops=tuple(walk.hops), snapshot=True)  # type: ignore[attr-defined]
        return None
    if len(steps) != 1:
        return None
    step = steps[0]
    t = type(step)
    if t is PointStep and _point_source(step.source, mark):
        return Direct("point", mode=step.mode, keys=tuple(step.keys))
    if t is HopIdsStep and _point_source(step.source, mark):
        hop = step.hop
        return Direct("hop", direction=hop.direction, labels=tuple(hop.edge_labels))
    if t is IndexIdsStep:
        return _index(step, plan)
    if t in (VStep, EStep) and _point_source(step, mark):
        return Direct("element", element_kind=step.kind, snapshot=t is EStep)  # type: ignore[attr-defined]
    return None


def _algorithm(steps: list[Any], mark: dict[str, Any]) -> Direct | None:
    """`inject(<the slot map>).hg_<name>()` of an algorithm step that answers each request
    map with its `run` (the shared `AlgorithmStep.process`), nothing labelled."""
    from gremlin_engine.algorithms.base import AlgorithmStep

    if len(steps) != 2:
        return None
    inject, step = steps
    if (type(inject) is not InjectStep or not inject.is_start or inject.child_start or inject.labels
            or len(inject.args) != 1 or inject.args[0] is not mark):
        return None
    if not isinstance(step, AlgorithmStep) or type(step).process is not AlgorithmStep.process or step.labels:
        return None
    return Direct("algorithm", algorithm=step, snapshot=True)


def _point_source(src: Any, mark: Any) -> bool:
    """A root `V(id)`/`E(id)` whose one id is the slot, with nothing folded into it."""
    return (
        isinstance(src, GraphStep)
        and src.is_start
        and not src.labels
        and src.ids is not None
        and len(src.ids) == 1
        and type(src.ids[0]) is type(mark)
        and src.ids[0] == mark
        and src.label_filter is None
        and not src.conditions
        and src.limit is None
    )


def _plain_walk(step: Any) -> bool:
    return type(step) is WalkCountStep and step.source is None and not step.labels


def _index(step: IndexIdsStep, plan: Any) -> Direct | None:
    src = step.source
    bind = sub_binder(plan, src.conditions)
    if bind is None:
        return None
    labels = tuple(src.label_filter) if src.label_filter is not None else None
    one = labels is not None and len(labels) == 1 and len(src.conditions) == 1 and getattr(src.conditions[0][1], "op", None) == "eq"
    # one label, one equality: one index lookup of one value, one statement
    return Direct("index", label_filter=labels, bind_conditions=bind, snapshot=not one)
