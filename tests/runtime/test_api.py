"""End to end: script text and IR through interpreter, traversal machine, runtime, storage."""

from __future__ import annotations

import threading

import pytest

from gremlin_engine.errors import GremlinError, IllegalArgument, TraversalTimeout, UnsupportedSyntax
from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import api, intent
from gremlin_engine.runtime.host import GraphRef, NoSuchElement
from gremlin_engine.structure.elements import Edge, Vertex
from gremlin_engine.structure.numbers import Long
from gremlin_engine.syntax import parse
from gremlin_engine.traversal.ir import TraversalIR, anonymous


def run(graph: Graph, script: str, **kw) -> list:
    return graph.execute(script, **kw)


def test_the_classic_query(modern: Graph) -> None:
    assert run(modern, "g.V().has('name','marko').out('knows').values('name')") == ["vadas", "josh"]
    assert run(modern, "g.V().hasLabel('person').has('age', gt(30)).values('name').toList()") == ["josh", "peter"]
    count = run(modern, "g.V().count()")
    assert count == [6] and type(count[0]) is Long


def test_results_are_loaded_after_the_transaction(modern: Graph) -> None:
    (v,) = run(modern, "g.V('1:marko')")
    assert isinstance(v, Vertex) and v.loaded and v.value("city") == "Beijing"
    edges = run(modern, "g.V('1:marko').outE('created')")
    assert all(isinstance(e, Edge) and e.loaded for e in edges) and edges[0].value("weight") == 0.4
    paths = run(modern, "g.V('1:marko').out('knows').path()")
    assert all(o.loaded for p in paths for o in p.objects)
    grouped = run(modern, "g.V().hasLabel('software').group().by('lang')")
    assert all(v.loaded for entry in grouped for vs in entry.values() for v in vs)


def test_aliases_and_graph_names(registry: GraphRegistry, modern: Graph) -> None:
    assert registry.execute("g.V().count()", aliases={"g": "__g_hugegraph"}) == [6]
    assert registry.execute("g.V().count()", aliases={"g": "hugegraph"}) == [6]
    assert registry.execute("graph.vertices('2:lop')", aliases={"graph": "hugegraph"})[0].id == "2:lop"
    assert registry.execute("__g_hugegraph.E().count()") == [6]
    assert registry.execute("hugegraph.traversal().V().hasLabel('software').count()") == [2]
    assert registry.execute("hugegraph") == [GraphRef("hugegraph")]
    with pytest.raises(GremlinError):
        registry.execute("g.V().count()")  # no default graph and no alias: `g` is unbound


def test_bindings(modern: Graph) -> None:
    assert run(modern, "g.V(x).values('age')", bindings={"x": "1:josh"}) == [32]
    assert run(modern, "g.V().has('name', n).count()", bindings={"n": "lop"}) == [1]


def test_terminals(modern: Graph) -> None:
    assert run(modern, "g.V().hasLabel('software').values('name').next()") == ["lop"]
    assert run(modern, "g.V().values('name').next(2)") == ["marko", "vadas"]
    assert run(modern, "g.V().has('name','nobody').hasNext()") == [False]
    assert run(modern, "g.V().has('name','nobody').tryNext()") == [None]
    assert run(modern, "g.V().hasLabel('software').values('lang').toSet()") == ["java"]
    assert run(modern, "g.V().drop().iterate(); g.V().count()") == [0]
    with pytest.raises(NoSuchElement):
        run(modern, "g.V().has('name','nobody').next()")


def test_writes_commit_and_failures_roll_back(modern: Graph) -> None:
    run(modern, "graph.addVertex(T.label, 'person', 'name', 'zed', 'age', 3)")
    assert run(modern, "g.V().hasLabel('person').count()") == [5]
    with pytest.raises(IllegalArgument, match="Undefined vertex label: 'alien'"):
        run(modern, "g.addV('person').property('name','kim').iterate(); graph.addVertex('alien')")
    assert run(modern, "g.V().has('name','kim').count()") == [0]
    # a property and an edge through element methods
    run(modern, "v = g.V('1:zed').next(); w = g.V('1:peter').next(); v.addEdge('knows', w, 'weight', 0.1d); "
                "v.property('city', 'Oslo')")
    assert run(modern, "g.V('1:zed').out('knows').values('name')") == ["peter"]
    assert run(modern, "g.V('1:zed').values('city')") == ["Oslo"]
    run(modern, "g.V('1:zed').next().remove()")
    assert run(modern, "g.V('1:zed').count()") == [0]


def test_tx_commit_inside_a_script(modern: Graph) -> None:
    with pytest.raises(IllegalArgument):
        run(modern, "graph.addVertex(T.label, 'person', 'name', 'kept'); graph.tx().commit(); "
                    "graph.addVertex(T.label, 'person', 'name', 'lost'); graph.addVertex('alien')")
    assert run(modern, "g.V().has('name', within('kept','lost')).values('name')") == ["kept"]
    assert run(modern, "graph.addVertex(T.label, 'person', 'name', 'gone'); graph.tx().rollback(); "
                       "g.V().has('name','gone').count()") == [0]
    assert run(modern, "g.tx().isOpen()") == [False]


def test_schema_dsl_and_auto_detection(strict_graph: Graph) -> None:
    run(strict_graph, "graph.schema().propertyKey('score').asDouble().ifNotExist().create()")
    assert strict_graph.schema.property_key("score") is not None
    run(strict_graph, "schema = graph.schema(); schema.vertexLabel('thing').properties('name', 'score')"
                      ".nullableKeys('score').useCustomizeStringId().ifNotExist().create()")
    assert run(strict_graph, "g.addV('thing').property(T.id, 'a1').property('name', 'x').id()") == ["a1"]


