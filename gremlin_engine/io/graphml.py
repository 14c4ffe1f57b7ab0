"""GraphML files (`g.io(path).read()`/`write()` with `IO.graphml`, or a `.xml`/`.graphml` name).

GraphML is the XML interchange format TinkerPop's `GraphMLReader`/`GraphMLWriter` speak:
`<key>` elements declare each property (`attr.name`, `attr.type`, `for="node"|"edge"`), and
`<node>`/`<edge>` elements carry `<data key=...>` values. TinkerPop stores labels as data too,
under the keys `labelV` and `labelE`; this module does the same, so files move both ways.

What the format cannot hold, and how this module deals with it (as TinkerPop's writer does):
ids are text (a file's `1` reads back as the string `"1"`); a value is one of boolean, int,
long, float, double or string (any other value is written as its text, typed `string`); a key
holds one value per element, so a vertex with several values for a key, or with
meta-properties, is refused by the writer with a message naming it (GraphSON keeps those).

Reading goes through `defusedxml`: a script names the file, and the file may come from
anyone, so entity expansion ("billion laughs") and external entities are refused rather
than parsed. Writing builds the tree with the standard library's `ElementTree`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.io.graphson import EdgeRecord, GraphRecords, PropertyRecord, VertexRecord
from gremlin_engine.schema.coercion import java_repr
from gremlin_engine.structure.numbers import Float, Int, Long

NS = "http://graphml.graphdrawing.org/xmlns"
VERTEX_LABEL_KEY = "labelV"
EDGE_LABEL_KEY = "labelE"


class GraphMLError(IllegalArgument):
    """A file that is not GraphML as this reader understands it, or a graph GraphML cannot hold."""


# ---- values ---------------------------------------------------------------------------


def _float(text: str) -> float:
    named = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    return named[text] if text in named else float(text)


_DECODERS: dict[str, Any] = {
    "string": str,
    "boolean": lambda t: t.strip().lower() == "true",
    "int": lambda t: Int(int(t)),
    "long": lambda t: Long(int(t)),
    "float": lambda t: Float(_float(t.strip())),
    "double": lambda t: _float(t.strip()),
}


def graphml_type(value: Any) -> str:
    """The `attr.type` a value is written with (`string` for anything GraphML has no type for)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, Long):
        return "long"
    if isinstance(value, int):  # Int, Short, Byte, BigInt and plain ints by size
        if -(2**31) <= value < 2**31:
            return "int"
        return "long" if -(2**63) <= value < 2**63 else "string"
    if isinstance(value, Float):
        return "float"
    if isinstance(value, float):
        return "double"
    return "string"


# ---- reading --------------------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(elem: Any, name: str) -> Iterable[Any]:
    return (c for c in elem if _local(c.tag) == name)


def parse_graphml(source: str | bytes) -> GraphRecords:
    """Records from GraphML text; see `read_graphml`."""
    try:
        root = SafeET.fromstring(source)
    except (ET.ParseError, DefusedXmlException) as e:
        raise GraphMLError(f"not a GraphML file this reader accepts: {e}") from None
    return _records(root)


def read_graphml(path: str | Path) -> GraphRecords:
    """Reads a GraphML file into records (vertices in file order, then edges)."""
    return parse_graphml(Path(path).read_bytes())


def _records(root: Any) -> GraphRecords:
    if _local(root.tag) != "graphml":
        raise GraphMLError(f"the root element is <{_local(root.tag)}>, not <graphml>")
    keys: dict[str, tuple[str, str]] = {}  # key id -> (property name, attr.type)
    defaults: dict[str, dict[str, Any]] = {"node": {}, "edge": {}}
    for k in _children(root, "key"):
        kid = k.get("id")
        if not kid:
            raise GraphMLError("a <key> has no id")
        name, typ = k.get("attr.name") or kid, (k.get("attr.type") or "string").lower()
        if typ not in _DECODERS:
            raise GraphMLError(f"key {kid!r} has attr.type {typ!r}; GraphML types are {', '.join(_DECODERS)}")
        keys[kid] = (name, typ)
        for d in _children(k, "default"):
            for scope in ("node", "edge") if k.get("for", "all") == "all" else (k.get("for", ""),):
                if scope in defaults:
                    defaults[scope][name] = _decode(kid, typ, d.text or "")
    graphs = list(_children(root, "graph"))
    if len(graphs) != 1:
        raise GraphMLError(f"a GraphML file here holds one <graph>, this one holds {len(graphs)}")
    vertices: list[VertexRecord] = []
    edges: list[EdgeRecord] = []
    for elem in graphs[0]:
        tag = _local(elem.tag)
        if tag not in ("node", "edge"):
            continue
        values = dict(defaults[tag])
        for d in _children(elem, "data"):
            kid = d.get("key", "")
            if kid not in keys:
                raise GraphMLError(f"<data key={kid!r}> names no declared <key>")
            name, typ = keys[kid]
            values[name] = _decode(kid, typ, d.text or "")
        eid = elem.get("id")
        if tag == "node":
            if eid is None:
                raise GraphMLError("a <node> has no id")
            label = str(values.pop(VERTEX_LABEL_KEY, "vertex"))
            vertices.append(VertexRecord(id=eid, label=label,
                                         properties=[PropertyRecord(k, v) for k, v in values.items()]))
        else:
            if elem.get("source") is None or elem.get("target") is None:
                raise GraphMLError(f"edge {eid!r} needs a source and a target")
            label = str(values.pop(EDGE_LABEL_KEY, "edge"))
            edges.append(EdgeRecord(id=eid, label=label, out_v=elem.get("source"), in_v=elem.get("target"),
                                    properties=values))
    return GraphRecords(vertices=vertices, edges=edges)


