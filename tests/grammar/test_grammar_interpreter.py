"""The interpreter: scripts -> TraversalIR handed to the host, values, variables, results."""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest
from recording_host import HostObject, RecordingHost

from gremlin_engine.bytecode import CardinalityValue, StrategySpec
from gremlin_engine.errors import GremlinSyntaxError, StepArgumentError, UnsupportedSyntax
from gremlin_engine.structure.numbers import Byte, Float, Int, Long
from gremlin_engine.syntax import interpret
from gremlin_engine.syntax.host import BoundTraversal, TraversalSourceRef
from gremlin_engine.traversal.ir import Instruction, TraversalIR, anonymous
from gremlin_engine.traversal.predicates import P, make_predicate
from gremlin_engine.traversal.tokens import (
    Cardinality,
    Column,
    Direction,
    GType,
    Merge,
    Operator,
    Order,
    Pick,
    Pop,
    Scope,
    T,
)


def run_ir(host: RecordingHost, text: str) -> TraversalIR:
    """Interprets `text` and returns the IR of the one traversal it ran."""
    interpret(text, host)
    assert len(host.runs) == 1, host.runs
    return host.runs[0][0].ir


def steps(ir: TraversalIR) -> list[tuple[str, tuple]]:
    return [(i.name, i.args) for i in ir.steps]


def test_chain_becomes_instructions(host: RecordingHost) -> None:
    ir = run_ir(host, "g.V().hasLabel('person').out('knows').values('name')")
    assert host.runs[0][1] == "toList"
    assert ir.source == ()
    assert steps(ir) == [("V", ()), ("hasLabel", ("person",)), ("out", ("knows",)), ("values", ("name",))]
    assert ir.anonymous is False
    assert ir.steps[2].pos == (1, 26)  # the step name


def test_graph_name_comes_from_the_source(host: RecordingHost) -> None:
    interpret("__g_hugegraph.V().count()", host)
    traversal = host.runs[0][0]
    assert isinstance(traversal, BoundTraversal)
    assert traversal.graph == "hugegraph"


def test_numbers_keep_java_types_in_arguments(host: RecordingHost) -> None:
    ir = run_ir(host, "g.inject(1, 1b, 2L, 3.5, 4f, 5m, 2147483648)")
    args = ir.steps[0].args
    assert [type(a) for a in args] == [Int, Byte, Long, float, Float, decimal.Decimal, Long]
    assert args == (1, 1, 2, 3.5, 4.0, decimal.Decimal(5), 2147483648)


def test_tokens_qualified_and_bare(host: RecordingHost) -> None:
    ir = run_ir(
        host,
        "g.V().order().by('age', desc).by(T.id, Order.asc).select(Pop.all, 'a').count(local)"
        ".select(values).property(single, 'x', 1).to(OUT).option(Pick.none, __.identity())",
    )
    assert steps(ir)[2] == ("by", ("age", Order.desc))
    assert steps(ir)[3] == ("by", (T.id, Order.asc))
    assert steps(ir)[4] == ("select", (Pop.all, "a"))
    assert steps(ir)[5] == ("count", (Scope.local,))
    assert steps(ir)[6] == ("select", (Column.values,))
    assert steps(ir)[7] == ("property", (Cardinality.single, "x", 1))
    assert steps(ir)[8] == ("to", (Direction.OUT,))
    assert steps(ir)[9] == ("option", (Pick.none, anonymous(("identity",))))


def test_maps_with_token_and_expression_keys(host: RecordingHost) -> None:
    host.bindings["k"] = "computed"
    ir = run_ir(host, "g.mergeE([T.label: 'knows', (OUT): Merge.outV, (IN): 1, name: 'x', 'q': [:], (k): 2])")
    (m,) = ir.steps[0].args
    assert m == {
        T.label: "knows",
        Direction.OUT: Merge.outV,
        Direction.IN: 1,
        "name": "x",
        "q": {},
        "computed": 2,
    }
    assert list(m) == [T.label, Direction.OUT, Direction.IN, "name", "q", "computed"]  # order kept


def test_nested_anonymous_traversals(host: RecordingHost) -> None:
    ir = run_ir(host, "g.V().where(__.out('created').count().is(gt(1))).local(aggregate('a').by('name'))")
    where = ir.steps[1].args[0]
    assert isinstance(where, TraversalIR) and where.anonymous
    assert steps(where) == [("out", ("created",)), ("count", ()), ("is", (make_predicate("P", "gt", [1]),))]
    local = ir.steps[2].args[0]
    assert local == anonymous(("aggregate", "a"), ("by", "name"))