def test_whitelist_refuses_everything_else(modern: Graph) -> None:
    cases = [
        ("graph.close()", "Method 'close' is not supported on Graph"),
        ("graph.configuration()", "Method 'configuration' is not supported on Graph"),
        ("g.V('1:marko').next().detach()", "Method 'detach' is not supported on Vertex"),
        ("g.V('1:marko').next().getClass()", "not accessible from scripts"),  # the interpreter's sandbox
        ("graph.tx().createThreadedTx()", "Method 'createThreadedTx' is not supported on Transaction"),
        ("g.close()", "Method 'close' is not supported on GraphTraversalSource"),
        ("graph.schema().drop()", "Method 'drop' is not supported on SchemaManager"),
        ("g.V('1:marko').next().props", "Property 'props' is not supported on Vertex"),
        ("g.E().limit(1).next().property('weight').owner()", "Method 'owner' is not supported on Property"),
        ("g.V().limit(1).properties('name').next().graph()", "Method 'graph' is not supported on VertexProperty"),
    ]
    for script, message in cases:
        with pytest.raises(UnsupportedSyntax) as err:
            run(modern, script)
        assert message in str(err.value), script


def test_element_methods(modern: Graph) -> None:
    assert run(modern, "g.V('1:marko').next().values('name', 'age')") == ["marko", 29]
    assert run(modern, "v = g.V('1:marko').next(); v.label()") == ["person"]
    assert run(modern, "v = g.V('1:marko').next(); v.id") == ["1:marko"]
    assert sorted(run(modern, "g.V('1:marko').next().keys()")) == ["age", "city", "name"]
    assert run(modern, "g.V('1:marko').next().property('age').value()") == [29]
    assert [v.id for v in run(modern, "g.V('1:marko').next().vertices(OUT, 'knows')")] == ["1:vadas", "1:josh"]
    assert run(modern, "g.E().hasLabel('created').limit(1).next().outVertex().id()") == ["1:marko"]
    assert run(modern, "graph.variables().set('k', [1, 2]); graph.variables().get('k')") == [1, 2]
    assert run(modern, "graph.variables().keys()") == ["k"]


def test_timeout_and_cancel(modern: Graph) -> None:
    # path() keeps every walk distinct, so bulking cannot fold the 2^40 walks together
    with pytest.raises(TraversalTimeout):
        run(modern, "g.V().repeat(both()).times(40).path().count()", timeout_ms=50)
    token = CancelToken()
    token.cancel()
    with pytest.raises(GremlinError):
        run(modern, "g.V().repeat(both()).times(40).count()", cancel=token)


def test_run_traversal_and_iterate(modern: Graph) -> None:
    ir = TraversalIR().then("V").then("hasLabel", "person").then("out", "created").then("dedup")
    result = api.run_traversal(modern, ir)
    assert [v.id for v in result] == ["2:lop", "2:ripple"] and all(v.loaded for v in result)
    write = TraversalIR().then("addV", "software").then("property", "name", "vim").then("property", "lang", "c")
    assert [v.id for v in api.run_traversal(modern, write)] == ["2:vim"]
    it = api.iterate_traversal(modern, TraversalIR().then("V").then("hasLabel", "software"))
    first = next(it)
    assert first.loaded
    it.close()
    assert [v.id for v in modern.iterate(TraversalIR().then("V").then("hasLabel", "software"))] == [
        "2:lop", "2:ripple", "2:vim"]
    assert modern.traverse(TraversalIR().then("V").then("count")) == [7]


def test_read_only_guess_is_corrected(modern: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    # a write the scan does not see still works: storage refuses it, the call re-runs as writer
    monkeypatch.setattr(intent, "MUTATING", frozenset())
    assert run(modern, "graph.addVertex(T.label, 'person', 'name', 'sly'); g.V().has('name','sly').count()") == [1]
    write = TraversalIR().then("addV", "software").then("property", "name", "sly2").then("property", "lang", "c")
    assert [v.id for v in api.run_traversal(modern, write)] == ["2:sly2"]
    monkeypatch.undo()
    assert not intent.ir_may_write(TraversalIR().then("V").then("count"))
    assert intent.ir_may_write(TraversalIR().then("V").then("where", anonymous(("drop",))))
    assert intent.script_may_write(parse("g.V().property('x', 1)"))
    assert not intent.script_may_write(parse("g.V().out().values('name')"))


def test_concurrent_readers_and_a_writer(modern: Graph) -> None:
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            for _ in range(10):
                assert run(modern, "g.V().hasLabel('software').count()")[0] >= 2
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(5):
        run(modern, f"graph.addVertex(T.label, 'software', 'name', 's{i}', 'lang', 'x')")
    for t in threads:
        t.join()
    assert not errors
    assert run(modern, "g.V().hasLabel('software').count()") == [7]


def test_auto_mode_end_to_end(auto_graph: Graph) -> None:
    run(auto_graph, "g.addV('person').property(T.id, 1).property('name','marko').as('m')."
                    "addV('person').property(T.id, 2).property('name','vadas').as('v')."
                    "addE('knows').from('m').to('v').property('weight', 0.5d)")
    assert run(auto_graph, "g.V(1).out('knows').values('name')") == ["vadas"]
    assert run(auto_graph, "g.V(1L).outE().values('weight')") == [0.5]
    ids = run(auto_graph, "g.V().id()")
    assert ids == [1, 2] and all(type(i) is Long for i in ids)
