"""A real hugelite server process (`python -m rest_adapter serve`) for the wire tests.

Shared by `tests/wire/conftest.py` (the protocol tests), the wire conformance run and the
wire bench: they all talk to a separate process over loopback, as a real client would.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.backends import ON_POSTGRES, stored_graph_text

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_conf(base: Path, port: int, graphs: dict[str, str] | None = None, extra: str = "",
               timeout_ms: int = 30000, init: bool = True) -> Path:
    """A conf folder: `rest-server.properties` plus one `graphs/<name>.properties` per entry
    of `graphs` (name -> properties text; default: memory graphs `hugegraph` and `modern`).
    Under `make test-postgres` every memory or sqlite graph becomes a PostgreSQL one, in a
    database of its own that `init-store` creates here (`tests/backends.py`): the WebSocket
    suite then runs on PostgreSQL-backed graphs. `init=False` leaves that `init-store` to the
    caller (a server with auth on runs its own, with the administrator's password)."""
    if graphs is None:
        graphs = {name: "backend=memory\nschema.mode=auto\n" for name in ("hugegraph", "modern")}
    gdir = base / "graphs"
    gdir.mkdir(parents=True, exist_ok=True)
    for name, text in graphs.items():
        (gdir / f"{name}.properties").write_text(stored_graph_text(text, name, memory_too=True, place=base))
    (base / "rest-server.properties").write_text(
        f"restserver.url=http://127.0.0.1:{port}\ngraphs={gdir}\n"
        f"gremlinserver.evaluation_timeout_ms={timeout_ms}\n{extra}"
    )
    if ON_POSTGRES and init:
        done = subprocess.run([sys.executable, "-m", "rest_adapter", "init-store", "--conf", str(base)],
                              cwd=base, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert done.returncode == 0, done.stderr
    return base


class Server:
    """Starts the server on `port` with `conf` and waits until it accepts connections."""

    def __init__(self, conf: Path, port: int, startup_s: float = 30) -> None:
        self.port = port
        self.url = f"ws://127.0.0.1:{port}/gremlin"
        self.http_base = f"http://127.0.0.1:{port}"
        self.log = conf / "server.log"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rest_adapter", "serve", "--conf", str(conf), "--port", str(port),
             "--log-level", "warning"],
            cwd=str(conf), env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + startup_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def request(self, method: str, path: str, body: str | bytes | None = None,
                content_type: str = "text/plain") -> tuple[int, bytes]:
        """One REST call on a fresh loopback connection: (status, body)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers: dict[str, Any] = {"Content-Type": content_type} if body is not None else {}
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