def test_predicates_and_their_chaining(host: RecordingHost) -> None:
    ir = run_ir(
        host,
        "g.V().has('age', P.gt(1).and(P.lt(5))).has('n', within('a', 'b')).has('n', P.within(['c']))"
        ".has('x', TextP.containing('z')).is(not(P.eq(3))).has('y', P.gt(1).or(P.eq(0)).negate())",
    )
    age = ir.steps[1].args[1]
    assert isinstance(age, P) and age.op == "and"
    assert age.test(3) and not age.test(6)
    assert ir.steps[2].args[1] == make_predicate("P", "within", ["a", "b"])
    assert ir.steps[3].args[1] == make_predicate("P", "within", [["c"]])
    assert ir.steps[4].args[1] == make_predicate("TextP", "containing", ["z"])
    assert ir.steps[5].args[0].test(4) and not ir.steps[5].args[0].test(3)
    assert not ir.steps[6].args[1].test(2) and ir.steps[6].args[1].test(-1)


def test_bare_not_is_a_step_for_a_traversal(host: RecordingHost) -> None:
    ir = run_ir(host, "g.V().where(not(out('x')))")
    assert ir.steps[1].args[0] == anonymous(("not", anonymous(("out", "x"))))


def test_source_modifiers_and_strategies(host: RecordingHost) -> None:
    ir = run_ir(
        host,
        "g.withSideEffect('a', [1i, 2i], Operator.addAll).withSack(1.0d)"
        ".withStrategies(new SubgraphStrategy(vertices: __.hasLabel('person'), checkAdjacentVertices: false),"
        " ReadOnlyStrategy, OptionsStrategy(myVar: 'v'))"
        ".withoutStrategies(CountStrategy).with('evaluationTimeout', 10).V()",
    )
    assert [i.name for i in ir.source] == [
        "withSideEffect", "withSack", "withStrategies", "with", "withoutStrategies", "with",
    ]  # fmt: skip
    assert ir.source[0].args == ("a", [1, 2], Operator.addAll)
    sub, ro = ir.source[2].args
    assert isinstance(sub, StrategySpec) and sub.name == "SubgraphStrategy"
    assert sub.config == {"vertices": anonymous(("hasLabel", "person")), "checkAdjacentVertices": False}
    assert ro.name == "ReadOnlyStrategy" and ro.config == {}
    assert ir.source[3].args == ("myVar", "v")
    assert ir.source[4].args == ("CountStrategy",)
    assert steps(ir) == [("V", ())]


def test_cardinality_values_datetime_and_uuid(host: RecordingHost) -> None:
    ir = run_ir(
        host,
        "g.inject(datetime('2023-08-08T00:00:00Z'), DateTime('2023-08-08T02:00+02:00'),"
        " UUID('f47af10b-58cc-4372-a567-0f02b2f3d479'), [a: Cardinality.single(1)], {1, 'x'}, P.typeOf(GType.INT))",
    )
    d1, d2, u, m, s, p = ir.steps[0].args
    want = datetime.datetime(2023, 8, 8, tzinfo=datetime.UTC)
    assert d1 == want and d2 == want and d1.tzinfo == datetime.UTC
    assert u == uuid.UUID("f47af10b-58cc-4372-a567-0f02b2f3d479")
    assert m == {"a": CardinalityValue(Cardinality.single, 1)}
    assert s == {1, "x"}
    assert p.test(Int(1)) and not p.test("1") and p.value is GType.INT


def test_io_constants(host: RecordingHost) -> None:
    ir = run_ir(host, "g.io('x.json').with(IO.reader, IO.graphson).read()")
    assert steps(ir) == [("io", ("x.json",)), ("with", ("~tinkerpop.io.reader", "graphson")), ("read", ())]


def test_variables_bindings_and_statements(host: RecordingHost) -> None:
    host.bindings["limit"] = 2
    result = interpret("def t = g.V().hasLabel('p')\nn = limit + 1; t.limit(n).values('name')", host)
    assert result == ["r1", "r2"]
    assert steps(host.runs[0][0].ir) == [
        ("V", ()),
        ("hasLabel", ("p",)),
        ("limit", (3,)),
        ("values", ("name",)),
    ]


def test_spawned_traversal_as_argument_passes_its_ir(host: RecordingHost) -> None:
    ir = run_ir(host, "g.V().where(g.V().out())")
    assert ir.steps[1].args[0] == TraversalIR((), (Instruction("V"), Instruction("out")))


def test_unbound_name_is_an_error_with_position(host: RecordingHost) -> None:
    with pytest.raises(GremlinSyntaxError) as info:
        interpret("x = 1\nnope.V()", host)
    assert "No such property: nope" in str(info.value)
    assert (info.value.line, info.value.column) == (2, 1)


# ---- terminals and result shaping -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "terminal", "args", "result"),
    [
        ("g.V()", "toList", (), ["r1", "r2"]),
        ("g.V().toList()", "toList", (), ["r1", "r2"]),
        ("g.V().next()", "next", (), ["r1"]),
        ("g.V().next(2)", "next", (2,), ["r1", "r2"]),
        ("g.V().hasNext()", "hasNext", (), [True]),
        ("g.V().toSet()", "toSet", (), ["r1"]),
        ("g.addV('x').iterate()", "iterate", (), []),
    ],
)
def test_terminals_call_host_run(
    host: RecordingHost, text: str, terminal: str, args: tuple, result: list
) -> None:
    host.results["next"] = ["r1", "r2"] if args else "r1"
    assert interpret(text, host) == result
    assert [(t, a) for _, t, a in host.runs] == [(terminal, args)]


