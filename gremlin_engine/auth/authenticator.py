"""Credentials to a `Principal`: HugeGraph's StandardAuthenticator and ConfigAuthenticator.

`StandardAuthenticator` checks a user name and password (bcrypt) or a login token (JWT)
against the auth records of one store, and gives the user's role, derived from its belongs
and accesses (`AuthRecords.role_of`); `admin` is the administrator. A user with no grants
still authenticates (its role is empty, so every permission check fails: 403, not 401).

HTTP Basic sends the password with every request, and a bcrypt check costs ~50 ms, so
verified credentials are remembered: a (name, password) pair under a keyed digest (never
the password), a login token under its digest, each with the principal (its role
included) and the records' `version()` at the check. `remembered` and `remembered_token`
answer from memory only, so the server asks them on the event loop before anything else
(`rest_adapter/auth.py`); they answer None for anything not remembered, or remembered
before the records last changed (a new password, a grant withdrawn, a logout, a user
removed; `AuthRecords.version`), and `check_password` / `check_token` then decide with
the records, off the event loop. A wrong password is never remembered. A pair whose
records changed but whose user still has the password hash it was checked against is
not checked with bcrypt again (the same hash accepts the same password).

`ConfigAuthenticator` is the static `auth.admin_token` / `auth.user_tokens` table: `admin`
is the administrator, every other user has every permission on the graph named like it
(HugeGraph's `RolePermission.all(graph)`). It has no tokens and no records.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Mapping
from typing import Any

from gremlin_engine.auth import tokens
from gremlin_engine.auth.passwords import check_password
from gremlin_engine.auth.principal import Principal
from gremlin_engine.auth.records import ADMIN, AuthRecords
from gremlin_engine.auth.resources import PERMISSIONS
from gremlin_engine.errors import HugeliteError, IllegalArgument

#: remembered verified credentials at most (the oldest are dropped first)
CACHE_SIZE = 4096


class AuthenticationFailed(HugeliteError):
    """Wrong or missing credentials: HTTP 401."""

    java_exception = "jakarta.ws.rs.NotAuthorizedException"


class StandardAuthenticator:
    """Users from the auth records of `records`' store; tokens signed with `secret`."""

    def __init__(self, records: AuthRecords, secret: str | None = None,
                 expire_s: int = tokens.DEFAULT_EXPIRE_S) -> None:
        self.records = records
        self.secret = secret or tokens.random_secret()
        self.expire_s = expire_s
        self._key = secrets.token_bytes(32)
        self._lock = threading.Lock()
        #: digest -> (records' version, principal, what it was checked against: the password
        #: hash for a pair, the token's expiry for a token)
        self._verified: dict[bytes, tuple[int, Principal, Any]] = {}

    supports_tokens = True

    def _digest(self, name: str, password: str) -> bytes:
        return hmac.digest(self._key, f"{name}\0{password}".encode(), "sha256")

    def remembered(self, name: str, password: str) -> Principal | None:
        """The principal of a pair checked before and still good; None: ask `check_password`.
        Memory only (a digest and a dictionary lookup)."""
        hit = self._verified.get(self._digest(name, password))
        if hit is not None and hit[0] == self.records.version():
            return hit[1]
        return None

    def remembered_token(self, token: str) -> Principal | None:
        """The principal of a token checked before, not expired nor logged out since; None:
        ask `check_token`. Memory only."""
        hit = self._verified.get(tokens.digest(token).encode())
        if hit is not None and hit[0] == self.records.version() and hit[2] > time.time():
            return hit[1]
        return None

    def check_password(self, name: str, password: str) -> Principal | None:
        """The user's principal when `password` is its password, else None."""
        if not name or not password:
            return None
        digest = self._digest(name, password)
        version = self.records.version()  # before the records are read: a write meanwhile makes it stale
        hit = self._verified.get(digest)
        if hit is not None and hit[0] == version:
            return hit[1]
        user = self.records.user_by_name(name)
        if user is None:
            return None
        hashed = user.get("user_password", "")
        if (hit is None or hit[2] != hashed) and not check_password(password, hashed):
            return None
        principal = self._principal(user)
        self._remember(digest, (version, principal, hashed))
        return principal

    def _remember(self, key: bytes, entry: tuple[int, Principal, Any]) -> None:
        with self._lock:
            if len(self._verified) >= CACHE_SIZE:
                self._verified.pop(next(iter(self._verified)))
            self._verified[key] = entry

    def check_token(self, token: str) -> Principal | None:
        """The principal of a valid, unexpired, not logged-out token, else None."""
        version = self.records.version()
        try:
            claims = tokens.decode(self.secret, token)
        except tokens.TokenInvalid:
            return None
        digest = tokens.digest(token)
        if self.records.revoked(digest):
            return None
        user = self.records.user_by_id(claims.user_id)
        if user is None or user.get("user_name") != claims.user_name:
            return None
        principal = self._principal(user)
        self._remember(digest.encode(), (version, principal, claims.exp))
        return principal

    def issue(self, principal: Principal) -> str:
        """A login token for an authenticated user (HugeGraph's `POST .../auth/login`)."""
        if principal.user_id is None:
            raise IllegalArgument(f"The user '{principal.name}' has no record to log in as")
        return tokens.issue(self.secret, principal.name, principal.user_id, self.expire_s)

    def logout(self, token: str) -> None:
        """Ends the token now (until it would have expired anyway)."""
        try:
            claims = tokens.decode(self.secret, token)
        except tokens.TokenInvalid:
            raise AuthenticationFailed("Authentication failed") from None
        self.records.revoke(tokens.digest(token), claims.exp)

    def verify(self, token: str) -> dict[str, str]:
        principal = self.check_token(token)
        if principal is None or principal.user_id is None:
            raise AuthenticationFailed("Authentication failed")
        return {"user_name": principal.name, "user_id": principal.user_id}

    def _principal(self, user: Mapping[str, Any]) -> Principal:
        name, user_id = str(user["user_name"]), str(user["id"])
        if name == ADMIN:
            return Principal(name=name, user_id=user_id, admin=True)
        return Principal(name=name, user_id=user_id, role=self.records.role_of(user_id))


class ConfigAuthenticator:
    """The static `{user: token}` table of `auth.admin_token` / `auth.user_tokens`."""

    supports_tokens = False

    def __init__(self, table: Mapping[str, str]) -> None:
        self.table = dict(table)

    def check_password(self, name: str, password: str) -> Principal | None:
        want = self.table.get(name)
        if not name or not password or want is None:
            return None
        if not hmac.compare_digest(want.encode(), password.encode()):
            return None
        if name == ADMIN:
            return Principal(name=name, user_id=name, admin=True)
        everything = [{"type": "ALL", "label": "*", "properties": None}]
        return Principal(name=name, user_id=name, role={name: {p: everything for p in PERMISSIONS}})

    def check_token(self, token: str) -> Principal | None:
        return None

    #: the table is in memory: a check is as cheap as remembering one
    remembered = check_password

    def remembered_token(self, token: str) -> Principal | None:
        return None


def authenticate(store: Any, user: str, password: str) -> Principal:
    """The principal of `user` on the auth records of `store` (an embedded connection given
    credentials); `AuthenticationFailed` when they are wrong."""
    principal = StandardAuthenticator(AuthRecords(store)).check_password(user, password)
    if principal is None:
        raise AuthenticationFailed("Incorrect username or password")
    return principal
