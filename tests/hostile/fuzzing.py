"""Shared pieces of the fuzz suites (issue 16): hypothesis profiles, hostile values, the checks.

The suites run in `make test`, so their budget is fixed and their examples reproducible:
the `fuzz` profile derandomizes (the same examples on every run, no example database) and
each test asks for a small `max_examples`. `HYPOTHESIS_PROFILE=long` runs the same tests
with ten times the examples and fresh randomness, by hand, to find more:

    HYPOTHESIS_PROFILE=long .venv/bin/python -m pytest tests/hostile -k fuzz -p no:cacheprovider

Only the fuzz tests read the profile (through `fuzz_settings`), so the other hypothesis
tests of the suite keep their own settings.

Hostile values are the kinds a careless or hostile client sends in place of the spec's:
wrong JSON types, integers past 64 bits, NaN and infinities, control characters, unicode
beyond the BMP, empty and long strings, lists where scalars are expected, deep nesting.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "fuzz",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
settings.register_profile("long", parent=settings.get_profile("fuzz"), derandomize=False)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "fuzz")
SCALE = 10 if PROFILE == "long" else 1


def fuzz_settings(max_examples: int) -> settings:
    """The suite's settings for one test: the chosen profile with this test's budget."""
    name = PROFILE if PROFILE in ("fuzz", "long") else "fuzz"
    return settings(settings.get_profile(name), max_examples=max_examples * SCALE)


# ---- hostile values -------------------------------------------------------------------
#: strings that have broken parsers elsewhere: control characters, NUL, bidi overrides,
#: astral code points, quoting and template syntax, numbers as text, id syntax
NASTY_STRINGS = [
    "", " ", "\x00", "a\x00b", "\x01\x1f\x7f", "\r\n", "\t", "\u202e", "\ufeff", "😀", "\U0010ffff",
    "'", '"', "\\", "\\u0000", "%s%n", "${x}", "#{1}", "*", "?", "..", "../../etc/passwd", "null",
    "true", "NaN", "-1", "0", "1", "1.5", "1e999", "9" * 40, "-" + "9" * 40, "1:marko", "2:lop",
    "S1:marko", "L1", "~", "person", "software", "knows", "created", "name", "age",
    "marko", "OUT", "IN", "BOTH", "out", "NONE", "INCR", "SUM", "OVERRIDE", "SECONDARY", "TEXT",
]
HUGE_INTS = [2**31, 2**31 - 1, -(2**31), 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64,
             10**30, -(10**30), 2**200]

short_text = st.text(max_size=12)
#: long strings are built, not listed: a listed one would be in the repr of every strategy
long_text = st.integers(min_value=1000, max_value=5000).map(lambda n: "a" * n)
any_text = st.one_of(short_text, st.sampled_from(NASTY_STRINGS), long_text,
                     st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
numbers = st.one_of(
    st.integers(min_value=-5, max_value=20),
    st.integers(),
    st.sampled_from(HUGE_INTS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), -0.0, 1e308, 5e-324]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, any_text)


def deep(depth: int, leaf: Any = 1) -> Any:
    """A value nested DEPTH levels of lists and objects deep, built without recursion."""
    value: Any = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"a": value}
    return value


nested = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)
hostile = st.one_of(scalars, nested, st.sampled_from([deep(64), deep(200), [], {}, [[]], [None]]))

#: bodies no JSON encoder writes: nesting past any recursion limit, truncated or invalid
#: JSON, invalid UTF-8, a BOM, a lone surrogate escape, an integer of 5,000 digits
RAW_BODIES = [
    b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000, b"[" * 100_000, b"{", b'{"label":',
    b"\xff\xfe\x00", b"\xef\xbb\xbf{}", b'{"label": "\\ud800"}', b'"\\udbab\\ude92"', b"9" * 5000,
    b'{"properties": {"name": ' + b"9" * 5000 + b"}}", b"NaN", b"[NaN, Infinity, -Infinity]", b"\x00", b" ",
]


class Raw(bytes):
    """A body sent as these bytes, not encoded as JSON."""

    def __repr__(self) -> str:
        return f"Raw({bytes(self[:60])!r}... {len(self)} bytes)"


raw_bodies = st.sampled_from([Raw(b) for b in RAW_BODIES])


def maybe(good: st.SearchStrategy[Any], bad_share: int = 1) -> st.SearchStrategy[Any]:
    """The spec's kind of value most of the time, a hostile one otherwise."""
    return st.one_of(*([good] * 4), *([hostile] * bad_share))


