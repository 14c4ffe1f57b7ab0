"""HugeGraph's documentation example graph (the TinkerPop "modern" graph as the traverser
docs load it), created through the REST API so the same builder serves in-process apps and
real servers: `load_example(post)` where `post(path, json)` returns an httpx response.

Vertex ids are `1:marko`, `2:lop`...; `knows` is a MULTIPLE edge label sorted by `date`, so
its edge ids carry the date (`S1:marko>1>1>20130220>S1:josh`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PROPERTY_KEYS = [("name", "TEXT"), ("age", "INT"), ("city", "TEXT"), ("weight", "DOUBLE"), ("lang", "TEXT"),
                 ("date", "TEXT"), ("price", "INT")]

VERTICES = [
    ("person", {"name": "marko", "age": 29, "city": "Beijing"}),
    ("person", {"name": "vadas", "age": 27, "city": "Hongkong"}),
    ("software", {"name": "lop", "lang": "java", "price": 328}),
    ("person", {"name": "josh", "age": 32, "city": "Beijing"}),
    ("software", {"name": "ripple", "lang": "java", "price": 199}),
    ("person", {"name": "peter", "age": 35, "city": "Shanghai"}),
]

EDGES = [
    ("knows", "1:marko", "1:vadas", {"date": "20160110", "weight": 0.5}),
    ("knows", "1:marko", "1:josh", {"date": "20130220", "weight": 1.0}),
    ("created", "1:marko", "2:lop", {"date": "20171210", "weight": 0.4}),
    ("created", "1:josh", "2:lop", {"date": "20091111", "weight": 0.4}),
    ("created", "1:josh", "2:ripple", {"date": "20171210", "weight": 1.0}),
    ("created", "1:peter", "2:lop", {"date": "20170324", "weight": 0.2}),
]

LABELS = {"1:marko": "person", "1:vadas": "person", "1:josh": "person", "1:peter": "person",
          "2:lop": "software", "2:ripple": "software"}


def _ok(resp: Any) -> Any:
    assert resp.status_code in (200, 201, 202), resp.text
    return resp


def load_example(post: Callable[..., Any], base: str) -> None:
    """Creates the schema, vertices and edges under `base` (`/graphs/<name>`)."""
    for name, dt in PROPERTY_KEYS:
        _ok(post(f"{base}/schema/propertykeys", json={"name": name, "data_type": dt, "cardinality": "SINGLE"}))
    _ok(post(f"{base}/schema/vertexlabels", json={
        "name": "person", "id_strategy": "PRIMARY_KEY", "properties": ["name", "age", "city"],
        "primary_keys": ["name"], "nullable_keys": ["age", "city"]}))
    _ok(post(f"{base}/schema/vertexlabels", json={
        "name": "software", "id_strategy": "PRIMARY_KEY", "properties": ["name", "lang", "price"],
        "primary_keys": ["name"], "nullable_keys": ["price"]}))
    _ok(post(f"{base}/schema/edgelabels", json={
        "name": "knows", "source_label": "person", "target_label": "person", "frequency": "MULTIPLE",
        "properties": ["date", "weight"], "sort_keys": ["date"], "nullable_keys": ["weight"]}))
    _ok(post(f"{base}/schema/edgelabels", json={
        "name": "created", "source_label": "person", "target_label": "software",
        "properties": ["date", "weight"], "nullable_keys": ["weight"]}))
    _ok(post(f"{base}/graph/vertices/batch", json=[{"label": lb, "properties": p} for lb, p in VERTICES]))
    _ok(post(f"{base}/graph/edges/batch", json=[
        {"label": lb, "outV": o, "inV": i, "outVLabel": LABELS[o], "inVLabel": LABELS[i], "properties": p}
        for lb, o, i, p in EDGES]))
