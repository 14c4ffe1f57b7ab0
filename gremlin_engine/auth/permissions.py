"""What a principal may do: HugeGraph's permission model, as pure functions of a role.

A role (HugeGraph 1.5's shape, `principal.Role`) maps a graph name to permissions (READ,
WRITE, DELETE, EXECUTE; `ANY` grants all four) and each permission to target resources
`{"type", "label", "properties"}`. A request asks for one permission on one resource type
of one graph, and, for an element or schema element, on its label and properties.

The rules carried over from HugeGraph (reference/hugegraph/errors-and-auth.md §4.4 and
auth-1.7.md §1.5):

* a required permission matches a granted one when their bit codes share a bit (READ 1,
  WRITE 2, DELETE 4, EXECUTE 8, ANY 0x7f);
* resource types are the 22 `ResourceType` values in their Java order; a granted type
  matches the same type, `ALL` matches every type up to `ALL` (graph, schema, variables,
  Gremlin, tasks), `ROOT` matches every type, `SCHEMA` the four schema types, and a
  required `NONE` anything but `NONE`;
* a resource's `label` and `properties` narrow only graph and schema types (`VERTEX`,
  `EDGE`, `PROPERTY_KEY` ... `SCHEMA`): a `{"type": "ALL", "label": "school"}` resource
  admits every label, as in HugeGraph (apache/hugegraph#1868);
* `label` is `*` (or absent, or null) for any, else a pattern with `*` and `?` wildcards
  matched against the whole label (HugeGraph 1.7's glob, safe from ReDoS where 1.5 used a
  Java regex);
* `properties` maps a key to a value (equality) or a `P.<op>(args)` text, as REST property
  conditions; every listed key must be present and hold; `{"*": "*"}` or null is any;
* conditions inside one resource are ANDed, resources are ORed;
* a role's graph key may end in `*` (a prefix of graph names).

Deliberately not carried over: HugeGraph 1.7 lets any granted permission satisfy a
required EXECUTE (so READ on GREMLIN runs scripts); here EXECUTE needs EXECUTE (or ANY).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gremlin_engine.auth.principal import Principal
from gremlin_engine.errors import Forbidden, IllegalArgument
from gremlin_engine.traversal.steps.hugegraph.conditions import parse_predicate

#: HugeGraph's `ResourceType` constants in their declaration order (the order matters:
#: `ALL` and `ROOT` cover the types declared before them)
RESOURCE_TYPES: tuple[str, ...] = (
    "NONE", "STATUS", "VERTEX", "EDGE", "VERTEX_AGGR", "EDGE_AGGR", "VAR", "GREMLIN", "TASK",
    "PROPERTY_KEY", "VERTEX_LABEL", "EDGE_LABEL", "INDEX_LABEL", "SCHEMA", "META", "ALL",
    "GRANT", "USER_GROUP", "PROJECT", "TARGET", "METRICS", "ROOT",
)
_ORDINAL = {name: i for i, name in enumerate(RESOURCE_TYPES)}
_SCHEMA_TYPES = frozenset({"PROPERTY_KEY", "VERTEX_LABEL", "EDGE_LABEL", "INDEX_LABEL", "SCHEMA"})
#: the types whose resources a label and properties narrow (HugeGraph's isGraph/isSchema)
_NARROWED = frozenset({"VERTEX", "EDGE"}) | _SCHEMA_TYPES

#: HugePermission codes
PERMISSIONS: dict[str, int] = {"NONE": 0, "READ": 1, "WRITE": 2, "DELETE": 4, "EXECUTE": 8, "ANY": 0x7F, "ADMIN": 0x7F}
#: the four a request can ask for (the spec's permission scope)
READ, WRITE, DELETE, EXECUTE = "READ", "WRITE", "DELETE", "EXECUTE"


def type_matches(granted: str, required: str) -> bool:
    """Whether a resource of type `granted` covers an operation on type `required`."""
    if granted == required:
        return True
    if required == "NONE":
        return granted != "NONE"
    g = _ORDINAL.get(granted)
    r = _ORDINAL.get(required)
    if g is None or r is None:
        return False
    if granted in ("ALL", "ROOT"):
        return r <= g
    if granted == "SCHEMA":
        return required in _SCHEMA_TYPES
    return False


def permission_matches(granted: str, required: str) -> bool:
    """HugeGraph's `(required.code & granted.code) != 0` (ANY/ADMIN only satisfies itself
    when required, which no request here asks for)."""
    need = PERMISSIONS.get(required.upper(), 0)
    have = PERMISSIONS.get(granted.upper(), 0)
    if need == 0x7F:
        return have == 0x7F
    return bool(need & have)


@lru_cache(maxsize=1024)
def _label_pattern(label: str) -> re.Pattern[str] | None:
    """A glob label as a compiled whole-string pattern; None for any label."""
    if label in ("*", "", "null"):
        return None
    return re.compile(fnmatch.translate(label))


def _condition(value: Any) -> Callable[[Any], bool]:
    """One property condition: a `P.<op>(args)` text or a value compared for equality."""
    if isinstance(value, str) and value.lstrip().startswith("P."):
        try:
            p = parse_predicate(value)
        except Exception as exc:  # a stored target with a bad predicate admits nothing
            raise IllegalArgument(f"Invalid target resource condition '{value}': {exc}") from None
        return p.test  # type: ignore[no-any-return]
    return lambda v: v == value


@dataclass(frozen=True)
class Resource:
    """One target resource: a type, a label pattern and property conditions (ANDed)."""

    type: str
    label: str = "*"
    properties: tuple[tuple[str, Any], ...] | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Resource:
        rtype = str(raw.get("type") or "NONE").upper()
        if rtype not in _ORDINAL:
            raise IllegalArgument(f"Invalid resource type '{rtype}', expect one of {list(RESOURCE_TYPES)}")
        label = raw.get("label")
        label = "*" if label is None else str(label)
        props = raw.get("properties")
        conds: tuple[tuple[str, Any], ...] | None = None
        if props:
            pairs = tuple((str(k), v) for k, v in dict(props).items() if not (k == "*" and v == "*"))
            conds = pairs or None
        return cls(rtype, label, conds)

    @property
    def narrows(self) -> bool:
        """Whether this resource admits less than every element of the types it covers."""
        return self.type in _NARROWED and (_label_pattern(self.label) is not None or bool(self.properties))

    def admits_label(self, label: str) -> bool:
        if self.type not in _NARROWED:
            return True
        pattern = _label_pattern(self.label)
        return pattern is None or pattern.fullmatch(label) is not None

    def admits(self, label: str, props: Callable[[str], tuple[bool, Any]] | None) -> bool:
        """Label and every property condition (`props(key)` -> (present, first value))."""
        if not self.admits_label(label):
            return False
        if self.type not in _NARROWED or not self.properties:
            return True
        if props is None:
            return False
        for key, cond in self.properties:
            present, value = props(key)
            if not present or not _tests(cond)(value):
                return False
        return True


@lru_cache(maxsize=4096)
def _tests_cached(cond: Any) -> Callable[[Any], bool]:
    return _condition(cond)


def _tests(cond: Any) -> Callable[[Any], bool]:
    try:
        return _tests_cached(cond)
    except TypeError:  # an unhashable condition value (a list): built each time
        return _condition(cond)


class Permissions:
    """A principal's permissions. `admin` allows everything; otherwise `grants(graph,
    permission, type)` lists the granted resources that cover the type (an empty list: not
    allowed at all), and `allows(...)` answers for one labelled, propertied object."""

    __slots__ = ("admin", "_role", "_memo", "derived")

    def __init__(self, admin: bool, role: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]] | None) -> None:
        self.admin = admin
        self._role: list[tuple[str, str, tuple[Resource, ...]]] = []
        for graph, perms in (role or {}).items():
            for perm, resources in (perms or {}).items():
                self._role.append((str(graph), str(perm).upper(), tuple(Resource.of(r) for r in resources or ())))
        self._memo: dict[tuple[str, str, str], tuple[Resource, ...]] = {}
        #: what the engine derives from these permissions (its per-type rules), kept with
        #: them so that a principal's requests build it once
        self.derived: dict[Any, Any] = {}

    def grants(self, graph: str, permission: str, rtype: str) -> tuple[Resource, ...]:
        """The resources granting `permission` on `rtype` in `graph` (admin: one ROOT)."""
        if self.admin:
            return _ROOT
        key = (graph, permission, rtype)
        found = self._memo.get(key)
        if found is None:
            out: list[Resource] = []
            for g, perm, resources in self._role:
                if not _graph_matches(g, graph) or not permission_matches(perm, permission):
                    continue
                out.extend(r for r in resources if type_matches(r.type, rtype))
            found = self._memo[key] = tuple(out)
        return found

    def may(self, graph: str, permission: str, rtype: str) -> bool:
        """Whether any resource of `rtype` may be operated on (HugeGraph's REST-level check)."""
        return self.admin or bool(self.grants(graph, permission, rtype))

    def anywhere(self, permission: str, rtype: str) -> bool:
        """Whether `rtype` is granted in any graph (a script not bound to one graph)."""
        return self.admin or any(
            permission_matches(perm, permission) and any(type_matches(r.type, rtype) for r in resources)
            for _g, perm, resources in self._role
        )

    def unrestricted(self, graph: str, permission: str, rtype: str) -> bool:
        """Whether every object of `rtype` is allowed (no check per element needed)."""
        return self.admin or any(not r.narrows for r in self.grants(graph, permission, rtype))

    def allows(
        self, graph: str, permission: str, rtype: str, label: str,
        props: Callable[[str], tuple[bool, Any]] | None = None,
    ) -> bool:
        """Whether the object (its label; `props(key)` -> (present, value)) is allowed."""
        if self.admin:
            return True
        return any(r.admits(label, props) for r in self.grants(graph, permission, rtype))

    denied = staticmethod(lambda graph, permission, rtype, what: denied(graph, permission, rtype, what))

    def require(self, graph: str, permission: str, rtype: str, what: str = "*") -> None:
        """Raises `Forbidden` (403 `Permission denied: ...`) unless some resource of `rtype`
        is granted."""
        if not self.may(graph, permission, rtype):
            raise denied(graph, permission, rtype, what)


_ROOT = (Resource("ROOT"),)


def _graph_matches(pattern: str, graph: str) -> bool:
    if pattern.endswith("*"):
        return graph.startswith(pattern[:-1])
    return pattern == graph


def denied(graph: str, permission: str, rtype: str, what: Any) -> Forbidden:
    """HugeGraph's single-object denial: `Permission denied: read Resource{graph=g,
    type=VERTEX,operated=...}`."""
    return Forbidden(
        f"Permission denied: {permission.lower()} Resource{{graph={graph},type={rtype},operated={what}}}"
    )


_ADMIN = Permissions(True, None)
#: id(principal) -> (principal, its permissions): the auth layer hands the same Principal
#: object to a user's requests, so its role is parsed once, not per request
_BY_PRINCIPAL: dict[int, tuple[Principal, Permissions]] = {}
_BY_PRINCIPAL_MAX = 1024


def permissions_of(principal: Principal) -> Permissions:
    """The permissions of `principal` (an administrator's are shared; others are kept per
    Principal object, which is immutable)."""
    if principal.admin:
        return _ADMIN
    hit = _BY_PRINCIPAL.get(id(principal))
    if hit is not None and hit[0] is principal:
        return hit[1]
    perms = Permissions(False, principal.role)
    if len(_BY_PRINCIPAL) >= _BY_PRINCIPAL_MAX:
        _BY_PRINCIPAL.clear()
    _BY_PRINCIPAL[id(principal)] = (principal, perms)
    return perms
