"""A real hugelite server in a subprocess, for the REST benchmarks.

The REST load and traverser benchmarks measure the server as users run it: its own process,
a config folder written here, the store on a temp file. Its CPU time and peak RSS are read
from /proc, so other load on the machine does not inflate them.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect_when_up(proc: subprocess.Popen, port: int, timeout_s: float, why: Callable[[], str]) -> socket.socket:
    """A keep-alive socket (TCP_NODELAY) to a server subprocess on `port`, once it listens;
    `RuntimeError(why())` when the process ends first or `timeout_s` passes."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(why()) from None
            time.sleep(0.05)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class BenchServer:
    """Serves one graph, `graph_props` being its `.properties` text; `init_store` runs
    `hugelite init-store` first (a strict graph on a new file needs it). `tree`: the source
    tree to serve from (default: this one; another for A/B runs), `env`: extra environment,
    `workers`: server processes (`serve --workers N`; the option is passed only when not 1,
    so trees older than it, like issue 17's start tree, can be served for A/B runs).
    `HUGELITE_BENCH_SERVER_PROPS` in the environment (`key=value;key=value`) adds lines to
    rest-server.properties, to compare server settings (`restserver.http_parser=h11`)."""

    def __init__(self, base: Path, graph: str, graph_props: str, timeout_ms: int, init_store: bool = False,
                 tree: str | Path | None = None, env: dict[str, str] | None = None, workers: int = 1) -> None:
        self.base = base
        self.port = free_port()
        conf = base / "conf"
        (conf / "graphs").mkdir(parents=True, exist_ok=True)
        (conf / "rest-server.properties").write_text(
            f"restserver.url=http://127.0.0.1:{self.port}\ngraphs={conf / 'graphs'}\n"
            f"gremlinserver.evaluation_timeout_ms={timeout_ms}\n"
            + "".join(f"{line.strip()}\n" for line in os.environ.get("HUGELITE_BENCH_SERVER_PROPS", "").split(";")
                      if line.strip())
        )
        (conf / "graphs" / f"{graph}.properties").write_text(graph_props)
        env = {**os.environ, "PYTHONPATH": str(tree or ROOT), **(env or {})}
        if init_store:
            subprocess.run([sys.executable, "-m", "rest_adapter", "init-store", "--conf", str(conf)],
                           check=True, cwd=base, env=env, capture_output=True)
        self.log = (base / "server.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rest_adapter", "serve", "--conf", str(conf), "--port", str(self.port),
             "--log-level", "warning", *(["--workers", str(workers)] if workers != 1 else [])],
            cwd=base, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/versions", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((self.base / "server.log").read_text())
            time.sleep(0.05)

    def cpu_s(self) -> float:
        """CPU seconds the server process has used (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def user_sys_s(self) -> tuple[float, float]:
        """(user, system) CPU seconds of the server process: the system part is the kernel's
        work for it, at a batch load mostly SQLite's WAL writes (`pwrite64`, two per page
        written) and checkpoints (`fdatasync`), which the Python profilers do not see."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

    def cpu_ns(self) -> int:
        """CPU the server's threads have used, in ns (`/proc/<pid>/task/*/schedstat`): finer
        than `cpu_s`'s clock ticks, for short A/B rounds."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):  # a thread that ended meanwhile
                pass
        return total

    def peak_rss_kib(self) -> int:
        m = re.search(r"VmHWM:\s+(\d+)", Path(f"/proc/{self.proc.pid}/status").read_text())
        return int(m.group(1)) if m else 0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
