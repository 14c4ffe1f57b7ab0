"""Authentication for the WebSocket protocol: SASL PLAIN, and HTTP Basic on the upgrade.

Gremlin Server's handshake: the first request on an unauthenticated connection is answered
with status 407; the driver then sends an `authentication` request (same request id) with
`sasl` = base64(`\\0user\\0password`), and on success the server runs the original request.
HugeGraph's `WsAndHttpBasicAuthHandler` also accepts `Authorization: Basic` on the upgrade
request, which authenticates the whole connection.

Auth is on when `auth.authenticator` is set in `rest-server.properties`; credentials are
checked by the server's one authenticator (`rest_adapter/auth.py`: the auth records, or the
static ConfigAuthenticator table), so the WebSocket and REST know the same users. A login
token is accepted as the password with an empty user name (or, as HugeGraph's
`TokenSaslAuthenticator` reads it, as the user name with an empty password). The connection
then runs as the user's `Principal`, which `gremlin_ws` puts in its scope.

Empty credentials never log in (issue 16 item 9): an empty user name or password is
refused, and a configured user with an empty token is a startup error (`credential_table`,
called by `Settings.load`), not a user anyone can log in as with an empty password.
Every password check goes through the shared `LoginThrottle` (per user and per address).
"""

from __future__ import annotations

import base64
import binascii
from concurrent.futures import Executor
from typing import Any

from gremlin_engine.auth import Principal
from rest_adapter.context import in_pool
from rest_adapter.login_throttle import LoginThrottle, LoginThrottled, verify_password
from rest_adapter.ws.status import AUTHENTICATE, INVALID_REQUEST_ARGUMENTS, UNAUTHORIZED, RequestError


def auth_enabled(settings: Any) -> bool:
    raw = getattr(settings, "raw", None) or {}
    return bool(str(raw.get("auth.authenticator", "")).strip())


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


async def authenticate(authenticator: Any, args: dict[str, Any], throttle: LoginThrottle,
                       address: str | None, pool: Executor) -> Principal:
    """Checks an `authentication` request through the throttle; returns the principal or
    raises 401/499. Checks that read the auth records run on `pool`."""
    if authenticator is None:
        raise RequestError(
            INVALID_REQUEST_ARGUMENTS,
            "Authentication is not enabled on this server (set auth.authenticator in rest-server.properties); "
            "connect without username and password",
        )
    user, password = parse_sasl_plain(args.get("sasl"))
    principal = await login(authenticator, throttle, user, password, address, pool)
    if principal is None:
        raise RequestError(UNAUTHORIZED, "Username and/or password are incorrect")
    return principal


async def login(authenticator: Any, throttle: LoginThrottle, user: str, password: str,
                address: str | None, pool: Executor) -> Principal | None:
    """The principal when the credentials (or the token) are right; a throttled attempt is a
    401 saying so. Credentials the authenticator remembers as right are answered at once
    (memory only); other checks run on `pool` (the records are read, and bcrypt blocks)."""
    token = password if not user else user if not password else None
    if token:
        known = authenticator.remembered_token(token)
        return known if known is not None else await in_pool(pool, authenticator.check_token, token)
    try:
        principal: Principal | None = await verify_password(throttle, authenticator, user, password, address, pool)
    except LoginThrottled as exc:
        raise RequestError(UNAUTHORIZED, str(exc)) from None
    return principal


def challenge() -> RequestError:
    return RequestError(AUTHENTICATE, "Authentication required: send an authentication request (SASL PLAIN)")
