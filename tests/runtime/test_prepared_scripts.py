"""Prepared scripts (syntax/script_shape.py, in the registry's prepared-traversal cache):
one-traversal scripts are prepared once per text, name classes and binding types, and a call
binds its values. Every answer is compared with the interpreter's own (no cache)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gremlin_engine.errors import GremlinSyntaxError
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.prepared import REFUSED, Prepared, PreparedCache


@pytest.fixture(autouse=True)
def _fresh(registry: GraphRegistry) -> Iterator[None]:
    registry.prepared.clear()
    yield
    registry.prepared = PreparedCache()


def _both(graph: Graph, script: str, bindings: dict[str, Any] | None = None, **kw: Any) -> Any:
    """The answer through the prepared cache, checked equal to the interpreter's answer."""
    registry = graph.registry
    assert registry is not None
    cache, registry.prepared = registry.prepared, None  # type: ignore[assignment]
    try:
        plain = graph.execute(script, bindings=bindings, **kw)
    finally:
        registry.prepared = cache
    fast = graph.execute(script, bindings=bindings, **kw)
    assert fast == plain
    again = graph.execute(script, bindings=bindings, **kw)  # now from the cache
    assert again == plain
    return fast


def _entries(graph: Graph, script: str) -> list[Any]:
    assert graph.registry is not None
    # a text's prepared entries live on its record (`script_shape.ScriptText.entries`)
    return [v for k, text in graph.registry.prepared.entries() if k[0] == "script shape" and k[1] == script
            for v in text.entries.values()]


def _entry(graph: Graph, script: str) -> Any:
    found = _entries(graph, script)
    assert len(found) == 1
    return found[0]


def _ids(graph: Graph, *names: str) -> list[Any]:
    return [graph.execute("g.V().has('name', n).id()", bindings={"n": n})[0] for n in names]


def test_point_lookup_binds_each_call(modern: Graph) -> None:
    ids = _ids(modern, "marko", "vadas", "lop")
    script = "g.V(vid).values('name')"
    for vid, name in zip(ids, ["marko", "vadas", "lop"], strict=True):
        assert _both(modern, script, {"vid": vid}) == [name]
    entry = _entry(modern, script)
    assert isinstance(entry, Prepared) and entry.traversal is not None  # compiled once, bound per call
    assert entry.names == ("vid",)
    assert _both(modern, script, {"vid": "no such id"}) == []


def test_has_value_and_hops_and_terminals(modern: Graph) -> None:
    marko = _ids(modern, "marko")[0]
    assert _both(modern, "g.V().has('person', 'name', name).values('age')", {"name": "josh"}) == [32]
    assert sorted(_both(modern, "g.V(vid).out('knows').values('name')", {"vid": marko})) == ["josh", "vadas"]
    assert _both(modern, "g.V(vid).out().count().next()", {"vid": marko}) == [Long(3)]
    assert _both(modern, "g.V(vid).out().limit(n).count().toList()", {"vid": marko, "n": 2}) == [Long(2)]
    assert _both(modern, "g.V(vid).values('name').iterate()", {"vid": marko}) == []
    assert _both(modern, "g.V(vid).valueMap('name', 'age')", {"vid": marko}) == [{"name": ["marko"], "age": [29]}]
    assert _both(modern, "g.V().hasLabel('person').order().by('age', desc).limit(1).values('name')") == ["peter"]
    assert _both(modern, "g.V(vid).values('age').next()", {"vid": marko}, as_value=True) == 29
    assert _entry(modern, "g.V(vid).out().count().next()").traversal is not None
    # a binding outside the IR's slot positions (`limit(n)`): the entry keeps the IR only
    limited = _entry(modern, "g.V(vid).out().limit(n).count().toList()")
    assert limited.traversal is None and limited.ir is not None


def test_several_bindings_in_one_step_and_in_several_steps(modern: Graph) -> None:
    a, b = _ids(modern, "marko", "josh")
    script = "g.V(x, y).has('person', 'age', age).values('name')"
    assert _both(modern, script, {"x": a, "y": b, "age": 32}) == ["josh"]
    assert _both(modern, script, {"x": a, "y": b, "age": 29}) == ["marko"]
    assert _entry(modern, script).names == ("x", "y", "age")


def test_binding_values_pass_untouched_lists_and_elements(modern: Graph) -> None:
    ids = _ids(modern, "marko", "vadas")
    assert sorted(_both(modern, "g.V(ids).values('name')", {"ids": ids})) == ["marko", "vadas"]
    v = modern.execute("g.V(vid)", bindings={"vid": ids[0]})[0]
    assert _both(modern, "g.V(v).values('name')", {"v": v}) == ["marko"]
    assert _both(modern, "g.inject(x)", {"x": [1, 2]}) == [[1, 2]]


