"""docs/loading.md: its shell commands run as written, from a copy of the checkout's examples."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from gremlin_engine import GraphRegistry
from tests.conftest import ROOT
from tests.io.loader_data import graph_dump, open_store

DOC = ROOT / "docs" / "loading.md"


def commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_the_commands_of_docs_loading_run_as_written(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "data").mkdir()
    lines = commands()
    assert len(lines) == 4 and all(line.startswith(".venv/bin/hugelite ") for line in lines)
    for line in lines:
        args = shlex.split(line)[1:]
        done = subprocess.run([sys.executable, "-m", "rest_adapter", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        if args[0] == "load":
            assert "vertices inserted 5, failed 0; edges inserted 3, failed 0" in done.stdout
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        dumps = [graph_dump(open_store(reg, tmp_path / "data" / f"{name}.db", name=name.replace("-", "_")))
                 for name in ("example", "example-copy", "example-snapshot")]
        assert dumps[0] == dumps[1] == dumps[2] and len(dumps[0][0]) == 5
    finally:
        reg.close_all()
