"""`parse(text) -> Script`: Gremlin/Groovy-subset text to the script AST, cached by text.

Errors come out as `GremlinSyntaxError` with line, column and a two-line context snippet
(the offending line and a caret), never as Lark exceptions. Parsed scripts are immutable,
so the LRU cache can hand the same `Script` to every thread that runs the same text (the
common case for a server: clients send the same few queries with different bindings). The
cache is bounded in entries and in characters (`text_cache.py`): scripts with inlined values
are a new text each time, and must not pile up.
"""

from __future__ import annotations

import re
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

import grammar
from gremlin_engine.errors import GremlinError, GremlinSyntaxError
from gremlin_engine.syntax import ast
from gremlin_engine.syntax.build import AstBuilder
from gremlin_engine.syntax.literals import LiteralError
from gremlin_engine.syntax.text_cache import CacheInfo, TextCache

CACHE_SIZE = 2048
#: characters of script text the parse cache keeps at most (an AST takes ~30 bytes a
#: character, so ~30 MiB at worst; 2,048 typical scripts are far below it)
CACHE_CHARS = 1_000_000
#: a longer script is parsed each time it comes, never remembered (`text_cache.py`)
CACHE_MAX_TEXT = 65_536
MAX_SCRIPT_CHARS = 1_000_000

_builder = AstBuilder()

# Friendlier words for the terminals Lark names in "expected ..." lists.
_TERMINAL_WORDS = {
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "LSQB": "'['",
    "RBRACE": "'}'",
    "LBRACE": "'{'",
    "COMMA": "','",
    "DOT": "'.'",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "EQUAL": "'='",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "$END": "end of script",
    "_NL": "a newline",
    "ARROW": "'->'",
    "AT": "'@'",
}


def parse(text: str, cancel: Any = None) -> ast.Script:
    """Parses a script (cached by its exact text, within the cache's bounds). With a
    `CancelToken`, a long parse polls it (`grammar.polling`) and ends by its deadline."""
    if len(text) > MAX_SCRIPT_CHARS:
        raise GremlinSyntaxError(f"script is too long ({len(text)} characters, limit {MAX_SCRIPT_CHARS})")
    if cancel is None:
        return _cache.get(text, _parse_text)
    return _cache.get(text, lambda t: _parse_polled(t, cancel))


def _parse_polled(text: str, cancel: Any) -> ast.Script:
    with grammar.polling(cancel.check):
        return _parse_text(text)


def _parse_text(text: str) -> ast.Script:
    parser = grammar.load_parser()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(text, e) from None
    except grammar.ScriptShapeError as e:  # the post-lexer's bounds (grammar/__init__.py)
        raise GremlinSyntaxError(str(e), e.line, e.column, _snippet(text, e.line, e.column)) from None
    except LiteralError as e:  # raised by a lexer callback, should one be added
        raise GremlinSyntaxError(str(e)) from None
    try:
        return _builder.transform(tree)
    except RecursionError:
        raise GremlinSyntaxError("script is nested too deeply") from None
    except VisitError as e:
        orig = e.orig_exc
        where = getattr(e.obj, "meta", None)
        line = getattr(where, "line", None) if where is not None and not where.empty else None
        col = getattr(where, "column", None) if line is not None else None
        if line is None:
            tok = _first_token(e.obj)
            line, col = (tok.line, tok.column) if tok is not None else (None, None)
        if isinstance(orig, LiteralError):
            raise GremlinSyntaxError(str(orig), line, col, _snippet(text, line, col)) from None
        if isinstance(orig, GremlinError):
            raise orig from None
        # not one of ours: Python's text would name interpreter internals, the place is enough
        raise GremlinSyntaxError(
            "cannot read script: this part cannot be read", line, col, _snippet(text, line, col)
        ) from None


def _first_token(obj: object) -> object:
    from lark import Token, Tree

    if isinstance(obj, Token):
        return obj
    if isinstance(obj, Tree):
        for child in obj.children:
            tok = _first_token(child)
            if tok is not None:
                return tok
    return None


def _snippet(text: str, line: int | None, column: int | None) -> str:
    if line is None:
        return ""
    lines = text.splitlines() or [""]
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    col = max(1, column or 1)
    start = max(0, col - 1 - 60)
    return src[start : col - 1 + 60] + "\n" + " " * (col - 1 - start) + "^"


def _syntax_error(text: str, e: UnexpectedInput) -> GremlinSyntaxError:
    line, col = e.line, e.column
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        message = "unexpected end of script" + _expected(e)
    elif isinstance(e, UnexpectedToken):
        message = f"unexpected {_describe(e.token)}" + _expected(e)
    elif isinstance(e, UnexpectedCharacters):
        message = (
            f"unexpected character {text[e.pos_in_stream]!r}"
            if e.pos_in_stream < len(text)
            else "unexpected input"
        )
    else:  # pragma: no cover - every UnexpectedInput is one of the above
        message = "syntax error"
    hint = _hint(text, e)
    if hint:
        message += f" ({hint})"
    snippet = _snippet(text, line, col) if line and line > 0 else ""
    return GremlinSyntaxError(
        message, line if line and line > 0 else None, col if line and line > 0 else None, snippet
    )


def _describe(tok: object) -> str:
    value = str(tok)
    if getattr(tok, "type", "") == "_NL":
        return "newline"
    return f"{value!r}"


def _expected(e: UnexpectedInput) -> str:
    expected = sorted({_TERMINAL_WORDS.get(x, x) for x in (getattr(e, "expected", None) or ()) if x != "_NL"})
    if not expected or len(expected) > 6:
        return ""
    return "; expected " + ", ".join(expected)


def _hint(text: str, e: UnexpectedInput) -> str:
    """Names the unsupported Groovy construct that most likely caused a parse error."""
    pos = getattr(e, "pos_in_stream", None)
    if pos is None and isinstance(e, UnexpectedToken):
        pos = e.token.start_pos
    if pos is None:
        pos = len(text)
    before = _strip_strings(text[:pos])
    if before.count("{") > before.count("}"):
        return "closures are not supported: '{...}' is only a set literal such as {1, 2}"
    tail = text[pos : pos + 2]
    if tail.startswith("?.") or tail.startswith("*."):
        return f"the Groovy operator '{tail}' is not supported"
    if ".." in text[max(0, pos - 1) : pos + 2]:
        return "ranges are not supported"
    if tail.startswith("?") or tail.startswith(":"):
        return "the ternary operator is not supported"
    statement = re.split(r"[;\n]", before)[-1]
    keyword = re.match(
        r"\s*(if|else|for|while|do|switch|try|catch|class|interface|return|throw)\b", statement
    )
    if keyword:
        return f"'{keyword.group(1)}' statements are not supported"
    return ""


def _strip_strings(text: str) -> str:
    return re.sub(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"", "''", text)


_cache: TextCache[ast.Script] = TextCache(CACHE_SIZE, CACHE_CHARS, CACHE_MAX_TEXT)


def cache_info() -> CacheInfo:
    return _cache.info()


def clear_cache() -> None:
    _cache.clear()
