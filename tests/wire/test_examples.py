"""The two gremlinpython examples run as a user would run them, against a strict-schema
(HugeGraph-style) server for the WebSocket one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends import ON_POSTGRES, sqlite_only
from tests.wire.server import ROOT, Server, free_port, write_conf

EXAMPLES = ROOT / "examples"


def run_example(name: str, *args: str, cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory):
    port = free_port()
    graphs = {"hugegraph": "backend=memory\nschema.mode=strict\n"}
    if ON_POSTGRES:  # the example's own graph, declared so that it is a PostgreSQL one (else it makes a memory one)
        graphs["wsdemo"] = "backend=memory\nschema.mode=strict\n"
    conf = write_conf(tmp_path_factory.mktemp("examples"), port, graphs=graphs)
    s = Server(conf, port)
    yield s
    s.stop()


@sqlite_only("the embedded example opens a store file it is given")
def test_embedded_example(tmp_path):
    out = run_example("embedded_gremlinpython.py", str(tmp_path / "g.db"), cwd=tmp_path)
    assert "vertices by label: {'person': 4, 'software': 2}" in out
    assert "older than 30: ['peter', 'josh']" in out
    assert "co-creators of lop: ['josh', 'marko', 'peter']" in out
    again = run_example("embedded_gremlinpython.py", str(tmp_path / "g.db"), cwd=tmp_path)
    assert "vertices by label: {'person': 4, 'software': 2}" in again  # reopened, not reloaded


def test_websocket_example(strict_server, tmp_path):
    out = run_example("websocket_gremlinpython.py", strict_server.url, cwd=tmp_path)
    assert "over 30: ['carol', 'alice']" in out
    assert "alice knows: ['bob']" in out
    assert "with a 5 s limit: 3" in out
    assert "script with bindings (GraphSON 3): [103]" in out
