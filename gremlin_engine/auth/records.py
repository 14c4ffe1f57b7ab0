"""Users, groups, targets, belongs and accesses: HugeGraph's auth records, kept in one store.

The five families share one pattern (the spec's Auth endpoints): create, get, list with
`limit`, update, delete. What differs is a table of fields per family (`FAMILIES`): which
are required, which an update may change, which name the record. The rules:

* ids: `-63:<user>`, `-69:<group>`, `-77:<target>` (HugeGraph 1.5's primary-key ids);
  a belong is `S<user id>>-82>>S<group id>`, an access `S<group id>>-88><code>>S<target id>`
  with the permission's code (READ 11, WRITE 12, DELETE 14, EXECUTE 18), so one access per
  group, target and permission;
* timestamps `YYYY-MM-DD HH:MM:SS.mmm`; `*_creator` is the caller's name; input `id`,
  `*_creator`, `*_create` and `*_update` are ignored, so a record read can be written back;
* a belong's and an access's ends never change (nor an access's permission): delete and
  create again; a user, group or target keeps its name;
* `admin` is made by `init-store` only; nobody but `admin` reads or changes it;
* deleting a user, group or target deletes the belongs and accesses that name it;
* a non-admin caller manages users, groups and belongs with WRITE (DELETE, READ) on
  USER_GROUP, targets and accesses with the same on GRANT, and may only hand out what its
  own role holds (a belong grants the group's role, an access its target's resources).

Every call is one store transaction. The user's `user_password` is the bcrypt hash.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import storage
from gremlin_engine.auth.passwords import hash_password
from gremlin_engine.auth.principal import Principal, Role
from gremlin_engine.auth.resources import PERMISSIONS, covers, normalise, resource_contains
from gremlin_engine.errors import Forbidden, IllegalArgument, NotFound

ADMIN = "admin"
SYSTEM = "system"
DEFAULT_LIMIT = 100
PERMISSION_CODES = {"READ": 11, "WRITE": 12, "DELETE": 14, "EXECUTE": 18}
_PERMISSION_NAMES = {"READ": "read", "WRITE": "write", "DELETE": "delete"}


@dataclass(frozen=True)
class Family:
    kind: str          # user, group, target, belong, access
    plural: str        # the list envelope key and the path segment
    prefix: str        # numeric id prefix for named records ("" for links)
    required: tuple[tuple[str, str], ...]  # (field, what the 400 calls it)
    fields: tuple[str, ...]   # every input field kept
    mutable: tuple[str, ...]  # fields an update may change
    manage: str        # the resource type a non-admin needs to manage it


FAMILIES = {
    "user": Family("user", "users", "-63", (("user_name", "name"), ("user_password", "password")),
                   ("user_name", "user_password", "user_phone", "user_email", "user_avatar", "user_description"),
                   ("user_password", "user_phone", "user_email", "user_avatar", "user_description"), "USER_GROUP"),
    "group": Family("group", "groups", "-69", (("group_name", "name"),),
                    ("group_name", "group_description"), ("group_description",), "USER_GROUP"),
    "target": Family("target", "targets", "-77", (("target_name", "name"), ("target_graph", "graph"),
                                                   ("target_url", "url")),
                     ("target_name", "target_graph", "target_url", "target_resources"),
                     ("target_graph", "target_url", "target_resources"), "GRANT"),
    "belong": Family("belong", "belongs", "", (("user", "user"), ("group", "group")),
                     ("user", "group", "belong_description"), ("belong_description",), "USER_GROUP"),
    "access": Family("access", "accesses", "", (("group", "group"), ("target", "target"),
                                                ("access_permission", "permission")),
                     ("group", "target", "access_permission", "access_description"), ("access_description",),
                     "GRANT"),
}
BY_PLURAL = {f.plural: f for f in FAMILIES.values()}


def now_text() -> str:
    """The auth records' timestamp form, `YYYY-MM-DD HH:MM:SS.mmm` (local time, as HugeGraph)."""
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _name_field(family: Family) -> str:
    return f"{family.kind}_name"


