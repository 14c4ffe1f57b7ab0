"""Login tokens: HS256 JSON Web Tokens through PyJWT, with HugeGraph's claims.

A token carries `user_name`, `user_id` and `exp` (HugeGraph's `TokenGenerator` claims), so
a HugeGraph client that decodes one finds what it expects. The key is `auth.token_secret`;
unset, a random key is made per server start (HugeGraph does the same), and every token
dies with the process. A token is identified for logout by the SHA-256 of its text, so the
store never holds a usable token.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

import jwt

ALGORITHM = "HS256"
DEFAULT_EXPIRE_S = 86400


class TokenInvalid(Exception):
    """Not a token of ours, tampered with, or expired."""


@dataclass(frozen=True)
class Claims:
    user_name: str
    user_id: str
    exp: int


def random_secret() -> str:
    return secrets.token_urlsafe(32)


def issue(secret: str, user_name: str, user_id: str, expire_s: int, now: float | None = None) -> str:
    exp = int((time.time() if now is None else now) + expire_s)
    return jwt.encode({"user_name": user_name, "user_id": user_id, "exp": exp}, secret, algorithm=ALGORITHM)


def decode(secret: str, token: str) -> Claims:
    """The claims of a valid, unexpired token; `TokenInvalid` otherwise."""
    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], options={"require": ["exp"]})
    except jwt.PyJWTError as exc:
        raise TokenInvalid(str(exc)) from None
    name, user_id = claims.get("user_name"), claims.get("user_id")
    if not isinstance(name, str) or not isinstance(user_id, str):
        raise TokenInvalid("the token lacks user_name or user_id")
    return Claims(name, user_id, int(claims["exp"]))


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
