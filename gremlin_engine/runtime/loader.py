"""Storage rows to engine elements, with one element cache per transaction.

Every element read in a transaction is kept by its storage key, so a vertex reached ten times
(`g.V().out().out()` over a dense graph) is one Python object, built once and decoded at most
once: repeated loads are free and a write through one reference is seen through all of them.

Vertex property JSON is kept raw until someone asks (`load`): many traversals only need ids
and labels (`count()`, `id()`, adjacency walks), and decoding is most of a row's cost. Edge
properties are decoded with the edge, since edges are mostly read for their properties.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gremlin_engine.runtime.edge_lookup import edge_rows
from gremlin_engine.runtime.schema_bridge import SchemaBridge
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Element, Vertex, VertexProperty
from gremlin_engine.structure.values import decode_edge_props, decode_vertex_props, decode_vertex_value
from storage import Lookup, Tx

#: past this many cached elements the caches are dropped at the next safe point: a
#: traversal over millions of elements must not keep all of them alive.
CACHE_LIMIT = 300_000


class ElementLoader:
    """The read-side core shared by the access mixins: builds, caches and loads elements."""

    def __init__(self, tx: Tx, schema: SchemaBridge) -> None:
        self.tx = tx
        self.schema = schema
        self._vertices: dict[int, Vertex] = {}
        self._edges: dict[int, Edge] = {}
        self._raw: dict[int, Any] = {}  # vertex key -> props JSON not decoded yet

    # ---- cache housekeeping ---------------------------------------------------------------
    def _trim(self) -> None:
        """Called at the start of read calls: forget everything once the cache is too big."""
        if len(self._vertices) + len(self._edges) > CACHE_LIMIT:
            self._vertices.clear()
            self._edges.clear()
            self._raw.clear()

    def _forget_vertex_keys(self, keys: set[int]) -> None:
        for k in keys:
            self._vertices.pop(k, None)
            self._raw.pop(k, None)
        if len(self._edges) > 5000:
            self._edges.clear()  # cheaper than scanning; the cache only saves lookups
            return
        stale = [k for k, e in self._edges.items() if e.out_v.key in keys or e.in_v.key in keys]
        for k in stale:
            del self._edges[k]

    # ---- rows to elements ---------------------------------------------------------------
    def _vertex(self, row: Any) -> Vertex:
        v = self._vertices.get(row.key)
        if v is None:
            v = Vertex(idc.from_storage(row.id), self.schema.vertex_label_by_id(row.label_id).name, row.key)
            self._vertices[row.key] = v
            self._raw[row.key] = row.props
        elif v._props is None and row.key not in self._raw:
            self._raw[row.key] = row.props
        return v

    def _vertices_by_keys(self, keys: Iterable[int]) -> dict[int, Vertex]:
        """key -> Vertex for every existing key, one storage call for the uncached ones."""
        out: dict[int, Vertex] = {}
        missing = []
        for k in keys:
            v = self._vertices.get(k)
            if v is None:
                missing.append(k)
            else:
                out[k] = v
        if missing:
            for row in self.tx.elements.find(Lookup.VERTICES_BY_KEYS, missing):
                out[row.key] = self._vertex(row)
        return out

    def _edge(self, row: Any, ends: dict[int, Vertex] | None = None) -> Edge:
        e = self._edges.get(row.key)
        if e is not None:
            return e
        if ends is None:
            ends = self._vertices_by_keys((row.out_key, row.in_key))
        e = Edge(
            idc.from_storage(row.id),
            self.schema.edge_label_by_id(row.label_id).name,
            ends[row.out_key],
            ends[row.in_key],
            row.key,
            decode_edge_props(row.props),
        )
        self._edges[row.key] = e
        return e

    def _edges_from_rows(self, rows: Sequence[Any]) -> list[Edge]:
        """Edges for a batch of rows, with every end vertex fetched in one call."""
        need = set()
        for r in rows:
            if r.key not in self._edges:
                need.add(r.out_key)
                need.add(r.in_key)
        ends = self._vertices_by_keys(need) if need else {}
        return [self._edge(r, ends) for r in rows]

    # ---- resolving client-made (detached) elements ------------------------------------
    def _resolve_vertices(self, vertices: Sequence[Vertex]) -> None:
        """Gives vertices that came from outside (bytecode, bindings) their storage key;
        ones that do not exist keep `key=None`."""
        todo = [v for v in vertices if v.key is None]
        if not todo:
            return
        wanted = {}
        for v in todo:
            lid = idc.lookup_id(v.id)
            if lid is not None:
                wanted[idc.to_storage(lid)] = lid
        rows = {r.id: r for r in self.tx.elements.find(Lookup.VERTICES_BY_IDS, list(wanted))} if wanted else {}
        for v in todo:
            lid = idc.lookup_id(v.id)
            row = rows.get(idc.to_storage(lid)) if lid is not None else None
            if row is not None:
                canon = self._vertex(row)
                v.key, v.label = canon.key, canon.label

    def _resolve_edges(self, edges: Sequence[Edge]) -> None:
        todo = [e for e in edges if e.key is None]
        if not todo:
            return
        wanted = [idc.to_storage(self._edge_lookup_id(e.id)) for e in todo]
        rows = {r.id: r for r in edge_rows(self.tx, wanted, self.schema.auto)}
        for e in todo:
            row = rows.get(idc.to_storage(self._edge_lookup_id(e.id)))
            if row is not None:
                canon = self._edges_from_rows([row])[0]
                e.key, e.label, e.out_v, e.in_v = canon.key, canon.label, canon.out_v, canon.in_v

    def _edge_lookup_id(self, value: Any) -> Any:
        """An edge id as stored: strict-mode string ids in the canonical 5-part form."""
        ident = value.id if isinstance(value, Element) else value
        if isinstance(ident, str) and not self.schema.auto:
            return idc.canonical_edge_id(ident) or ident
        return idc.lookup_id(ident)

    # ---- loading properties --------------------------------------------------------------
    def _decode(self, v: Vertex) -> None:
        raw = self._raw.pop(v.key, None) if v.key is not None else None
        v._props = decode_vertex_props(raw, v)

    def load(self, elements: Iterable[Element]) -> None:
        """Fills the properties of every unloaded element of the batch (one query per kind
        at most; none when the rows were already read in this transaction)."""
        fetch_v: list[Vertex] = []
        fetch_e: list[Edge] = []
        for el in elements:
            if el._props is not None:
                continue
            if isinstance(el, Vertex):
                canon = self._vertices.get(el.key) if el.key is not None else None
                if canon is not None and canon is not el:
                    if canon._props is None:
                        self._ensure_raw(canon, fetch_v)
                    fetch_v.append(el)
                elif el.key is not None and el.key in self._raw:
                    self._decode(el)
                else:
                    fetch_v.append(el)
            elif isinstance(el, Edge):
                canon_e = self._edges.get(el.key) if el.key is not None else None
                if canon_e is not None and canon_e is not el:
                    el._props = canon_e._props
                else:
                    fetch_e.append(el)
            elif isinstance(el, VertexProperty):
                continue
        if fetch_v:
            self._load_vertices(fetch_v)
        if fetch_e:
            self._load_edges(fetch_e)

    def property_values(self, elements: Sequence[Element], key: str, missing: Any = None) -> list[Any]:
        """The first value of `key` on each element (`missing` when it has none), decoding
        only that key of vertex rows whose JSON is still raw: the vertex stays unloaded, so
        a scan grouped by one key never builds every property of every vertex."""
        out: list[Any] = [missing] * len(elements)
        rest: list[int] = []
        for i, el in enumerate(elements):
            if el._props is None and isinstance(el, Vertex) and el.key is not None:
                canon = self._vertices.get(el.key)
                if canon is not None and canon._props is not None:
                    el._props = canon._props
                elif el.key in self._raw:
                    out[i] = decode_vertex_value(self._raw[el.key], key, missing)
                    continue
                else:
                    rest.append(i)
                    continue
            elif el._props is None:
                rest.append(i)
                continue
            out[i] = _first_value(el, key, missing)
        if rest:
            self.load([elements[i] for i in rest])
            for i in rest:
                out[i] = _first_value(elements[i], key, missing)
        return out

    def _ensure_raw(self, canon: Vertex, fetch: list[Vertex]) -> None:
        if canon.key in self._raw:
            self._decode(canon)
        else:
            fetch.append(canon)

    def _load_vertices(self, vertices: list[Vertex]) -> None:
        self._resolve_vertices(vertices)
        need = [v.key for v in vertices if v.key is not None and v.key not in self._raw
                and (self._vertices.get(v.key) is None or self._vertices[v.key]._props is None)]
        if need:
            for row in self.tx.elements.find(Lookup.VERTICES_BY_KEYS, need):
                canon = self._vertex(row)
                if canon._props is None:
                    self._raw[row.key] = row.props
        for v in vertices:
            if v._props is not None:
                continue
            known = self._vertices.get(v.key) if v.key is not None else None
            if known is None:
                v._props = {}  # a vertex that does not exist (any more) has no properties
                continue
            if known._props is None:
                self._decode(known)
            if known is not v:
                v._props = known._props

    def _load_edges(self, edges: list[Edge]) -> None:
        self._resolve_edges(edges)
        need = [e.key for e in edges if e.key is not None and e.key not in self._edges]
        if need:
            self._edges_from_rows(self.tx.elements.find(Lookup.EDGES_BY_KEYS, need))
        for e in edges:
            if e._props is None:
                canon = self._edges.get(e.key) if e.key is not None else None
                e._props = canon._props if canon is not None else {}


def _first_value(el: Element, key: str, missing: Any) -> Any:
    """`key`'s first value on a loaded element (edge: its value), else `missing`."""
    if isinstance(el, Vertex):
        for vp in el.properties(key):
            return vp.value
        return missing
    props = el._props or {}
    return props.get(key, missing)
