"""The Gremlin/Groovy-subset grammar and its loaded LALR parser.

This package holds data (`gremlin.lark`) plus the two small pieces of lexical machinery the
grammar needs: the newline post-lexer and the parser loader. It imports nothing of ours, so
any layer may use it; `gremlin_engine/syntax/parser.py` turns its trees into the script AST.

The parser is built once per process, on the first script that needs parsing
(`load_parser()` is a singleton), and Lark keeps the built parser on disk between processes
(`parser_cache_file()`): loading it costs ~0.8 MiB of peak RSS and milliseconds, building it
~4.7 MiB and most of a second.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import lark
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


#: the shape a script may have, checked token by token before any tree is built (so a
#: hostile script costs one linear lexer pass, never a quadratic parse or a deep recursion):
#: brackets open at once, unary operators in a row, binary operators in one expression,
#: and `.member` links in one expression (one traversal chain)
MAX_BRACKET_DEPTH = 200
MAX_UNARY_RUN = 32
MAX_OPERATORS = 250
MAX_CHAIN_LINKS = 5000
#: tokens in one script: Lark parses ~25-50k tokens a second on one core, and parsing runs
#: before the evaluation timeout starts counting, so this bounds a script's parse to seconds
MAX_SCRIPT_TOKENS = 100_000

#: tokens between two polls of the caller's deadline (`polling`)
POLL_EVERY = 4096

_local = threading.local()


@contextmanager
def polling(poll: Callable[[], None] | None) -> Iterator[None]:
    """Runs the parses of this thread with `poll` called every `POLL_EVERY` tokens: a
    caller's deadline check, which ends a long parse by raising (parsing 100,000 tokens
    takes seconds, and the evaluation timeout has started by then)."""
    before = getattr(_local, "poll", None)
    _local.poll = poll
    try:
        yield
    finally:
        _local.poll = before


_BINARY = {"OROR", "ANDAND", "COMPARE", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT"}
_UNARY = {"PLUS", "MINUS", "BANG"}
# after one of these an operator is unary (`(-1)`, `x = -1`, `1 - -1`, `f(!x)`)
_OPERAND_EXPECTED = _OPEN | _BINARY | {"BANG", "COMMA", "EQUAL", "COLON", "_NL", "SEMICOLON", "ARROW", None}
# these end an expression at the current bracket depth: its counts start again
_EXPRESSION_ENDS = {"COMMA", "COLON", "_NL", "SEMICOLON", "EQUAL", "ARROW"}


class ScriptShapeError(ValueError):
    """A script past one of the shape bounds above; `line`/`column` point at the token."""

    def __init__(self, message: str, line: int | None, column: int | None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class NewlinePostLex:
    """Decides which newlines separate statements, and bounds the script's shape.

    Groovy ends a statement at a newline unless the expression obviously goes on. We keep
    the NL token only at bracket depth 0 and after a token that can end an expression. (A
    newline before a line starting with `.` is no NL token at all: the grammar's lexer
    ignores it, since a post-lexer cannot look ahead under the contextual lexer.)

    The same pass enforces the `MAX_*` bounds: LALR parsing itself is iterative, but the
    tree-to-AST transform and the interpreter recurse once per nesting level, Lark builds
    a flat repetition by copying it (quadratic in its length), and a traversal's IR grows
    by one copy per step. Every one of those costs is bounded here, before it is paid."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        last_type = None
        unary_run = 0
        # per open bracket level: [binary operators, chain links] of the current expression
        counts = [[0, 0]]
        seen = 0
        poll = getattr(_local, "poll", None)
        for tok in stream:
            seen += 1
            if seen > MAX_SCRIPT_TOKENS:
                raise _too(tok, f"more than {MAX_SCRIPT_TOKENS:,} tokens")
            if poll is not None and not seen % POLL_EVERY:
                poll()
            t = tok.type
            if t == "_NL":
                if depth > 0 or last_type is None or last_type in _CONTINUES or last_type == "_NL":
                    continue
            elif t in _OPEN:
                depth += 1
                if depth > MAX_BRACKET_DEPTH:
                    raise _too(tok, f"brackets are nested too deeply (more than {MAX_BRACKET_DEPTH} open at once)")
                counts.append([0, 0])
            elif t in _CLOSE:
                depth = max(0, depth - 1)
                if len(counts) > 1:
                    counts.pop()
            if t in _UNARY and last_type in _OPERAND_EXPECTED:
                unary_run += 1
                if unary_run > MAX_UNARY_RUN:
                    raise _too(tok, f"more than {MAX_UNARY_RUN} unary operators in a row")
            else:
                unary_run = 0
                if t in _BINARY:
                    counts[-1][0] += 1
                    if counts[-1][0] > MAX_OPERATORS:
                        raise _too(tok, f"more than {MAX_OPERATORS} operators in one expression")
                elif t == "DOT":
                    counts[-1][1] += 1
                    if counts[-1][1] > MAX_CHAIN_LINKS:
                        raise _too(tok, f"more than {MAX_CHAIN_LINKS} steps or members in one chain")
                elif t in _EXPRESSION_ENDS:
                    counts[-1] = [0, 0]
            last_type = t
            yield tok


