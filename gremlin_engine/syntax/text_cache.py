"""A least-recently-used cache keyed by script text, bounded in entries and in characters.

Why not `functools.lru_cache`: it bounds entries only, and a script may be up to a million
characters (`parser.MAX_SCRIPT_CHARS`) whose AST takes ~30 bytes a character, so 2,048
remembered bulk-load scripts could hold gigabytes for good. Clients that send scripts with
inlined values (no bindings) send a new text every time, so nothing would ever evict them
before the entry count filled up. This cache also counts the characters it keeps, evicts the
least recently used texts past its budget, and never keeps a text longer than
`max_text_chars` (such a script is rarely sent twice and would flush the small ones).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

V = TypeVar("V")


class CacheInfo(NamedTuple):
    """`functools.lru_cache`'s fields, plus the characters held."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    chars: int


class TextCache(Generic[V]):
    """`get(text, make)`: the remembered value for `text`, else `make(text)` remembered."""

    def __init__(self, max_entries: int, max_chars: int, max_text_chars: int) -> None:
        self.max_entries = max_entries
        self.max_chars = max_chars
        self.max_text_chars = max_text_chars
        self._entries: OrderedDict[str, V] = OrderedDict()
        self._chars = 0
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()

    def get(self, text: str, make: Callable[[str], V]) -> V:
        # the hit path takes no lock: a dict read is atomic, and the recency update is
        # best-effort (a concurrent eviction of the same text only costs a re-parse later)
        value = self._entries.get(text)
        if value is not None:
            self._hits += 1
            try:
                self._entries.move_to_end(text)
            except KeyError:
                pass
            return value
        value = make(text)  # may raise: nothing is remembered then
        self._misses += 1
        if len(text) <= self.max_text_chars:
            with self._lock:
                if text not in self._entries:
                    self._entries[text] = value
                    self._chars += len(text)
                    while len(self._entries) > self.max_entries or self._chars > self.max_chars:
                        old, _ = self._entries.popitem(last=False)
                        self._chars -= len(old)
        return value

    def info(self) -> CacheInfo:
        return CacheInfo(self._hits, self._misses, self.max_entries, len(self._entries), self._chars)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._chars = 0
            self._hits = self._misses = 0
