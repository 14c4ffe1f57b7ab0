"""Property changes and drops on existing elements (`property()`, `drop()` and friends).

Property maps are shared between every reference to an element in a transaction, so every
change here edits the canonical element's map in place and then writes the row and its
index entries back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.runtime import validate as chk
from gremlin_engine.runtime.writes import WritesMixin, _split_meta, unwrap_cardinality
from gremlin_engine.schema.model import Cardinality as KeyCardinality
from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.structure.values import default_vp_id
from gremlin_engine.traversal.compare import equals
from gremlin_engine.traversal.tokens import Cardinality


class MutationsMixin(WritesMixin):
    # ---- set ------------------------------------------------------------------------------
    def set_property(
        self,
        element: Element,
        key: str,
        value: Any,
        cardinality: Cardinality | None = None,
        meta: dict[str, Any] | None = None,
    ) -> VertexProperty | Property | None:
        """Sets a property; a None value removes every property `key` (TinkerPop 3.8) and
        returns None, unless the graph allows null values (`allow_nulls`): then it is stored."""
        value, cardinality = unwrap_cardinality(value, cardinality)
        if isinstance(element, VertexProperty):
            return self.set_meta_property(element, key, value)
        el = self._canonical(element)
        if isinstance(el, Vertex):
            return self._set_vertex_property(el, key, value, cardinality, dict(meta) if meta else None)
        return self._set_edge_property(el, key, value)

    def _set_vertex_property(
        self, v: Vertex, key: str, value: Any, card: Cardinality | None, meta: dict[Any, Any] | None
    ) -> VertexProperty | None:
        props = v._props
        if value is None and not self.allow_nulls:
            for vp in list(props.get(key, ())):
                self.remove_property(vp)
            return None
        if self.schema.auto:
            self.schema.ensure_property_key(key, value)
            self.schema.ensure_label_keys(self.schema.ensure_vertex_label(v.label), [key])
            vp_id, m = _split_meta(meta, self.allow_nulls)
            values = [value]
            single = card is None or card is Cardinality.single
            is_set = card is Cardinality.set
        else:
            chk.check_no_meta(meta)
            vl = chk.vertex_label_or_fail(self.schema, v.label)
            pk = chk.key_for(self.schema, vl, key)
            chk.check_cardinality(pk, card)
            chk.check_updatable(vl, key)
            values = chk.coerce_values(self.schema, pk, value, f"vertex '{v.id}'")
            vp_id, m = None, {}
            single = pk.cardinality == KeyCardinality.SINGLE
            is_set = pk.cardinality == KeyCardinality.SET
        new_key = key not in props
        have = [] if single else props.get(key, [])
        last: VertexProperty | None = None
        for x in values:
            if is_set:
                same = next((vp for vp in have if equals(vp.value, x)), None)
                if same is not None:
                    same.meta.update(m)
                    last = same
                    continue
            last = VertexProperty(vp_id if vp_id is not None else default_vp_id(v.id, key, len(have)), key, x, v, dict(m))
            have.append(last)
        props[key] = have
        if new_key:
            self._ordered(props)
        self._save_vertex(v)
        return last

    def _set_edge_property(self, e: Edge, key: str, value: Any) -> Property | None:
        props = e._props
        if value is None and not self.allow_nulls:
            if key in props:
                self.remove_property(Property(key, props[key], e))
            return None
        if self.schema.auto:
            self.schema.ensure_property_key(key, value)
            el = self.schema.edge_label(e.label)
            if el is not None:
                self.schema.ensure_label_keys(el, [key])
        else:
            el = chk.edge_label_or_fail(self.schema, e.label)
            pk = chk.key_for(self.schema, el, key)
            chk.check_updatable(el, key)
            vals = chk.coerce_values(self.schema, pk, value, f"edge '{e.id}'")
            value = vals[0] if pk.cardinality == KeyCardinality.SINGLE else vals
        new_key = key not in props
        props[key] = value
        if new_key:
            self._ordered(props)
        self._save_edge(e)
        return Property(key, value, e)

    def set_meta_property(self, vp: VertexProperty, key: str, value: Any) -> Property:
        if not self.schema.auto:
            chk.check_no_meta({key: value})
        v = self._canonical(vp.vertex) if vp.vertex is not None else None
        if v is None:
            raise IllegalArgument(f"vertex property {vp!r} has no vertex")
        target = self._find_vp(v, vp)
        if value is None and not self.allow_nulls:
            target.meta.pop(key, None)
        else:
            target.meta[key] = value
        if target is not vp:
            vp.meta = target.meta
        self._save_vertex(v)
        return Property(key, value, target)

    @staticmethod
    def _find_vp(v: Vertex, vp: VertexProperty) -> VertexProperty:
        vps: list[VertexProperty] = v._props.get(vp.key, [])
        for cand in vps:
            if cand is vp:
                return cand
        for cand in vps:
            if cand == vp:
                return cand
        raise IllegalArgument(f"The vertex property {vp!r} does not exist on vertex '{v.id}'")

    # ---- remove ---------------------------------------------------------------------------
    def remove_property(self, prop: VertexProperty | Property) -> None:
        if isinstance(prop, VertexProperty):
            if prop.vertex is None:
                return
            v = self._canonical(prop.vertex)
            vps = v._props.get(prop.key)
            if not vps:
                return
            target = next((c for c in vps if c is prop), None) or next((c for c in vps if c == prop), None)
            if target is None:
                return
            if not self.schema.auto:
                vl = chk.vertex_label_or_fail(self.schema, v.label)
                if len(vps) == 1:
                    chk.check_removable(vl, prop.key, prop.value)
            vps.remove(target)
            if not vps:
                del v._props[prop.key]
            self._save_vertex(v)
            return
        owner = prop.element
        if isinstance(owner, VertexProperty):  # a meta-property
            self.set_meta_property(owner, prop.key, None)
            return
        if isinstance(owner, Edge):
            e = self._canonical(owner)
            if prop.key not in e._props:
                return
            if not self.schema.auto:
                chk.check_removable(chk.edge_label_or_fail(self.schema, e.label), prop.key, e._props[prop.key])
            del e._props[prop.key]
            self._save_edge(e)

    # ---- drop ------------------------------------------------------------------------------
    def drop(self, elements: Sequence[Element]) -> None:
        """Drops elements of any kind; a vertex takes its edges and index entries with it."""
        vertices = [e for e in elements if isinstance(e, Vertex)]
        edges = [e for e in elements if isinstance(e, Edge)]
        for p in elements:
            if isinstance(p, VertexProperty | Property):
                self.remove_property(p)
        if edges:
            self._resolve_edges(edges)
            keys = {e.key for e in edges if e.key is not None}
            if keys:
                self.tx.elements.edges_delete(list(keys))
                for k in keys:
                    self._edges.pop(k, None)
        if vertices:
            self._resolve_vertices(vertices)
            vkeys = {v.key for v in vertices if v.key is not None}
            if vkeys:
                self.tx.elements.vertices_delete(list(vkeys))
                self._forget_vertex_keys(vkeys)
