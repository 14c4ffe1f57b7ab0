"""Who is asking, and what they may do (issue 19).

`principal` holds the identity every door attaches to a request's execution context.
The user, group, target, belong and access records, passwords and tokens, and the
permission model that turns a user's role into checks inside the engine live beside it.
"""

from gremlin_engine.auth.authenticator import (
    AuthenticationFailed,
    ConfigAuthenticator,
    StandardAuthenticator,
    authenticate,
)
from gremlin_engine.auth.login_failures import LoginFailures
from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.auth.records import (
    ADMIN,
    BY_PLURAL,
    SYSTEM_PRINCIPAL,
    AuthRecords,
    ensure_admin,
    records_in_file,
)

__all__ = [
    "ADMIN",
    "ANONYMOUS_ADMIN",
    "BY_PLURAL",
    "AuthRecords",
    "AuthenticationFailed",
    "ConfigAuthenticator",
    "LoginFailures",
    "Principal",
    "StandardAuthenticator",
    "SYSTEM_PRINCIPAL",
    "authenticate",
    "ensure_admin",
    "records_in_file",
]
