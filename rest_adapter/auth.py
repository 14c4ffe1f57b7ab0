"""Who is asking: every HTTP request's and WebSocket's credentials, resolved to a `Principal`.

The switch is HugeGraph's: `auth.authenticator` in `rest-server.properties`, empty by
default. Off, every request runs as `ANONYMOUS_ADMIN` and an `Authorization` header is
ignored (hugegraph-python sends `Basic Og==` even without a user). On:

==========================================  ===================================================
`auth.authenticator`                        users
==========================================  ===================================================
`org.apache.hugegraph.auth.StandardAuthenticator`  the auth records of the graph named by
(or `StandardAuthenticator`, `standard`)    `auth.graph_store` (default `hugegraph`), with
                                            login tokens (`auth.token_secret`,
                                            `auth.token_expire`)
`org.apache.hugegraph.auth.ConfigAuthenticator`    the static `auth.admin_token` and
(or `ConfigAuthenticator`, `config`)        `auth.user_tokens`
==========================================  ===================================================

`AuthMiddleware` puts the principal in the ASGI scope under `PRINCIPAL_KEY` for every HTTP
request but the `PUBLIC_PATHS` (HugeGraph's filter runs before routing, so an unknown path
without credentials is a 401 too), and for a WebSocket whose upgrade carries HTTP Basic; a
WebSocket that authenticates later by SASL gets it from `gremlin_ws` (`ws/sasl.py`). The
engine's doors read it from there. Password checks go through the server's one
`LoginThrottle`, per user and per address, whichever door they come through.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from gremlin_engine import GraphRegistry
from gremlin_engine.auth import (
    ADMIN,
    ANONYMOUS_ADMIN,
    AuthRecords,
    ConfigAuthenticator,
    Principal,
    StandardAuthenticator,
    ensure_admin,
)
from rest_adapter import console_page
from rest_adapter.context import PRINCIPAL_KEY, in_pool
from rest_adapter.errors import HttpError, bad_request, error_body, json_error, unauthorized
from rest_adapter.login_throttle import LoginThrottle, LoginThrottled, verify_password

#: paths answered without credentials when auth is on (HugeGraph's whitelist: `versions` and
#: `openapi.json`; Swagger UI's page; the web console's page and files, which hold no data and
#: carry the login form); exact paths, after the trailing slash is dropped
PUBLIC_PATHS = frozenset({"/versions", "/openapi.json", "/swagger"}) | console_page.PUBLIC_PATHS
#: and below these (Swagger UI's files, from its package: they hold no data)
PUBLIC_PREFIXES = ("/swagger/static/",)

STANDARD = "standard"
CONFIG = "config"
_MODES = {
    "org.apache.hugegraph.auth.StandardAuthenticator": STANDARD, "StandardAuthenticator": STANDARD,
    STANDARD: STANDARD,
    "org.apache.hugegraph.auth.ConfigAuthenticator": CONFIG, "ConfigAuthenticator": CONFIG, CONFIG: CONFIG,
}
DEFAULT_GRAPH_STORE = "hugegraph"
#: the bootstrap admin's password when no `--admin-password` is given (and for a memory graph store)
ADMIN_PASSWORD_ENV = "HUGELITE_ADMIN_PASSWORD"

log = logging.getLogger("hugelite.auth")

Authenticator = StandardAuthenticator | ConfigAuthenticator


class AuthConfigError(ValueError):
    """An `auth.*` setting the server cannot start with (the message names the key)."""


class EmptyCredential(AuthConfigError):
    """A configured user whose token is empty."""


def credential_table(raw: dict[str, str]) -> dict[str, str]:
    """{user: token} of the ConfigAuthenticator keys; raises `EmptyCredential` naming a
    configured user whose token is empty (an empty password never logs in)."""
    expected: dict[str, str] = {}
    if "auth.admin_token" in raw:
        expected["admin"] = raw["auth.admin_token"]
    for pair in str(raw.get("auth.user_tokens", "")).strip("[] ").split(","):
        name, sep, token = pair.strip().partition(":")
        if sep and name:
            expected[name] = token.strip()
    for name, token in expected.items():
        if not token:
            key = "auth.admin_token" if name == "admin" else "auth.user_tokens"
            raise EmptyCredential(
                f"{key}: user '{name}' has an empty token; give it a token or remove the user "
                "(an empty password never logs in)"
            )
    return expected


def auth_mode(raw: dict[str, str]) -> str | None:
    """STANDARD, CONFIG or None (off) from `auth.authenticator`; anything else is an error."""
    value = str(raw.get("auth.authenticator", "")).strip()
    if not value:
        return None
    mode = _MODES.get(value)
    if mode is None:
        raise AuthConfigError(f"auth.authenticator must be org.apache.hugegraph.auth.StandardAuthenticator or "
                              f"org.apache.hugegraph.auth.ConfigAuthenticator (or empty: off), but got '{value}'")
    return mode


def token_expire_s(raw: dict[str, str]) -> int:
    value = str(raw.get("auth.token_expire", "")).strip() or "86400"
    try:
        seconds = int(value)
    except ValueError:
        seconds = 0
    if seconds < 1:
        raise AuthConfigError(f"auth.token_expire must be a whole number of seconds of at least 1, but got '{value}'")
    return seconds


def graph_store(raw: dict[str, str]) -> str:
    return str(raw.get("auth.graph_store", "")).strip() or DEFAULT_GRAPH_STORE


def build_authenticator(settings: Any, registry: GraphRegistry) -> Authenticator | None:
    """The server's authenticator (None: auth off), over the served `registry`."""
    raw = getattr(settings, "raw", None) or {}
    mode = auth_mode(raw)
    if mode is None:
        return None
    if mode == CONFIG:
        return ConfigAuthenticator(credential_table(raw))
    name = graph_store(raw)
    if name not in registry.names():
        raise AuthConfigError(f"auth.graph_store names the graph '{name}', which is not served: "
                              "declare it in the graphs folder or name a served graph")
    graph = registry.get(name)
    records = AuthRecords(graph.store)
    if records.user_by_name(ADMIN) is None:
        password = os.environ.get(ADMIN_PASSWORD_ENV, "")
        if graph.backend == "memory" and password:
            ensure_admin(records, password)  # a memory store's users are made at each start
        else:
            log.warning("auth is on but the graph '%s' has no user 'admin': nobody can log in until "
                        "`hugelite init-store --admin-password ...` (or %s for a memory graph) creates it",
                        name, ADMIN_PASSWORD_ENV)
    return StandardAuthenticator(records, raw.get("auth.token_secret") or None, token_expire_s(raw))


