"""Graph variables: small named JSON values kept in the graph's store.

HugeGraph exposes them over REST (`/graphs/{g}/variables`) and TinkerPop through
`graph.variables()`; both read and write the same rows here. Values are whatever JSON the
client sent (HugeGraph stores them typed, but the REST interface only ever shows JSON), so
they are kept as JSON text and handed back as plain Python values.
"""

from __future__ import annotations

from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.graph_handle import GraphHandle


class VariableService:
    """Reads and writes one graph's variables; every call is its own store transaction. A
    request's `ctx` needs the permission on VAR (issue 19)."""

    def __init__(self, graph: GraphHandle) -> None:
        self._graph = graph

    def _permit(self, ctx: Any, permission: str, key: str = "*") -> None:
        if ctx is not None and not ctx.principal.admin:
            ctx.require(self._graph.name, permission, "VAR", key)

    def list(self, *, ctx: Any = None) -> dict[str, Any]:
        self._permit(ctx, "READ")
        with self._graph.store.read(ctx) as tx:
            rows = tx.records.var_list()
        return {key: _decode(raw) for key, raw in _pairs(rows)}

    def get(self, key: str, *, ctx: Any = None) -> Any:
        self._permit(ctx, "READ", key)
        with self._graph.store.read(ctx) as tx:
            raw = tx.records.var_get(key)
        if raw is None:
            raise NotFound(f"Variable '{key}' does not exist")
        return _decode(raw)

    def set(self, key: str, value: Any, *, ctx: Any = None) -> Any:
        self._permit(ctx, "WRITE", key)
        if not key:
            raise IllegalArgument("The variable key can't be empty")
        if value is None:
            raise IllegalArgument("The variable value can't be empty")
        with self._graph.store.write(ctx) as tx:
            tx.records.var_put(key, orjson.dumps(value).decode())
        return value

    def remove(self, key: str, *, ctx: Any = None) -> None:
        """Removing an absent variable is not an error (HugeGraph answers 204 either way)."""
        self._permit(ctx, "DELETE", key)
        with self._graph.store.write(ctx) as tx:
            tx.records.var_delete(key)


def _decode(raw: Any) -> Any:
    if isinstance(raw, (bytes, str)):
        return orjson.loads(raw)
    return raw


def _pairs(rows: Any) -> list[tuple[str, Any]]:
    """`var_list` may give a mapping or (key, value) rows; accept both."""
    if isinstance(rows, dict):
        return list(rows.items())
    return [(r[0], r[1]) for r in rows]
