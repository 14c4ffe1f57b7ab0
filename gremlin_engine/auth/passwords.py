"""Password hashes: bcrypt, through the maintained `bcrypt` library.

Why bcrypt: it is what HugeGraph stores (`$2a$...`), so a user's `user_password` looks as
HugeGraph clients expect (a ciphertext, never the password), and `checkpw` compares in
constant time. Why `ROUNDS = 10`: HugeGraph uses cost 4, which is fast to brute-force;
cost 10 takes ~50 ms per check here, and the authenticator remembers a verified password
(`authenticator.py`) so that HTTP Basic on every request does not pay it each time.

bcrypt reads at most 72 bytes of a password; a longer one is refused when it is set, so two
passwords that differ after byte 72 can never both log in.
"""

from __future__ import annotations

import bcrypt

from gremlin_engine.errors import IllegalArgument

ROUNDS = 10
MAX_BYTES = 72


def hash_password(password: str) -> str:
    """The bcrypt hash of `password` (a 400 for an empty or over-long one)."""
    raw = password.encode("utf-8")
    if not raw:
        raise IllegalArgument("The password of user can't be null")
    if len(raw) > MAX_BYTES:
        raise IllegalArgument(f"The password of user must be at most {MAX_BYTES} bytes (bcrypt reads no more)")
    return bcrypt.hashpw(raw, bcrypt.gensalt(rounds=ROUNDS)).decode("ascii")


def check_password(password: str, hashed: str) -> bool:
    """True when `password` matches `hashed` (constant time, by bcrypt)."""
    raw = password.encode("utf-8")
    if not raw or len(raw) > MAX_BYTES:
        return False
    try:
        return bool(bcrypt.checkpw(raw, hashed.encode("ascii")))
    except ValueError:  # not a bcrypt hash
        return False
