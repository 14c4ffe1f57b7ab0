"""Authentication for the WebSocket protocol: SASL PLAIN, and HTTP Basic on the upgrade.

Gremlin Server's handshake: the first request on an unauthenticated connection is answered
with status 407; the driver then sends an `authentication` request (same request id) with
`sasl` = base64(`\\0user\\0password`), and on success the server runs the original request.
HugeGraph's `WsAndHttpBasicAuthHandler` also accepts `Authorization: Basic` on the upgrade
request, which authenticates the whole connection.

Auth is on when `auth.authenticator` is set in `rest-server.properties`. Credentials are
checked by `rest_adapter.auth.check_credentials(settings, user, password)` when that module
offers it (the REST layer's check, shared); until then by the static `ConfigAuthenticator`
rule: user `admin` with `auth.admin_token`, or `user:token` pairs in `auth.user_tokens`.

Empty credentials never log in (issue 16 item 9): an empty user name or password is
refused, and a configured user with an empty token is a startup error (`credential_table`,
called by `Settings.load`), not a user anyone can log in as with an empty password.
Every check goes through the shared `LoginThrottle` (per user and per address).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import importlib
from typing import Any

from rest_adapter.login_throttle import LoginThrottle, LoginThrottled
from rest_adapter.ws.status import AUTHENTICATE, INVALID_REQUEST_ARGUMENTS, UNAUTHORIZED, RequestError


class EmptyCredential(ValueError):
    """A configured user whose token is empty."""


def auth_enabled(settings: Any) -> bool:
    raw = getattr(settings, "raw", None) or {}
    return bool(str(raw.get("auth.authenticator", "")).strip())


def check_credentials(settings: Any, user: str, password: str) -> bool:
    try:
        shared = importlib.import_module("rest_adapter.auth")
    except ModuleNotFoundError:
        shared = None
    fn = getattr(shared, "check_credentials", None)
    if fn is not None:
        return bool(fn(settings, user, password))
    if not user or not password:
        return False
    expected = credential_table(getattr(settings, "raw", None) or {})
    want = expected.get(user)
    return want is not None and hmac.compare_digest(want.encode(), password.encode())


def credential_table(raw: dict[str, str]) -> dict[str, str]:
    """{user: token} of the ConfigAuthenticator keys; raises `EmptyCredential` naming a
    configured user whose token is empty."""
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


def parse_sasl_plain(sasl: Any) -> tuple[str, str]:
    """(user, password) from a SASL PLAIN response (`authzid\\0user\\0password`, base64)."""
    if isinstance(sasl, bytes | bytearray):
        raw = bytes(sasl)
    elif isinstance(sasl, str):
        try:
            raw = base64.b64decode(sasl, validate=True)
        except (binascii.Error, ValueError):
            raise RequestError(INVALID_REQUEST_ARGUMENTS, "Invalid SASL response: not base64") from None
    else:
        raise RequestError(INVALID_REQUEST_ARGUMENTS, "Authentication requires the 'sasl' argument")
    parts = raw.split(b"\x00")
    if len(parts) != 3:
        raise RequestError(INVALID_REQUEST_ARGUMENTS, "Invalid SASL PLAIN response: expected \\0user\\0password")
    return parts[1].decode("utf-8", "replace"), parts[2].decode("utf-8", "replace")


def parse_basic(header: str | None) -> tuple[str, str] | None:
    if not header or not header.lower().startswith("basic "):
        return None
    try:
        text = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    user, sep, password = text.partition(":")
    return (user, password) if sep else None


async def authenticate(settings: Any, args: dict[str, Any], throttle: LoginThrottle, address: str | None) -> str:
    """Checks an `authentication` request through the throttle; returns the user or raises
    401/499."""
    if not auth_enabled(settings):
        raise RequestError(
            INVALID_REQUEST_ARGUMENTS,
            "Authentication is not enabled on this server (set auth.authenticator in rest-server.properties); "
            "connect without username and password",
        )
    user, password = parse_sasl_plain(args.get("sasl"))
    if not await login(settings, throttle, user, password, address):
        raise RequestError(UNAUTHORIZED, "Username and/or password are incorrect")
    return user


async def login(settings: Any, throttle: LoginThrottle, user: str, password: str, address: str | None) -> bool:
    """True when the credentials are right; a throttled attempt is a 401 saying so."""
    try:
        return await throttle.attempt(user, address, lambda: check_credentials(settings, user, password))
    except LoginThrottled as exc:
        raise RequestError(UNAUTHORIZED, str(exc)) from None


def challenge() -> RequestError:
    return RequestError(AUTHENTICATE, "Authentication required: send an authentication request (SASL PLAIN)")
