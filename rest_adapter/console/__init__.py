"""`hugelite console`: an interactive Gremlin console, on a server or on a store file in-process."""

from __future__ import annotations

from rest_adapter.console.repl import run_console
from rest_adapter.console.sessions import ConsoleError

__all__ = ["ConsoleError", "run_console"]
