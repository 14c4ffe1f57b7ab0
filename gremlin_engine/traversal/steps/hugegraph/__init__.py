"""HugeGraph-specific engine steps: what the REST vertex and edge endpoints need and
Gremlin cannot say (batch upserts with update strategies, append/eliminate by cardinality,
the index requirement of property queries, paging with a cursor).

`STEPS` is merged into the step registry (`traversal/registry.py`); names start with `hg`
so they never collide with TinkerPop steps. REST handlers start these traversals with
`inject(item...)` (vertex/edge item maps) or `V()/E()`; see each module for its contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gremlin_engine.traversal.steps.hugegraph import props, query, writes

#: name -> (factory, signature), as in `registry.REGISTRY`
STEPS: dict[str, tuple[Callable[..., Any], str]] = {
    "hgAddVertices": (writes.AddVerticesStep, ""),
    "hgAddEdges": (writes.AddEdgesStep, "bool?"),
    "hgUpsert": (writes.UpsertStep, "str map"),
    "hgAppend": (props.AppendStep, "map str/none?"),
    "hgEliminate": (props.EliminateStep, "list str/none?"),
    "hgRequireIndex": (query.RequireIndexStep, "str str/none? list?"),
    "hgPage": (query.PageStep, "str/none int"),
}

#: steps that write (their classes say `mutating = True`, which is what the runtime's
#: `intent` reads from the registry to open a write transaction up front)
MUTATING = frozenset(name for name, (factory, _sig) in STEPS.items() if getattr(factory, "mutating", False))
