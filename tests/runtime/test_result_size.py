"""Results that share nested collections: `fold()` of `union(identity(), identity())`
nested n deep holds 2n lists in memory and 2**n leaves once written out. The engine's
result path (`materialize.load_results`, which every run passes before a serializer sees
the results) visits each collection once and refuses, by `MAX_RESULT_SIZE`, results a
serializer would write out too large: for traversals from bytecode and REST as for
scripts. Grouping keys of such values (`hashable`) are built once per distinct collection."""

from __future__ import annotations

import time

import pytest

from gremlin_engine import limits
from gremlin_engine.errors import LimitExceeded
from gremlin_engine.graph import Graph
from gremlin_engine.runtime import api
from gremlin_engine.runtime.materialize import elements_in
from gremlin_engine.structure.result_size import expanded_size
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.ir import TraversalIR, anonymous

TOO_LARGE = r"too large to send: .*MAX_RESULT_SIZE \(10,000,000\) items, counting shared ones in full"


def doubled(depth: int) -> list:
    """`[x, x]` nested `depth` deep: 2**depth leaves, `depth` lists."""
    x: list = [1, 1]
    for _ in range(depth - 1):
        x = [x, x]
    return x


def repeat_fold(times: int) -> TraversalIR:
    body = anonymous().then("union", anonymous().then("identity"), anonymous().then("identity")).then("fold")
    return TraversalIR().then("inject", 1).then("repeat", body).then("times", times)


def test_expanded_size_counts_shared_collections_in_full() -> None:
    assert expanded_size(doubled(3), {}, 100) == 8
    assert expanded_size({"a": [1, 2], "b": []}, {}, 100) == 5  # two keys, two items, an empty list as 1
    assert expanded_size(doubled(60), {}, 1000) == 1001  # stops counting past the cap
    looped: list = [1]
    looped.append(looped)
    assert expanded_size(looped, {}, 50) == 51  # a list holding itself never ends


def test_elements_in_visits_each_collection_once() -> None:
    started = time.monotonic()
    assert elements_in([doubled(20)]) == []  # 2**20 leaves: within the bound
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        elements_in([doubled(26)])
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        elements_in([doubled(200)])
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        elements_in(iter([{"k": doubled(30)}]))  # any iterable, walked twice
    shared = [1, 2]
    assert elements_in([[shared, shared], {"a": shared}]) == []  # shared, and small: answered
    assert time.monotonic() - started < 5


def test_hashable_keys_each_shared_collection_once() -> None:
    started = time.monotonic()
    key = hashable(doubled(60))
    assert hash(key) == hash(key)
    assert hashable(doubled(3)) == ("__list__", (("__list__", (("__list__", (1, 1)),) * 2),) * 2)
    assert hash(hashable(doubled(3))) == hash(("__list__", (("__list__", (("__list__", (1, 1)),) * 2),) * 2))
    assert time.monotonic() - started < 5


def test_a_traversal_result_is_bounded_like_a_scripts(modern: Graph) -> None:
    assert api.run_traversal(modern, repeat_fold(3)) == [doubled(3)]
    started = time.monotonic()
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        api.run_traversal(modern, repeat_fold(26), timeout_ms=60_000)
    stream = api.iterate_traversal(modern, repeat_fold(26), timeout_ms=60_000)
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        list(stream)
    assert time.monotonic() - started < 20
    assert api.run_traversal(modern, TraversalIR().then("V").then("count")) == [6]


def test_scripts_and_their_traversals_meet_the_same_bound(modern: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_RESULT_SIZE", 1000)
    assert modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(9).unfold().count()") == [2]
    with pytest.raises(LimitExceeded, match=r"MAX_RESULT_SIZE \(1,000\) items"):
        modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(11)")
    with pytest.raises(LimitExceeded, match=r"MAX_RESULT_SIZE \(1,000\) items"):
        modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(11).dedup()")
    assert modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(9).dedup().count()") == [1]
