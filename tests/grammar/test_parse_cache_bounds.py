"""The parse cache is bounded in entries and in characters (`syntax/text_cache.py`)."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import GremlinSyntaxError
from gremlin_engine.syntax import ast, parser
from gremlin_engine.syntax.text_cache import TextCache


def _made(calls: list[str]) -> object:
    def make(text: str) -> str:
        calls.append(text)
        return text.upper()
    return make


def test_entries_past_the_count_evict_the_least_recently_used() -> None:
    calls: list[str] = []
    cache: TextCache[str] = TextCache(max_entries=2, max_chars=1000, max_text_chars=100)
    make = _made(calls)
    assert cache.get("a", make) == "A" and cache.get("b", make) == "B"  # type: ignore[arg-type]
    assert cache.get("a", make) == "A"  # type: ignore[arg-type]  # a is now the most recent
    cache.get("c", make)  # type: ignore[arg-type]  # evicts b
    assert calls == ["a", "b", "c"]
    cache.get("a", make)  # type: ignore[arg-type]
    cache.get("b", make)  # type: ignore[arg-type]
    assert calls == ["a", "b", "c", "b"]
    info = cache.info()
    assert (info.hits, info.misses, info.currsize, info.chars) == (2, 4, 2, 2)


def test_characters_past_the_budget_evict_and_long_texts_are_never_kept() -> None:
    calls: list[str] = []
    cache: TextCache[str] = TextCache(max_entries=100, max_chars=10, max_text_chars=6)
    make = _made(calls)
    for text in ("aaaa", "bbbb", "cccc"):  # 12 characters > 10: aaaa goes
        cache.get(text, make)  # type: ignore[arg-type]
    assert cache.info().chars == 8 and cache.info().currsize == 2
    cache.get("aaaa", make)  # type: ignore[arg-type]
    assert calls.count("aaaa") == 2
    assert cache.get("x" * 7, make) == "X" * 7  # type: ignore[arg-type]
    assert cache.get("x" * 7, make) == "X" * 7  # type: ignore[arg-type]
    assert calls.count("x" * 7) == 2 and "x" * 7 not in cache._entries


def test_a_failure_is_not_remembered() -> None:
    cache: TextCache[str] = TextCache(4, 100, 100)
    tries: list[int] = []

    def make(text: str) -> str:
        tries.append(1)
        raise ValueError(text)

    for _ in range(2):
        with pytest.raises(ValueError):
            cache.get("bad", make)
    assert len(tries) == 2 and cache.info().currsize == 0


def test_parse_remembers_short_scripts_and_reparses_long_ones() -> None:
    parser.clear_cache()
    short = "g.V().has('name', 'x').count()"
    first = parser.parse(short)
    assert isinstance(first, ast.Script) and parser.parse(short) is first
    assert parser.cache_info().chars == len(short)
    long = "g.V(" + ", ".join(str(i) for i in range(parser.CACHE_MAX_TEXT // 5)) + ").count()"
    assert len(long) > parser.CACHE_MAX_TEXT
    one, two = parser.parse(long), parser.parse(long)
    assert one is not two and one == two
    info = parser.cache_info()
    assert info.currsize == 1 and info.chars == len(short)
    with pytest.raises(GremlinSyntaxError):
        parser.parse("g.V(")
    assert parser.cache_info().currsize == 1
