"""The identity a request runs as.

Every door (REST, WebSocket eval and bytecode, `/jobs/gremlin`, embedded connections, the
loader) resolves its credentials to one `Principal` and puts it on the request's execution
context; the engine's permission checks read nothing else. With authentication off, every
request is `ANONYMOUS_ADMIN`, as in HugeGraph, whose anonymous user carries the admin role.

`role` is HugeGraph 1.5's role shape, the answer of `GET .../auth/users/{id}/role` without
its `roles` wrapper: graph name -> permission (READ, WRITE, DELETE, EXECUTE) -> list of
target resources (`{"type": ..., "label": ..., "properties": ...}`). An administrator has
no role to consult (`admin` is True and `role` is None).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Role = Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]


@dataclass(frozen=True)
class Principal:
    """An authenticated user: name, record id (None for the anonymous user), whether it
    is the administrator, and its role when it is not."""

    name: str
    user_id: str | None = None
    admin: bool = False
    role: Role | None = None


ANONYMOUS_ADMIN = Principal(name="anonymous", admin=True)