class AuthRecords:
    """The auth records of one store (the graph named by `auth.graph_store`).

    `version()` says when what was read from them may be stale: remembered credentials
    (`authenticator.py`) hold the version they were checked at. It is kept in memory, so a
    request reads it without touching the store (on the event loop): every write through
    this object moves it, once its transaction has ended, and `sync()` moves it when the
    store's write generation shows a write by another process (`hugelite users` on the
    store a server serves). `sync` reads the store: the server calls it off the event loop,
    every second (`rest_adapter/app.py`, the lifespan's housekeeping)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        with store.write() as tx:
            if not storage.AuthTable(tx).present():
                storage.ensure_auth_tables(tx)
            self._stored = storage.AuthTable(tx).generation()
        self._versions = itertools.count(1)  # next() is atomic: writers on several threads
        self._version = 0

    # ---- changes -----------------------------------------------------------------------
    def version(self) -> int:
        """Moves with every change of the records (class docstring); memory only."""
        return self._version

    def sync(self) -> bool:
        """Folds in writes made by other processes since the last call (a store read); True
        when there were some."""
        stored = self.generation()
        if stored == self._stored:
            return False
        self._stored = stored
        self._version = next(self._versions)
        return True

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Any]:
        """One write transaction on the records; whatever it did, `version()` moves after it.
        The store's generation it leaves is this process's own: `sync` does not count it."""
        try:
            with self.store.write() as tx:
                table = storage.AuthTable(tx)
                yield table
                stored = table.generation()
            self._stored = stored
        finally:
            self._version = next(self._versions)

    # ---- reading ---------------------------------------------------------------------
    def generation(self) -> int:
        """How many writes the store's records have had, by any process (a store read)."""
        with self.store.read() as tx:
            return storage.AuthTable(tx).generation()

    def user_by_name(self, name: str) -> dict[str, Any] | None:
        with self.store.read() as tx:
            found = storage.AuthTable(tx).find("user", name)
        return None if found is None else json.loads(found[1])

    def user_by_id(self, user_id: str) -> dict[str, Any] | None:
        with self.store.read() as tx:
            body = storage.AuthTable(tx).get("user", user_id)
        return None if body is None else json.loads(body)

    def role_of(self, user_id: str) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """The user's role: user -> belongs -> groups -> accesses -> targets, merged as
        graph -> permission -> resources (sorted, as HugeGraph's TreeMaps)."""
        with self.store.read() as tx:
            table = storage.AuthTable(tx)
            groups = [b["group"] for b in _bodies(table, "belong") if b["user"] == user_id]
            return _role(table, groups)

    def revoked(self, digest: str) -> bool:
        with self.store.read() as tx:
            return storage.AuthTable(tx).revoked(digest)

    def revoke(self, digest: str, exp: int) -> None:
        """A logged-out token, by digest, until it expires (the expired ones are dropped)."""
        with self._writing() as table:
            table.forget_revoked(int(time.time()))
            table.revoke(digest, exp)

    def get(self, caller: Principal, plural: str, id: str) -> dict[str, Any]:
        family = BY_PLURAL[plural]
        with self.store.read() as tx:
            body = storage.AuthTable(tx).get(family.kind, id)
        if body is None:
            raise NotFound(f"Can't find {family.kind} with id '{id}'")
        record = json.loads(body)
        self._check(caller, family, "READ", record)
        return record

    def list(self, caller: Principal, plural: str, limit: int | None = DEFAULT_LIMIT,
             filters: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        family = BY_PLURAL[plural]
        given = {k: v for k, v in (filters or {}).items() if v}
        if len(given) > 1:
            a, b = sorted(given, key=lambda k: ("user", "group", "target").index(k))
            raise IllegalArgument(f"Can't pass both {a} and {b} at the same time")
        with self.store.read() as tx:
            rows = [json.loads(b) for _i, b in storage.AuthTable(tx).list(family.kind)]
        rows = [r for r in rows if all(r.get(k) == v for k, v in given.items())]
        rows = [r for r in rows if self._may(caller, family, "READ", r)]
        return rows if limit is None or limit < 0 else rows[:limit]

    def role(self, caller: Principal, user_id: str) -> dict[str, Any]:
        record = self.get(caller, "users", user_id)
        return {"roles": self.role_of(record["id"])}

    # ---- writing ---------------------------------------------------------------------
    def create(self, caller: Principal, plural: str, body: Mapping[str, Any], *, system: bool = False) -> dict[str, Any]:
        family = BY_PLURAL[plural]
        values = {k: v for k, v in _input(family, body).items() if v is not None}
        for field, what in family.required:
            if values.get(field) in (None, ""):
                raise IllegalArgument(f"The {what} of {family.kind} can't be null")
        if family.kind == "user" and values["user_name"] == ADMIN and not system:
            raise IllegalArgument(f"Invalid user name '{ADMIN}'")
        if family.kind == "access":
            values["access_permission"] = _permission(values["access_permission"])
        if family.kind == "target":
            values["target_resources"] = normalise(values.get("target_resources"))
        stamp = now_text()
        with self._writing() as table:
            record = {**values, "id": self._new_id(table, family, values)}
            if not system:
                self._check(caller, family, "WRITE", record)
                self._check_grant(table, caller, family, record)
            if family.kind == "user":
                record["user_password"] = hash_password(str(values["user_password"]))
            record.update({f"{family.kind}_creator": SYSTEM if system else caller.name,
                           f"{family.kind}_create": stamp, f"{family.kind}_update": stamp})
            name = record.get(_name_field(family)) if family.prefix else None
            if table.get(family.kind, record["id"]) is not None:
                raise IllegalArgument(f"Can't save {family.kind} '{record['id']}' that already exists")
            table.insert(family.kind, record["id"], name, json.dumps(record))
        return record

    def update(self, caller: Principal, plural: str, id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        family = BY_PLURAL[plural]
        values = _input(family, body)
        with self._writing() as table:
            record = _existing(table, family, id)
            self_update = family.kind == "user" and caller.user_id == id
            if not self_update:
                self._check(caller, family, "WRITE", record)
            for field, value in values.items():
                if value is None or field in family.mutable:
                    continue
                if record.get(field) != value:
                    raise IllegalArgument(f"The {field} of {family.kind} '{id}' can't be changed; "
                                          "delete the record and create it again")
            changes = {k: v for k, v in values.items() if k in family.mutable and v is not None}
            if family.kind == "user" and "user_password" in changes:
                changes["user_password"] = hash_password(str(changes["user_password"]))
            if family.kind == "target":
                if "target_resources" in changes:
                    changes["target_resources"] = normalise(changes["target_resources"])
                candidate = {**record, **changes}
                if not caller.admin:
                    self._check_grant(table, caller, family, candidate)
            record.update(changes)
            record[f"{family.kind}_update"] = now_text()
            table.update(family.kind, id, json.dumps(record))
        return record

    def delete(self, caller: Principal, plural: str, id: str) -> None:
        family = BY_PLURAL[plural]
        with self._writing() as table:
            record = _existing(table, family, id)
            if family.kind == "user" and record.get("user_name") == ADMIN:
                raise IllegalArgument(f"The user '{ADMIN}' can't be deleted")
            self._check(caller, family, "DELETE", record)
            table.delete(family.kind, id)
            for link, end in (("belong", "user"), ("belong", "group"), ("access", "group"), ("access", "target")):
                if end == family.kind:
                    for other in _bodies(table, link):
                        if other[end] == id:
                            table.delete(link, other["id"])

    def set_password(self, name: str, password: str) -> dict[str, Any]:
        """For `hugelite users passwd` and `init-store`: no caller, no permission check."""
        with self._writing() as table:
            found = table.find("user", name)
            if found is None:
                raise NotFound(f"Can't find user with name '{name}'")
            record = json.loads(found[1])
            record["user_password"] = hash_password(password)
            record["user_update"] = now_text()
            table.update("user", record["id"], json.dumps(record))
        return record

    # ---- rules -----------------------------------------------------------------------
    def _new_id(self, table: Any, family: Family, values: Mapping[str, Any]) -> str:
        if family.prefix:
            return f"{family.prefix}:{values[_name_field(family)]}"
        if family.kind == "belong":
            for end in ("user", "group"):
                if table.get(end, values[end]) is None:
                    raise IllegalArgument(f"Not exists {end} '{values[end]}'")
            return f"S{values['user']}>-82>>S{values['group']}"
        for end in ("group", "target"):
            if table.get(end, values[end]) is None:
                raise IllegalArgument(f"Not exists {end} '{values[end]}'")
        code = PERMISSION_CODES[values["access_permission"]]
        return f"S{values['group']}>-88>{code}>S{values['target']}"

    def _may(self, caller: Principal, family: Family, permission: str, record: Mapping[str, Any]) -> bool:
        if caller.admin:
            return True
        if family.kind == "user" and record.get("user_name") == ADMIN:
            return False
        if family.kind == "user" and permission == "READ" and record.get("id") == caller.user_id:
            return True
        return _holds(caller.role, permission, family.manage)

    def _check(self, caller: Principal, family: Family, permission: str, record: Mapping[str, Any]) -> None:
        if not self._may(caller, family, permission, record):
            action = _PERMISSION_NAMES.get(permission, permission.lower())
            raise Forbidden(f"Permission denied: {action} Resource{{type={family.manage},"
                            f"operated={family.kind} '{record.get('id')}'}}")

    def _check_grant(self, table: Any, caller: Principal, family: Family, record: Mapping[str, Any]) -> None:
        """A non-admin may only hand out what its own role holds."""
        if caller.admin:
            return
        granted: dict[str, dict[str, list[dict[str, Any]]]] = {}
        if family.kind == "belong":
            granted = _role(table, [record["group"]])
        elif family.kind == "access":
            target = json.loads(table.get("target", record["target"]))
            granted = {target["target_graph"]: {record["access_permission"]: target.get("target_resources") or []}}
        elif family.kind == "target":
            return  # a target grants nothing until an access names it
        if not role_contains(caller.role or {}, granted):
            raise Forbidden(f"Permission denied: the {family.kind} grants more than the role of "
                            f"'{caller.name}' holds")


def role_contains(big: Role, small: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether every resource `small` grants, per graph and permission, is inside one of `big`'s."""
    for graph, perms in small.items():
        for perm, resources in perms.items():
            mine = list((big.get(graph) or {}).get(perm) or ())
            for r in resources:
                if not any(resource_contains(m, r) for m in mine):
                    return False
    return True


def _holds(role: Role | None, permission: str, kind: str) -> bool:
    """Whether `role` grants `permission` on resource type `kind` in any graph."""
    for perms in (role or {}).values():
        for r in perms.get(permission) or ():
            if covers(r["type"], kind):
                return True
    return False


def _bodies(table: Any, kind: str) -> list[dict[str, Any]]:
    return [json.loads(b) for _i, b in table.list(kind)]


def _role(table: Any, group_ids: list[str]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    role: dict[str, dict[str, list[dict[str, Any]]]] = {}
    wanted = set(group_ids)
    for access in _bodies(table, "access"):
        if access["group"] not in wanted:
            continue
        body = table.get("target", access["target"])
        if body is None:
            continue
        target = json.loads(body)
        into = role.setdefault(target["target_graph"], {}).setdefault(access["access_permission"], [])
        into.extend(r for r in target.get("target_resources") or [] if r not in into)
    return {g: {p: role[g][p] for p in sorted(role[g])} for g in sorted(role)}


def _permission(value: Any) -> str:
    text = str(value).upper()
    if text not in PERMISSIONS:
        raise IllegalArgument(f"Invalid access permission '{value}': expected one of {', '.join(PERMISSIONS)}")
    return text


def _input(family: Family, body: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of `body` this family keeps (id, creator and timestamps are ignored)."""
    if not isinstance(body, Mapping):
        raise IllegalArgument(f"The {family.kind} must be a JSON object")
    return {k: body[k] for k in family.fields if k in body}


@contextlib.contextmanager
def records_in_file(path: str | Path, shown: str | None = None) -> Iterator[AuthRecords]:
    """The auth records of an initialised store (a file, or a PostgreSQL URL), for commands
    that run without a server (`hugelite init-store`, `hugelite users`); the store is closed
    afterwards. `shown` names the store in messages (a URL without its password)."""
    store = storage.open_store(str(path))
    try:
        store.check_ready()
        yield AuthRecords(store)
    except (storage.StoreNotInitialised, storage.StoreVersionMismatch, storage.StoreNotHugelite) as exc:
        raise IllegalArgument(f"{shown or path}: {exc}") from None
    finally:
        store.close()


def ensure_admin(records: AuthRecords, password: str) -> bool:
    """Creates the user `admin` (creator `system`) unless it exists; True when created."""
    if records.user_by_name(ADMIN) is not None:
        return False
    records.create(SYSTEM_PRINCIPAL, "users", {"user_name": ADMIN, "user_password": password}, system=True)
    return True


#: who `hugelite users` and `init-store` act as: the store's owner, not a logged-in user
SYSTEM_PRINCIPAL = Principal(name=ADMIN, user_id=f"-63:{ADMIN}", admin=True)


def _existing(table: Any, family: Any, id: str) -> dict[str, Any]:
    """The record an update or delete names; HugeGraph's 400 `Invalid <kind> id` when none."""
    old = table.get(family.kind, id)
    if old is None:
        raise IllegalArgument(f"Invalid {family.kind} id: {id}")
    return dict(json.loads(old))
