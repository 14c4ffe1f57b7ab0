"""The permission model as a table: HugeGraph's resource-type umbrellas, permission codes,
label patterns and property conditions (AND within a resource, OR across resources)."""

from __future__ import annotations

from typing import Any

import pytest

from gremlin_engine.auth.permissions import (
    RESOURCE_TYPES,
    Permissions,
    Resource,
    permission_matches,
    permissions_of,
    type_matches,
)
from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.errors import Forbidden, IllegalArgument


def test_the_22_resource_types_in_java_order() -> None:
    assert len(RESOURCE_TYPES) == 22
    assert RESOURCE_TYPES[0] == "NONE" and RESOURCE_TYPES[15] == "ALL" and RESOURCE_TYPES[-1] == "ROOT"


@pytest.mark.parametrize(("granted", "required", "expected"), [
    ("VERTEX", "VERTEX", True),
    ("VERTEX", "EDGE", False),
    ("ALL", "VERTEX", True),
    ("ALL", "GREMLIN", True),
    ("ALL", "TASK", True),
    ("ALL", "META", True),
    ("ALL", "GRANT", False),      # auth records are past ALL
    ("ALL", "METRICS", False),
    ("ROOT", "GRANT", True),
    ("ROOT", "METRICS", True),
    ("SCHEMA", "VERTEX_LABEL", True),
    ("SCHEMA", "PROPERTY_KEY", True),
    ("SCHEMA", "VERTEX", False),
    ("VERTEX_LABEL", "SCHEMA", False),
    ("NONE", "NONE", True),
    ("VERTEX", "NONE", True),     # a required NONE is met by anything but NONE
    ("GREMLIN", "TASK", False),
    ("TASK", "GREMLIN", False),
])
def test_type_umbrellas(granted: str, required: str, expected: bool) -> None:
    assert type_matches(granted, required) is expected


@pytest.mark.parametrize(("granted", "required", "expected"), [
    ("READ", "READ", True),
    ("READ", "WRITE", False),
    ("WRITE", "DELETE", False),
    ("EXECUTE", "EXECUTE", True),
    ("READ", "EXECUTE", False),   # HugeGraph 1.7's quirk (READ runs Gremlin) is not carried over
    ("ANY", "DELETE", True),
    ("ADMIN", "READ", True),
    ("read", "READ", True),
])
def test_permission_codes(granted: str, required: str, expected: bool) -> None:
    assert permission_matches(granted, required) is expected


def _props(values: dict[str, Any]) -> Any:
    return lambda key: (key in values, values.get(key))


BEIJING_PERSON = {"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}
OLD = {"type": "VERTEX", "label": "person", "properties": {"age": "P.gte(30)"}}
SOFTWARE = {"type": "VERTEX", "label": "soft*"}

CASES = [
    # (resources, label, props, allowed)
    ([BEIJING_PERSON], "person", {"name": "marko", "city": "Beijing"}, True),
    ([BEIJING_PERSON], "person", {"name": "vadas", "city": "Hongkong"}, False),
    ([BEIJING_PERSON], "person", {"name": "nobody"}, False),            # a listed key must be present
    ([BEIJING_PERSON], "software", {"city": "Beijing"}, False),         # label and properties: AND
    ([{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing", "age": "P.lt(30)"}}],
     "person", {"city": "Beijing", "age": 32}, False),                  # every condition: AND
    ([BEIJING_PERSON, OLD], "person", {"city": "Shanghai", "age": 35}, True),   # resources: OR
    ([BEIJING_PERSON, OLD], "person", {"city": "Shanghai", "age": 27}, False),
    ([{"type": "VERTEX", "label": "person", "properties": {"age": "P.between(27, 30)"}}],
     "person", {"age": 29}, True),
    ([{"type": "VERTEX", "label": "person", "properties": {"age": "P.between(27, 30)"}}],
     "person", {"age": 30}, False),
    ([{"type": "VERTEX", "label": "person", "properties": {"city": "P.within('Beijing', 'Shanghai')"}}],
     "person", {"city": "Shanghai"}, True),
    ([SOFTWARE], "software", {}, True),                                 # glob labels
    ([SOFTWARE], "person", {}, False),
    ([{"type": "VERTEX", "label": "pers?n"}], "person", {}, True),
    ([{"type": "VERTEX", "label": "*"}], "anything", {}, True),
    ([{"type": "VERTEX"}], "anything", {}, True),                       # label defaults to *
    ([{"type": "VERTEX", "label": "person", "properties": {"*": "*"}}], "person", {}, True),
    ([{"type": "VERTEX", "label": "per.*"}], "person", {}, False),      # a glob, not a regex
    ([{"type": "ALL", "label": "software"}], "person", {}, True),       # ALL is not narrowed (hugegraph#1868)
    ([{"type": "EDGE"}], "person", {}, False),                          # wrong type
]


@pytest.mark.parametrize(("resources", "label", "props", "allowed"), CASES)
def test_element_resources(resources: list[dict[str, Any]], label: str, props: dict[str, Any], allowed: bool) -> None:
    perms = Permissions(False, {"hugegraph": {"READ": resources}})
    assert perms.allows("hugegraph", "READ", "VERTEX", label, _props(props)) is allowed


def test_grants_are_per_graph_and_per_permission() -> None:
    perms = Permissions(False, {"hugegraph": {"READ": [{"type": "VERTEX"}]}, "other*": {"WRITE": [{"type": "ALL"}]}})
    assert perms.may("hugegraph", "READ", "VERTEX")
    assert not perms.may("hugegraph", "WRITE", "VERTEX")
    assert not perms.may("another", "READ", "VERTEX")
    assert perms.may("other2", "WRITE", "EDGE")                          # a graph prefix pattern
    assert not perms.may("other2", "READ", "EDGE")
    assert perms.unrestricted("hugegraph", "READ", "VERTEX")
    assert not Permissions(False, {"hugegraph": {"READ": [BEIJING_PERSON]}}).unrestricted("hugegraph", "READ", "VERTEX")


def test_admin_and_empty_roles() -> None:
    admin = permissions_of(ANONYMOUS_ADMIN)
    assert admin.admin and admin.allows("any", "DELETE", "ROOT", "x")
    nobody = permissions_of(Principal("test", "-63:test", admin=False, role={}))
    assert not nobody.may("hugegraph", "READ", "VERTEX")
    with pytest.raises(Forbidden, match=r"Permission denied: read Resource\{graph=hugegraph,type=VERTEX"):
        nobody.require("hugegraph", "READ", "VERTEX")


def test_a_bad_resource_type_is_named() -> None:
    with pytest.raises(IllegalArgument, match="Invalid resource type 'VERTICES'"):
        Resource.of({"type": "VERTICES"})
