"""GraphSON 2.0 messages (`application/vnd.gremlin-v2.0+json`).

Version 2 types scalars and elements like version 3 but writes collections as plain JSON:
lists and sets are arrays and maps are objects, so map keys become strings (a vertex key
becomes its id, as Gremlin Server renders keys with `toString`). Requests are read with the
same reader as version 3, which accepts both shapes.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.structure.elements import Element
from gremlin_engine.traversal import tokens as tk
from rest_adapter.serializers.graphson_v3 import GraphSONResultWriter, GraphSONV3Codec
from rest_adapter.serializers.mime import GRAPHSON_V2


def _key(k: Any) -> str:
    if isinstance(k, str):
        return k
    if isinstance(k, Element):
        return _key(k.id)  # an id is rendered as its own key would be (no type suffix)
    if isinstance(k, tk.T | tk.Column | tk.Direction):
        return str(k.value)
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, int):
        return str(int(k))  # our Int/Long repr carries a type suffix
    if isinstance(k, float):
        return repr(float(k))
    return str(k)


class GraphSONV2ResultWriter(GraphSONResultWriter):
    def _list(self, v: Any) -> Any:
        return [self.write(x) for x in v]

    _set = _list

    def _map(self, v: dict[Any, Any]) -> Any:
        return {_key(k): self.write(x) for k, x in v.items()}

    def _bulkset(self, bs: Any) -> Any:
        return [self.write(value) for value, bulk in bs.bulk_items() for _ in range(int(bulk))]


class GraphSONV2Codec(GraphSONV3Codec):
    mime = GRAPHSON_V2
    writer_class = GraphSONV2ResultWriter
