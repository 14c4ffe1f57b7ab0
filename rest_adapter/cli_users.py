"""`hugelite users` and the bootstrap admin of `hugelite init-store`: auth records without a server.

Both work on the store file of the graph `auth.graph_store` names (StandardAuthenticator
only: the ConfigAuthenticator's users are its configuration lines). They act as the store's
owner, so they need no login; a running server sees their changes within a second (it
compares the records' write generation every second: `AuthRecords.sync`).

The admin's password comes from `--admin-password`, else `HUGELITE_ADMIN_PASSWORD`, else a
prompt on a terminal; there is no built-in default, and without a terminal or a password
`init-store` stops with exit code 2 saying how to give one.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from gremlin_engine import GraphConfig, HugeliteError
from gremlin_engine.auth import SYSTEM_PRINCIPAL, AuthRecords, ensure_admin, records_in_file
from rest_adapter.auth import ADMIN_PASSWORD_ENV, STANDARD, auth_mode, graph_store
from rest_adapter.settings import Settings, SettingsError

CONF_HELP = "configuration folder (rest-server.properties, graphs/)"


def _auth_store(settings: Settings) -> GraphConfig | None:
    """The graph whose store keeps the auth records, None when auth is not StandardAuthenticator."""
    if auth_mode(settings.raw) != STANDARD:
        return None
    name = graph_store(settings.raw)
    cfg = next((g for g in settings.graphs if g.name == name), None)
    if cfg is None:
        raise SettingsError(f"auth.graph_store names the graph '{name}', which the graphs folder lacks")
    if cfg.location is None:
        raise MemoryGraphStore(f"auth.graph_store names the memory graph '{name}': its users live as long as "
                               f"the server, which makes 'admin' at start from {ADMIN_PASSWORD_ENV}")
    return cfg


class MemoryGraphStore(SettingsError):
    """The auth records are in a memory graph: nothing to manage on a file."""


def _admin_password(given: str | None) -> str:
    password = given or os.environ.get(ADMIN_PASSWORD_ENV, "")
    if password:
        return password
    if not sys.stdin.isatty():
        click.echo(f"hugelite: auth is on and the user 'admin' does not exist yet: give its password with "
                   f"--admin-password or {ADMIN_PASSWORD_ENV} (or run init-store on a terminal)", err=True)
        sys.exit(2)
    while not password:
        password = click.prompt("Please input the admin password", hide_input=True, confirmation_prompt=True,
                                default="", show_default=False)
        if not password:
            click.echo("The admin password can't be empty", err=True)
    return str(password)


def bootstrap_admin(settings: Settings, given_password: str | None) -> None:
    """`init-store`'s last step: create `admin` when auth is on and it is missing."""
    try:
        cfg = _auth_store(settings)
    except MemoryGraphStore as e:
        click.echo(f"auth: {e}")
        return
    except SettingsError as e:
        click.echo(f"hugelite: {e}", err=True)
        sys.exit(2)
    if cfg is None:
        return
    with records_in_file(str(cfg.location), shown=cfg.display_location) as records:
        if records.user_by_name("admin") is not None:
            return
        if ensure_admin(records, _admin_password(given_password)):
            click.echo(f"auth: created the user 'admin' in {cfg.display_location}")


@contextmanager
def _records(conf: str) -> Iterator[AuthRecords]:
    try:
        settings = Settings.load(conf)
        cfg = _auth_store(settings)
    except SettingsError as e:
        raise click.ClickException(str(e)) from None
    if cfg is None:
        raise click.ClickException("auth.authenticator is not org.apache.hugegraph.auth.StandardAuthenticator in "
                                   f"{conf}/rest-server.properties: there are no user records to manage")
    try:
        with records_in_file(str(cfg.location), shown=cfg.display_location) as records:
            yield records
    except HugeliteError as e:
        raise click.ClickException(str(e)) from None


def _password(given: str | None) -> str:
    return given or str(click.prompt("Password", hide_input=True, confirmation_prompt=True))


