"""Credentials to a `Principal`: HugeGraph's StandardAuthenticator and ConfigAuthenticator.

`StandardAuthenticator` checks a user name and password (bcrypt) or a login token (JWT)
against the auth records of one store, and gives the user's role, derived from its belongs
and accesses (`AuthRecords.role_of`); `admin` is the administrator. A user with no grants
still authenticates (its role is empty, so every permission check fails: 403, not 401).

HTTP Basic sends the password with every request, and a bcrypt check costs ~50 ms, so a
verified (name, password) pair is remembered, under a keyed digest (never the password),
together with the records' write generation: any write to the records (a new password, a
grant withdrawn, also by `hugelite users` in another process) bumps the generation and the
next request checks afresh. The role comes with it, so a request reads one counter (a
token request two: the counter, and whether the token was logged out).

`ConfigAuthenticator` is the static `auth.admin_token` / `auth.user_tokens` table: `admin`
is the administrator, every other user has every permission on the graph named like it
(HugeGraph's `RolePermission.all(graph)`). It has no tokens and no records.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
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
        self._verified: dict[bytes, tuple[int, Principal]] = {}

    supports_tokens = True

    def check_password(self, name: str, password: str) -> Principal | None:
        """The user's principal when `password` is its password, else None."""
        if not name or not password:
            return None
        digest = hmac.new(self._key, f"{name}\0{password}".encode(), hashlib.sha256).digest()
        generation = self.records.generation()
        with self._lock:
            hit = self._verified.get(digest)
        if hit is not None and hit[0] == generation:
            return hit[1]
        user = self.records.user_by_name(name)
        if user is None or not check_password(password, user.get("user_password", "")):
            return None
        principal = self._principal(user)
        self._remember(digest, generation, principal)
        return principal

    def _remember(self, key: bytes, generation: int, principal: Principal) -> None:
        with self._lock:
            if len(self._verified) >= CACHE_SIZE:
                self._verified.pop(next(iter(self._verified)))
            self._verified[key] = (generation, principal)

    def check_token(self, token: str) -> Principal | None:
        """The principal of a valid, unexpired, not logged-out token, else None."""
        try:
            claims = tokens.decode(self.secret, token)
        except tokens.TokenInvalid:
            return None
        if self.records.revoked(tokens.digest(token)):
            return None
        generation = self.records.generation()
        key = f"token\0{claims.user_id}".encode()
        with self._lock:
            hit = self._verified.get(key)
        if hit is not None and hit[0] == generation and hit[1].name == claims.user_name:
            return hit[1]
        user = self.records.user_by_id(claims.user_id)
        if user is None or user.get("user_name") != claims.user_name:
            return None
        principal = self._principal(user)
        self._remember(key, generation, principal)
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


def authenticate(store: Any, user: str, password: str) -> Principal:
    """The principal of `user` on the auth records of `store` (an embedded connection given
    credentials); `AuthenticationFailed` when they are wrong."""
    principal = StandardAuthenticator(AuthRecords(store)).check_password(user, password)
    if principal is None:
        raise AuthenticationFailed("Incorrect username or password")
    return principal
