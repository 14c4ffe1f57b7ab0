"""The console's read-eval-print loop (prompt_toolkit for the line editor, rich for the output).

* **Multi-line input**: Enter runs the script only when it is complete (brackets closed,
  strings ended, no trailing `.` or `,`); otherwise it starts a new line, so a traversal can
  be written over several. Alt-Enter (Esc, Enter) runs it as it is.
* **History** across sessions, in `$XDG_STATE_HOME/hugelite/console_history` (default
  `~/.local/state/...`), recalled with the arrow keys and Ctrl-R.
* **Completion** (Tab) of Gremlin steps, from the engine's step table (`traversal/registry.py`:
  the steps hugelite runs, less its internal `hg*` ones), and of the console's commands.
* **Commands**: `:graph NAME` (the graph `g` and `graph` mean), `:timing` (show each script's
  time, on/off), `:help`, `:quit` (or Ctrl-D).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.history import FileHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.lexers import PygmentsLexer
from pygments.lexers.jvm import GroovyLexer
from rich.console import Console
from rich.markup import escape

from gremlin_engine.traversal.registry import REGISTRY
from rest_adapter.console.render import results_table
from rest_adapter.console.sessions import ScriptError, Session, open_session

COMMANDS = [":graph", ":timing", ":help", ":quit"]
HELP = """\
Type a Gremlin script and press Enter (a script with open brackets goes on to the next line;
Esc, Enter runs it as it is). g is the current graph's traversal source, graph the graph.
  :graph NAME   use graph NAME          :timing   show each script's time (on/off)
  :help         this text               :quit     leave (or Ctrl-D)"""
_PAIRS = {")": "(", "]": "[", "}": "{"}
#: what Tab completes: the step name (or `:command`) the cursor is in
_WORD = re.compile(r"[:\w]+")


def history_path() -> Path:
    """The history file, in the XDG state folder (made when missing)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(state) / "hugelite"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "console_history"


def is_complete(text: str) -> bool:
    """Whether `text` is a whole script: brackets balanced, strings closed, no trailing
    `.` or `,` (a chain going on). A console command is always whole."""
    stripped = text.strip()
    if stripped.startswith(":") or not stripped:
        return True
    stack: list[str] = []
    quote = ""
    escaped = False
    for ch in stripped:
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            stack.append(ch)
        elif ch in _PAIRS:
            if stack and stack[-1] == _PAIRS[ch]:
                stack.pop()
            else:
                return True  # unbalanced the other way: let the parser say where
    return not stack and not quote and not stripped.endswith((".", ","))


def step_names() -> list[str]:
    return sorted(name for name in REGISTRY if not name.lower().startswith("hg"))


def _key_bindings() -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if is_complete(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    @bindings.add("escape", "enter")
    def _run_anyway(event: KeyPressEvent) -> None:
        event.current_buffer.validate_and_handle()

    return bindings


class Repl:
    """One console: a session, the display settings, and the commands."""

    def __init__(self, session: Session, out: Console) -> None:
        self.session = session
        self.out = out
        self.timing = False

    def command(self, line: str) -> bool:
        """Runs a `:command`; False when it asks to leave."""
        name, _, arg = line.strip().partition(" ")
        arg = arg.strip()
        if name in (":quit", ":q", ":exit"):
            return False
        if name == ":timing":
            self.timing = not self.timing
            self.out.print(f"timing {'on' if self.timing else 'off'}")
        elif name == ":graph":
            if arg:
                try:
                    self.session.use(arg)
                except ScriptError as e:
                    self.out.print(f"[red]{escape(str(e))}[/red]", highlight=False)
                    return True
            self.out.print(f"graph {self.session.graph}")
        elif name == ":help":
            self.out.print(HELP, markup=False, highlight=False)
        else:
            self.out.print(f"unknown command {name}; :help lists them", markup=False)
        return True

    def evaluate(self, script: str) -> None:
        started = time.perf_counter()
        try:
            results = self.session.submit(script)
        except ScriptError as e:
            self.out.print(f"[red]error:[/red] {escape(str(e))}", highlight=False)
            return
        elapsed_ms = (time.perf_counter() - started) * 1000
        if results:
            self.out.print(results_table(results))
        else:
            self.out.print("0 results", highlight=False)  # a table of no columns would print nothing
        if self.timing:
            self.out.print(f"{elapsed_ms:.1f} ms", highlight=False)


def run_console(target: str, graph: str | None = None) -> None:
    """Runs the console on `target` (a `ws://` URL or a store file) until `:quit` or Ctrl-D."""
    out = Console()
    session = open_session(target, graph)
    repl = Repl(session, out)
    prompt: PromptSession[str] = PromptSession(
        history=FileHistory(str(history_path())),
        completer=WordCompleter(step_names() + COMMANDS, pattern=_WORD),
        lexer=PygmentsLexer(GroovyLexer),
        multiline=True,
        complete_while_typing=False,  # Tab asks; a menu at every `.` hides the results
        key_bindings=_key_bindings(),
        prompt_continuation=lambda width, line, wrap: "." * (width - 1) + " ",
    )
    out.print(f"hugelite console on {session.where}, graph {session.graph}; :help for help", highlight=False)
    try:
        while True:
            try:
                text = prompt.prompt(f"gremlin@{session.graph}> ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if not text.strip():
                continue
            if text.strip().startswith(":"):
                if not repl.command(text):
                    break
                continue
            repl.evaluate(text)
    finally:
        session.close()
