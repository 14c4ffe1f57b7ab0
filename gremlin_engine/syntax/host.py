"""The seam between the script interpreter and the graph runtime.

The interpreter understands the Groovy subset itself: literals, variables, lists and maps,
`__`, `P`/`TextP`, enum tokens, traversal chains and their terminal methods. Every other
method call in a script (`graph.schema().propertyKey('age')...`, `graph.addVertex(...)`,
`v.addEdge(...)`, `graph.tx().commit()`) goes to `ScriptHost.call_method`, which dispatches
only to an explicit whitelist and raises `UnsupportedSyntax` for anything else. That single
choke point is what keeps scripts away from Python objects, files and the network.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from gremlin_engine.traversal.ir import TraversalIR


@dataclass(frozen=True)
class TraversalSourceRef:
    """`g` (or `__g_<graph>`, or `graph.traversal()`): a traversal source bound to a graph.

    `ir` holds the source instructions collected so far (`withSideEffect`, `withSack`, ...)."""

    graph: str
    ir: TraversalIR = TraversalIR()


@dataclass(frozen=True)
class BoundTraversal:
    """A spawned traversal not yet iterated: `g.V().out()` before `toList()`.

    `prepared` is its compiled form when a prepared script entry made it (then `ir` is
    empty: the host runs `prepared`)."""

    graph: str
    ir: TraversalIR
    prepared: Any = field(default=None, compare=False, repr=False)


class ScriptHost(Protocol):
    def lookup(self, name: str) -> Any:
        """The value of a free variable (bindings, graphs by name, `__g_<graph>`, aliases);
        raises KeyError when unbound."""
        ...

    def run(self, traversal: BoundTraversal, terminal: str, args: tuple[Any, ...] = ()) -> Any:
        """Runs a traversal with a terminal method: toList, toSet, toBulkSet, next (with or
        without a count), tryNext, hasNext, iterate, explain."""
        ...

    def call_method(self, target: Any, name: str, args: tuple[Any, ...]) -> Any:
        """Any other method call, dispatched through the runtime's whitelist."""
        ...

    def get_property(self, target: Any, name: str) -> Any:
        """`obj.name` without a call (e.g. `v.id` Groovy-style); whitelisted likewise."""
        ...
