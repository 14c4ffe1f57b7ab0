"""Target resources: HugeGraph's 22 resource types and the `{type, label, properties}` shape.

What a target grants is a list of resources; each is normalised here once, when a target is
written, so every reader (the role, the permission checks, the JSON answers) sees all three
keys: `type` (default NONE), `label` (default `*`) and `properties` (default null: any).
`covers` is the type rule HugeGraph's `ResourceType.match` applies (ROOT covers everything,
ALL every graph and schema type up to META, SCHEMA the four schema types); the permission
checks inside the engine and the auth records' own management checks both use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument

#: in HugeGraph's order (ordinals matter: ALL covers the types before it)
RESOURCE_TYPES = (
    "NONE", "STATUS", "VERTEX", "EDGE", "VERTEX_AGGR", "EDGE_AGGR", "VAR", "GREMLIN", "TASK",
    "PROPERTY_KEY", "VERTEX_LABEL", "EDGE_LABEL", "INDEX_LABEL", "SCHEMA", "META", "ALL",
    "GRANT", "USER_GROUP", "PROJECT", "TARGET", "METRICS", "ROOT",
)
_ORDINAL = {name: i for i, name in enumerate(RESOURCE_TYPES)}
_SCHEMA_TYPES = frozenset({"PROPERTY_KEY", "VERTEX_LABEL", "EDGE_LABEL", "INDEX_LABEL", "SCHEMA"})

PERMISSIONS = ("READ", "WRITE", "DELETE", "EXECUTE")


def covers(granted: str, required: str) -> bool:
    """Whether a resource of type `granted` matches an action on type `required`."""
    if granted == required:
        return True
    if required == "NONE":
        return granted != "NONE"
    if granted in ("ROOT", "ALL"):
        return _ORDINAL.get(required, len(RESOURCE_TYPES)) <= _ORDINAL[granted]
    if granted == "SCHEMA":
        return required in _SCHEMA_TYPES
    return False


def normalise(resources: Any) -> list[dict[str, Any]]:
    """A target's `target_resources` as a list of complete resources; a 400 naming the
    fault for anything else. A single resource object is taken as a list of one."""
    if resources is None:
        return []
    if isinstance(resources, Mapping):
        resources = [resources]
    if not isinstance(resources, list):
        raise IllegalArgument("The target_resources must be a list of {type, label, properties} objects, "
                              f"but got {type(resources).__name__}")
    out = []
    for r in resources:
        if not isinstance(r, Mapping):
            raise IllegalArgument(f"A target resource must be an object {{type, label, properties}}, but got {r!r}")
        unknown = set(r) - {"type", "label", "properties"}
        if unknown:
            raise IllegalArgument(f"Unknown target resource keys {sorted(unknown)}: use type, label, properties")
        kind = r.get("type") or "NONE"
        if kind not in _ORDINAL:
            raise IllegalArgument(f"Invalid resource type '{kind}': expected one of {', '.join(RESOURCE_TYPES)}")
        label = r.get("label")
        label = "*" if label in (None, "") else label
        if not isinstance(label, str):
            raise IllegalArgument(f"The label of a target resource must be a string, but got {label!r}")
        props = r.get("properties")
        if props is not None and not isinstance(props, Mapping):
            raise IllegalArgument(f"The properties of a target resource must be an object or null, but got {props!r}")
        out.append({"type": kind, "label": label, "properties": dict(props) if props is not None else None})
    return out


def resource_contains(big: Mapping[str, Any], small: Mapping[str, Any]) -> bool:
    """Whether every element `small` grants is granted by `big` too: `big`'s type covers
    `small`'s, its label is `*` or the same, and each of its property conditions is also
    one of `small`'s (so `small` is at least as narrow)."""
    if not covers(big["type"], small["type"]):
        return False
    if big["label"] != "*" and big["label"] != small["label"]:
        return False
    props = big.get("properties") or {}
    if props.get("*") == "*":
        return True
    theirs = small.get("properties") or {}
    return all(k in theirs and theirs[k] == v for k, v in props.items())
