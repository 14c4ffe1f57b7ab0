"""hugelite's graph engine: the public API the REST adapter, the CLI and embedded users see.

```python
from gremlin_engine import GraphConfig, GraphRegistry
registry = GraphRegistry()
GraphRegistry.init_store(cfg); graph = registry.open(cfg)
graph.execute("g.V().count()")
```
"""

from __future__ import annotations

from gremlin_engine.errors import (
    ExistedError,
    Forbidden,
    GremlinError,
    GremlinSyntaxError,
    HugeliteError,
    IllegalArgument,
    LimitExceeded,
    NoIndexError,
    NotFound,
    NotSupported,
    StepArgumentError,
    StoreNotReady,
    TransactionError,
    TraversalCancelled,
    TraversalError,
    TraversalTimeout,
    UnsupportedStep,
    UnsupportedSyntax,
)
from gremlin_engine.graph import GRAPH_MODES, READ_MODES, Graph, GraphConfig, GraphRegistry
from gremlin_engine.variables import VariableService

__all__ = [
    "GRAPH_MODES",
    "READ_MODES",
    "ExistedError",
    "Forbidden",
    "Graph",
    "GraphConfig",
    "GraphRegistry",
    "GremlinError",
    "GremlinSyntaxError",
    "HugeliteError",
    "IllegalArgument",
    "LimitExceeded",
    "NoIndexError",
    "NotFound",
    "NotSupported",
    "StepArgumentError",
    "StoreNotReady",
    "TransactionError",
    "TraversalCancelled",
    "TraversalError",
    "TraversalTimeout",
    "UnsupportedStep",
    "UnsupportedSyntax",
    "VariableService",
]
