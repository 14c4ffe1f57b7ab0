"""Resume: a load killed half-way (`kill -9`) and run again with `--incremental` ends with
exactly one copy of every element; `--clear-all-data` starts afresh."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gremlin_engine import GraphRegistry
from tests.conftest import ROOT, run_cli
from tests.io.loader_data import open_store

SCHEMA = """
schema.propertyKey("name").asText().ifNotExist().create()
schema.propertyKey("n").asLong().ifNotExist().create()
schema.vertexLabel("note").properties("name", "n").useAutomaticId().ifNotExist().create()
schema.vertexLabel("person").properties("name").primaryKeys("name").ifNotExist().create()
schema.edgeLabel("next").sourceLabel("person").targetLabel("person").ifNotExist().create()
"""
ROWS = 60_000


def fixture(folder: Path) -> Path:
    folder.mkdir()
    with open(folder / "rows.csv", "w") as f:
        f.write("name,n,next\n")
        for i in range(ROWS):
            f.write(f"p{i},{i},p{(i + 1) % ROWS}\n")
    (folder / "schema.groovy").write_text(SCHEMA)
    struct = {"version": "2.0", "structs": [{"id": "rows", "input": {"path": "rows.csv"}, "vertices": [
        {"label": "note", "ignored": ["next"]}, {"label": "person", "selected": ["name"]}],
        "edges": [{"label": "next", "source": ["name"], "target": ["next"], "field_mapping": {"next": "name"},
                   "ignored": ["n"]}]}]}
    (folder / "struct.json").write_text(json.dumps(struct))
    return folder / "struct.json"


def counts(store: Path) -> tuple[int, int, int, int]:
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        g = open_store(reg, store)
        return (g.execute("g.V().hasLabel('note').count()")[0], g.execute("g.V().hasLabel('note').dedup().by('n').count()")[0],
                g.execute("g.V().hasLabel('person').count()")[0], g.execute("g.E().count()")[0])
    finally:
        reg.close_all()


def mode_after_open(store: Path) -> str:
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        return str(open_store(reg, store).mode)
    finally:
        reg.close_all()


def test_a_killed_load_resumes_without_duplicates(tmp_path: Path) -> None:
    struct = fixture(tmp_path / "in")
    progress = tmp_path / "load.progress"
    args = ["load", "--store", "g.db", "--struct", str(struct), "--schema", str(tmp_path / "in" / "schema.groovy"),
            "--batch-size", "500", "--progress-file", str(progress), "--quiet"]
    proc = subprocess.Popen([sys.executable, "-m", "rest_adapter", *args], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 120
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            entries = json.loads(progress.read_text())["inputs"]
            done = sum(e["records"] for e in entries.values())
        except (OSError, ValueError, KeyError):
            done = 0
        if done >= ROWS // 4:
            break
        time.sleep(0.01)
    assert proc.poll() is None, f"the load ended before it could be killed: {proc.stderr.read()!r}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # the killed load held the graph in LOADING mode; the next open gives NONE back
    assert mode_after_open(tmp_path / "g.db") == "NONE"
    notes, distinct, _persons, _edges = counts(tmp_path / "g.db")
    assert 0 < notes < ROWS and notes == distinct
    r = run_cli(*args, "--incremental", cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "skipped" in r.stdout and "skipped 0 " not in r.stdout
    assert counts(tmp_path / "g.db") == (ROWS, ROWS, ROWS, ROWS)
    # once finished, an incremental run has nothing left to do
    again = run_cli(*args, "--incremental", cwd=tmp_path, timeout=300)
    assert "records read 0," in again.stdout
    assert counts(tmp_path / "g.db") == (ROWS, ROWS, ROWS, ROWS)


def test_clear_all_data_starts_afresh(tmp_path: Path) -> None:
    struct = fixture(tmp_path / "in")
    args = ["load", "--store", "g.db", "--struct", str(struct), "--schema", str(tmp_path / "in" / "schema.groovy"),
            "--max-read-lines", "100", "--quiet"]
    # the 100th row's edge points at row 101, which is not read: refused, so exit code 1
    for _ in range(2):
        r = run_cli(*args, cwd=tmp_path)
        assert r.returncode == 1 and "edges inserted 99, failed 1" in r.stdout, r.stderr
    assert counts(tmp_path / "g.db")[0] == 200  # AUTOMATIC ids: a second plain load adds again
    r = run_cli(*args, "--clear-all-data", cwd=tmp_path)
    assert "vertices inserted 200, failed 0; edges inserted 99, failed 1" in r.stdout, r.stderr
    assert counts(tmp_path / "g.db") == (100, 100, 100, 99)


def test_resume_trusts_the_store_when_the_progress_file_lags(tmp_path: Path) -> None:
    """A kill between a batch's commit and the progress file's update leaves the file one
    batch behind the store; the store's own note commits with the data, so the resumed load
    writes no AUTOMATIC-id vertex twice."""
    folder = tmp_path / "in"
    folder.mkdir()
    rows = 2000
    (folder / "rows.csv").write_text("name,n\n" + "".join(f"p{i},{i}\n" for i in range(rows)))
    (folder / "schema.groovy").write_text(SCHEMA)
    struct = folder / "struct.json"
    struct.write_text(json.dumps({"version": "2.0", "structs": [
        {"id": "rows", "input": {"path": "rows.csv"}, "vertices": [{"label": "note"}]}]}))
    progress = tmp_path / "load.progress"
    args = ["load", "--store", "g.db", "--struct", str(struct), "--schema", str(folder / "schema.groovy"),
            "--batch-size", "250", "--progress-file", str(progress), "--quiet"]
    r = run_cli(*args, "--max-read-lines", "1000", cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    state = json.loads(progress.read_text())
    [entry] = state["inputs"].values()
    assert entry["records"] == 1000 and not entry["finished"]
    entry["records"] = 750  # the file one batch behind, as after a kill between the two writes
    progress.write_text(json.dumps(state))
    r = run_cli(*args, "--incremental", cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    notes, distinct, _persons, _edges = counts(tmp_path / "g.db")
    assert (notes, distinct) == (rows, rows)
