"""`ComputedAccess`: the graph as the steps after a VertexProgram step see it.

TinkerPop's vertex programs write their results (`gremlin.pageRankVertexProgram.pageRank`,
a cluster, a component) as vertex properties of a *new* result graph; the rest of the
traversal runs on it, and the stored graph never changes. Here a run whose traversal holds
such a step reads the graph through this view (made by `traversal._context`): every vertex
it hands out is a private copy, loaded through the view, which adds the properties computed
so far. The computing steps add their results with `publish`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gremlin_engine.access import GraphAccess
from gremlin_engine.structure.elements import Element, Vertex, VertexProperty
from gremlin_engine.traversal.views import FilteredAccess


def _keep(_vp: VertexProperty) -> bool:
    return True


class ComputedAccess(FilteredAccess):
    """A view adding computed vertex properties (key -> vertex id -> value) to every vertex."""

    def __init__(self, base: GraphAccess) -> None:
        # a property test that keeps everything makes the view hand out private copies, so
        # the computed values never reach the transaction's element cache
        super().__init__(base, property_test=_keep)
        self.computed: dict[str, dict[Any, Any]] = {}

    def publish(self, key: str, values: dict[Any, Any]) -> None:
        """Makes `values` (vertex id -> value) the property `key` of the vertices from now on."""
        self.computed[key] = values

    def fresh(self, v: Vertex) -> Vertex:
        """An unloaded private copy of `v`, which loads through this view."""
        return Vertex(v.id, v.label, v.key)

    def load(self, elements: Iterable[Element]) -> None:
        batch = list(elements)
        self.base.load(batch)
        if not self.computed:
            return
        for el in batch:
            if isinstance(el, Vertex) and el._props is not None:
                extra = {k: [VertexProperty(f"{el.id}>{k}", k, by_id[el.id], el)]
                         for k, by_id in self.computed.items() if el.id in by_id}
                if extra:
                    el._props = {**el._props, **extra}
