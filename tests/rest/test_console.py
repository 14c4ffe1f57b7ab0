"""`hugelite console` driven in a pseudo-terminal (pexpect), as a person types: on a running
server and on a store file; a script over two lines, its result table, Tab completion,
`:timing`, `:graph`, an error, history recalled in the next session, `:quit`."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from rest_adapter.console.repl import is_complete
from tests.conftest import ROOT, RunningServer, free_port, run_cli

UP = "\x1b[A"
#: what may stand between two cells of a rich table: spaces, its borders, style escapes
_GAP = r"(?:\s|\x1b\[[0-9;]*m)+[│┃](?:\s|\x1b\[[0-9;]*m)+"


def row(*cells: str) -> str:
    """A pattern for one table line holding `cells`, in order, side by side."""
    return _GAP.join(cells)


@pytest.fixture
def console_env(tmp_path: Path) -> dict[str, str]:
    """A terminal of known size, no colours, no cursor-position queries (pexpect answers
    none), and the history in this test's own state folder."""
    return {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm",
            "NO_COLOR": "1", "PROMPT_TOOLKIT_NO_CPR": "1", "PYTHONPATH": str(ROOT)}


def spawn(env: dict[str, str], *args: str, cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "rest_adapter", "console", *args], env=env, cwd=str(cwd),
                         encoding="utf-8", dimensions=(40, 140), timeout=30)


@pytest.fixture
def people(console_env: dict[str, str], tmp_path: Path) -> Iterator[pexpect.spawn]:
    child = spawn(console_env, "people.db", cwd=tmp_path)
    yield child
    child.close(force=True)


def quit_(child: pexpect.spawn) -> None:
    child.send(":quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_store_file_session(people: pexpect.spawn, console_env: dict[str, str], tmp_path: Path) -> None:
    people.expect("console on people.db, graph people")
    people.expect("gremlin@people>")
    # a trailing `.` continues the script on the next line; Enter on a complete one runs it
    people.send("g.addV('person').property('name', 'marko').\r")
    people.expect(r"\.\.\.\.")
    people.send("property('age', 29).iterate()\r")
    people.expect("0 results")
    people.send("g.addV('person').property('name', 'vadas').property('age', 27).iterate()\r")
    people.expect("0 results")
    people.send("g.V().order().by('age').valueM\t")  # Tab completes the step
    people.expect(r"valueM(?:\x1b\[[0-9;?]*[A-Za-z])*ap")
    people.send("('name', 'age')\r")
    people.expect(row("name", "age"))
    people.expect(row("vadas", "27"))
    people.expect(row("marko", "29"))
    people.expect("2 results")
    people.send(":timing\r")
    people.expect("timing on")
    people.send("g.V().count()\r")
    people.expect(r"│ 2 ")
    people.expect(r"\d+\.\d ms")
    people.send("g.V().nosuchstep()\r")
    people.expect("error:")
    people.expect("gremlin@people>")
    people.send(":graph other\r")
    people.expect("a store file holds one graph, 'people'")
    quit_(people)
    assert "valueMap('name', 'age')" in (tmp_path / "state" / "hugelite" / "console_history").read_text()

    # the next session recalls the scripts and commands of this one, the last first:
    # :quit, :graph other, the refused script, then g.V().count()
    again = spawn(console_env, "people.db", cwd=tmp_path)
    again.expect("gremlin@people>")
    again.send(UP * 4 + "\r")
    again.expect(row("value"))
    again.expect(row("", "2", ""))
    again.expect("1 result")
    quit_(again)


def test_a_server_session(server: RunningServer, console_env: dict[str, str], tmp_path: Path) -> None:
    url = server.base_url.replace("http://", "ws://") + "/gremlin"
    child = spawn(console_env, url, "--graph", "memgraph", cwd=tmp_path)
    try:
        child.expect(f"console on {url}, graph memgraph")
        child.send("g.addV('console').property('name', 'ann').\r")
        child.send("  property('n', 1).iterate()\r")
        child.expect("0 results")
        child.send("g.V().hasLabel('console').\r")
        child.send("  project('name', 'n').by('name').by('n')\r")
        child.expect(row("name", "n"))
        child.expect(row("ann", "1"))
        child.send(":graph hugegraph\r")
        child.expect("graph hugegraph")
        child.expect("gremlin@hugegraph>")
        child.send(":graph nosuchgraph\r")
        child.expect(r"Could not alias \[g\] to \[nosuchgraph\]")
        child.expect("gremlin@hugegraph>")
        child.send("g.V().hasLabel('console').count()\r")  # hugegraph is strict: no such label
        child.expect(r"error:|│ 0 ")
        quit_(child)
    finally:
        child.close(force=True)


@pytest.mark.parametrize(("text", "whole"), [
    ("g.V().count()", True),
    ("g.V().", False),
    ("g.V().has('name',", False),
    ("g.V().has('name', 'a(b')", True),
    ("g.V().has('name', \"it's\")", True),
    ("g.inject('unclosed", False),
    ("[1, [2, 3]", False),
    ("g.V())", True),  # the parser says what is wrong
    (":graph modern", True),
])
def test_enter_runs_only_a_whole_script(text: str, whole: bool) -> None:
    assert is_complete(text) is whole


def test_no_server_or_no_such_graph_ends_it_at_once(tmp_path: Path) -> None:
    down = run_cli("console", f"ws://127.0.0.1:{free_port()}/gremlin", cwd=tmp_path)
    assert down.returncode == 1
    assert "Cannot connect to host 127.0.0.1" in down.stderr
    other = run_cli("console", "people.db", "--graph", "other", cwd=tmp_path)
    assert other.returncode == 1
    assert "a store file holds one graph, 'people'" in other.stderr