@click.group()
def users() -> None:
    """Manage the users of a StandardAuthenticator store, without a running server."""


@users.command("list")
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
def list_users(conf: str) -> None:
    """Print every user with its role (one JSON object a line; never a password)."""
    with _records(conf) as records:
        for user in records.list(SYSTEM_PRINCIPAL, "users", None):
            shown = {k: v for k, v in user.items() if k != "user_password"}
            click.echo(json.dumps({**shown, "roles": records.role_of(user["id"])}, ensure_ascii=False))


@users.command("add")
@click.argument("name")
@click.option("--password", default=None, help="the password (prompted for when not given)")
@click.option("--email", default=None)
@click.option("--phone", default=None)
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
def add_user(name: str, password: str | None, email: str | None, phone: str | None, conf: str) -> None:
    """Create the user NAME."""
    with _records(conf) as records:
        record = records.create(SYSTEM_PRINCIPAL, "users", {"user_name": name, "user_password": _password(password),
                                                           "user_email": email, "user_phone": phone})
        click.echo(f"created user {record['id']}")


@users.command("passwd")
@click.argument("name")
@click.option("--password", default=None, help="the new password (prompted for when not given)")
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
def set_password(name: str, password: str | None, conf: str) -> None:
    """Set the password of the user NAME (admin too)."""
    with _records(conf) as records:
        records.set_password(name, _password(password))
        click.echo(f"password of '{name}' changed")


@users.command("grant")
@click.argument("name")
@click.argument("permission", type=click.Choice(["READ", "WRITE", "DELETE", "EXECUTE"], case_sensitive=False))
@click.option("--graph", required=True, help="the graph the permission is on")
@click.option("--type", "kind", default="ALL", show_default=True, help="resource type (VERTEX, EDGE, GREMLIN, ...)")
@click.option("--label", default="*", show_default=True)
@click.option("--properties", default=None, help='conditions as JSON, e.g. \'{"city": "Beijing"}\'')
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
def grant(name: str, permission: str, graph: str, kind: str, label: str, properties: str | None, conf: str) -> None:
    """Give the user NAME PERMISSION on a resource of a graph (through its own group)."""
    try:
        props: Any = json.loads(properties) if properties else None
    except ValueError as e:
        raise click.BadParameter(f"not JSON: {e}", param_hint="--properties") from None
    resource = {"type": kind.upper(), "label": label, "properties": props}
    tag = hashlib.sha256(json.dumps(resource, sort_keys=True).encode()).hexdigest()[:8]
    with _records(conf) as records:
        user = records.user_by_name(name)
        if user is None:
            raise click.ClickException(f"there is no user '{name}' (hugelite users add {name})")
        group = _find_or_create(records, "groups", "group_name", f"user_{name}", {})
        target = _find_or_create(records, "targets", "target_name", f"{graph}_{kind.lower()}_{tag}",
                                 {"target_graph": graph, "target_url": "127.0.0.1:8080",
                                  "target_resources": [resource]})
        if not any(b["group"] == group["id"] for b in records.list(SYSTEM_PRINCIPAL, "belongs", None,
                                                                    {"user": user["id"]})):
            records.create(SYSTEM_PRINCIPAL, "belongs", {"user": user["id"], "group": group["id"]})
        access = {"group": group["id"], "target": target["id"], "access_permission": permission.upper()}
        try:
            records.create(SYSTEM_PRINCIPAL, "accesses", access)
        except HugeliteError as e:
            if "already exists" not in str(e):
                raise click.ClickException(str(e)) from None
        click.echo(json.dumps({"roles": records.role_of(user["id"])}, ensure_ascii=False))


def _find_or_create(records: AuthRecords, plural: str, field: str, name: str, extra: dict[str, Any]) -> Any:
    for row in records.list(SYSTEM_PRINCIPAL, plural, None):
        if row[field] == name:
            return row
    return records.create(SYSTEM_PRINCIPAL, plural, {field: name, **extra})