def _decode(kid: str, typ: str, text: str) -> Any:
    try:
        return _DECODERS[typ](text)
    except (ValueError, KeyError):
        raise GraphMLError(f"key {kid!r}: {text!r} is not a GraphML {typ}") from None


# ---- writing --------------------------------------------------------------------------


def _single_values(v: VertexRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in v.properties:
        if p.key in out:
            raise GraphMLError(f"vertex {v.id!r} holds several values for {p.key!r}; GraphML holds one "
                               "value per key (write GraphSON instead)")
        if p.meta:
            raise GraphMLError(f"vertex {v.id!r} property {p.key!r} has meta-properties, which GraphML "
                               "cannot hold (write GraphSON instead)")
        out[p.key] = p.value
    return out


def _note_type(types: dict[str, str], key: str, value: Any) -> None:
    """Records a key's type; values of one key with different types widen (int to long,
    float to double) or, failing that, fall back to string, so every value reads back."""
    typ, seen = graphml_type(value), types.get(key)
    if seen is None or seen == typ:
        types[key] = typ
    elif {seen, typ} <= {"int", "long"}:
        types[key] = "long"
    elif {seen, typ} <= {"float", "double"}:
        types[key] = "double"
    else:
        types[key] = "string"


def graphml_text(records: GraphRecords) -> bytes:
    """The records as a GraphML document (UTF-8), in TinkerPop's layout: keys first (vertex
    keys, then edge keys, each sorted by name), then nodes, then edges."""
    vprops = [(v, _single_values(v)) for v in records.vertices]
    key_types: dict[str, dict[str, str]] = {"node": {VERTEX_LABEL_KEY: "string"}, "edge": {EDGE_LABEL_KEY: "string"}}
    for _, props in vprops:
        for k, val in props.items():
            _note_type(key_types["node"], k, val)
    for e in records.edges:
        for k, val in e.properties.items():
            _note_type(key_types["edge"], k, val)
    # a name used by both vertices and edges gets two keys (their types may differ)
    key_ids = {"node": {k: k for k in key_types["node"]},
               "edge": {k: (f"edge_{k}" if k in key_types["node"] else k) for k in key_types["edge"]}}
    root = ET.Element("graphml", {"xmlns": NS})
    for scope in ("node", "edge"):
        for name in sorted(key_types[scope]):
            ET.SubElement(root, "key", {"id": key_ids[scope][name], "for": scope, "attr.name": name,
                                        "attr.type": key_types[scope][name]})
    graph = ET.SubElement(root, "graph", {"id": "G", "edgedefault": "directed"})
    for v, props in vprops:
        node = ET.SubElement(graph, "node", {"id": java_repr(v.id)})
        _data(node, key_ids["node"][VERTEX_LABEL_KEY], v.label)
        for k in sorted(props):
            _data(node, key_ids["node"][k], props[k])
    for e in records.edges:
        edge = ET.SubElement(graph, "edge", {"id": java_repr(e.id), "source": java_repr(e.out_v), "target": java_repr(e.in_v)})
        _data(edge, key_ids["edge"][EDGE_LABEL_KEY], e.label)
        for k in sorted(e.properties):
            _data(edge, key_ids["edge"][k], e.properties[k])
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _data(parent: Any, key: str, value: Any) -> None:
    ET.SubElement(parent, "data", {"key": key}).text = java_repr(value)


def write_graphml(records: GraphRecords, path: str | Path) -> None:
    """Writes the records to `path` as GraphML."""
    Path(path).write_bytes(graphml_text(records))
