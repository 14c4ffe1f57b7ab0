"""Group commit: prepared REST batches of concurrent requests written in one transaction.

A batch's commit costs about as much as a third of its inserts (~5 us an edge: the WAL
frames of every index page the batch touched, and at a small store nearly every page of
both adjacency indexes is touched by every batch), and the pages two batches touch are
mostly the same ones. So when requests arrive together (concurrent loader clients), the
first one to get the store's writer writes every batch then waiting, in arrival order, and
commits once; the others find their batch written and answer at once, without a
transaction of their own. One request alone is one batch per commit, as before.

Each batch stays all-or-nothing and nothing changes in what a request sees: a batch that
declines (`Prepared.write` returned None: it wrote nothing) or whose token has expired
answers its own request only, which then runs as it always did. Should anything else go
wrong (a driver error, a failed commit), the group's transaction is rolled back and every
request of the group runs alone again, so each gets exactly the answer or error it would
have had alone. A request's answer is given only after the commit that holds its batch.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from typing import Any

from gremlin_engine.errors import TraversalCancelled, TraversalTimeout
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime.batch_prepare import Prepared

#: at most this many elements are written under one commit (a request still waits for
#: the whole group: the bound keeps that wait near one batch's own)
GROUP_ELEMENTS = 2000


class _Pending:
    """One request's batch, waiting to be written."""

    __slots__ = ("prepared", "token", "done", "result", "error")

    def __init__(self, prepared: Prepared, token: CancelToken) -> None:
        self.prepared = prepared
        self.token = token
        self.done = False
        self.result: list[Any] | None = None  # None when done: run alone
        self.error: BaseException | None = None


class _Group:
    """The batches of one graph waiting for the writer, and the lock its leader holds."""

    __slots__ = ("lock", "queue", "__weakref__")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue: deque[_Pending] = deque()


_GROUPS: weakref.WeakKeyDictionary[Any, _Group] = weakref.WeakKeyDictionary()
_GROUPS_LOCK = threading.Lock()


def _group_of(graph: Any) -> _Group:
    found = _GROUPS.get(graph)
    if found is None:
        with _GROUPS_LOCK:
            found = _GROUPS.get(graph)
            if found is None:
                found = _GROUPS[graph] = _Group()
    return found


def write(graph: Any, prepared: Prepared, token: CancelToken) -> list[Any] | None:
    """The batch's ids once it is committed (alone or with others), or None when the
    request must run its traversal (nothing of it was written). Raises the token's
    timeout / cancel error as the traversal would."""
    group = _group_of(graph)
    mine = _Pending(prepared, token)
    group.queue.append(mine)
    with group.lock:  # the leader's: whoever holds it writes what is queued
        if not mine.done:
            _lead(graph, group, mine)
    if mine.error is not None:
        raise mine.error
    return mine.result


def _lead(graph: Any, group: _Group, mine: _Pending) -> None:
    """Writes queued batches (from the oldest, `mine` among them) in one transaction. They
    are taken once the writer is ours, so that those queued while we waited for it (behind
    a writer of any other kind) go in too."""
    taken: list[_Pending] = []
    written: list[tuple[_Pending, list[Any] | None]] = []
    try:
        scope = graph.store.write()
        tx = scope.__enter__()
    except Exception as exc:  # no writer (busy, closed): the error the traversal would meet
        group.queue.remove(mine)
        mine.error = exc
        mine.done = True
        return
    try:
        try:
            size = 0
            have_mine = False
            queue = group.queue
            while queue and not (have_mine and size >= GROUP_ELEMENTS):
                entry = queue.popleft()  # the oldest first: `mine` is among the queued, untaken
                taken.append(entry)
                size += entry.prepared.size
                have_mine = have_mine or entry is mine
            for entry in taken:
                try:
                    result = entry.prepared.write(graph, tx, entry.token)
                except (TraversalCancelled, TraversalTimeout) as exc:  # nothing written: its request's own error
                    entry.error = exc
                    continue
                written.append((entry, result))
        except BaseException as exc:
            scope.__exit__(type(exc), exc, exc.__traceback__)  # rolls back
            raise
        scope.__exit__(None, None, None)  # commits
    except Exception:
        # the group's transaction rolled back (a driver error, the commit): each request
        # runs alone again and meets its own answer or error there
        invalidate = getattr(graph.schema, "invalidate", None)
        if invalidate is not None:
            invalidate()
        for entry in taken:
            entry.error = None
            entry.result = None
            entry.done = True
        return
    for entry, result in written:
        entry.result = result
    for entry in taken:
        entry.done = True
