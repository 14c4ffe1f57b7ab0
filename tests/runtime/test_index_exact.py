"""The fused `indexIds` read skips the property re-test only where the index decides the
condition exactly (`runtime/eq_recipe.py`): one `eq`/`within` on a SINGLE TEXT or integer
key with a secondary or unique index, values of the key's own kind (strings, integers).
Everywhere else it re-tests; both must give what the general path gives."""

from __future__ import annotations

from pathlib import Path

from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import eq_recipe
from gremlin_engine.runtime.api import read_access
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.predicates import P
from tests.runtime.conftest import modern_with, same_unfused, vertex_id

#: a label with an integer key that a SECONDARY index serves, and a DOUBLE key likewise
PLAYERS = [
    ("propertykey", {"name": "rank", "data_type": "LONG"}),
    ("propertykey", {"name": "score", "data_type": "DOUBLE"}),
    ("vertexlabel", {"name": "player", "id_strategy": "CUSTOMIZE_STRING", "properties": ["rank", "score"],
                     "nullable_keys": ["rank", "score"]}),
    ("indexlabel", {"name": "playerByRank", "base_type": "VERTEX_LABEL", "base_value": "player",
                    "index_type": "SECONDARY", "fields": ["rank"]}),
    ("indexlabel", {"name": "playerByScore", "base_type": "VERTEX_LABEL", "base_value": "player",
                    "index_type": "SECONDARY", "fields": ["score"]}),
]


def test_the_recipe_is_exact_only_for_a_lone_text_equality(modern: Graph) -> None:
    modern.schema.create("indexlabel", {"name": "personByTags", "base_type": "VERTEX_LABEL", "base_value": "person",
                                        "index_type": "SECONDARY", "fields": ["tags"], "rebuild": False})
    with read_access(modern) as access:
        schema = access.schema
        city = eq_recipe.index_recipe(schema, ["person"], (("city", P("eq", "x")),))
        assert city.exact_types == {str} and city.allowed == frozenset(city.lids)
        assert eq_recipe.index_recipe(schema, ["person"], (("city", P("within", ["x", "y"])),)).exact_types
        # a second condition, a LIST key: the rows are re-tested
        both = eq_recipe.index_recipe(schema, ["person"], (("city", P("eq", "x")), ("age", P("neq", 1))))
        assert not both.exact_types and both.condition == 0
        assert not eq_recipe.index_recipe(schema, ["person"], (("tags", P("eq", "x")),)).exact_types
        # per request: a value that is not a plain string keeps the re-test
        lookups, exact = eq_recipe.eq_lookups(city, (("city", P("within", ["Beijing", 5])),))
        assert not exact and [values for _q, values in lookups] == [["Beijing"]]
        lookups, exact = eq_recipe.eq_lookups(city, (("city", P("eq", "Beijing")),))
        assert exact and [values for _q, values in lookups] == [["Beijing"]]


def test_exact_text_lookups_match_the_general_path(modern: Graph) -> None:
    marko, josh, vadas = (vertex_id(modern, n) for n in ("marko", "josh", "vadas"))
    modern.execute("g.addV('person').property('name', 'zoe').property('city', 'Zürich ')"
                   ".addV('person').property('name', 'num').property('city', '29')")
    zoe, num = vertex_id(modern, "zoe"), vertex_id(modern, "num")
    assert same_unfused(modern, "V().has('person', 'city', 'Beijing').id()") == [marko, josh]
    assert same_unfused(modern, "V().has('person', 'city', 'beijing').id()") == []  # case counts
    assert same_unfused(modern, "V().has('person', 'city', 'Zürich ').id()") == [zoe]
    assert same_unfused(modern, "V().has('person', 'city', 'Zürich').id()") == []
    assert same_unfused(modern, "V().has('person', 'city', '29').id()") == [num]
    assert same_unfused(modern, "V().has('person', 'city', 29).id()") == []  # a number is no text
    assert same_unfused(modern, "V().has('person', 'city', within('Hongkong', 29, 'Beijing')).id()") == [
        marko, vadas, josh]
    assert same_unfused(modern, "V().has('person', 'city', within([])).id()") == []
    assert same_unfused(modern, "V().has('person', 'city', 'Beijing').has('age', neq(29)).id()") == [josh]


