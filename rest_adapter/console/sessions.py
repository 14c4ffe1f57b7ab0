"""Where the console's scripts run: a Gremlin server over WebSocket, or a store file in-process.

Both answer a script with gremlinpython values (`Vertex`, `Edge`, `Path`, dicts, numbers), so
`render.py` draws the same table whichever it was:

* `RemoteSession`: gremlinpython's `Client` (the eval op, GraphBinary), `g` aliased to the
  chosen graph per request, as `Client(url, "modern")` does; the server then binds `graph`
  to the same graph (`ws/requests.script_aliases`).
* `EmbeddedSession`: `gremlin_engine.embedded.EmbeddedConnection` on the file, its scripts
  run by the connection's graph and its results converted as the connection converts a
  traversal's (`embedded.results`), so nothing differs from a server's answer but the wire.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Protocol

from gremlin_python.driver.client import Client
from gremlin_python.driver.protocol import GremlinServerError

from gremlin_engine import HugeliteError
from gremlin_engine.embedded import EmbeddedConnection, results


class ConsoleError(Exception):
    """The console cannot go on as asked: no server at the URL, no such graph."""


class ScriptError(ConsoleError):
    """A script the graph refused (the message is the server's or the engine's), or a
    server that could not be reached for it."""


class Session(Protocol):
    graph: str
    where: str

    def submit(self, script: str) -> list[Any]: ...

    def use(self, graph: str) -> None: ...

    def close(self) -> None: ...


class RemoteSession:
    """Scripts sent to a Gremlin server (`ws://host:port/gremlin`)."""

    def __init__(self, url: str, graph: str) -> None:
        self.where = url
        self.graph = graph
        # the driver logs every refused script at error level, dict and all; the console
        # shows the server's message itself
        logging.getLogger("gremlinpython").setLevel(logging.CRITICAL)
        self._client = Client(url, graph)
        try:
            self.use(graph)  # no server there, or no such graph: said now, not at the first script
        except ScriptError:
            self._client.close()
            raise

    def submit(self, script: str, graph: str | None = None) -> list[Any]:
        aliases = {"g": graph or self.graph}
        try:
            return list(self._client.submit(script, request_options={"aliases": aliases}).all().result())
        except GremlinServerError as e:
            raise ScriptError(e.status_message or str(e)) from None
        except OSError as e:  # aiohttp's connection errors are OSErrors
            raise ScriptError(f"{self.where}: {e}") from None

    def use(self, graph: str) -> None:
        self.submit("g.inject(0)", graph)  # an unknown graph is refused now, not at the next script
        self.graph = graph

    def close(self) -> None:
        self._client.close()


class EmbeddedSession:
    """Scripts run in this process on one store file (created, in `auto` schema mode, when missing)."""

    def __init__(self, path: str) -> None:
        self.where = path
        self.graph = Path(path).stem
        self._conn = EmbeddedConnection(path, name=self.graph)

    def submit(self, script: str) -> list[Any]:
        try:
            return results(self._conn.graph.execute(script))
        except HugeliteError as e:
            raise ScriptError(str(e)) from None

    def use(self, graph: str) -> None:
        if graph != self.graph:
            raise ScriptError(f"a store file holds one graph, '{self.graph}'; to reach others, "
                              "connect to a server: hugelite console ws://host:8080/gremlin")

    def close(self) -> None:
        self._conn.close()


def open_session(target: str, graph: str | None) -> Session:
    """A server for a `ws://` or `wss://` URL, else the store file at `target`."""
    if target.startswith(("ws://", "wss://")):
        return RemoteSession(target, graph or "hugegraph")
    session = EmbeddedSession(target)
    if graph is not None:
        try:
            session.use(graph)
        except ScriptError:
            session.close()
            raise
    return session
