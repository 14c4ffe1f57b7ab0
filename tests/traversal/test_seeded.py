"""SeedStrategy: java.util.Random reproduced, and seeded coin/sample/shuffle answering the
same on every run (the compile cache shares steps between runs, never their random state)."""

from __future__ import annotations

import pytest

from gremlin_engine.graph import GraphConfig, GraphRegistry
from gremlin_engine.traversal.seeded import JavaRandom, hashmap_order, java_hash

NAMES = ["josh", "lop", "marko", "peter", "ripple", "vadas"]


def test_java_random_known_values() -> None:
    # values any JVM prints for these seeds (java.util.Random's specified LCG)
    r = JavaRandom(42)
    assert [r.next_int(10), r.next_int(10)] == [0, 3]
    assert JavaRandom(42).next(32) == -1170105035  # new Random(42).nextInt()
    assert JavaRandom(0).next_double() == pytest.approx(0.730967787376657, abs=1e-15)
    r = JavaRandom(7)
    assert all(0 <= r.next_int(b) < b for b in (1, 2, 3, 16, 1000, 2**30 + 1) for _ in range(50))


def test_java_string_hash_and_hashmap_order() -> None:
    assert java_hash("hello") == 99162322 and java_hash("") == 0
    assert java_hash(-1) == -1 and java_hash(2**40) == (2**40 >> 32)
    # TinkerGraph reduces group() in HashMap order: "software" (bucket 4) before "person" (6)
    assert hashmap_order(["person", "software"]) == [1, 0]
    assert hashmap_order(["person", object()]) == [0, 1]  # no Java hash: insertion order


@pytest.fixture
def g():
    graph = GraphRegistry().create(GraphConfig(name="s", backend="memory", schema_mode="auto"))
    for i, name in enumerate(NAMES):
        list(graph.execute(f"g.addV('person').property('name', '{name}').property('age', {20 + i})", {}))
    return graph


def run(graph, script: str) -> list:
    return list(graph.execute(script, {}))


SEEDED = "g.withStrategies(new SeedStrategy(seed: 999999)).V().order().by('name')"


def test_seeded_coin_is_tinkergraphs_and_repeatable(g) -> None:
    # draws 0.378, 0.794, 0.887, 0.617, 0.783, 0.653: only the first is <= 0.5
    for _ in range(3):
        assert run(g, SEEDED + ".coin(0.5).values('name')") == ["josh"]


def test_seeded_sample_local_removes_at_next_int(g) -> None:
    # TinkerPop's SampleLocalStep: the same three names on every run
    first = run(g, SEEDED + ".values('name').fold().sample(Scope.local, 3)")
    assert first == run(g, SEEDED + ".values('name').fold().sample(Scope.local, 3)")
    assert len(first[0]) == 3 and set(first[0]) <= set(NAMES)


def test_seeded_sample_and_shuffle_repeat_across_runs(g) -> None:
    sample = SEEDED + ".sample(2).by('age').values('name')"
    shuffle = "g.withStrategies(new SeedStrategy(seed: 5)).V().values('name').order().by(Order.shuffle)"
    assert len(run(g, sample)) == 2
    assert run(g, sample) == run(g, sample)
    assert run(g, shuffle) == run(g, shuffle) and sorted(run(g, shuffle)) == NAMES


def test_seed_must_be_a_number(g) -> None:
    with pytest.raises(Exception, match="seed is a long"):
        run(g, "g.withStrategies(new SeedStrategy(seed: 'x')).V().coin(0.5)")
