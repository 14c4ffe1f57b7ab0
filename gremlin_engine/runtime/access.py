"""`StoreAccess`: the `GraphAccess` the traversal machine runs against.

One instance wraps one storage transaction of one graph. It is assembled from mixins, each a
module of its own: `loader` (rows → elements, the per-transaction cache, `load`), `reads`
(V/E/count/adjacency), `writes` (add vertex/edge with id strategies and validation),
`mutations` (properties, drop), `batch_writes` (`add_vertices`/`add_edges`: a batch in one
storage round) and `pushdowns` (walk and group counts answered by one statement).
`gremlin_engine/access.py` is the contract it implements.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.context import ExecutionContext
from gremlin_engine.graph_config import MODE_KEY
from gremlin_engine.graph_handle import GraphHandle
from gremlin_engine.runtime.batch_writes import BatchWritesMixin
from gremlin_engine.runtime.pushdowns import PushdownsMixin
from gremlin_engine.runtime.schema_bridge import SchemaBridge
from storage import Tx


class StoreAccess(PushdownsMixin, BatchWritesMixin):
    """GraphAccess over `tx` (a storage read or write transaction).

    What a graph's configuration decides (its name, strategies, import and export folders,
    services) is set by `for_graph`, which every request goes through; the class holds the
    values of an access made without a graph (tests, tools), so that a request's access is
    not filled twice."""

    graph_name: str | None = None
    strategies = True
    import_dir: Any = None
    export_dir: Any = None
    services: str | None = None  # `call()` service families (gremlin_engine/services)
    #: the transaction runs one statement at most (a single-statement read, whose access is
    #: made over a pinned schema): a fused read that would need more declines before its first
    one_statement = False

    def __init__(
        self, tx: Tx, schema_service: Any, schema_mode: str = "strict", graph_mode: str | None = "NONE",
        bridge: SchemaBridge | None = None,
    ) -> None:
        # the bridge is bound to `tx` for auto mode's schema creation (`bridge`: one made
        # before, over a pinned schema no transaction of which creates anything)
        super().__init__(tx, SchemaBridge(schema_service, tx, schema_mode) if bridge is None else bridge)
        self.schema_mode = schema_mode
        self._graph_mode = graph_mode  # None: read from store metadata when first needed
        #: the request's `ExecutionContext` (from the transaction), None outside a request
        self.ctx = tx.ctx if isinstance(tx.ctx, ExecutionContext) else None

    @property
    def graph_mode(self) -> str:
        """The graph mode (NONE, LOADING, RESTORING, MERGING); only writes need it, so it is
        read (through this transaction) on first use rather than for every request."""
        if self._graph_mode is None:
            mode = self.tx.schema.meta_get(MODE_KEY) or "NONE"
            self._graph_mode = str(mode).upper()
        return self._graph_mode

    @graph_mode.setter
    def graph_mode(self, mode: str) -> None:
        self._graph_mode = mode

    @classmethod
    def for_graph(cls, graph: GraphHandle, tx: Tx, schema: Any = None) -> StoreAccess:
        """The access for `graph` (a `gremlin_engine.graph.Graph`) inside `tx`: every request
        makes one, so what the graph's configuration decides is read from what the graph
        worked out when it opened (its config does not change while it is open). `schema`:
        a single-statement read's `SchemaService.pinned` view (then the access is marked
        `one_statement`), read through one `SchemaBridge` kept with the view (it creates
        nothing: single-statement reads are for strict graphs only); None: the graph's own."""
        config = graph.config
        # the graph mode lives in store metadata and is read through this transaction when
        # a write needs it: `graph.mode` would open a second one while this one may hold the
        # write lock
        if schema is None:
            access = cls(tx, graph.schema, config.schema_mode, None)
        else:
            bridge = schema.reader
            if bridge is None:
                # bound to no transaction: it outlives this one, and creates nothing
                bridge = schema.reader = SchemaBridge(schema, None, config.schema_mode)  # type: ignore[arg-type]
            access = cls(tx, schema, config.schema_mode, None, bridge)
            access.one_statement = True
        access.graph_name = config.name
        # `gremlin.strategies=none` in a graph's config runs its traversals unoptimised, so
        # the conformance suite can check that the strategies change nothing but speed
        if not graph.runs_strategies:
            access.strategies = False
        registry = graph.registry
        if registry is not None:
            # `g.io(path).read()` may only read below the server's configured import folder,
            # and `g.io(path).write()` only write below its export folder
            access.import_dir = registry.import_dir
            access.export_dir = registry.export_dir
        if graph.allows_nulls:
            access.allow_nulls = True
        services = graph.services
        if services is not None:
            access.services = services
        return access

    @property
    def writable(self) -> bool:
        return not self.tx.readonly
