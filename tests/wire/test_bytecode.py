"""gremlinpython bytecode to our IR, in-process (embedded) and after a trip through each
request codec (WebSocket): both paths must give the same IR with engine values only."""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest
from gremlin_python.driver.request import RequestMessage as GpRequest
from gremlin_python.driver.serializer import (
    GraphBinarySerializersV1,
    GraphSONSerializersV2d0,
    GraphSONSerializersV3d0,
)
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.strategies import ReadOnlyStrategy, SubgraphStrategy
from gremlin_python.process.traversal import (
    Bytecode,
    Cardinality,
    CardinalityValue,
    Column,
    Direction,
    Merge,
    Operator,
    Order,
    P,
    Pick,
    Pop,
    Scope,
    T,
    TextP,
    WithOptions,
)
from gremlin_python.statics import SingleByte, bigint, long, short
from gremlin_python.structure.graph import Graph
from gremlin_python.structure.graph import Vertex as GpVertex

from gremlin_engine.bytecode import CardinalityValue as OurCardinalityValue
from gremlin_engine.bytecode import GraphOp, StrategySpec, from_wire, graph_op, request_options, to_ir
from gremlin_engine.errors import NotSupported, StepArgumentError
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import BigInt, Byte, Int, Long, Short
from gremlin_engine.traversal import tokens as tk
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P as OurP
from gremlin_engine.traversal.predicates import TextP as OurTextP
from rest_adapter.serializers.mime import codec_for, split_frame

g = traversal().with_(Graph())


def through_wire(bc, serializer):
    rid = str(uuid.uuid4())
    frame = serializer.serialize_message(rid, GpRequest("traversal", "bytecode", {"gremlin": bc}))
    mime, body = split_frame(frame)
    return codec_for(mime).decode_request(body).args["gremlin"]


SERIALIZERS = [None, GraphBinarySerializersV1(), GraphSONSerializersV3d0(), GraphSONSerializersV2d0()]
IDS = ["embedded", "graphbinary", "graphson3", "graphson2"]


def convert(t, serializer):
    bc = t.bytecode if hasattr(t, "bytecode") else t
    return to_ir(bc if serializer is None else through_wire(bc, serializer))


@pytest.mark.parametrize("ser", SERIALIZERS, ids=IDS)
def test_steps_numbers_and_predicates(ser):
    ir = convert(g.V(long(1), 2).has("person", "age", P.gt(30)).has("name", P.within("josh", "peter"))
                 .where(P.not_(P.eq("x"))).has("n", TextP.containing("ar")).values("age").limit(2), ser)
    assert ir.anonymous is False and ir.source == ()
    names = [i.name for i in ir.steps]
    assert names == ["V", "has", "has", "where", "has", "values", "limit"]
    v = ir.steps[0].args
    assert v == (1, 2) and type(v[0]) is Long and type(v[1]) is Int
    gt = ir.steps[1].args[2]
    assert isinstance(gt, OurP) and (gt.op, gt.value) == ("gt", 30)
    within = ir.steps[2].args[1]
    assert (within.op, within.value) == ("within", ["josh", "peter"])
    neq = ir.steps[3].args[0]
    assert neq.test("y") and not neq.test("x")
    assert isinstance(ir.steps[4].args[1], OurTextP) and ir.steps[4].args[1].test("marko")


@pytest.mark.parametrize("ser", SERIALIZERS, ids=IDS)
def test_tokens_and_nested_traversals(ser):
    ir = convert(g.V().group().by(T.label).by(__.out("knows").count(Scope.local)).unfold()
                 .select(Column.values).order().by(Order.desc).select(Pop.last, "a")
                 .to_e(Direction.BOTH).sack(Operator.sum_).choose(__.identity()).option(Pick.none, __.constant(1)), ser)
    by1, by2 = ir.steps[2], ir.steps[3]
    assert by1.args == (tk.T.label,)
    nested = by2.args[0]
    assert isinstance(nested, TraversalIR) and nested.anonymous
    assert nested.steps == (Instruction("out", ("knows",)), Instruction("count", (tk.Scope.local,)))
    assert ir.steps[5].args == (tk.Column.values,)
    assert ir.steps[7].args == (tk.Order.desc,)
    assert ir.steps[8].args == (tk.Pop.last, "a")
    assert ir.steps[9].args == (tk.Direction.BOTH,)
    assert ir.steps[10].args == (tk.Operator.sum,)
    assert ir.steps[12].args[0] is tk.Pick.none


