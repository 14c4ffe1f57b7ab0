"""A script's results as a rich table: one row per result, columns from what the results are.

Elements get `id`, `label` (edges also `outV`, `inV`) and one column per property key; maps
get one column per key; a path is one cell of its objects joined by arrows; anything else is
a single `value` column. Mixed results take the union of the columns, blank where a row has
none.
"""

from __future__ import annotations

from typing import Any

from gremlin_python.structure.graph import Edge, Element, Path, Vertex
from rich.table import Table


def row_of(value: Any) -> dict[str, Any]:
    """The cells of one result, by column name."""
    if isinstance(value, Element):
        row: dict[str, Any] = {"id": value.id, "label": value.label}
        if isinstance(value, Edge):
            row["outV"], row["inV"] = _id(value.outV), _id(value.inV)
        for prop in getattr(value, "properties", None) or ():
            key = prop.key
            row[key] = f"{row[key]}, {prop.value}" if key in row and isinstance(value, Vertex) else prop.value
        return row
    if isinstance(value, dict):
        return {str(k): _cell(v) for k, v in value.items()}
    if isinstance(value, Path):
        return {"path": " → ".join(str(_cell(o)) for o in value.objects)}
    return {"value": _cell(value)}


def _id(element: Any) -> Any:
    return element.id if isinstance(element, Element) else element


def _cell(value: Any) -> Any:
    if isinstance(value, Element):
        return f"{value.label}[{value.id}]"
    if isinstance(value, list):
        return value[0] if len(value) == 1 else ", ".join(str(_cell(v)) for v in value)
    return value


def results_table(results: list[Any]) -> Table:
    rows = [row_of(r) for r in results]
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    table = Table(caption=f"{len(rows)} result{'s' if len(rows) != 1 else ''}")
    for name in columns:
        table.add_column(name)
    for row in rows:
        table.add_row(*("" if name not in row else str(row[name]) for name in columns))
    return table
