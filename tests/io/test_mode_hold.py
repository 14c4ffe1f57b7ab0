"""A bulk job (load, restore) holds the graph's mode: a second job is refused while the
first runs, and a job that died without giving the mode back is repaired at the next open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gremlin_engine import GraphRegistry
from gremlin_engine.errors import IllegalArgument
from tests.conftest import ROOT
from tests.io.loader_data import open_store


def test_a_hold_gives_the_previous_mode_back_and_refuses_a_second_job(tmp_path: Path) -> None:
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        g = open_store(reg, tmp_path / "g.db")
        g.set_mode("MERGING")
        assert g.hold_mode("LOADING", "load") == "MERGING"
        assert g.mode == "LOADING"
        with pytest.raises(IllegalArgument, match=rf"held in LOADING mode by a load running in process {os.getpid()}"):
            g.hold_mode("RESTORING", "restore")
        g.release_mode()
        assert g.mode == "MERGING"
        assert g.repair_held_mode() is None  # nothing held: nothing to repair
    finally:
        reg.close_all()


def test_a_hold_whose_process_died_is_repaired_when_the_graph_opens(tmp_path: Path) -> None:
    store = tmp_path / "g.db"
    script = (
        "import os, sys\n"
        "from gremlin_engine import GraphRegistry\n"
        "from tests.io.loader_data import open_store\n"
        "g = open_store(GraphRegistry(evaluation_timeout_ms=None), sys.argv[1])\n"
        "g.hold_mode('LOADING', 'load')\n"
        "os._exit(0)  # gone without release_mode, as after kill -9\n"
    )
    subprocess.run([sys.executable, "-c", script, str(store)], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        g = open_store(reg, store)
        assert g.mode == "NONE"
        assert g.hold_mode("LOADING", "load") == "NONE"  # free for the next job
        g.release_mode()
    finally:
        reg.close_all()