def test_a_list_key_index_is_re_tested(modern: Graph) -> None:
    modern.schema.create("indexlabel", {"name": "personByTags", "base_type": "VERTEX_LABEL", "base_value": "person",
                                        "index_type": "SECONDARY", "fields": ["tags"], "rebuild": False})
    modern.execute("g.addV('person').property('name', 'tagged').property(list, 'tags', 'a').property(list, 'tags', 'b')")
    tagged = vertex_id(modern, "tagged")
    assert same_unfused(modern, "V().has('person', 'tags', 'b').id()") == [tagged]
    assert same_unfused(modern, "V().has('person', 'tags', within('a', 'b', 'c')).id()") == [tagged]
    assert same_unfused(modern, "V().has('person', 'tags', 'c').id()") == []


def test_integer_keys_are_exact_and_doubles_re_tested(registry: GraphRegistry, tmp_path: Path) -> None:
    def fill(g: Graph) -> None:
        g.execute("g.addV('player').property(id, 'a').property('rank', 1).property('score', 1.5)"
                  ".addV('player').property(id, 'b').property('rank', 2).property('score', 2.0)"
                  ".addV('player').property(id, 'c').property('rank', 2).property('score', -0.0)")

    g = modern_with(registry, tmp_path, "players", PLAYERS, fill)
    with read_access(g) as access:
        rank = eq_recipe.index_recipe(access.schema, ["player"], (("rank", P("eq", 1)),))
        assert int in rank.exact_types and Long in rank.exact_types and bool not in rank.exact_types
        assert not eq_recipe.index_recipe(access.schema, ["player"], (("score", P("eq", 1.0)),)).exact_types
    assert same_unfused(g, "V().has('player', 'rank', 2).id()") == ["b", "c"]
    assert same_unfused(g, "V().has('player', 'rank', r).id()", {"r": Long(1)}) == ["a"]
    assert same_unfused(g, "V().has('player', 'rank', r).id()", {"r": Int(2)}) == ["b", "c"]
    assert same_unfused(g, "V().has('player', 'rank', within(1, 2.0, '2', true)).id()") == ["a", "b", "c"]
    assert same_unfused(g, "V().has('player', 'rank', '1').id()") == []
    assert same_unfused(g, "V().has('player', 'score', 2).id()") == ["b"]
    assert same_unfused(g, "V().has('player', 'score', 0.0).id()") == ["c"]
    assert same_unfused(g, "V().has('player', 'score', within(1.5, 2)).id()") == ["a", "b"]


def test_a_count_by_index_agrees_with_the_matches(registry: GraphRegistry, tmp_path: Path) -> None:
    """`count()` reads an index's entries alone only where they decide the condition exactly:
    NaN (equal to nothing, itself included) and -0.0 (equal to 0.0) on a DOUBLE key, and a
    value of another kind than the key's, are counted from the matching vertices."""
    def fill(g: Graph) -> None:
        g.execute("g.addV('player').property(id, 'a').property('rank', 1).property('score', x)",
                  bindings={"x": float("nan")})
        g.execute("g.addV('player').property(id, 'b').property('rank', 2).property('score', -0.0)"
                  ".addV('player').property(id, 'c').property('rank', 2).property('score', 2.0)")

    g = modern_with(registry, tmp_path, "players", PLAYERS, fill)
    cases = [("score", float("nan"), 0), ("score", 0.0, 1), ("score", 2, 1), ("rank", 2, 2),
             ("rank", 2.0, 2), ("rank", "2", 0)]
    for key, value, n in cases:
        bindings = {"k": key, "x": value}
        ids = g.execute("g.V().has('player', k, x).id()", bindings=bindings)
        assert len(ids) == n, (key, value)
        assert g.execute("g.V().has('player', k, x).count()", bindings=bindings) == [n], (key, value)
        assert g.execute("g.V().hasLabel('player').has(k, x).count()", bindings=bindings) == [n], (key, value)
