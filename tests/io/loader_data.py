"""A small loader fixture set the loader tests share: a strict schema with every id strategy,
a list property, a date, and CSV files plus a struct.json that map onto it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gremlin_engine import GraphConfig, GraphRegistry

SCHEMA = """
schema.propertyKey("name").asText().ifNotExist().create()
schema.propertyKey("age").asInt().ifNotExist().create()
schema.propertyKey("born").asDate().ifNotExist().create()
schema.propertyKey("tags").asText().valueList().ifNotExist().create()
schema.propertyKey("lang").asText().ifNotExist().create()
schema.propertyKey("weight").asDouble().ifNotExist().create()
schema.propertyKey("code").asLong().ifNotExist().create()
schema.vertexLabel("person").properties("name", "age", "born", "tags").primaryKeys("name")
      .nullableKeys("age", "born", "tags").ifNotExist().create()
schema.vertexLabel("software").properties("name", "lang").useCustomizeStringId().nullableKeys("lang")
      .ifNotExist().create()
schema.vertexLabel("city").properties("name", "code").useCustomizeNumberId().nullableKeys("code")
      .ifNotExist().create()
schema.vertexLabel("device").properties("name").useCustomizeUuidId().ifNotExist().create()
schema.vertexLabel("note").properties("name").useAutomaticId().ifNotExist().create()
schema.edgeLabel("knows").sourceLabel("person").targetLabel("person").properties("weight")
      .nullableKeys("weight").ifNotExist().create()
schema.edgeLabel("created").sourceLabel("person").targetLabel("software").properties("weight")
      .nullableKeys("weight").ifNotExist().create()
schema.edgeLabel("livesIn").sourceLabel("person").targetLabel("city").ifNotExist().create()
schema.indexLabel("personByAge").onV("person").by("age").range().ifNotExist().create()
schema.indexLabel("softwareByLang").onV("software").by("lang").secondary().ifNotExist().create()
"""

PEOPLE = """name,age,born,tags,city_id
marko,29,1997-02-20 10:00:00,[a|b],1
vadas,27,1999-01-01 00:00:00,[],2
josh,-,2000-05-05 12:30:00,[x],1
peter,35,,,2
"""
SOFTWARE = "id\tname\tlang\nlop\tlop\tJ\nripple\tripple\tP\n"
CITIES = '{"id": 1, "name": "Beijing", "code": 100}\n{"id": 2, "name": "Hangzhou"}\n'
DEVICES = "uuid,name\n3e6f2c3a-8d3b-4d7a-9a36-2f1d0c6f1a11,phone\n"
NOTES = "name\nfirst\nsecond\n"
KNOWS = "from,to,weight\nmarko,vadas,0.5\nmarko,josh,1.0\n"
CREATED = "person,soft,weight\nmarko,lop,0.4\njosh,ripple,1.0\njosh,lop,0.4\n"


def struct(inputs: dict[str, str]) -> dict[str, Any]:
    """The mapping of the fixture files (names in `inputs`: file names relative to the struct)."""
    return {"version": "2.0", "structs": [
        {"id": "people", "input": {"path": inputs["people"], "format": "CSV", "date_format": "yyyy-MM-dd HH:mm:ss",
                                   "time_zone": "UTC"},
         "vertices": [{"label": "person", "null_values": ["", "-"], "ignored": ["city_id"]}],
         "edges": [{"label": "livesIn", "source": ["name"], "target": ["city_id"],
                    "ignored": ["age", "born", "tags"]}]},
        {"id": "software", "input": {"path": inputs["software"], "format": "TEXT"},
         "vertices": [{"label": "software", "id": "id",
                       "value_mapping": {"lang": {"J": "java", "P": "python"}}}]},
        {"id": "cities", "input": {"path": inputs["cities"], "format": "JSON"},
         "vertices": [{"label": "city", "id": "id"}]},
        {"id": "devices", "input": {"path": inputs["devices"]}, "vertices": [{"label": "device", "id": "uuid"}]},
        {"id": "notes", "input": {"path": inputs["notes"]}, "vertices": [{"label": "note"}]},
        {"id": "knows", "input": {"path": inputs["knows"]},
         "edges": [{"label": "knows", "source": ["from"], "target": ["to"],
                    "field_mapping": {"from": "name", "to": "name"}}]},
        {"id": "created", "input": {"path": inputs["created"]},
         "edges": [{"label": "created", "source": ["person"], "target": ["soft"],
                    "field_mapping": {"person": "name"}}]},
    ]}


def write_fixture(folder: Path) -> Path:
    """Writes the CSV/TEXT/JSON files and struct.json into `folder`; returns struct.json."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"people": PEOPLE, "software": SOFTWARE, "cities": CITIES, "devices": DEVICES, "notes": NOTES,
             "knows": KNOWS, "created": CREATED}
    names = {}
    for name, text in files.items():
        ext = {"software": "txt", "cities": "json"}.get(name, "csv")
        (folder / f"{name}.{ext}").write_text(text, encoding="utf-8")
        names[name] = f"{name}.{ext}"
    (folder / "schema.groovy").write_text(SCHEMA, encoding="utf-8")
    path = folder / "struct.json"
    path.write_text(json.dumps(struct(names), indent=1), encoding="utf-8")
    return path


def open_store(registry: GraphRegistry, path: Path, name: str = "loaded", mode: str = "strict") -> Any:
    cfg = GraphConfig(name=name, backend="sqlite", store=str(path), schema_mode=mode)
    GraphRegistry.init_store(cfg)
    return registry.open(cfg)


def graph_dump(graph: Any) -> tuple[list[Any], list[Any]]:
    """Every vertex (id, label, properties) and edge (id, label, ends, properties), sorted."""
    vertices = sorted(
        (str(v[0]), v[1], sorted((k, repr(x)) for k, x in v[2].items()))
        for v in graph.execute("g.V().as('v').project('i','l','p').by(id).by(label).by(valueMap())"
                               ".select(values).toList()"))
    edges = sorted(
        (str(e[0]), e[1], str(e[2]), str(e[3]), sorted((k, repr(x)) for k, x in e[4].items()))
        for e in graph.execute("g.E().project('i','l','o','n','p').by(id).by(label).by(outV().id())"
                               ".by(inV().id()).by(valueMap()).select(values).toList()"))
    return vertices, edges
