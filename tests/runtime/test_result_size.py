"""Results that share nested collections: `fold()` of `union(identity(), identity())`
nested n deep holds 2n lists in memory and 2**n leaves once written out. The engine's
result path (`materialize.load_results`, which every run passes before a serializer sees
the results) visits each collection once and refuses, by `MAX_RESULT_BYTES`, results a
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
from gremlin_engine.structure.result_size import check_result_size, written_size
from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.ir import TraversalIR, anonymous

TOO_LARGE = r"too large to send: .*MAX_RESULT_BYTES \(67,108,864 bytes; HUGELITE_MAX_RESULT_MB\), counting a value shared N times N times"


def doubled(depth: int) -> list:
    """`[x, x]` nested `depth` deep: 2**depth leaves, `depth` lists."""
    x: list = [1, 1]
    for _ in range(depth - 1):
        x = [x, x]
    return x


def repeat_fold(times: int) -> TraversalIR:
    body = anonymous().then("union", anonymous().then("identity"), anonymous().then("identity")).then("fold")
    return TraversalIR().then("inject", 1).then("repeat", body).then("times", times)


def test_written_size_counts_shared_values_in_full() -> None:
    assert written_size(doubled(3), {}, 1000) == 8 * 8 + 7 * 4  # 8 numbers, 7 lists of two
    assert written_size({"a": [1, 2], "b": []}, {}, 1000) == 6 + 2 * 4 + 20 + 2  # braces, two keys, a list, an empty one
    assert written_size(doubled(60), {}, 1000) == 1001  # stops counting past the cap
    looped: list = [1]
    looped.append(looped)
    assert written_size(looped, {}, 50) == 51  # a list holding itself never ends
    text = "x" * 1000
    assert written_size([text] * 100, {}, 10**9) == 100 * 1003 + 102  # one string, written 100 times


def test_results_are_weighed_once_per_collection() -> None:
    started = time.monotonic()
    assert elements_in([doubled(20)]) == []
    check_result_size([doubled(20)])  # 2**20 numbers: ~13 MB, within the bound
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        check_result_size([doubled(26)])
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        check_result_size([doubled(200)])
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        check_result_size(iter([{"k": doubled(30)}]))  # any iterable
    with pytest.raises(LimitExceeded, match=TOO_LARGE):
        check_result_size([["x" * 655_360] * 1024])  # one string held 1,024 times: 671 MB written out
    shared = [1, 2]
    check_result_size([[shared, shared], {"a": shared}])  # shared, and small: answered
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
    monkeypatch.setattr(limits, "MAX_RESULT_BYTES", 10_000)
    assert modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(9).unfold().count()") == [2]
    with pytest.raises(LimitExceeded, match=r"MAX_RESULT_BYTES \(10,000 bytes"):
        modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(11)")
    with pytest.raises(LimitExceeded, match=r"MAX_RESULT_BYTES \(10,000 bytes"):
        modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(11).dedup()")
    assert modern.execute("g.inject(1).repeat(union(identity(), identity()).fold()).times(9).dedup().count()") == [1]


def test_elements_weigh_their_properties_each_time_they_are_written() -> None:
    from gremlin_engine.structure.elements import Edge, Vertex, VertexProperty

    v = Vertex(1, "person", props={"name": [VertexProperty("1>name", "name", "x" * 1000)]})
    assert 1000 < written_size(v, {}, 10**9) < 1200
    assert written_size([v] * 100, {}, 10**9) > 100 * 1000  # one vertex, written 100 times
    listed = Vertex(2, "person", props={"tags": [VertexProperty("2>tags", "tags", ["y" * 500] * 4)]})
    assert written_size(listed, {}, 10**9) > 2000  # a list property: the general walk
    e = Edge("e1", "knows", v, listed, props={"note": "z" * 300})
    assert 300 < written_size(e, {}, 10**9) < 500  # its ends by id only


def test_a_nested_listing_weighs_each_id_and_name_as_written() -> None:
    """A traverser's answer, `{"vertices": [ids]}`: each id within 64 bits a number (8), each
    text its length and quotes, one separator each; a number past 64 bits weighs its digits;
    lists of anything else weigh item by item as before."""
    from gremlin_engine.structure.numbers import Long

    ids = [Long(i) for i in range(10)]
    assert written_size({"vertices": ids}, {}, 10_000) == 4 + 11 + 2 + 9 * 10
    assert written_size(["ab", "cde"], {}, 10_000) == 2 + 2 + (2 + 3) + 3 * 2
    assert written_size((), {}, 10_000) == 2
    big = [1, 2**70]
    assert written_size(big, {}, 10_000) == 2 + 2 + 8 + (2**70).bit_length() // 3 + 1
    assert written_size([1, "a", 2.5], {}, 10_000) == 2 + 3 + 8 + 4 + 8
    assert written_size([True, False], {}, 10_000) == 2 + 2 + 16  # booleans are not ids
    count = {"vertices_size": Long(10),
             "measure": {"edge_iterations": 10, "vertice_iterations": 1, "cost(ns)": 91034}}
    measure = 2 + 5 * 3 + len("edge_iterations") + len("vertice_iterations") + len("cost(ns)") + 3 * 8
    assert written_size(count, {}, 10_000) == 2 + 5 * 2 + len("vertices_size") + len("measure") + 8 + measure
    assert written_size({"a": {"b": {"c": 1}}}, {}, 10_000) == 8 + 8 + 16  # deeper maps: the walk, alike
    assert written_size({"a": [1, [2]], "b": None}, {}, 10_000) == 2 + 10 + 2 + (2 + 2 + 8 + (2 + 1 + 8)) + 8
    assert written_size({"vertices": list(range(100))}, {}, 50) == 51  # past the cap: cap + 1
    assert written_size([list(range(100))], {}, 50) == 51
    shared = list(range(50))  # one list under every key: counted each time, weighed once
    wide = {f"k{i}": shared for i in range(40)}
    keys = sum(len(f"k{i}") for i in range(40))
    assert written_size(wide, {}, 10**6) == 2 + 5 * 40 + keys + 40 * (2 + 50 + 8 * 50)
    check_result_size([wide] * 3)
    # the bound: 18 + 9 per id, exactly
    for n in (10, 1000):
        listing = [{"vertices": [Long(i) for i in range(n)]}]
        old = limits.MAX_RESULT_BYTES
        try:
            limits.MAX_RESULT_BYTES = 18 + 9 * n
            check_result_size(listing)
            limits.MAX_RESULT_BYTES = 17 + 9 * n
            with pytest.raises(LimitExceeded):
                check_result_size(listing)
        finally:
            limits.MAX_RESULT_BYTES = old
