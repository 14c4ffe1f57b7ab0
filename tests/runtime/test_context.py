"""The execution context reaches the storage transactions a call opens."""

from __future__ import annotations

from gremlin_engine.auth.principal import Principal
from gremlin_engine.context import LOADER, REST, ExecutionContext, context_for
from gremlin_engine.graph import Graph
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime.api import read_access, write_access
from storage import open_store


def test_a_transaction_holds_the_context_it_was_opened_with() -> None:
    store = open_store(None)
    store.initialise()
    ctx = ExecutionContext(Principal("ann"), REST)
    with store.read(ctx) as tx:
        assert tx.ctx is ctx
        with store.read() as nested:  # a read inside the same thread's transaction
            assert nested.ctx is ctx
    with store.write(ctx) as tx:
        assert tx.ctx is ctx
    with store.read() as tx:
        assert tx.ctx is None
    store.close()


def test_the_engine_access_and_its_transaction_carry_the_context(modern: Graph) -> None:
    ctx = ExecutionContext(Principal("ann"), REST)
    with read_access(modern, ctx) as access:
        assert access.ctx is ctx and access.tx.ctx is ctx
        assert ctx.token is not None  # the session started it
    with write_access(modern) as access:  # no door's context: the loader's administrator
        assert access.ctx.door == LOADER and access.ctx.principal.admin


def test_loose_limits_fold_into_the_context() -> None:
    token = CancelToken()
    made = context_for(None, 500, token)
    assert (made.timeout_ms, made.cancel, made.principal.admin) == (500, token, True)
    ctx = ExecutionContext(Principal("ann"), REST)
    assert context_for(ctx) is ctx
    folded = context_for(ctx, 200, token)
    assert (folded.principal, folded.door, folded.timeout_ms, folded.cancel) == (ctx.principal, REST, 200, token)
