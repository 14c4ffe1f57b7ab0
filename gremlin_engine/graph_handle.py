"""`GraphHandle`: what the engine's parts take of an open graph.

The facade (`gremlin_engine/graph.py`) owns graphs and calls down into the runtime, the schema
service and the task manager; those parts need a few things of the graph back (its name, store,
configuration, schema service, prepared-traversal cache, registry). They type it with this
protocol instead of importing the facade, so the imports run one way: facade -> parts, never
back (`tests/test_architecture.py` forbids the function-local imports that used to hide the
circle). `Graph` and `GraphRegistry` satisfy the protocols structurally; mypy checks that below.

Members are read-only properties: a plain attribute of the class satisfies them, and a part
holding a handle cannot reassign what the facade owns.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gremlin_engine.graph_config import GraphConfig
from storage import Store

if TYPE_CHECKING:
    from gremlin_engine.context import ExecutionContext
    from gremlin_engine.graph import Graph, GraphRegistry
    from gremlin_engine.limits import CancelToken
    from gremlin_engine.schema.service import SchemaService
    from gremlin_engine.traversal.prepared import PreparedCache


class GraphLookup(Protocol):
    """The graphs one call may open transactions on, by name (`runtime/session.py`)."""

    def get(self, name: str) -> GraphHandle: ...


class GraphSet(GraphLookup, Protocol):
    """The registry as the parts see it: the graphs a script may name, their shared
    prepared-traversal cache, and the folders `g.io()` may use."""

    @property
    def import_dir(self) -> Path | None: ...

    @property
    def export_dir(self) -> Path | None: ...

    @property
    def prepared(self) -> PreparedCache: ...

    def names(self) -> list[str]: ...


class GraphHandle(Protocol):
    """One open graph, as the runtime, the schema service, the task manager and the importers
    use it."""

    @property
    def name(self) -> str: ...

    @property
    def config(self) -> GraphConfig: ...

    @property
    def store(self) -> Store: ...

    @property
    def registry(self) -> GraphSet | None:
        """The registry the graph was opened in (None for a graph opened alone)."""
        ...

    @property
    def runs_strategies(self) -> bool:
        """False when the configuration says `gremlin.strategies=none`."""
        ...

    @property
    def schema(self) -> SchemaService: ...

    #: whether property values may be null (auto mode with `gremlin.allow_null_property_values`),
    #: worked out when the graph opens
    allows_nulls: bool

    #: the `gremlin.services` setting (which `call()` services the graph offers), or None
    services: str | None

    @property
    def prepared(self) -> PreparedCache | None:
        """The registry's prepared-traversal cache (None outside a registry)."""
        ...

    def execute(
        self,
        script: str,
        bindings: Mapping[str, Any] | None = None,
        aliases: Mapping[str, str] | None = None,
        timeout_ms: float | None = None,
        cancel: CancelToken | None = None,
        as_value: bool = False,
        *,
        ctx: ExecutionContext | None = None,
    ) -> Any:
        """Runs Gremlin script text with this graph as the default graph (`g`, `graph`)."""
        ...


if TYPE_CHECKING:

    def _the_facade_implements_the_protocols(graph: Graph, registry: GraphRegistry) -> tuple[GraphHandle, GraphSet]:
        """Never called: mypy checks here that `Graph` and `GraphRegistry` satisfy the
        protocols (a member renamed on one side fails `tests/test_types.py`)."""
        return graph, registry
