"""Every regular expression a client gives the product is compiled here, by RE2.

Why RE2 (google-re2): Python's `re` and Java's `java.util.regex` match by backtracking, so
one pattern such as `^(a?){9}(a?){9}(a?){9}a{14}$`, or `.*.*.*x` on a long value, holds the
process for seconds to minutes, and `re.search` cannot be interrupted by a deadline. RE2
runs in time linear in the text (and in the pattern), in memory bounded by `MAX_MEMORY`,
so no pattern shape needs to be refused for its running time. The hand-written shape guard
that used to stand here is gone with the backtracking engine.

The price is the Java-regex features RE2 does not have. A pattern using one is refused with
a `StepArgumentError` (400 over REST, 597 over the WebSocket) naming the feature:
backreferences (`\\1`, `\\k<name>`), lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`),
atomic groups (`(?>`), possessive quantifiers (`a*+`), conditionals and recursion, and the
escapes `\\Z`, `\\G`, `\\R`, `\\X`, `\\h`, `\\e`, `\\cX`, `\\uXXXX` (write `\\x{XXXX}`).
Semantics otherwise follow RE2's syntax (https://github.com/google/re2/wiki/Syntax):
`\\d`, `\\w`, `\\s` are ASCII, as in Java without UNICODE_CHARACTER_CLASS.

Users: `TextP.regex`/`notRegex` predicates, however they are made (scripts, bytecode, the
REST property conditions that build predicates); there is no `=~` in the Groovy subset.
"""

from __future__ import annotations

import re  # our own fixed patterns over RE2's error messages, never a client's
from functools import lru_cache

import re2

from gremlin_engine.errors import StepArgumentError

#: the longest pattern accepted: RE2's matching time grows with text length times pattern size
MAX_REGEX_CHARS = 1000
#: memory one compiled pattern (program and DFA cache) may use; past it RE2 falls back to a
#: slower, still linear, matcher, and a pattern whose program alone exceeds it is refused
MAX_MEMORY = 1 << 20
#: compiled patterns kept (each at most MAX_MEMORY)
CACHE_SIZE = 64

#: (RE2 message fragment, feature name) in the order they are tried
_FEATURES: tuple[tuple[str, str], ...] = (
    ("invalid perl operator: (?=", "lookahead (?=...)"),
    ("invalid perl operator: (?!", "negative lookahead (?!...)"),
    ("invalid perl operator: (?<=", "lookbehind (?<=...)"),
    ("invalid perl operator: (?<!", "negative lookbehind (?<!...)"),
    ("invalid perl operator: (?>", "atomic group (?>...)"),
    ("invalid perl operator: (?(", "conditional (?(...)...)"),
    ("invalid escape sequence: \\k", "named backreference \\k<name>"),
    ("invalid escape sequence: \\Z", "\\Z (write \\z)"),
    ("invalid escape sequence: \\G", "\\G (end of the previous match)"),
    ("invalid escape sequence: \\R", "\\R (write (?:\\r\\n|[\\n\\r]))"),
    ("invalid escape sequence: \\X", "\\X (grapheme cluster)"),
    ("invalid escape sequence: \\h", "\\h (write [ \\t])"),
    ("invalid escape sequence: \\u", "\\uXXXX (write \\x{XXXX})"),
    ("invalid escape sequence: \\c", "control escape \\cX (write \\x{..})"),
    ("invalid escape sequence: \\e", "\\e (write \\x1B)"),
)


class Regex:
    """A compiled client pattern: `search(text)` is Java's `Matcher.find()`."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str, compiled: re2._Regexp) -> None:
        self.pattern = pattern
        self._compiled = compiled

    def search(self, text: str) -> bool:
        return self._compiled.search(text) is not None

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


def compile_pattern(pattern: str) -> Regex:
    """The pattern compiled by RE2, or a `StepArgumentError` a person can act on."""
    if len(pattern) > MAX_REGEX_CHARS:
        raise StepArgumentError(
            f"regex pattern is too long ({len(pattern)} characters, MAX_REGEX_CHARS is {MAX_REGEX_CHARS})"
        )
    return _compile(pattern)


@lru_cache(maxsize=CACHE_SIZE)
def _compile(pattern: str) -> Regex:
    options = re2.Options()
    options.max_mem = MAX_MEMORY
    options.log_errors = False
    options.never_capture = True  # only whether it matches is asked
    try:
        return Regex(pattern, re2.compile(pattern, options))
    except re2.error as exc:
        raise StepArgumentError(_message(pattern, _re2_message(exc))) from None


def _re2_message(exc: re2.error) -> str:
    raw = exc.args[0] if exc.args else ""
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)


def _message(pattern: str, problem: str) -> str:
    feature = _feature(problem)
    if feature:
        return (
            f"regex feature not supported: {feature} (hugelite uses RE2, linear time; "
            f"rewrite the pattern '{pattern}' without it)"
        )
    if "pattern too large" in problem:
        return (
            f"regex '{pattern}' is too large to compile within MAX_MEMORY "
            f"({MAX_MEMORY >> 10} KiB); simplify its repetitions"
        )
    return f"invalid regex '{pattern}': {problem}"


def _feature(problem: str) -> str:
    for fragment, name in _FEATURES:
        if problem.startswith(fragment):
            return name
    backref = re.match(r"invalid escape sequence: \\([1-9])", problem)
    if backref:
        return f"backreference \\{backref.group(1)}"
    possessive = re.match(r"bad repetition operator: (\S*\+)$", problem)
    if possessive:
        return f"possessive quantifier {possessive.group(1)}"
    if problem.startswith("invalid perl operator: (?"):
        return f"group flag or operator {problem.removeprefix('invalid perl operator: ')}"
    return ""