def body_of(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """A JSON body shaped like the spec's object (any subset of its fields, each maybe hostile,
    sometimes an extra key), or now and then a hostile value in place of the whole object."""
    shaped = st.fixed_dictionaries({}, optional={k: maybe(v) for k, v in fields.items()})
    extra = st.dictionaries(any_text, hostile, max_size=2)
    combined = st.builds(lambda a, b: {**b, **a}, shaped, extra)
    return st.one_of(shaped, shaped, shaped, shaped, combined, hostile, raw_bodies)


def params_of(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, str]]:
    """Query parameters: each field maybe present, as its text, or a hostile value's text."""
    as_text = st.one_of(st.sampled_from(NASTY_STRINGS), any_text, numbers.map(str),
                        nested.map(lambda v: json.dumps(v, allow_nan=True)))
    return st.fixed_dictionaries({}, optional={k: st.one_of(v.map(_text), v.map(_text), as_text)
                                               for k, v in fields.items()})


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value).lower()
    return json.dumps(value, allow_nan=True)


def encode(body: Any) -> bytes:
    """JSON as a careless client writes it: NaN and Infinity literals included."""
    if isinstance(body, Raw):
        return bytes(body)
    # a Raw nested in a shaped body goes as the string of its first bytes
    return json.dumps(body, allow_nan=True, default=lambda raw: raw[:200].decode("latin-1")).encode("utf-8")


# ---- the checks -----------------------------------------------------------------------
#: words of a Python error message that a person using the REST interface cannot act on
PYTHON_INTERNALS = re.compile(
    r"Traceback|unhashable type|object has no attribute|object is not (subscriptable|iterable|callable)"
    r"|NoneType|takes \d+ positional|unexpected keyword argument|not supported between instances"
    r"|can only concatenate|must be str, not|int_max_str_digits|sqlite3\.|sqlalchemy|\bKeyError\b"
    r"|\bTypeError\b|\bValueError\b|\bAttributeError\b|\bRecursionError\b|\bIndexError\b"
)


def request_once_more(http: httpx.Client, method: str, url: str, **kw: Any) -> httpx.Response:
    """The request, sent again once on a fresh connection if the first went unanswered.

    A kept-alive connection that the server closed as idle (while hypothesis was generating
    or shrinking) resets the next request written on it: a race of HTTP/1.1 keep-alive, not
    a server failure. A second unanswered request is one (the caller's check then fails).
    """
    try:
        return http.request(method, url, **kw)
    except httpx.TransportError:
        pass
    try:
        return http.request(method, url, **kw)
    except httpx.TransportError as exc:
        raise AssertionError(f"{method} {url} -> no answer, twice: {exc!r}") from None


def describe(request: str, response: httpx.Response) -> str:
    return f"{request} -> {response.status_code} {response.text[:600]}"


#: set FUZZ_COLLECT=FILE to append every failure to FILE and go on (exploring by hand)
COLLECT = os.environ.get("FUZZ_COLLECT")


def check_rest(response: httpx.Response, request: str) -> None:
    """No 5xx; every error is HugeGraph's JSON body with a message a person can read."""
    if COLLECT:
        with open(COLLECT + ".log", "a") as out:
            out.write(f"{response.status_code} {describe(request, response)[:300]!r}\n")
        try:
            _check_rest(response, request)
        except AssertionError as failure:
            with open(COLLECT, "a") as out:
                out.write(f"{failure}\n")
        return
    _check_rest(response, request)


def _check_rest(response: httpx.Response, request: str) -> None:
    assert response.status_code < 500, describe(request, response)
    if response.status_code < 400:
        return
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"error body is not JSON: {describe(request, response)}") from None
    assert isinstance(body, dict), describe(request, response)
    assert {"exception", "message", "cause"} <= body.keys(), describe(request, response)
    message = body["message"]
    assert isinstance(message, str) and message.strip(), describe(request, response)
    assert not PYTHON_INTERNALS.search(message), f"Python internals in the message: {describe(request, response)}"
