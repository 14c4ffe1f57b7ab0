"""Root fixtures: real hugelite servers (uvicorn subprocesses) and in-process apps.

* `server_url`: one session-wide server (`python -m rest_adapter serve`) on a free port,
  with a temp conf folder holding the sqlite graph `hugegraph` (schema.mode strict) and
  the memory graph `memgraph` (schema.mode auto). Tests that change a graph wholesale
  (clear, mode, drop) should use a graph they create, or their own server.
* `server_factory`: starts more servers with custom confs: `server_factory.start(graphs=
  {"g1": "backend=memory"}, server={"gremlinserver.evaluation_timeout_ms": "500"})`.
* `http`: an `httpx.Client` on `server_url`.
* `app_client`: the same app in-process (memory graphs, no sockets) behind a synchronous
  httpx client (`SyncASGIClient`: get/post/put/delete/request).
* `asgi_transport`: an `httpx.ASGITransport` over an in-process app, for async tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.backends import stored_graph_text

ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT_S = 60.0

DEFAULT_GRAPHS = {
    "hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=strict\n",
    "memgraph": "backend=memory\nschema.mode=auto\n",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_conf(
    base: Path,
    graphs: dict[str, str] | None = None,
    server: dict[str, str] | None = None,
    port: int | None = None,
) -> Path:
    """Writes `<base>/conf` (rest-server.properties + graphs/*.properties); returns it.
    Store paths inside are relative to `base`, the server's working directory. Under
    `make test-postgres` each sqlite graph becomes a PostgreSQL one in a database of its own
    (`tests/backends.py`)."""
    conf = base / "conf"
    (conf / "graphs").mkdir(parents=True, exist_ok=True)
    props = {
        "restserver.url": f"http://127.0.0.1:{port or 8080}",
        "graphs": str(conf / "graphs"),
        "gremlinserver.evaluation_timeout_ms": "30000",
        "gremlin.import_dir": str(ROOT.parent / "shared" / "tinkerpop" / "data"),
        **(server or {}),
    }
    (conf / "rest-server.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    for name, text in (DEFAULT_GRAPHS if graphs is None else graphs).items():
        (conf / "graphs" / f"{name}.properties").write_text(stored_graph_text(text, name, place=base))
    return conf


def run_cli(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs `hugelite ARGS` (as `python -m rest_adapter`) and captures its output."""
    return subprocess.run(
        [sys.executable, "-m", "rest_adapter", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@dataclass
class RunningServer:
    base_url: str
    cwd: Path
    conf: Path
    process: subprocess.Popen[bytes]
    startup_s: float
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@dataclass
class ServerFactory:
    root: Path
    servers: list[RunningServer] = field(default_factory=list)
    count: int = 0

    def start(
        self,
        graphs: dict[str, str] | None = None,
        server: dict[str, str] | None = None,
        init: bool = True,
        cwd: Path | None = None,
        workers: int = 1,
    ) -> RunningServer:
        """Writes a conf, initialises its stores (unless `init=False`) and starts a server
        (`workers` processes: ready once each has logged its start-up)."""
        self.count += 1
        cwd = cwd or self.root / f"server{self.count}"
        cwd.mkdir(parents=True, exist_ok=True)
        port = free_port()
        conf = write_conf(cwd, graphs, server, port)
        if init:
            done = run_cli("init-store", "--conf", str(conf), cwd=cwd)
            assert done.returncode == 0, done.stderr
        log_path = cwd / "server.log"
        log = log_path.open("wb")
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "rest_adapter", "serve", "--conf", str(conf), "--port", str(port),
             *(["--workers", str(workers)] if workers > 1 else [])],
            cwd=cwd,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        base_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited with {process.returncode}:\n{log_path.read_text()}")
            try:
                if httpx.get(f"{base_url}/versions", timeout=0.5).status_code == 200 and (
                        workers == 1 or log_path.read_text().count("Application startup complete") >= workers):
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"server did not answer /versions in {STARTUP_TIMEOUT_S} s")
            time.sleep(0.05)
        running = RunningServer(base_url, cwd, conf, process, time.perf_counter() - started, log_path)
        self.servers.append(running)
        return running

    def stop_all(self) -> None:
        for s in self.servers:
            s.stop()


@pytest.fixture(scope="session")
def server_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerFactory]:
    factory = ServerFactory(tmp_path_factory.mktemp("servers"))
    try:
        yield factory
    finally:
        factory.stop_all()


@pytest.fixture(scope="session")
def server(server_factory: ServerFactory) -> RunningServer:
    return server_factory.start()


@pytest.fixture(scope="session")
def server_url(server: RunningServer) -> str:
    return server.base_url


@pytest.fixture
def http(server_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server_url, timeout=30) as client:
        yield client


def _memory_settings(tmp: Path) -> Any:
    from rest_adapter.settings import Settings

    conf = write_conf(tmp, {"hugegraph": "backend=memory\nschema.mode=strict\n",
                            "memgraph": "backend=memory\nschema.mode=auto\n"})
    return Settings.load(conf)


class SyncASGIClient:
    """A synchronous httpx client over `httpx.ASGITransport` (one private event loop), so
    plain test functions can call the in-process app like a server."""

    def __init__(self, app: Any) -> None:
        self._runner = asyncio.Runner()
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        self._client = httpx.AsyncClient(transport=transport, base_url="http://hugelite", timeout=30)

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        return self._runner.run(self._client.request(method, url, **kwargs))

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)

    def put(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("PUT", url, **kw)

    def delete(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("DELETE", url, **kw)

    def close(self) -> None:
        self._runner.run(self._client.aclose())
        self._runner.close()


@contextlib.contextmanager
def sqlite_app(base: Path, modes: dict[str, str]) -> Iterator[tuple[SyncASGIClient, Any]]:
    """The in-process app over one initialised sqlite store per graph (`modes`: graph name ->
    `strict`/`auto`), with its registry: file stores are the only ones whose reads can start
    at once, which the event-loop and direct-plan paths depend on."""
    from gremlin_engine import GraphRegistry
    from gremlin_engine.graph import GraphConfig
    from rest_adapter.app import create_app, open_registry
    from rest_adapter.settings import Settings

    confs = {}
    for name, mode in modes.items():
        store = base / f"{name}.db"
        GraphRegistry.init_store(GraphConfig(name=name, backend="sqlite", store=str(store), schema_mode=mode))
        confs[name] = f"backend=sqlite\nstore={store}\nschema.mode={mode}\n"
    settings = Settings.load(write_conf(base, confs))
    registry = open_registry(settings)
    client = SyncASGIClient(create_app(settings, registry=registry))
    try:
        yield client, registry
    finally:
        client.close()
        registry.close_all()


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[SyncASGIClient]:
    from rest_adapter.app import create_app, open_registry

    settings = _memory_settings(tmp_path)
    registry = open_registry(settings)
    client = SyncASGIClient(create_app(settings, registry=registry))
    try:
        yield client
    finally:
        client.close()
        registry.close_all()


@pytest.fixture
def asgi_transport(tmp_path: Path) -> Iterator[httpx.ASGITransport]:
    from rest_adapter.app import create_app, open_registry

    settings = _memory_settings(tmp_path)
    registry = open_registry(settings)
    try:
        yield httpx.ASGITransport(app=create_app(settings, registry=registry), raise_app_exceptions=False)
    finally:
        registry.close_all()
