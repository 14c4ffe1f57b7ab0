"""Refuses `TextP.regex` patterns that can backtrack catastrophically, before they run.

Python's `re` matches by backtracking and cannot be interrupted: `(a+)+$` against forty
`a`s and a `!` holds the GIL for longer than any evaluation timeout, and the traversal's
CancelToken is never polled while `re.search` runs. So the script language refuses, with a
message naming the pattern, the classic exponential shapes:

* an unbounded or large quantifier inside any repeated group (`(a+)+`, `(a*b?)*`,
  `(\\w+\\s?)+`, `(.*){1,20}`);
* a quantified alternation whose branches can start with the same character
  (`(a|a)*`, `(a|ab)+`).

Polynomial shapes in sequence (`.*.*x`) remain and are not small: `re.search` tries every
start, so `.*.*x` on a 2,000-character string takes seconds and `.*.*.*x` minutes. Closing
that needs a linear-time engine in `traversal/predicates.py` (RE2), not a pattern check.
Java's regex engine, which HugeGraph uses, backtracks the same way, so a pattern refused
here would be a denial of service there too.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.syntax import ast
from gremlin_engine.syntax.sandbox import where

#: the longest regular expression a script may use
MAX_REGEX_CHARS = 1000
#: a repeat counts as "large" past this many iterations (`a{1,20}` stays harmless)
_LARGE_REPEAT = 20

_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT}
_ANY_START = object()  # a first-character set that may be any character


def check(args: tuple[Any, ...], pos: ast.Pos) -> None:
    """Raises `StepArgumentError` naming a pattern that may backtrack catastrophically."""
    for pattern in args:
        if not isinstance(pattern, str):
            continue
        if len(pattern) > MAX_REGEX_CHARS:
            raise StepArgumentError(
                f"regex pattern is too long ({len(pattern)} characters, MAX_REGEX_CHARS is {MAX_REGEX_CHARS})"
                + where(pos)
            )
        try:
            parsed = sre_parse.parse(pattern)
        except (re.error, RecursionError, OverflowError):
            continue  # the predicate reports an invalid pattern itself
        problem = _problem(list(parsed), inside_repeat=False)
        if problem:
            raise StepArgumentError(
                f"regex {pattern!r} is refused: {problem}, which can take exponential time "
                "(rewrite the pattern without it)" + where(pos)
            )


def _problem(items: list[Any], inside_repeat: bool) -> str:
    for op, av in items:
        if op in _REPEATS or op is getattr(sre, "POSSESSIVE_REPEAT", None):
            lo, hi, body = av
            large = hi is sre.MAXREPEAT or hi > _LARGE_REPEAT
            possessive = op not in _REPEATS
            if large and inside_repeat and not possessive:
                return "a repeated group contains another unbounded repetition"
            if hi is sre.MAXREPEAT or hi > 1:
                # `(.*){1,20}` is polynomial of degree 20: any outer repetition counts
                found = _problem(list(body), inside_repeat=not possessive)
                if not found and large and not possessive:
                    found = _branch_overlap(list(body))
                if found:
                    return found
            else:
                found = _problem(list(body), inside_repeat)
                if found:
                    return found
        elif op is sre.SUBPATTERN:
            found = _problem(list(av[-1]), inside_repeat)
            if found:
                return found
        elif op is sre.BRANCH:
            for branch in av[1]:
                found = _problem(list(branch), inside_repeat)
                if found:
                    return found
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            found = _problem(list(av[1]), inside_repeat)
            if found:
                return found
    return ""


def _branch_overlap(items: list[Any]) -> str:
    """A repeated body that is (or holds) an alternation whose branches share a first char."""
    for op, av in items:
        if op is sre.SUBPATTERN:
            found = _branch_overlap(list(av[-1]))
            if found:
                return found
        elif op is sre.BRANCH:
            seen: list[Any] = []
            for branch in av[1]:
                first = _first(list(branch))
                if any(_overlaps(first, other) for other in seen):
                    return "a repeated alternation has branches that can match the same text"
                seen.append(first)
    return ""


def _first(items: list[Any]) -> Any:
    """The characters a sequence can start with: a set of code points, or `_ANY_START`."""
    for op, av in items:
        if op is sre.LITERAL:
            return {av}
        if op is sre.SUBPATTERN:
            return _first(list(av[-1]))
        if op in (sre.AT,):
            continue  # anchors match no character
        return _ANY_START
    return _ANY_START  # an empty branch matches anything's start


def _overlaps(a: Any, b: Any) -> bool:
    if a is _ANY_START or b is _ANY_START:
        return True
    return bool(a & b)
