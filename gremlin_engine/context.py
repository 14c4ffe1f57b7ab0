"""The execution context: who asks, within which bounds, through which door.

Every door (REST handlers, `POST /gremlin`, WebSocket eval and bytecode, `/jobs/gremlin`
tasks, embedded connections, the loader) makes exactly one `ExecutionContext` per request
and hands it to the engine. It travels through the session (`runtime/session.py`) into the
graph access (`runtime/access.py`) and into every storage transaction the request opens
(`store.read(ctx)` / `store.write(ctx)`, the transaction's `ctx` attribute), so the engine's
permission checks read the principal from the one object every path carries, and nothing a
door forgets can skip them.

Why a context and not loose parameters: before it, a timeout, a cancel token and (for auth)
a user would each need threading through every entry point separately; a forgotten one
would silently run as the administrator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gremlin_engine import limits
from gremlin_engine.auth.permissions import Permissions, permissions_of
from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.limits import CancelToken

#: door names, as metrics and error messages show them
REST = "rest"
GREMLIN_HTTP = "gremlin-http"
WS_EVAL = "ws-eval"
WS_BYTECODE = "ws-bytecode"
JOB = "job"
EMBEDDED = "embedded"
LOADER = "loader"
ENGINE = "engine"  # an engine call made without a door (tests, internal maintenance)
#: the doors that run Gremlin a client wrote (scripts or bytecode): they need EXECUTE on
#: GREMLIN, where REST calls (HugeGraph's own traversals) do not
GREMLIN_DOORS = frozenset({GREMLIN_HTTP, WS_EVAL, WS_BYTECODE, JOB, EMBEDDED})


@dataclass(eq=False, slots=True)
class ExecutionContext:
    """One request's context.

    `principal`: who is asking (`ANONYMOUS_ADMIN` when authentication is off).
    `door`: which entry point made the context (one of the names above).
    `timeout_ms`: the request's time limit (None or <= 0: none).
    `cancel`: the caller's own token (client disconnect, connection close, task cancel);
    the session links it to the deadline in the run's `token`.
    `capacity`: the most bytes the request's results may take written out
    (`limits.MAX_RESULT_BYTES`); `memory_bytes`: how much the process may grow while it runs
    (`limits.TRAVERSAL_MEMORY_BYTES`). Both default to the process-wide bounds.
    `strict_reads`: a single-element request (a REST GET, PUT or DELETE of one vertex or
    edge): an element the principal may not read is a 403 rather than left out.
    """

    principal: Principal = ANONYMOUS_ADMIN
    door: str = ENGINE
    timeout_ms: float | None = None
    cancel: CancelToken | None = None
    capacity: int = limits.MAX_RESULT_BYTES
    memory_bytes: int = limits.TRAVERSAL_MEMORY_BYTES
    strict_reads: bool = False
    #: the run's token (deadline linked to `cancel`), set by the session that runs it
    token: CancelToken | None = None
    _permissions: Permissions | None = field(default=None, repr=False)

    @property
    def admin(self) -> bool:
        return self.principal.admin

    @property
    def permissions(self) -> Permissions:
        """The principal's permissions, built once per context (and cached per role)."""
        if self._permissions is None:
            # built on first use: an administrator's requests never build one
            self._permissions = permissions_of(self.principal)
        return self._permissions

    def allows(self, graph: str, permission: str, rtype: str, label: str = "*") -> bool:
        """Whether the principal may do `permission` on a `rtype` object named `label`
        (schema elements, tasks, variables: objects without properties)."""
        return self.principal.admin or self.permissions.allows(graph, permission, rtype, label)

    def require(self, graph: str, permission: str, rtype: str, label: str = "*") -> None:
        """`allows`, or 403 `Permission denied: ...` naming the object."""
        if not self.allows(graph, permission, rtype, label):
            raise self.permissions.denied(graph, permission, rtype, label)

    def with_limits(self, timeout_ms: float | None, cancel: CancelToken | None) -> ExecutionContext:
        """This context with the given time limit and caller token where this one has none
        (an engine entry point that still takes the loose parameters)."""
        if timeout_ms is None and cancel is None:
            return self
        if (timeout_ms is None or self.timeout_ms == timeout_ms) and (cancel is None or self.cancel is cancel):
            return self
        return ExecutionContext(
            self.principal, self.door, timeout_ms if timeout_ms is not None else self.timeout_ms,
            cancel if cancel is not None else self.cancel, self.capacity, self.memory_bytes, self.strict_reads,
            None, self._permissions,
        )


def context_for(
    ctx: ExecutionContext | None, timeout_ms: float | None = None, cancel: CancelToken | None = None,
    door: str = ENGINE,
) -> ExecutionContext:
    """`ctx` with the loose limits folded in, or a fresh administrator context when the
    caller made none (an internal call: the doors always make one)."""
    if ctx is None:
        return ExecutionContext(door=door, timeout_ms=timeout_ms, cancel=cancel)
    return ctx.with_limits(timeout_ms, cancel)
