"""The Gremlin/Groovy-subset grammar and its loaded LALR parser.

This package holds data (`gremlin.lark`) plus the two small pieces of lexical machinery the
grammar needs: the newline post-lexer and the parser loader. It imports nothing of ours, so
any layer may use it; `gremlin_engine/syntax/parser.py` turns its trees into the script AST.

The parser is built once per process (`load_parser()` is a singleton) and Lark's own
`cache=True` keeps the LALR tables on disk between processes, so start-up stays cheap.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

from lark import Lark, Token

GRAMMAR_DIR = Path(__file__).resolve().parent
GRAMMAR_FILE = GRAMMAR_DIR / "gremlin.lark"

# fmt: off
_OPEN = {"LPAR", "LSQB", "LBRACE"}
_CLOSE = {"RPAR", "RSQB", "RBRACE"}
# A newline after one of these cannot end a statement: the expression goes on.
_CONTINUES = {
    "DOT", "COMMA", "EQUAL", "COLON", "OROR", "ANDAND", "COMPARE", "PLUS", "MINUS", "STAR",
    "SLASH", "PERCENT", "BANG", "DEF", "NEW", "ARROW",
}
# fmt: on


class NewlinePostLex:
    """Decides which newlines separate statements.

    Groovy ends a statement at a newline unless the expression obviously goes on. We keep
    the NL token only at bracket depth 0 and after a token that can end an expression. (A
    newline before a line starting with `.` is no NL token at all: the grammar's lexer
    ignores it, since a post-lexer cannot look ahead under the contextual lexer.)"""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        last_type = None
        for tok in stream:
            t = tok.type
            if t == "_NL":
                if depth > 0 or last_type is None or last_type in _CONTINUES or last_type == "_NL":
                    continue
            elif t in _OPEN:
                depth += 1
            elif t in _CLOSE:
                depth = max(0, depth - 1)
            last_type = t
            yield tok


_lock = threading.Lock()
_parser: Lark | None = None


def build_parser(*, strict: bool = False, cache: bool = True) -> Lark:
    """A new LALR parser over `gremlin.lark` (tests build one with `strict=True`)."""
    return Lark.open(
        str(GRAMMAR_FILE),
        parser="lalr",
        lexer="contextual",
        postlex=NewlinePostLex(),
        propagate_positions=True,
        maybe_placeholders=False,
        strict=strict,
        cache=cache and not strict,
    )


def load_parser() -> Lark:
    """The process-wide parser (built on first use; Lark parsers are thread-safe to share)."""
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                _parser = build_parser()
    return _parser


__all__ = ["GRAMMAR_DIR", "GRAMMAR_FILE", "NewlinePostLex", "build_parser", "load_parser"]