def _too(tok: Token, what: str) -> ScriptShapeError:
    return ScriptShapeError(f"script is too complex: {what}", tok.line, tok.column)


_lock = threading.Lock()
_parser: Lark | None = None


#: overrides where the built parser is kept between processes (see `parser_cache_file`)
CACHE_DIR_ENV = "HUGELITE_CACHE_DIR"


def cache_dir() -> Path:
    """`$HUGELITE_CACHE_DIR`, else `$XDG_CACHE_HOME/hugelite`, else `~/.cache/hugelite`."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hugelite"


def parser_cache_file() -> Path | None:
    """The file the built parser is kept in between processes, or None to build in memory.

    Why not Lark's `cache=True`: that writes a pickle into the shared temporary folder under
    a name anyone can compute, so another local user could plant the file Lark then
    unpickles. A user's own cache folder is theirs (created 0700). The name carries the
    grammar text's hash and the Lark and Python versions, so checkouts with different
    grammars keep files of their own instead of rebuilding over each other's (Lark also
    checks a hash inside the file and rebuilds on a mismatch). Where the folder cannot be
    made or written, and no file is there to read, the parser is built in memory."""
    key = hashlib.sha256(GRAMMAR_FILE.read_bytes()).hexdigest()[:16]
    folder = cache_dir()
    path = folder / f"gremlin-{key}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.parser"
    if path.is_file() and os.access(path, os.R_OK | os.W_OK):
        return path
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(folder, os.W_OK | os.X_OK) else None


def build_parser(*, strict: bool = False, cache: bool = True) -> Lark:
    """A new LALR parser over `gremlin.lark` (tests build one with `strict=True`); with
    `cache`, loaded from (or saved to) `parser_cache_file()`."""
    cache_file = parser_cache_file() if cache and not strict else None
    return Lark.open(
        str(GRAMMAR_FILE),
        parser="lalr",
        lexer="contextual",
        postlex=NewlinePostLex(),
        propagate_positions=True,
        maybe_placeholders=False,
        strict=strict,
        cache=str(cache_file) if cache_file is not None else False,
    )


def load_parser() -> Lark:
    """The process-wide parser (built on first use; Lark parsers are thread-safe to share)."""
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                _parser = build_parser()
    return _parser


__all__ = [
    "CACHE_DIR_ENV",
    "GRAMMAR_DIR",
    "GRAMMAR_FILE",
    "MAX_BRACKET_DEPTH",
    "MAX_CHAIN_LINKS",
    "MAX_OPERATORS",
    "MAX_SCRIPT_TOKENS",
    "MAX_UNARY_RUN",
    "NewlinePostLex",
    "ScriptShapeError",
    "build_parser",
    "cache_dir",
    "load_parser",
    "parser_cache_file",
    "polling",
]
