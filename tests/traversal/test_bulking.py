"""Bulk merging (barrier, repeat), sack merging, local() and bulk, dedup inside repeat."""

from __future__ import annotations

from gremlin_engine.traversal.tokens import Barrier, Column, Operator, Scope

from .gremlin import __, g
from .helpers import r
from .memory_access import MemoryGraph


def _chain(n: int) -> MemoryGraph:
    """A complete bipartite 'ladder': every walk of length k has 2**k variants."""
    m = MemoryGraph()
    for i in range(n * 2):
        m.add_vertex("v", i)
    for level in range(n - 1):
        for a in (2 * level, 2 * level + 1):
            for b in (2 * level + 2, 2 * level + 3):
                m.add_edge("e", m._vertex(a), m._vertex(b))
    return m


def test_repeat_frontier_is_bulk_merged():
    graph = _chain(30)
    # 2 ** 29 walks reach each end vertex; without merging this would never finish
    assert r(g.V(0, 1).repeat(__.out()).times(29).count(), graph) == [2 * 2**29 * 2 // 2]


def test_repeat_with_path_merges_only_walks_of_equal_paths():
    """With path() read, a level is merged on whole paths: on the ladder every walk of 5
    steps takes its own path (2**5 per start, 64 paths), none merged; two parallel edges
    between the same vertices give walks of equal paths, merged into one of bulk 2."""
    ladder = _chain(6)
    paths = r(g.V(0, 1).repeat(__.out()).times(5).path(), ladder)
    assert len(paths) == 64 and len({tuple(v.id for v in p.objects) for p in paths}) == 64
    twice = MemoryGraph()
    a, b = twice.add_vertex("v", "a"), twice.add_vertex("v", "b")
    twice.add_edge("e", a, b)
    twice.add_edge("e", a, b)
    twice.add_edge("e", b, a)
    walks = r(g.V("a").repeat(__.out()).times(3).path().by(__.id()), twice)
    assert [list(p.objects) for p in walks] == [["a", "b", "a", "b"]] * 4  # 2 x 1 x 2 edges
    assert r(g.V("a").repeat(__.out()).times(3).path().count(), twice) == [4]


def test_a_path_thousands_of_entries_long_is_merged_level_by_level():
    """The merge key of a whole path is built entry by entry as the path grows, in a loop:
    a path of 3,001 entries (deeper than Python's recursion limit) is merged at each level."""
    cycle = MemoryGraph()
    a, b = cycle.add_vertex("v", "a"), cycle.add_vertex("v", "b")
    cycle.add_edge("e", a, b)
    cycle.add_edge("e", b, a)
    assert r(g.V("a").repeat(__.out()).times(3000).path().count(Scope.local), cycle) == [3001]


def test_barrier_merges_and_count_honours_bulk(graph):
    merged = list(r(g.V().out().barrier().groupCount().by("name"), graph)[0].items())
    assert dict(merged)["lop"] == 3
    assert r(g.V().in_().barrier().local(__.count()), graph) == [1] * 6  # local sees one walk


def test_sack_merge_in_barrier_and_without_bulk(graph):
    assert sorted(r(g.withSack(1, Operator.sum).V().out().barrier().sack(), graph)) == [1, 1, 1, 3, 3, 3]
    assert sorted(r(g.withBulk(False).withSack(1, Operator.sum).V().out().barrier().sack(), graph)) == [1, 1, 1, 3]
    normed = r(g.withSack(1.0, Operator.sum).V(1).local(__.out("knows").barrier(Barrier.normSack)).in_("knows").barrier().sack(), graph)
    assert normed == [1.0, 1.0]


def test_dedup_state_survives_repeat_iterations(graph):
    assert r(g.V().repeat(__.dedup().both()).times(2), graph) == []
    assert len(r(g.V().emit().repeat(__.dedup()).times(2), graph)) == 12


def test_unfold_of_a_map_gives_entries(graph):
    entries = r(g.V(1).valueMap("name").unfold(), graph)
    assert entries == [{"name": ["marko"]}]
    assert r(g.V(1).valueMap("name").unfold().select(Column.values), graph) == [["marko"]]
    assert r(g.V(1).valueMap("name").unfold().select(Column.keys), graph) == ["name"]


def test_union_branches_with_barriers_see_every_traverser(graph):
    out = r(g.V(1, 2).union(__.outE().count(), __.inE().count()), graph)
    assert out == [3, 1]


def test_group_values_follow_first_result_rules(graph):
    from .gremlin import P as Pred

    assert r(g.V().group().by(__.values("name").substring(0, 1)).by(__.constant(1)), graph) == [
        {"m": 1, "v": 1, "l": 1, "j": 1, "r": 1, "p": 1}]
    firsts = r(g.V().group().by("name").by(__.out().fold().count(Scope.local).is_(Pred.gt(0))), graph)
    assert firsts == [{"marko": 3, "josh": 2, "peter": 1}]
    assert r(g.V(1).group().by("name").by("age"), graph) == [{"marko": [29]}]


def test_group_count_side_effect_is_a_barrier(graph):
    assert r(g.V().groupCount("a").select("a").count(Scope.local), graph) == [6] * 6


def test_lazy_barrier_windows_keep_results(graph):
    plain = sorted(v.id for v in r(g.V().out().out(), graph, strategies=False))
    assert sorted(v.id for v in r(g.V().out().out(), graph)) == plain == [3, 5]
    assert r(g.V().both().both().count(), graph) == [30]
