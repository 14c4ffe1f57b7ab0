"""Replaces an edge step followed by the matching vertex step with the adjacent-vertex step,
so the runtime can answer from the adjacency index without materialising edges.

Before: ``g.V().outE('knows').inV()``, ``g.V().inE().outV()``, ``g.V().bothE().otherV()``
After:  ``g.V().out('knows')``,        ``g.V().in()``,          ``g.V().both()``

Not applied when the traversal uses paths (the edges would be visible in them) or when
the edge step is labelled.
"""

from __future__ import annotations

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps import flatmap
from gremlin_engine.traversal.steps.base import Step

_PAIRS: dict[tuple[type[Step], type[Step]], type[flatmap.VertexStep]] = {
    (flatmap.OutEStep, flatmap.InVStep): flatmap.OutStep,
    (flatmap.InEStep, flatmap.OutVStep): flatmap.InStep,
    (flatmap.BothEStep, flatmap.OtherVStep): flatmap.BothStep,
}


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    if root.needs_paths():
        return
    steps = traversal.steps
    i = 0
    while i < len(steps) - 1:
        a, b = steps[i], steps[i + 1]
        target = _PAIRS.get((type(a), type(b)))
        if target is not None and isinstance(a, flatmap.VertexStep) and not a.labels:
            new = target(*a.edge_labels)
            new.labels = b.labels
            steps[i : i + 2] = [new]
        i += 1
