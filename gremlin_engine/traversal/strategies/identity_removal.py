"""Removes `identity()` steps that carry no labels.

Before: ``g.V().identity().out().identity()``
After:  ``g.V().out()``
"""

from __future__ import annotations

from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.steps.base import IdentityStep


def apply(traversal: CompiledTraversal, root: CompiledTraversal) -> None:
    traversal.steps[:] = [
        s for s in traversal.steps if not (type(s) is IdentityStep and not s.labels and not s.is_start)
    ]
