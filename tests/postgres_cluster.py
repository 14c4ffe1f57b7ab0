"""A throw-away PostgreSQL cluster on loopback, from the machine's own PostgreSQL binaries.

`make test-postgres` and the PostgreSQL benches need a real server and must start it
themselves (issue 24: nothing is started by hand). This starts one in a temporary folder, on
a free port, with trust authentication on 127.0.0.1 only, and removes it on stop.

``initdb`` refuses to run as root, so when we are root the cluster's commands run as the
``postgres`` system user (Debian's packages create it) through ``runuser``; the folder is
handed to that user first. Binaries are found in ``$HUGELITE_PG_BIN``, else the newest
``/usr/lib/postgresql/<major>/bin`` (Debian's layout), else ``PATH``.

    python -m tests.postgres_cluster start      # prints the URL and the folder, leaves it up
    python -m tests.postgres_cluster stop DIR   # stops and removes it

In Python: ``with cluster() as pg: pg.url`` (a SQLAlchemy URL of the ``postgres``
database) and ``pg.create_database(name)`` for a database of one's own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "postgres"


def pg_bin() -> Path:
    """The folder holding initdb, pg_ctl and postgres."""
    configured = os.environ.get("HUGELITE_PG_BIN")
    if configured:
        return Path(configured)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True)
    for folder in debian:
        if (folder / "initdb").exists():
            return folder
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise RuntimeError("PostgreSQL's initdb was not found: install the postgresql package or set HUGELITE_PG_BIN")


def _as_owner(argv: list[str]) -> list[str]:
    """The command, run as the ``postgres`` user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", SUPERUSER, "--", *argv]
    return argv


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    folder: Path
    port: int

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL (psycopg 3 driver) of `database` in this cluster."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        done = subprocess.run(
            [str(pg_bin() / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER,
             "-d", database, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql],
            capture_output=True, text=True, check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def create_database(self, name: str) -> str:
        """Creates database `name` (dropping an older one) and returns its URL."""
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(_as_owner([str(pg_bin() / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"]),
                       capture_output=True, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def start(port: int | None = None, folder: Path | None = None) -> Cluster:
    """initdb + pg_ctl start; returns when the server accepts connections."""
    folder = folder or Path(tempfile.mkdtemp(prefix="hugelite-pg-"))
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(folder, SUPERUSER, SUPERUSER)
    cluster = Cluster(folder, port or _free_port())
    binaries = pg_bin()
    init = subprocess.run(
        _as_owner([str(binaries / "initdb"), "-D", str(cluster.data), "-A", "trust", "-U", SUPERUSER,
                   "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
        capture_output=True, text=True, check=False,
    )
    if init.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {init.stderr.strip()}")
    # fsync off: a throw-away cluster for tests and benches needs no durability against
    # power loss (the kill -9 test kills hugelite, not PostgreSQL, so it is unaffected)
    options = (f"-p {cluster.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
               f"-c max_connections=200 -c shared_buffers=128MB")
    started = subprocess.run(
        _as_owner([str(binaries / "pg_ctl"), "-D", str(cluster.data), "-o", options,
                   "-l", str(folder / "server.log"), "-w", "-t", "60", "start"]),
        capture_output=True, text=True, check=False,
    )
    if started.returncode != 0:
        log = (folder / "server.log").read_text(errors="replace") if (folder / "server.log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()}\n{log}")
    return cluster


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    running = start()
    try:
        yield running
    finally:
        running.stop()


def main(argv: list[str]) -> int:
    if argv[:1] == ["start"]:
        running = start()
        print(running.url())
        print(running.folder)
        return 0
    if argv[:1] == ["stop"] and len(argv) == 2:
        folder = Path(argv[1])
        Cluster(folder, 0).stop()
        return 0
    print("usage: python -m tests.postgres_cluster start | stop DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
