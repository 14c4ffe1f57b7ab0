"""Starting a JVM in the background, waiting until it answers, stopping it by its pid.

Each server's pid lives in `<cache>/run/<name>.pid`; `stop` signals that pid only (TERM, then
KILL after a grace period) and never looks processes up by name.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx


def classpath(lib: Path, first: tuple[str, ...] = ()) -> str:
    """All jars of `lib`, those whose names start with one of `first` ahead (in that order):
    several jars carry the same class (logging bindings, shaded copies), and the first wins."""
    jars = sorted(lib.glob("*.jar"))
    ordered = [j for prefix in first for j in jars if j.name.startswith(prefix)]
    return ":".join(str(j) for j in ordered + [j for j in jars if j not in ordered])


def java(heap_mb: int, cp: str, main: str, *args: str, props: dict[str, str] | None = None) -> list[str]:
    """A java command line with a bounded heap (the host is small and shared)."""
    defs = [f"-D{k}={v}" for k, v in (props or {}).items()]
    opens = ["--add-exports=java.base/jdk.internal.reflect=ALL-UNNAMED",
             "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-modules=jdk.unsupported"]
    return ["java", f"-Xms{min(256, heap_mb)}m", f"-Xmx{heap_mb}m", "-XX:+UseSerialGC",
            *opens, *defs, "-cp", cp, main, *args]


def running(pid_file: Path) -> int | None:
    """The pid recorded in `pid_file` when that process is still alive."""
    try:
        pid = int(pid_file.read_text())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


def spawn(command: list[str], cwd: Path, log: Path, pid_file: Path) -> int:
    """Starts `command` detached (its own session, output to `log`) and records its pid."""
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    pid_file.write_text(str(proc.pid))
    return proc.pid


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def http_ok(url: str) -> Callable[[], bool]:
    def check() -> bool:
        try:
            return httpx.get(url, timeout=2).status_code == 200
        except httpx.HTTPError:
            return False
    return check


def wait_until(ready: Callable[[], bool], pid: int, timeout_s: float, log: Path) -> float:
    """Seconds until `ready()`; raises when the process dies or the time runs out."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if ready():
            return time.monotonic() - started
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            raise RuntimeError(f"process {pid} ended before it answered; see {log}") from None
        time.sleep(0.5)
    raise RuntimeError(f"process {pid} did not answer within {timeout_s:.0f} s; see {log}")


def stop(pid_file: Path, grace_s: float = 20.0) -> int | None:
    """Stops the process recorded in `pid_file`; returns its pid (None when none ran)."""
    pid = running(pid_file)
    if pid is not None:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline and running(pid_file):
            _reap(pid)
            time.sleep(0.2)
        if running(pid_file):
            os.kill(pid, signal.SIGKILL)
        _reap(pid)
    pid_file.unlink(missing_ok=True)
    return pid


def _reap(pid: int) -> None:
    """Collects the exit status when the process is our child (same Python process)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
