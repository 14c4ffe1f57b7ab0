"""Schema on first use: what `schema_mode = "auto"` adds to the service.

In auto mode the graph behaves like TinkerGraph: `g.addV('person').property('age', 29)`
works without a schema, because the first use of a label or key creates it, with types
inferred from the value. A later value that does not fit an inferred key widens the key
(to OBJECT, or to LIST/SET cardinality) instead of failing, and keys used on a label are
appended to it as nullable properties. Edge labels created here may link more than one pair
of vertex labels. In strict mode every `ensure_*` only looks up and raises HugeGraph's error
for unknown names.

All of this runs in the caller's write transaction `tx`, so a rolled-back script leaves no
schema behind.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema import coercion
from gremlin_engine.schema.model import (
    EDGE_LABEL,
    PROPERTY_KEY,
    VERTEX_LABEL,
    Cardinality,
    DataType,
    EdgeLabel,
    Frequency,
    IdStrategy,
    PropertyKey,
    VertexLabel,
)
from storage import Tx

_Created = TypeVar("_Created", PropertyKey, VertexLabel, EdgeLabel)


class AutoSchema:
    """Mixin of `SchemaService` (needs its read API, `_put`, `schema_mode`, `new_user_data`)."""

    def _auto(self) -> bool:
        return bool(self.schema_mode == "auto")  # type: ignore[attr-defined]  # the service's property

    def _first_use(self, tx: Tx, model: type[_Created], kind: str, name: str, **fields: Any) -> _Created:
        """Schema element `name` of `kind` created on first use, in `tx`: the name checked as a
        REST create checks it, the kind's next id, fresh user data, then the given fields."""
        self.check_name(name)  # type: ignore[attr-defined]
        element = model(
            id=tx.schema.schema_next_id(kind),
            name=name,
            user_data=self.new_user_data({}),  # type: ignore[attr-defined]
            **fields,
        )
        self.put_element(tx, element)  # type: ignore[attr-defined]
        return element

    def ensure_property_key(
        self, tx: Tx, name: str, sample_value: Any = None, cardinality: Cardinality | str | None = None
    ) -> PropertyKey:
        """The key `name`; in auto mode created (or widened) so that `sample_value` fits."""
        pk: PropertyKey | None = self.property_key(name)  # type: ignore[attr-defined]
        card = Cardinality(str(cardinality).upper()) if cardinality is not None else None
        if not self._auto():
            if pk is None:
                raise IllegalArgument(f"Undefined property key: '{name}'")
            return pk
        if pk is None:
            data_type, inferred_card = (
                coercion.infer_data_type(sample_value) if sample_value is not None else (DataType.OBJECT, Cardinality.SINGLE)
            )
            if card is not None and card is not Cardinality.SINGLE:
                inferred_card = card
            return self._first_use(tx, PropertyKey, PROPERTY_KEY, name, data_type=data_type, cardinality=inferred_card)
        changed = pk
        if card is not None and card is not Cardinality.SINGLE and pk.cardinality is Cardinality.SINGLE:
            changed = dataclasses.replace(changed, cardinality=card)
        if sample_value is not None and not coercion.fits(changed, sample_value):
            changed = dataclasses.replace(changed, data_type=DataType.OBJECT)
        if changed != pk:
            self.put_element(tx, changed)  # type: ignore[attr-defined]
        return changed

    def ensure_vertex_label(self, tx: Tx, name: str, id_strategy: IdStrategy | str | None = None) -> VertexLabel:
        """The vertex label `name`; in auto mode created on first use (AUTOMATIC ids unless a
        strategy is given: the runtime passes CUSTOMIZE_* when the first vertex brings an id)."""
        vl: VertexLabel | None = self.vertex_label(name)  # type: ignore[attr-defined]
        if vl is not None:
            return vl
        if not self._auto():
            raise IllegalArgument(f"Undefined vertex label: '{name}'")
        strategy = IdStrategy(str(id_strategy)) if id_strategy else IdStrategy.AUTOMATIC
        return self._first_use(tx, VertexLabel, VERTEX_LABEL, name, id_strategy=strategy)

    def ensure_edge_label(self, tx: Tx, name: str, out_label: str, in_label: str) -> EdgeLabel:
        """The edge label `name`; in auto mode created on first use, and given a further link
        when it is used between another pair of vertex labels."""
        el: EdgeLabel | None = self.edge_label(name)  # type: ignore[attr-defined]
        if el is None:
            if not self._auto():
                raise IllegalArgument(f"Undefined edge label: '{name}'")
            return self._first_use(
                tx, EdgeLabel, EDGE_LABEL, name, source_label=out_label, target_label=in_label,
                links=((out_label, in_label),), frequency=Frequency.SINGLE,
            )
        if (out_label, in_label) not in el.links and self._auto():
            el = dataclasses.replace(el, links=(*el.links, (out_label, in_label)))
            self.put_element(tx, el)  # type: ignore[attr-defined]
        return el

    def ensure_label_properties(self, tx: Tx, label: VertexLabel | EdgeLabel, keys: list[str]) -> VertexLabel | EdgeLabel:
        """Auto mode: adds `keys` (existing property keys) to a label as nullable properties."""
        missing = [k for k in keys if k not in label.properties]
        if not missing or not self._auto():
            return label
        order = {pk.name: pk.id for pk in self.property_keys()}  # type: ignore[attr-defined]
        props = tuple(sorted({*label.properties, *missing}, key=lambda n: order.get(n, 1 << 62)))
        nullable = tuple(sorted({*label.nullable_keys, *missing}, key=lambda n: order.get(n, 1 << 62)))
        label = dataclasses.replace(label, properties=props, nullable_keys=nullable)
        self.put_element(tx, label)  # type: ignore[attr-defined]
        return label