def authenticator_of(scope: Scope) -> Authenticator | None:
    """The server's authenticator: `HugeliteApp.authenticator`, a plain attribute, where
    `app.state` answers through `State.__getattr__` (~2 µs per request)."""
    app = scope["app"]
    found = getattr(app, "authenticator", None)
    return found if found is not None else getattr(app.state, "authenticator", None)


def parse_basic(value: str) -> tuple[str, str]:
    """(user, password) of a Basic header's value; a 400 unless it is `user:password` with
    both parts non-empty."""
    try:
        text = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise bad_request("Invalid syntax for username and password") from None
    user, sep, password = text.partition(":")
    if not sep or not user or not password:
        raise bad_request("Invalid syntax for username and password")
    return user, password


def failed(reason: str = "Incorrect username or password") -> HttpError:
    return unauthorized("Authentication failed", reason)


async def check_password(scope: Scope, authenticator: Authenticator, user: str, password: str) -> Principal | None:
    """The principal for `user`/`password` (None when wrong), through the throttle. Credentials
    the authenticator remembers as right (`remembered`: memory only) are answered here on
    the event loop; any other check runs on the REST worker pool (it reads the auth records,
    and bcrypt blocks). A throttled attempt is a 401."""
    throttle: LoginThrottle = scope["app"].state.login_throttle
    client = scope.get("client")
    try:
        principal: Principal | None = await verify_password(
            throttle, authenticator, user, password, client[0] if client else None, scope["app"].workers.rest)
    except LoginThrottled as exc:
        raise unauthorized("Authentication failed", str(exc)) from None
    return principal


async def check_token(scope: Scope, authenticator: Authenticator, token: str) -> Principal | None:
    """The principal of a login token: remembered, on the event loop; else checked on the pool."""
    known = authenticator.remembered_token(token)
    if known is not None:
        return known
    return await in_pool(scope["app"].workers.rest, authenticator.check_token, token)


async def resolve(scope: Scope, authenticator: Authenticator) -> Principal:
    """The principal of an HTTP request's `Authorization` header; 401 or 400 otherwise."""
    header = None
    for name, value in scope["headers"]:
        if name == b"authorization":
            header = value.decode("latin-1").strip()
            break
    if not header:
        raise unauthorized("Authentication credentials are required", "Missing authentication credentials")
    scheme, _, value = header.partition(" ")
    scheme = scheme.lower()
    if scheme == "basic":
        user, password = parse_basic(value)
        principal = await check_password(scope, authenticator, user, password)
    elif scheme == "bearer":
        principal = await check_token(scope, authenticator, value.strip())
    else:
        raise bad_request("Only HTTP Basic or Bearer authentication is supported")
    if principal is None:
        raise failed()
    return principal


class AuthMiddleware:
    """Sets `scope[PRINCIPAL_KEY]` (module docstring); answers 401/400 itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        authenticator = authenticator_of(scope)
        if authenticator is None:
            scope[PRINCIPAL_KEY] = ANONYMOUS_ADMIN
        elif scope["type"] == "websocket":
            await self._websocket(scope, authenticator)
        elif scope["path"] not in PUBLIC_PATHS and not scope["path"].startswith(PUBLIC_PREFIXES):
            try:
                scope[PRINCIPAL_KEY] = await resolve(scope, authenticator)
            except HttpError as exc:
                await json_error(exc.status, error_body(exc), exc.headers)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _websocket(self, scope: Scope, authenticator: Authenticator) -> None:
        """HTTP Basic on the upgrade authenticates the connection; without it (or with wrong
        credentials, or throttled) the connection is asked for SASL, as Gremlin Server does."""
        for name, value in scope["headers"]:
            if name == b"authorization":
                scheme, _, rest = value.decode("latin-1").strip().partition(" ")
                if scheme.lower() != "basic":
                    return
                try:
                    user, password = parse_basic(rest)
                    principal = await check_password(scope, authenticator, user, password)
                except HttpError:
                    return
                if principal is not None:
                    scope[PRINCIPAL_KEY] = principal
                return
