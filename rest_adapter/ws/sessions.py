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
block other writers: a session idle for `idle_timeout_s` is rolled back and closed, as
Gremlin Server's `sessionTimeout` does, and one that holds an open transaction (the graph's
writer) sooner: after `writer_idle_timeout_s` without a request
(`gremlinserver.session_writer_idle_timeout`, issue 16 item 6). Its next request is then
refused once, with a message saying its work was rolled back (a client that went on as if
nothing happened would commit an empty transaction). The app's lifespan calls `expire`
every second (`app._sweep_sessions`), so the writer is freed even when no other session
request comes.

Who: a session belongs to the user of its first request (`owner`: the principal's name and
record id; everyone is the anonymous administrator with auth off). Its transactions were
opened with that request's execution context, whose permission view (`gremlin_engine/auth/
guard.py`) they keep, so a request of another user in the same session would run with the
first one's rights. Gremlin Server authorises each request with its own connection's user;
here a request of another user in a session, or its close, is refused (401, as Gremlin
Server answers an authorisation failure), and a connection always runs as the one principal
it authenticated with, as Gremlin Server's SASL and Basic handshakes bind the user to the
connection.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

#: each open session holds a thread; clients close theirs (`Client.close()`)
MAX_SESSIONS = 256
#: a session without requests for this long is rolled back and closed
IDLE_TIMEOUT_S = 600.0
#: a session holding an open transaction (the writer) without requests for this long is
#: rolled back and closed
WRITER_IDLE_TIMEOUT_S = 30.0
#: ids of sessions closed that way, remembered to refuse their next request once
MAX_EXPIRED_REMEMBERED = 1024


#: who a session belongs to: (principal name, user record id)
Owner = tuple[str, str | None]


class SessionNotYours(Exception):
    """A request of another user than the session's (module docstring)."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"The session '{session_id}' belongs to another user; open a session of your own")


class Session:
    def __init__(self, session_id: str, owner: Owner | None = None) -> None:
        self.id = session_id
        self.owner = owner
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"gremlin-session-{session_id[:8]}")
        self.tx: dict[str, Any] = {}  # graph name -> runtime session transaction
        self.closed = False
        self.last_used = time.monotonic()
        self.active = 0  # requests in flight (counted on the event loop: `gremlin_ws`)

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

    def holds_writer(self) -> bool:
        """Whether a transaction of the session is open (it holds its store's writer)."""
        return any(getattr(tx, "is_open", False) for tx in list(self.tx.values()))

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


class SessionExpired(Exception):
    """The session was rolled back and closed while idle (`SessionManager.get`)."""


class SessionManager:
    def __init__(self, idle_timeout_s: float = IDLE_TIMEOUT_S,
                 writer_idle_timeout_s: float | None = WRITER_IDLE_TIMEOUT_S) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self.idle_timeout_s = idle_timeout_s
        self.writer_idle_timeout_s = writer_idle_timeout_s
        self._expired: OrderedDict[str, str] = OrderedDict()  # session id -> why it was closed

    def get(self, session_id: str, owner: Owner | None = None) -> Session:
        """The session (made on first use, for `owner`); raises `SessionExpired` once for a
        session that was rolled back for holding the writer while idle, and `SessionNotYours`
        for a session of another owner."""
        self.expire()
        with self._lock:
            why = self._expired.pop(session_id, None)
            if why is not None:
                raise SessionExpired(why)
            s = self._sessions.get(session_id)
            if s is None:
                if len(self._sessions) >= MAX_SESSIONS:
                    raise OverflowError(f"too many open sessions (limit {MAX_SESSIONS}); close unused sessions")
                s = self._sessions[session_id] = Session(session_id, owner)
            elif s.owner != owner:
                raise SessionNotYours(session_id)
            s.last_used = time.monotonic()
            return s

    def pop(self, session_id: str, owner: Owner | None = None) -> Session | None:
        """Takes the session out to close it; `SessionNotYours` when it is another owner's."""
        with self._lock:
            s = self._sessions.get(session_id)
            if s is not None and s.owner != owner:
                raise SessionNotYours(session_id)
            return self._sessions.pop(session_id, None)

    def expire(self) -> None:
        """Closes (rolling back) sessions idle longer than `idle_timeout_s`, and those holding
        a transaction idle longer than `writer_idle_timeout_s`."""
        now = time.monotonic()
        writer_bound = self.writer_idle_timeout_s
        with self._lock:
            stale = []
            for sid, s in list(self._sessions.items()):
                if s.active:
                    continue
                idle = now - s.last_used
                if idle > self.idle_timeout_s:
                    stale.append(self._sessions.pop(sid))
                elif writer_bound is not None and idle > writer_bound and s.holds_writer():
                    stale.append(self._sessions.pop(sid))
                    self._expired[sid] = (
                        f"Session {sid} was rolled back and closed: its open transaction held the graph's "
                        f"writer for {writer_bound:g} s without a request (gremlinserver.session_writer_idle_timeout)")
                    while len(self._expired) > MAX_EXPIRED_REMEMBERED:
                        self._expired.popitem(last=False)
        for s in stale:
            threading.Thread(target=s.close, name=f"gremlin-session-expire-{s.id[:8]}", daemon=True).start()

    def close_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for s in sessions:
            s.close()
