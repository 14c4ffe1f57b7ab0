"""What `SeedStrategy` needs to give TinkerGraph's exact answers: java.util.Random's
generator, and the order a Java HashMap visits its keys (which decides which group's
random draws come first).

TinkerPop's random steps (`coin`, `sample`) each hold a `java.util.Random` that
`SeedStrategy(seed: n)` re-seeds with `setSeed(n)`. Its algorithm is specified in the
Java SE API documentation (and in Knuth, TAOCP vol. 2, 3.2.1): a 48-bit linear congruential
generator with multiplier 0x5DEECE66D and addend 0xB, the seed scrambled by XOR with the
multiplier; `next(bits)` returns the top `bits` of the state as a signed 32-bit int;
`nextDouble()` joins 26 and 27 bits into a 53-bit fraction; `nextInt(bound)` takes 31 bits,
multiplying for a power of two and otherwise rejecting the values that would bias `% bound`.
Reproducing it (rather than seeding Python's Mersenne Twister) is what makes a seeded
traversal answer what the TinkerPop corpus expects.

`group().by(k).by(<traversal with sample()>)`: TinkerGraph runs each group's value traversal
when it reduces its `HashMap` of groups, all groups' clones sharing one `Random`, so the
draws go to the groups in the map's iteration order: by bucket (`(h ^ h >>> 16) & (capacity
- 1)` over `hashCode()`, capacity 16 doubling past 3/4 full), then insertion order.
`hashmap_order` gives that order for string and integer keys (Java's `String.hashCode` and
`Integer`/`Long.hashCode` are specified); any other key keeps insertion order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1


def _int32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


class JavaRandom:
    """The state and draws of one `java.util.Random`."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        self._seed = (int(seed) ^ _MULTIPLIER) & _MASK

    def next(self, bits: int) -> int:
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        return _int32(self._seed >> (48 - bits))

    def next_double(self) -> float:
        return ((self.next(26) << 27) + self.next(27)) * (1.0 / (1 << 53))

    def next_int(self, bound: int) -> int:
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:  # a power of two: the high bits are the better ones
            return _int32((bound * self.next(31)) >> 31)
        while True:
            bits = self.next(31)
            val = bits % bound
            if _int32(bits - val + (bound - 1)) >= 0:
                return val


def java_hash(key: Any) -> int | None:
    """`key.hashCode()` for a Java String, Integer or Long; None for anything else."""
    if isinstance(key, str):
        data = key.encode("utf-16-be", "surrogatepass")
        h = 0
        for i in range(0, len(data), 2):  # over UTF-16 code units, as Java's String does
            h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
        return _int32(h)
    if isinstance(key, int) and not isinstance(key, bool):
        if -(2**31) <= key < 2**31:
            return int(key)
        v = int(key) & 0xFFFFFFFFFFFFFFFF
        return _int32(v ^ (v >> 32))
    return None


def hashmap_order(keys: Sequence[Any]) -> list[int]:
    """Indexes of `keys` (in insertion order) in the order a java.util.HashMap holding them
    iterates; insertion order when a key has no Java hash here."""
    hashes = [java_hash(k) for k in keys]
    if any(h is None for h in hashes):
        return list(range(len(keys)))
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2

    def bucket(i: int) -> int:
        h = (hashes[i] or 0) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)

    return sorted(range(len(keys)), key=lambda i: (bucket(i), i))
