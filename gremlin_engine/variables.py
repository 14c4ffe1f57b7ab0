"""Graph variables: small named JSON values kept in the graph's store.

HugeGraph exposes them over REST (`/graphs/{g}/variables`) and TinkerPop through
`graph.variables()`; both read and write the same rows here. Values are whatever JSON the
client sent (HugeGraph stores them typed, but the REST interface only ever shows JSON), so
they are kept as JSON text and handed back as plain Python values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from gremlin_engine.errors import IllegalArgument, NotFound

if TYPE_CHECKING:
    from gremlin_engine.graph import Graph


class VariableService:
    """Reads and writes one graph's variables; every call is its own store transaction."""

    def __init__(self, graph: Graph) -> None:
        self._graph = graph

    def list(self) -> dict[str, Any]:
        with self._graph.store.read() as tx:
            rows = tx.records.var_list()
        return {key: _decode(raw) for key, raw in _pairs(rows)}

    def get(self, key: str) -> Any:
        with self._graph.store.read() as tx:
            raw = tx.records.var_get(key)
        if raw is None:
            raise NotFound(f"Variable '{key}' does not exist")
        return _decode(raw)

    def set(self, key: str, value: Any) -> Any:
        if not key:
            raise IllegalArgument("The variable key can't be empty")
        if value is None:
            raise IllegalArgument("The variable value can't be empty")
        with self._graph.store.write() as tx:
            tx.records.var_put(key, orjson.dumps(value).decode())
        return value

    def remove(self, key: str) -> None:
        """Removing an absent variable is not an error (HugeGraph answers 204 either way)."""
        with self._graph.store.write() as tx:
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
