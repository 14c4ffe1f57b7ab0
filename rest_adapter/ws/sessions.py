"""Gremlin Server sessions (`processor: "session"`).

A session is named by the client (`args.session`, a UUID string) and outlives a single
request, so it is kept per server, not per connection. Requests of one session run one at
a time on the session's own thread: SQLite connections belong to the thread that opened
them, and a transaction held open across requests must stay on one thread.

Transactions: when the runtime offers a long-lived transaction
(`gremlin_engine.runtime.api.open_session(graph)` returning an object with `traverse(ir,
timeout_ms, cancel)`, `execute(...)`, `commit()`, `rollback()`, `close()`), the session
uses it, and `g.tx().commit()`/`rollback()` end it. Until then a session is a sequence of
script-level transactions: every request commits on its own, `commit` succeeds trivially
and `rollback` is refused with a message saying so.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

#: each open session holds a thread; clients close theirs (`Client.close()`)
MAX_SESSIONS = 256


class Session:
    def __init__(self, session_id: str) -> None:
        self.id = session_id
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"gremlin-session-{session_id[:8]}")
        self.tx: dict[str, Any] = {}  # graph name -> runtime session transaction (when supported)
        self.closed = False

    def transaction(self, graph: Any) -> Any:
        """The session's open transaction on `graph`, or None when the runtime has none."""
        tx = self.tx.get(graph.name)
        if tx is None:
            opener = _session_opener()
            if opener is None:
                return None
            tx = self.tx[graph.name] = opener(graph)
        return tx

    def end(self, commit: bool) -> bool:
        """Commits or rolls back every open transaction; False when none could be held."""
        if _session_opener() is None:
            return False
        txs, self.tx = list(self.tx.values()), {}
        for tx in txs:
            (tx.commit if commit else tx.rollback)()
            close = getattr(tx, "close", None)
            if close is not None:
                close()
        return True

    def close(self) -> None:
        """Rolls back what was not committed (Gremlin Server's default on session close)."""
        if self.closed:
            return
        self.closed = True
        try:
            self.executor.submit(self.end, False).result(timeout=30)
        finally:
            self.executor.shutdown(wait=False)


def _session_opener() -> Any:
    try:
        from gremlin_engine.runtime import api
    except ImportError:
        return None
    return getattr(api, "open_session", None)


class SessionManager:
    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def get(self, session_id: str) -> Session:
        with self._lock:
            s = self._sessions.get(session_id)
            if s is None:
                if len(self._sessions) >= MAX_SESSIONS:
                    raise OverflowError(f"too many open sessions (limit {MAX_SESSIONS}); close unused sessions")
                s = self._sessions[session_id] = Session(session_id)
            return s

    def pop(self, session_id: str) -> Session | None:
        with self._lock:
            return self._sessions.pop(session_id, None)

    def close_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for s in sessions:
            s.close()
