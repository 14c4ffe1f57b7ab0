"""A real hugelite server process for the wire tests, driven by real gremlinpython clients.

Two memory graphs: `hugegraph` (the default graph, what a driver's `g` means) and `modern`,
both in `auto` schema mode so tests can write TinkerGraph-style data. A second server has
auth enabled (`auth.authenticator` + ConfigAuthenticator-style `auth.admin_token`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADMIN_TOKEN = "s3cret"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _write_conf(base: Path, port: int, extra: str = "") -> Path:
    graphs = base / "graphs"
    graphs.mkdir(parents=True)
    for name in ("hugegraph", "modern"):
        (graphs / f"{name}.properties").write_text("backend=memory\nschema.mode=auto\n")
    (base / "rest-server.properties").write_text(
        f"restserver.url=http://127.0.0.1:{port}\ngraphs={graphs}\n"
        f"gremlinserver.evaluation_timeout_ms=30000\n{extra}"
    )
    return base


class Server:
    def __init__(self, conf: Path, port: int) -> None:
        self.port = port
        self.url = f"ws://127.0.0.1:{port}/gremlin"
        self.log = conf / "server.log"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rest_adapter", "serve", "--conf", str(conf), "--port", str(port),
             "--log-level", "warning"],
            cwd=str(conf), env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
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

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = _free_port()
    s = Server(_write_conf(tmp_path_factory.mktemp("wire"), port), port)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def auth_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = _free_port()
    extra = f"auth.authenticator=org.apache.hugegraph.auth.ConfigAuthenticator\nauth.admin_token={ADMIN_TOKEN}\n"
    s = Server(_write_conf(tmp_path_factory.mktemp("wire_auth"), port, extra), port)
    yield s
    s.stop()
