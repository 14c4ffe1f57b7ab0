"""`make test-postgres`: the suites again, on PostgreSQL-backed graphs (issue 24).

Starts a throw-away cluster (`tests/postgres_cluster.py`: initdb in a temporary folder, a free
loopback port, run as the `postgres` user when we are root), points the suites at it through
`tests/backends.py`'s switch (``HUGELITE_TEST_BACKEND=postgresql``, ``HUGELITE_TEST_PG_URL``),
runs pytest in a child process, and stops and removes the cluster whatever happens.

    python -m tests.run_postgres                # the suites below
    python -m tests.run_postgres tests/rest -x  # other tests (options alone keep the suites)

Which suites: storage, the engine (schema, runtime, traversal, algorithms, tasks), REST,
authentication and permissions, the WebSocket, the TinkerPop conformance corpus, the client
examples, the kill -9 trial of a PostgreSQL batch load and the scale-out schema rules. The rest of `make test` (grammar,
fuzzing, the console's browser, docs) does not touch a store's backend and is not run twice.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests import postgres_cluster
from tests.backends import BACKEND_ENV, URL_ENV

ROOT = Path(__file__).resolve().parent.parent

SUITES = (
    "tests/storage",
    "tests/schema",
    "tests/runtime",
    "tests/traversal",
    "tests/algorithms",
    "tests/tasks",
    "tests/rest",
    "tests/auth",
    "tests/wire",
    "tests/features",
    "tests/test_examples_rest.py",
    "tests/hostile/test_crash_postgres.py",
    "tests/test_scale_out.py",
)


#: tests of those suites that do not touch a store's backend, and are long: a pip install into
#: a fresh venv, the terminal console, `--help` of every command, and the
#: corpus again over the WebSocket (`tests/features` runs it on PostgreSQL in process)
NOT_TWICE = (
    "--ignore=tests/rest/test_cli_habits.py",
    "--ignore=tests/rest/test_console.py",
    "--ignore=tests/wire/conformance",
    "--deselect=tests/rest/test_cli.py::test_help_on_every_command",
)


def main(argv: list[str]) -> int:
    started = time.monotonic()
    cluster = postgres_cluster.start()
    print(f"test-postgres: PostgreSQL at {cluster.url()} ({cluster.folder})", flush=True)
    try:
        env = {**os.environ, BACKEND_ENV: "postgresql", URL_ENV: cluster.url(), "PYTHONPATH": str(ROOT)}
        paths = [a for a in argv if not a.startswith("-")]
        args = [*(paths or (*SUITES, *NOT_TWICE)), *(a for a in argv if a.startswith("-"))]
        done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=ROOT, env=env)
        return done.returncode
    finally:
        cluster.stop()
        print(f"test-postgres: cluster stopped; {time.monotonic() - started:.0f} s in all", flush=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
