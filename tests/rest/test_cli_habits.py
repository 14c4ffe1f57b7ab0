"""The command line a newcomer reaches for (issue 20): `--version`, `-p`, `serve FILE.db` from any
directory with `--port 0`, a banner naming both addresses, an access log, `--cors`; and the
package installed without extras into a fresh virtual environment."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def hugelite(*args: str, cwd: Path, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, "-m", "rest_adapter", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


@contextmanager
def serving(*args: str, cwd: Path, command: list[str] | None = None, env: dict[str, str] | None = None,
            ) -> Iterator[tuple[str, subprocess.Popen[str], list[str]]]:
    """`hugelite serve ARGS --port 0` in CWD; yields (base URL read from its banner, process, banner)."""
    command = command or [sys.executable, "-m", "rest_adapter"]
    env = env or {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([*command, "serve", *args, "--port", "0"], cwd=cwd, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    banner: list[str] = []
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        while not banner or "try:" not in banner[-1]:  # the banner ends with a line to try
            line = process.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise AssertionError("serve ended:\n" + "".join(banner))
            banner.append(line)
        found = re.search(r"REST:\s+(http://\S+)", "".join(banner))
        assert found, "".join(banner)
        url = found.group(1)
        for _ in range(100):
            try:
                if httpx.get(f"{url}/versions", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url, process, banner
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_version_option_and_command_agree(tmp_path: Path) -> None:
    option, command = hugelite("--version", cwd=tmp_path), hugelite("version", cwd=tmp_path)
    assert option.returncode == 0 and command.returncode == 0
    assert option.stdout == command.stdout
    assert re.match(r"hugelite \S+ \(HugeGraph core 1\.7\.\d+, api \S+, TinkerPop 3\.8\.\d+\)", option.stdout)


def test_serve_files_from_another_directory_on_a_free_port(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    people = tmp_path / "people.db"
    with serving(str(people), cwd=elsewhere) as (url, _, banner):
        said = "".join(banner)
        port = url.rsplit(":", 1)[1]
        assert f"ws://127.0.0.1:{port}/gremlin" in said and "serving people" in said
        assert port != "0" and port != "8080"
        assert httpx.get(f"{url}/graphs", timeout=10).json() == {"graphs": ["people"]}
        script = {"gremlin": "g.addV('person').property('name','marko').iterate(); g.V().values('name')",
                  "aliases": {"g": "__g_people"}}
        answer = httpx.post(f"{url}/gremlin", json=script, timeout=30)
        assert answer.status_code == 200 and answer.json()["result"]["data"] == ["marko"]
    assert people.is_file() and not (elsewhere / "conf").exists()
    with serving(str(people), cwd=elsewhere) as (url, _, _):  # the same file again: auto, as recorded
        found = httpx.post(f"{url}/gremlin", json={"gremlin": "g.V().count()", "aliases": {"g": "__g_people"}},
                           timeout=30)
        assert found.json()["result"]["data"] == [1]


def test_serve_without_conf_uses_the_shipped_default(tmp_path: Path) -> None:
    with serving(cwd=tmp_path) as (url, _, _):
        graphs = httpx.get(f"{url}/graphs", timeout=10).json()
        assert graphs == {"graphs": ["hugegraph"]}
        mode = httpx.get(f"{url}/graphs/hugegraph/schema/vertexlabels/nobody", timeout=10)
        assert mode.status_code == 404
    assert (tmp_path / "data" / "hugegraph.db").is_file()


def test_access_log_and_cors(tmp_path: Path) -> None:
    with serving(str(tmp_path / "g.db"), "--cors", "http://example.test", cwd=tmp_path) as (url, process, _):
        plain = httpx.get(f"{url}/versions", timeout=10)
        assert "access-control-allow-origin" not in plain.headers
        browser = httpx.get(f"{url}/versions", headers={"Origin": "http://example.test"}, timeout=10)
        assert browser.headers["access-control-allow-origin"] == "http://example.test"
        other = httpx.get(f"{url}/versions", headers={"Origin": "http://elsewhere.test"}, timeout=10)
        assert "access-control-allow-origin" not in other.headers
        process.terminate()
        rest = process.communicate(timeout=20)[0]
    line = re.search(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ INFO hugelite\.access: 127\.0\.0\.1 '
                     r'"GET /versions" 200 [\d.]+ ms$', rest, re.M)
    assert line, rest


def test_a_graph_file_name_that_is_no_graph_name_is_refused(tmp_path: Path) -> None:
    done = hugelite("serve", str(tmp_path / "9lives.db"), cwd=tmp_path)
    assert done.returncode == 2
    assert "9lives" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_installed_without_extras_in_a_fresh_venv(tmp_path: Path) -> None:
    """`pip install .` (no extras) gives `hugelite`, the server and embedded mode."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "--quiet", str(ROOT)], capture_output=True,
                             text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-3000:]
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    hugelite_bin = str(env_dir / "bin" / "hugelite")
    shown = subprocess.run([hugelite_bin, "--version"], capture_output=True, text=True, timeout=60, env=clean_env)
    assert shown.returncode == 0 and shown.stdout.startswith("hugelite ")
    work = tmp_path / "work"
    work.mkdir()
    with serving("graph.db", cwd=work, command=[hugelite_bin], env=clean_env) as (url, _, _):
        assert httpx.get(f"{url}/versions", timeout=10).json()["versions"]["core"].startswith("1.7")
        answer = httpx.post(f"{url}/gremlin", json={"gremlin": "g.inject(1, 2).sum()", "aliases": {"g": "__g_graph"}},
                            timeout=30)
        assert answer.json()["result"]["data"] == [3]
    example = ROOT / "examples" / "embedded_gremlinpython.py"
    ran = subprocess.run([python, str(example), str(work / "embedded.db")], capture_output=True, text=True,
                         timeout=120, cwd=work, env=clean_env)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.strip()
