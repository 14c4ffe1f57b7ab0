"""The script language: Gremlin/Groovy-subset text -> AST (`parse`) -> run (`interpret`).

`parse` is pure and cached by text; `interpret` walks the AST against a `ScriptHost`
(host.py), the only way a script reaches a graph."""

from __future__ import annotations

from gremlin_engine.syntax.checked import checked
from gremlin_engine.syntax.interpreter import interpret
from gremlin_engine.syntax.parser import parse

__all__ = ["checked", "interpret", "parse"]