def test_a_binding_named_like_the_source_or_a_token_is_not_reused(modern: Graph) -> None:
    script = "g.V().hasLabel('person').order().by('age', desc).limit(1).values('age')"
    assert _both(modern, script) == [35]
    # `desc` bound: the interpreter passes the binding, and so must we (a new classification)
    with pytest.raises(Exception):  # noqa: B017 - the step refuses a str as an order
        modern.execute(script, bindings={"desc": "nope"})
    with pytest.raises(Exception):  # noqa: B017 - `g` bound to a number is not a source
        modern.execute("g.V(vid)", bindings={"g": 1, "vid": 1})
    assert _both(modern, script) == [35]


def test_bindings_inside_predicates_nested_traversals_and_lists_take_the_interpreter(modern: Graph) -> None:
    cases = [
        ("g.V().has('age', gt(a)).values('name')", {"a": 30}),
        ("g.V().where(__.has('name', n)).values('age')", {"n": "josh"}),
        ("g.V().has('name', within([n, 'x'])).values('age')", {"n": "josh"}),
        ("g.withSideEffect('s', n).V().limit(1).values('name')", {"n": 1}),
    ]
    for script, bindings in cases:
        _both(modern, script, bindings)
        assert _entry(modern, script) is REFUSED


def test_scripts_that_are_not_one_traversal_take_the_interpreter(modern: Graph) -> None:
    for script, bindings in [
        ("x = 1; g.V(vid).values('name')", {"vid": 1}),
        ("1 + n", {"n": 2}),
        ("g.inject(datetime()).count()", {}),
        ("graph.traversal().V().count()", {}),
        ("g", {}),
    ]:
        _both(modern, script, bindings)
        assert all(v is REFUSED for v in _entries(modern, script))


def test_mutable_constants_are_never_shared(modern: Graph) -> None:
    first = modern.execute("g.inject([1, 2])")
    first[0].append(3)
    assert modern.execute("g.inject([1, 2])") == [[1, 2]]
    assert _entry(modern, "g.inject([1, 2])") is REFUSED


def test_aliases_and_other_graphs(registry: GraphRegistry, modern: Graph) -> None:
    script = "g.V().has('name', n).values('age')"
    assert registry.execute(script, {"n": "vadas"}, {"g": "__g_hugegraph"}, graph="hugegraph") == [27]
    assert registry.execute("__g_hugegraph.V().has('name', n).values('age')", {"n": "peter"}) == [35]
    # no default graph and no alias: `g` is unbound, the interpreter names the error
    with pytest.raises(GremlinSyntaxError):
        registry.execute(script, {"n": "vadas"})


def test_errors_are_the_interpreters(modern: Graph) -> None:
    with pytest.raises(GremlinSyntaxError):
        modern.execute("g.V(vid).values('name')")  # vid unbound
    registry = modern.registry
    assert registry is not None
    cache = registry.prepared
    for prepared in (None, cache, cache):
        registry.prepared = prepared  # type: ignore[assignment]
        with pytest.raises(Exception) as info:
            modern.execute("g.V(vid).noSuchStep()", bindings={"vid": 1})
        if prepared is None:
            plain = (type(info.value), str(info.value))
        assert (type(info.value), str(info.value)) == plain


def test_writes_through_a_prepared_script(modern: Graph) -> None:
    script = "g.addV('person').property('name', n).property('age', a).values('name')"
    assert modern.execute(script, bindings={"n": "t1", "a": 40}) == ["t1"]
    assert modern.execute(script, bindings={"n": "t2", "a": 41}) == ["t2"]
    assert modern.execute("g.V().has('person', 'name', n).values('age')", bindings={"n": "t2"}) == [41]
    assert isinstance(_entry(modern, script), Prepared)


def test_binding_types_key_their_own_entries(modern: Graph) -> None:
    """`vid` bound to a str and to a number are two entries, each answering as the
    interpreter does (a Long never finds a string id, nor the other way round)."""
    marko = _ids(modern, "marko")[0]
    script = "g.V(vid).values('name')"
    assert _both(modern, script, {"vid": marko}) == ["marko"]
    assert _both(modern, script, {"vid": 12345}) == []
    assert _both(modern, script, {"vid": Long(12345)}) == []
    assert len(_entries(modern, script)) == 3


def test_graphs_coming_and_going_clear_the_cache(registry: GraphRegistry, modern: Graph) -> None:
    """A script entry records which graph its names resolved to: creating or dropping a
    graph forgets every entry, so no entry outlives the graph it names."""
    from gremlin_engine.graph import GraphConfig

    modern.execute("g.V(vid).values('name')", bindings={"vid": 1})
    assert len(registry.prepared) > 0
    registry.create(GraphConfig(name="another", backend="memory", schema_mode="auto"))
    assert len(registry.prepared) == 0
    assert registry.execute("g.addV('x').property('n', v).values('n')", {"v": 7}, {"g": "__g_another"}) == [7]
    assert len(registry.prepared) > 0
    registry.drop("another")
    assert len(registry.prepared) == 0
    with pytest.raises(Exception):  # noqa: B017 - the graph is gone: its source no longer resolves
        registry.execute("g.V().count()", {}, {"g": "__g_another"})