@pytest.mark.parametrize("ser", SERIALIZERS, ids=IDS)
def test_source_options_and_strategies(ser):
    t = (g.with_("evaluationTimeout", 250).with_side_effect("x", [1, 2])
         .with_strategies(SubgraphStrategy(vertices=__.has("age", P.gt(30))))
         .without_strategies(ReadOnlyStrategy).V())
    ir = convert(t, ser)
    assert request_options(ir) == {"evaluationTimeout": 250}
    src = {i.name: i.args for i in ir.source}
    assert src["withSideEffect"] == ("x", [1, 2])
    (spec,) = src["withStrategies"]
    assert isinstance(spec, StrategySpec) and spec.name == "SubgraphStrategy"
    assert spec.config["vertices"].steps[0].name == "has"
    assert src["withoutStrategies"] == ("ReadOnlyStrategy",)


@pytest.mark.parametrize("ser", SERIALIZERS[:3], ids=IDS[:3])
def test_write_steps_maps_and_cardinality(ser):
    t = (g.merge_v({T.label: "person", "name": "x"}).option(Merge.on_create, {"age": CardinalityValue.single(3)})
         .property(Cardinality.list_, "nick", "a").value_map().with_(WithOptions.tokens, WithOptions.ids))
    ir = convert(t, ser)
    assert ir.steps[0].args == ({tk.T.label: "person", "name": "x"},)
    opt = ir.steps[1].args
    assert opt[0] is tk.Merge.onCreate
    assert opt[1]["age"] == OurCardinalityValue(tk.Cardinality.single, 3)
    assert ir.steps[2].args == (tk.Cardinality.list, "nick", "a")
    assert ir.steps[4].args == (tk.WithOptions.tokens, tk.WithOptions.ids)


def test_wire_values_become_engine_values():
    assert type(from_wire(long(5))) is Long
    assert type(from_wire(short(5))) is Short
    assert type(from_wire(SingleByte(5))) is Byte
    assert type(from_wire(bigint(5))) is BigInt
    assert type(from_wire(2**40)) is Long and type(from_wire(7)) is Int
    assert from_wire(datetime.datetime(2020, 1, 1)).tzinfo is datetime.UTC
    from gremlin_python.statics import BigDecimal

    assert from_wire(BigDecimal(2, 1234)) == decimal.Decimal("12.34")
    v = from_wire(GpVertex(long(1), "person"))
    assert isinstance(v, Vertex) and v.id == 1 and v.label == "person" and not v.loaded
    assert from_wire({"a": [1, {2}]}) == {"a": [1, {2}]}


def test_graph_ops_and_refusals():
    assert graph_op(Bytecode.GraphOp.commit()) == GraphOp("commit")
    assert graph_op(Bytecode.GraphOp.rollback()) == GraphOp("rollback")
    assert graph_op(g.V().bytecode) is None
    with pytest.raises(NotSupported, match="lambda"):
        to_ir(g.V().map(lambda: "it.get()").bytecode)
    with pytest.raises(StepArgumentError, match="expected traversal bytecode"):
        to_ir("g.V()")


def test_lambda_through_graphbinary_is_refused():
    bc = through_wire(g.V().filter_(lambda: "it.get().value('age') > 30").bytecode, GraphBinarySerializersV1())
    with pytest.raises(NotSupported, match="age"):
        to_ir(bc)


def test_few_results_run_to_a_list_others_stream():
    from gremlin_python.process.graph_traversal import GraphTraversalSource
    from gremlin_python.process.traversal import Bytecode, Scope, TraversalStrategies

    from rest_adapter.ws.requests import few_results

    g = GraphTraversalSource(None, TraversalStrategies(), Bytecode())
    few = [g.V(1).out().count(), g.V().group().by("name").by(__.count()), g.V().limit(10), g.V().range_(5, 15),
           g.V().fold()]
    many = [g.V(), g.V().count(Scope.local), g.V().limit(10**6), g.V().range_(5, -1), g.V().values("name")]
    assert [few_results(to_ir(t.bytecode)) for t in few] == [True] * len(few)
    assert [few_results(to_ir(t.bytecode)) for t in many] == [False] * len(many)
