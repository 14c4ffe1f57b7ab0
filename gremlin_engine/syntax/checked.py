"""`checked(text)`: the parsed, sandbox-checked tree of a script text.

Its own module because both the interpreter and the prepared-script records
(`script_shape.py`, which the interpreter imports) need a tree on first sight of a text:
the record is then made from the text alone, with no callback handed in per call.
"""

from __future__ import annotations

import weakref
from typing import Any

from gremlin_engine.syntax import ast, sandbox
from gremlin_engine.syntax.parser import parse

#: the parsed trees the sandbox has passed, by identity: the parse cache is the one cache of
#: trees by text (bounded there), and a tree is forgotten here when it leaves that cache
_PASSED: weakref.WeakValueDictionary[int, ast.Script] = weakref.WeakValueDictionary()


def checked(text: str, cancel: Any = None) -> ast.Script:
    """The parsed, sandbox-checked tree of `text` (parsed through the parse cache, checked
    once per tree); `cancel` is polled while parsing."""
    tree = parse(text, cancel)
    if _PASSED.get(id(tree)) is not tree:
        sandbox.check(tree)
        _PASSED[id(tree)] = tree
    return tree