def test_unterminated_traversals_before_the_last_statement_do_not_run(host: RecordingHost) -> None:
    assert interpret("g.addV('a'); g.V().count().next()", host) == ["r1"]
    assert [t for _, t, _ in host.runs] == ["next"]


def test_iterated_traversal_yields_nothing_more(host: RecordingHost) -> None:
    assert interpret("t = g.addV('a').iterate(); t.hasNext()", host) == [False]
    assert [t for _, t, _ in host.runs] == ["iterate"]


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("1 + 2", [3]),
        ("[1, 2]", [1, 2]),
        ("[a: 1, b: 2]", [{"a": 1}, {"b": 2}]),  # Gremlin Server streams map entries
        ("null", [None]),
        ("'x'", ["x"]),
        ("{3}", [3]),
        ("", []),
        ("x = 5", [5]),
    ],
)
def test_plain_values_as_results(host: RecordingHost, text: str, result: list) -> None:
    assert interpret(text, host) == result
    assert not host.touched


def test_traversal_source_as_result(host: RecordingHost) -> None:
    assert interpret("g", host) == ["graphtraversalsource[hugegraph, standard]"]


def test_anonymous_traversal_cannot_be_iterated(host: RecordingHost) -> None:
    with pytest.raises(UnsupportedSyntax):
        interpret("__.out()", host)
    with pytest.raises(UnsupportedSyntax, match="anonymous"):
        interpret("__.out().toList()", host)


# ---- host calls -------------------------------------------------------------------------


def test_other_methods_go_to_the_host(host: RecordingHost) -> None:
    result = interpret(
        "schema = graph.schema()\nschema.propertyKey('age').asInt().ifNotExist().create()\n"
        "v = graph.addVertex(T.label, 'person', 'name', 'marko')\nv.addEdge('knows', v, 'weight', 0.5d)\n"
        "graph.tx().commit()",
        host,
    )
    assert [c[1] for c in host.calls] == [
        "schema", "propertyKey", "asInt", "ifNotExist", "create", "addVertex", "addEdge", "tx", "commit",
    ]  # fmt: skip
    assert host.calls[1] == (HostObject(("graph", "schema")), "propertyKey", ("age",))
    assert host.calls[5][2] == (T.label, "person", "name", "marko")
    assert host.calls[6][2] == ("knows", HostObject(("graph", "addVertex")), "weight", 0.5)
    assert result == [HostObject(("graph", "tx", "commit"))]


def test_source_methods_that_are_not_steps_go_to_the_host(host: RecordingHost) -> None:
    interpret("g.tx().commit()", host)
    assert host.calls[0] == (TraversalSourceRef("hugegraph"), "tx", ())


def test_property_reads_go_to_the_host(host: RecordingHost) -> None:
    assert interpret("graph.name", host) == ["graph.name"]


def test_named_arguments_to_host_calls_become_a_leading_map(host: RecordingHost) -> None:
    interpret("graph.thing(1, a: 2)", host)
    assert host.calls[0][2] == ({"a": 2}, 1)


def test_traversal_source_from_a_host_call(host: RecordingHost) -> None:
    host.bindings["src"] = TraversalSourceRef("other")
    interpret("src.V(1)", host)
    assert host.runs[0][0].graph == "other"


# ---- operators --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "cls"),
    [
        ("1 + 2 * 3", 7, Int),
        ("2147483647 + 1", -2147483648, Int),  # Groovy int arithmetic wraps
        ("1L + 1", 2, Long),
        ("1 / 2", decimal.Decimal("0.5"), decimal.Decimal),
        ("1 / 3", decimal.Decimal("0.3333333333"), decimal.Decimal),
        ("4 / 2", decimal.Decimal(2), decimal.Decimal),
        ("1.5 * 2", 3.0, float),
        ("1f + 1f", 2.0, float),
        ("-7 % 3", -1, Int),
        ("'a' + 1", "a1", str),
        ("1 + 'a'", "1a", str),
        ("1 < 2 && 'a' == 'a'", True, bool),
        ("!true || 3 >= 4", False, bool),
        ("-(1 + 1)", -2, Int),
    ],
)
def test_operators_follow_groovy(host: RecordingHost, text: str, value: object, cls: type) -> None:
    (got,) = interpret(text, host)
    assert got == value
    assert type(got) is cls


def test_operator_type_errors(host: RecordingHost) -> None:
    with pytest.raises(StepArgumentError):
        interpret("[1] - 1", host)
    with pytest.raises(StepArgumentError, match="zero"):
        interpret("1 / 0", host)
