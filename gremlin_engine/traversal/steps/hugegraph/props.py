"""`PUT .../{id}?action=append|eliminate` as engine steps.

* `hgAppend(props, label?)`: each property is added by its key's cardinality: SINGLE
  replaces, SET takes the union, LIST appends. Primary and sort keys cannot change.
* `hgEliminate(keys, label?)`: each named property is removed whole, whatever values the
  request gave; primary, sort and non-nullable keys are refused.

Both check first that every key belongs to the element's label, with HugeGraph's message
(`Can't update property for vertex '1:marko' because there is no property key 'x' in its
vertex label`), and emit the changed element.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema.model import Cardinality
from gremlin_engine.structure.elements import Edge, Property, Vertex
from gremlin_engine.traversal.compare import equals
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.hugegraph.elements import check_end_label, id_text
from gremlin_engine.traversal.traverser import Context, Traverser, checked


def _kind(element: Any) -> str:
    if isinstance(element, Vertex):
        return "vertex"
    if isinstance(element, Edge):
        return "edge"
    raise IllegalArgument(f"Only vertices and edges have properties to update, not {element!r}")


def _check_keys(schema: Any, element: Any, keys: Sequence[str]) -> None:
    kind = _kind(element)
    if schema.auto:
        return
    label = schema.vertex_label(element.label) if kind == "vertex" else schema.edge_label(element.label)
    for key in keys:
        if label is None or key not in label.properties:
            raise IllegalArgument(
                f"Can't update property for {kind} '{id_text(element.id)}' because there is no property key "
                f"'{key}' in its {kind} label"
            )


class _PropertyUpdateStep(Step):
    mutating = True

    def __init__(self, keys: Any, label: str | None = None) -> None:
        super().__init__(keys, label)
        self.label = label

    def _elements(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        for t in checked(it, ctx):
            if isinstance(t.obj, Vertex) and self.label is not None:
                check_end_label(t.obj, self.label)
            ctx.load([t.obj])
            yield t


class AppendStep(_PropertyUpdateStep):
    """`hgAppend({key: value}, label?)`."""

    name = "hgAppend"

    def __init__(self, props: Mapping[str, Any], label: str | None = None) -> None:
        super().__init__(props, label)
        self.props = {str(k): v for k, v in props.items()}

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        access = ctx.access
        schema = access.schema  # type: ignore[attr-defined]
        for t in self._elements(it, ctx):
            el = t.obj
            _check_keys(schema, el, list(self.props))
            for key, value in self.props.items():
                if value is None:
                    raise IllegalArgument(f"Not allowed to set value of property '{key}' to null for {_kind(el)} '{id_text(el.id)}'")
                if isinstance(el, Edge):
                    value = self._edge_value(schema, el, key, value)
                access.set_property(el, key, value)
            yield t

    @staticmethod
    def _edge_value(schema: Any, e: Edge, key: str, value: Any) -> Any:
        """Edges keep LIST/SET values as one list: append/union it here (vertices do it in
        the runtime, per vertex property)."""
        pk = schema.property_key(key)
        if pk is None or pk.cardinality == Cardinality.SINGLE:
            return value
        new = schema.coerce(pk, value)
        old = list(e._props.get(key) or ())
        if pk.cardinality == Cardinality.LIST:
            return old + new
        return old + [x for x in new if not any(equals(x, y) for y in old)]


class EliminateStep(_PropertyUpdateStep):
    """`hgEliminate([key...], label?)`."""

    name = "hgEliminate"

    def __init__(self, keys: Sequence[str], label: str | None = None) -> None:
        super().__init__(keys, label)
        self.keys = [str(k) for k in keys]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        access = ctx.access
        schema = access.schema  # type: ignore[attr-defined]
        for t in self._elements(it, ctx):
            el = t.obj
            _check_keys(schema, el, self.keys)
            for key in self.keys:
                if isinstance(el, Vertex):
                    for vp in list(el.properties(key)):
                        access.remove_property(vp)
                elif key in el._props:
                    access.remove_property(Property(key, el._props[key], el))
            yield t
