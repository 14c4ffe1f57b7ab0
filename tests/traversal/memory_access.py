"""A small, honest in-memory `GraphAccess` (TinkerGraph-like) for the traversal unit tests.

It stores vertices and edges in dicts, hands out *unloaded* elements like the real
runtime does (so tests exercise `load`), and counts calls per method so tests can check
that steps talk to the graph once per batch rather than once per traverser.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from gremlin_engine.structure.elements import Edge, Element, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.tokens import Cardinality, Direction, T


class MemoryGraph:
    schema_mode = "auto"

    def __init__(self) -> None:
        self.v: dict[Any, tuple[str, dict[str, list[tuple[Any, Any, dict[str, Any]]]]]] = {}
        self.e: dict[Any, tuple[str, Any, Any, dict[str, Any]]] = {}
        self.calls: Counter[str] = Counter()
        self._next_id = 100
        self._next_vp = 1000

    # ---- helpers ---------------------------------------------------------------------
    def _new_id(self) -> Long:
        self._next_id += 1
        return Long(self._next_id)

    def _vertex(self, vid: Any) -> Vertex:
        return Vertex(vid, self.v[vid][0])

    def _edge(self, eid: Any) -> Edge:
        label, o, i, props = self.e[eid]
        return Edge(eid, label, self._vertex(o), self._vertex(i), props=dict(props))

    def _values(self, elem: Element, key: Any) -> list[Any]:
        if key is T.id:
            return [elem.id]
        if key is T.label:
            return [elem.label]
        if isinstance(elem, Vertex):
            return [val for _, val, _ in self.v[elem.id][1].get(key, [])]
        props = self.e[elem.id][3]
        return [props[key]] if key in props else []

    def _match(self, elem: Element, labels: Sequence[str] | None, conditions: Sequence[tuple[Any, Any]]) -> bool:
        if labels is not None and elem.label not in labels:
            return False
        return all(any(p.test(x) for x in self._values(elem, k)) for k, p in conditions)

    def _select(self, kind: str, ids: Sequence[Any] | None, labels, conditions, limit) -> Iterator[Element]:
        store = self.v if kind == "vertex" else self.e
        make = self._vertex if kind == "vertex" else self._edge
        keys = [i for i in ids if i in store] if ids is not None else list(store)
        n = 0
        for k in keys:
            if limit is not None and n >= limit:
                return
            elem = make(k)
            if self._match(elem, labels, conditions):
                n += 1
                yield elem

    # ---- reads -------------------------------------------------------------------------
    def vertices(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Vertex]:
        self.calls["vertices"] += 1
        return self._select("vertex", ids, labels, conditions, limit)  # type: ignore[return-value]

    def edges(self, ids=None, labels=None, conditions=(), limit=None) -> Iterator[Edge]:
        self.calls["edges"] += 1
        return self._select("edge", ids, labels, conditions, limit)  # type: ignore[return-value]

    def count(self, kind: str, labels=None, conditions=()) -> int:
        self.calls["count"] += 1
        return sum(1 for _ in self._select(kind, None, labels, conditions, None))

    def _incident(self, vertices: Sequence[Vertex], direction: Direction, labels: Sequence[str]):
        for idx, v in enumerate(vertices):
            for eid, (label, o, i, _) in self.e.items():
                if labels and label not in labels:
                    continue
                if direction in (Direction.OUT, Direction.BOTH) and o == v.id:
                    yield idx, eid, i
                if direction in (Direction.IN, Direction.BOTH) and i == v.id:
                    yield idx, eid, o

    def adjacent_vertices(self, vertices, direction, labels=()) -> list[tuple[int, Vertex]]:
        self.calls["adjacent_vertices"] += 1
        return [(idx, self._vertex(other)) for idx, _, other in self._incident(vertices, direction, labels)]

    def adjacent_edges(self, vertices, direction, labels=()) -> list[tuple[int, Edge]]:
        self.calls["adjacent_edges"] += 1
        return [(idx, self._edge(eid)) for idx, eid, _ in self._incident(vertices, direction, labels)]

    def load(self, elements: Iterable[Element]) -> None:
        self.calls["load"] += 1
        for elem in elements:
            if elem.loaded:
                continue
            if isinstance(elem, Vertex):
                elem._props = {
                    k: [VertexProperty(vpid, k, val, elem, dict(meta)) for vpid, val, meta in vps]
                    for k, vps in self.v[elem.id][1].items()
                }
            else:
                elem._props = dict(self.e[elem.id][3])

    # ---- writes ------------------------------------------------------------------------
    def add_vertex(self, label, id=None, properties=()) -> Vertex:
        vid = self._new_id() if id is None else id
        if vid in self.v:
            raise ValueError(f"vertex {vid} exists")
        self.v[vid] = (label or "vertex", {})
        v = self._vertex(vid)
        for p in properties:
            self.set_property(v, p[0], p[1], p[2] if len(p) > 2 else None, p[3] if len(p) > 3 else None)
        return self._vertex(vid)

    def add_edge(self, label, out_v, in_v, id=None, properties=()) -> Edge:
        eid = self._new_id() if id is None else id
        self.e[eid] = (label, out_v.id, in_v.id, dict(properties))
        return self._edge(eid)

    def set_property(self, element, key, value, cardinality=None, meta=None):
        if isinstance(element, Edge):
            self.e[element.id][3][key] = value
            return Property(key, value, element)
        self._next_vp += 1
        props = self.v[element.id][1]
        meta = dict(meta or {})
        vpid = meta.pop(T.id, None)  # a user-supplied vertex property id (auto mode)
        entry = (Long(self._next_vp) if vpid is None else vpid, value, meta)
        if cardinality in (None, Cardinality.single):
            props[key] = [entry]
        elif cardinality is Cardinality.set and any(val == value for _, val, _ in props.get(key, [])):
            pass
        else:
            props.setdefault(key, []).append(entry)
        element._props = None
        return VertexProperty(entry[0], key, value, element, dict(meta or {}))

    def set_meta_property(self, vp, key, value):
        for entry in self.v[vp.vertex.id][1][vp.key]:
            if entry[0] == vp.id:
                entry[2][key] = value
        return Property(key, value, vp)

    def remove_property(self, prop) -> None:
        if isinstance(prop, VertexProperty):
            vps = self.v[prop.vertex.id][1]
            vps[prop.key] = [e for e in vps.get(prop.key, []) if e[0] != prop.id]
            if not vps[prop.key]:
                del vps[prop.key]
        elif isinstance(prop.element, Edge):
            self.e[prop.element.id][3].pop(prop.key, None)

    def drop(self, elements) -> None:
        self.calls["drop"] += 1
        for elem in elements:
            if isinstance(elem, Vertex):
                self.v.pop(elem.id, None)
                for eid in [k for k, (_, o, i, _) in self.e.items() if elem.id in (o, i)]:
                    del self.e[eid]
            else:
                self.e.pop(elem.id, None)


def modern() -> MemoryGraph:
    """TinkerPop's 'modern' toy graph: vertices 1..6, edges 7..12."""
    g = MemoryGraph()
    people = {1: ("marko", 29), 2: ("vadas", 27), 4: ("josh", 32), 6: ("peter", 35)}
    software = {3: ("lop", "java"), 5: ("ripple", "java")}
    for vid, (name, age) in people.items():
        g.add_vertex("person", vid, [("name", name), ("age", age)])
    for vid, (name, lang) in software.items():
        g.add_vertex("software", vid, [("name", name), ("lang", lang)])
    edges = [
        (7, "knows", 1, 2, 0.5), (8, "knows", 1, 4, 1.0), (9, "created", 1, 3, 0.4),
        (10, "created", 4, 5, 1.0), (11, "created", 4, 3, 0.4), (12, "created", 6, 3, 0.2),
    ]
    for eid, label, o, i, w in edges:
        g.add_edge(label, g._vertex(o), g._vertex(i), eid, [("weight", w)])
    g.calls.clear()
    return g
