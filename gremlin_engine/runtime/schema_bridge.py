"""Every call the runtime makes into the schema service, in one place.

The runtime needs a handful of schema facts on its hot paths (label name ⇄ id, a property
key's type, the index labels of a label) and, in auto mode, needs labels and keys created on
first use. Keeping those calls here means a change in the schema service's API touches one
module, and gives the runtime small caches keyed the way it looks things up.

`SchemaBridge` is bound to one storage transaction: auto-mode creation writes schema inside
the same transaction as the data that needed it, so both commit or roll back together.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema import coercion, indexing
from gremlin_engine.schema.model import (
    BaseType,
    EdgeLabel,
    EdgeLabelType,
    IndexLabel,
    PropertyKey,
    VertexLabel,
)
from storage import Tx

AUTO, STRICT = "auto", "strict"


class SchemaBridge:
    __slots__ = ("service", "tx", "mode", "auto", "_vl_by_id", "_el_by_id", "_pk")

    def __init__(self, service: Any, tx: Tx, mode: str) -> None:
        self.service = service
        self.tx = tx
        self.mode = mode
        #: auto mode (labels and keys created on first use): every point read asks
        self.auto = mode == AUTO
        self._vl_by_id: dict[int, VertexLabel] = {}
        self._el_by_id: dict[int, EdgeLabel] = {}
        self._pk: dict[str, PropertyKey | None] = {}

    # ---- label lookups --------------------------------------------------------------
    def vertex_label(self, name: str) -> VertexLabel | None:
        return self.service.vertex_label(name)

    def edge_label(self, name: str) -> EdgeLabel | None:
        return self.service.edge_label(name)

    def vertex_label_by_id(self, label_id: int) -> VertexLabel:
        vl = self._vl_by_id.get(label_id)
        if vl is None:
            vl = self.service.vertex_label_by_id(label_id)
            if vl is None:
                raise IllegalArgument(f"Undefined vertex label with id: '{label_id}'")
            self._vl_by_id[label_id] = vl
        return vl

    def edge_label_by_id(self, label_id: int) -> EdgeLabel:
        el = self._el_by_id.get(label_id)
        if el is None:
            el = self.service.edge_label_by_id(label_id)
            if el is None:
                raise IllegalArgument(f"Undefined edge label with id: '{label_id}'")
            self._el_by_id[label_id] = el
        return el

    def vertex_labels(self) -> list[VertexLabel]:
        return self.service.vertex_labels()

    def edge_labels(self) -> list[EdgeLabel]:
        return self.service.edge_labels()

    def vertex_label_ids(self, names: Sequence[str]) -> list[int]:
        """Ids of the named vertex labels that exist (unknown names match nothing)."""
        out = []
        for n in names:
            vl = self.service.vertex_label(n)
            if vl is not None:
                out.append(vl.id)
        return out

    def edge_label_filter(self, names: Sequence[str]) -> tuple[int, ...] | None:
        """The distinct ids an adjacency read filters by for edge labels `names` (None for no
        names: every label; empty when no name is a label), `derived_for_edge_labels`."""
        if not names:
            return None
        shape = names if type(names) is tuple else tuple(names)
        found: tuple[int, ...] = self.derived_for_edge_labels(
            ("edge label ids", shape), (shape,), lambda: tuple(dict.fromkeys(self.edge_label_ids(shape))))
        return found

    def derived_for_edge_labels(self, key: Hashable, label_sets: Sequence[Sequence[str]], make: Callable[[], Any]) -> Any:
        """`make()` (never None), derived once per schema snapshot under `key` when every
        name of every set in `label_sets` is an edge label; otherwise made per call, so the
        names a client sends never grow the snapshot's cache. The one rule for what a read
        shaped by edge label names (an adjacency hop, a walk count, a label filter) keeps."""
        names_known = self.service.edge_label
        found = self.derived(
            key, lambda: make() if all(names_known(n) is not None for s in label_sets for n in s) else None)
        return make() if found is None else found

    def edge_label_ids(self, names: Sequence[str]) -> list[int]:
        """Ids of the named edge labels; a PARENT label stands for all of its sub labels."""
        out: list[int] = []
        for n in names:
            el = self.service.edge_label(n)
            if el is None:
                continue
            if el.edgelabel_type == EdgeLabelType.PARENT:
                out.extend(s.id for s in self.service.edge_labels() if s.parent_label == el.name)
            else:
                out.append(el.id)
        return out

    def property_key(self, name: str) -> PropertyKey | None:
        if name in self._pk:
            return self._pk[name]
        pk = self.service.property_key(name)
        if pk is not None:
            self._pk[name] = pk
        return pk

    def key_order(self, name: str) -> int:
        """Sort position of a key in element output: its property-key id."""
        pk = self.property_key(name)
        return pk.id if pk is not None else 1 << 62

    def derived(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """`SchemaService.derived`: `make()` cached on the current schema snapshot."""
        return self.service.derived(key, make)

    # ---- values and indexes -----------------------------------------------------------
    def coerce(self, pk: PropertyKey, value: Any) -> Any:
        """`SchemaService.coerce` of a key object: the coercion rules themselves, directly."""
        return coercion.coerce(pk, value)

    def index_labels_for(self, kind: str, label: str) -> list[IndexLabel]:
        """Cached on the schema snapshot (`derived`): every write asks, and a schema change
        replaces the snapshot (so a new index label is seen at once)."""
        base = BaseType.VERTEX_LABEL if kind == "vertex" else BaseType.EDGE_LABEL
        found: list[IndexLabel] = self.service.derived(
            ("index labels", base, label), lambda: self.service.index_labels_for(base, label)
        )
        return found

    def has_indexes(self, kind: str, label: str) -> bool:
        return bool(self.index_labels_for(kind, label))

    def index_entries(self, kind: str, label: str, props: Mapping[str, Any]) -> list[tuple[int, Any]]:
        return indexing.index_entries_of(self.index_labels_for(kind, label), props)

    def index_lookup_value(self, index: IndexLabel, values: list[Any]) -> Any:
        """`SchemaService.index_lookup_value`: the indexing rule itself, directly."""
        return indexing.lookup_value(index, values)

    # ---- auto mode: create on first use -------------------------------------------------
    def ensure_vertex_label(self, name: str) -> VertexLabel:
        vl = self.service.vertex_label(name)
        if vl is None:
            vl = self.service.ensure_vertex_label(self.tx, name)
        return vl

    def ensure_edge_label(self, name: str, out_label: str, in_label: str) -> EdgeLabel:
        el = self.service.edge_label(name)
        if el is None or (out_label, in_label) not in el.links:
            el = self.service.ensure_edge_label(self.tx, name, out_label, in_label)
        return el

    def ensure_property_key(self, name: str, sample: Any) -> PropertyKey:
        pk = self.service.ensure_property_key(self.tx, name, sample)
        self._pk[name] = pk
        return pk

    def ensure_label_keys(self, label: VertexLabel | EdgeLabel, keys: list[str]) -> None:
        """Auto mode: records keys used on a label as its (nullable) properties."""
        if any(k not in label.properties for k in keys):
            self.service.ensure_label_properties(self.tx, label, keys)


def _links(el: EdgeLabel) -> set[tuple[str, str]]:
    links = set(el.links)
    if el.source_label and el.target_label:
        links.add((el.source_label, el.target_label))
    return links


def edge_label_links(el: EdgeLabel) -> set[tuple[str, str]]:
    """The (source label, target label) pairs an edge label allows."""
    return _links(el)
