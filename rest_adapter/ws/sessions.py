"""Gremlin Server sessions (`processor: "session"`).

A session is named by the client (`args.session`, a UUID string) and outlives a single
request, so it is kept per server, not per connection. Requests of one session run one at
a time, in order, on the session's own thread.

Transactions: a session holds one store transaction per graph it touched
(`gremlin_engine.runtime.api.open_session(graph)`, see `runtime/tx_session.py`): every
request of the session runs inside it, `g.tx().commit()` (bytecode) or
`graph.tx().commit()` (script) makes it visible to other clients, `rollback()` discards
it, and closing the session (`Client.close()`, gremlinpython's `tx.commit()`/`rollback()`
end with one) rolls back whatever was not committed. A request that fails rolls the
session's transaction back, as Gremlin Server does.

An open transaction holds the store's writer lock, so a session that is never closed would
block other writers: a session idle for `IDLE_TIMEOUT_S` is rolled back and closed, as
Gremlin Server's `sessionTimeout` does.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

#: each open session holds a thread; clients close theirs (`Client.close()`)
MAX_SESSIONS = 256
#: a session without requests for this long is rolled back and closed
IDLE_TIMEOUT_S = 600.0


class Session:
    def __init__(self, session_id: str) -> None:
        self.id = session_id
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"gremlin-session-{session_id[:8]}")
        self.tx: dict[str, Any] = {}  # graph name -> runtime session transaction
        self.closed = False
        self.last_used = time.monotonic()

    def transaction(self, graph: Any) -> Any:
        """The session's transaction on `graph` (opened on first use), or None when the
        runtime offers no session transactions."""
        tx = self.tx.get(graph.name)
        if tx is None:
            opener = _session_opener()
            if opener is None:
                return None
            tx = self.tx[graph.name] = opener(graph)
        return tx

    def end(self, commit: bool) -> bool:
        """Commits or rolls back every transaction of the session; False when the runtime
        holds no transactions across requests (each request then committed on its own)."""
        if _session_opener() is None:
            return False
        for tx in list(self.tx.values()):
            (tx.commit if commit else tx.rollback)()
        return True

    def close(self) -> None:
        """Rolls back what was not committed (Gremlin Server's default on session close)."""
        if self.closed:
            return
        self.closed = True
        txs, self.tx = list(self.tx.values()), {}
        try:
            for tx in txs:
                tx.close()
        finally:
            self.executor.shutdown(wait=False)


def _session_opener() -> Any:
    try:
        from gremlin_engine.runtime import api
    except ImportError:
        return None
    opener = getattr(api, "open_session", None)
    if opener is None:
        try:
            from gremlin_engine.runtime.tx_session import open_session as opener
        except ImportError:
            return None
    return opener


class SessionManager:
    def __init__(self, idle_timeout_s: float = IDLE_TIMEOUT_S) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self.idle_timeout_s = idle_timeout_s

    def get(self, session_id: str) -> Session:
        self.expire()
        with self._lock:
            s = self._sessions.get(session_id)
            if s is None:
                if len(self._sessions) >= MAX_SESSIONS:
                    raise OverflowError(f"too many open sessions (limit {MAX_SESSIONS}); close unused sessions")
                s = self._sessions[session_id] = Session(session_id)
            s.last_used = time.monotonic()
            return s

    def pop(self, session_id: str) -> Session | None:
        with self._lock:
            return self._sessions.pop(session_id, None)

    def expire(self) -> None:
        """Closes (rolling back) sessions idle longer than `idle_timeout_s`."""
        now = time.monotonic()
        with self._lock:
            idle = [sid for sid, s in self._sessions.items() if now - s.last_used > self.idle_timeout_s]
            stale = [self._sessions.pop(sid) for sid in idle]
        for s in stale:
            threading.Thread(target=s.close, name=f"gremlin-session-expire-{s.id[:8]}", daemon=True).start()

    def close_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for s in sessions:
            s.close()
