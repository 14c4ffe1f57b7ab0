"""The text -> gremlinpython translator and the typed GraphBinary round trip (no server)."""

from __future__ import annotations

import datetime
import io
import uuid

import pytest
from gremlin_python import statics
from gremlin_python.process.graph_traversal import GraphTraversalSource
from gremlin_python.process.strategies import SubgraphStrategy
from gremlin_python.process.traversal import (
    Bytecode,
    Cardinality,
    CardinalityValue,
    Order,
    P,
    Pop,
    Scope,
    TraversalStrategies,
)
from gremlin_python.structure import graph as gps

from gremlin_engine.bytecode import to_ir
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Float, Int, Long, Short
from gremlin_engine.traversal.tokens import Order as EngineOrder
from rest_adapter.serializers.graphbinary_types import ResultWriter
from tests.wire.conformance.translate import Untranslatable, method_name, translate
from tests.wire.conformance.values import to_engine, to_gp, typed_serializer


@pytest.fixture
def g() -> GraphTraversalSource:
    return GraphTraversalSource(None, TraversalStrategies(), Bytecode())


def steps(t) -> list[list]:
    return [list(i) for i in t.bytecode.step_instructions]


def test_step_names_map_to_gremlinpython(g):
    t = translate("g.V().hasLabel('person').as('a').out('knows').in().not(__.out()).is(P.gt(29i)).values('name')",
                  g, {})
    out = steps(t)
    assert [s[0] for s in out] == ["V", "hasLabel", "as", "out", "in", "not", "is", "values"]
    assert out[5][1].step_instructions == [["out"]]
    assert out[6][1] == P.gt(29) and type(out[6][1].value) is int
    assert method_name(GraphTraversalSource, "V") == "V"
    assert method_name(GraphTraversalSource, "withSideEffect") == "with_side_effect"


def test_literals_tokens_and_bindings(g):
    t = translate("g.V(vid).order().by('age', desc).select(all, 'a').count(local).property(list, 'k', 1L)"
                  ".constant(x)", g, {"vid": Long(1), "x": Vertex(Long(2), "person")})
    out = steps(t)
    assert out[0] == ["V", 1] and type(out[0][1]) is statics.long
    assert out[1] == ["order"] and out[2] == ["by", "age", Order.desc]
    assert out[3] == ["select", Pop.all_, "a"]
    assert out[4] == ["count", Scope.local]
    assert out[5][1] is Cardinality.list_ and type(out[5][3]) is statics.long
    assert isinstance(out[6][1], gps.Vertex) and out[6][1].id == 2


def test_strategies_and_source_steps(g):
    t = translate("g.withStrategies(SubgraphStrategy(vertices: __.has('name', 'x')))"
                  ".withoutStrategies(ReadOnlyStrategy).withSideEffect('a', [1, 2]).V()", g, {})
    src = t.bytecode.source_instructions
    assert src[0][0] == "withStrategies" and isinstance(src[0][1], SubgraphStrategy)
    assert src[0][1].configuration["vertices"].bytecode.step_instructions == [["has", "name", "x"]]
    assert src[1][0] == "withoutStrategies" and src[1][1].gremlin_type.endswith(".ReadOnlyStrategy")
    assert src[2] == ["withSideEffect", "a", [1, 2]]


def test_functions_and_cardinality_values(g):
    t = translate("g.inject(datetime('2023-08-08T00:00:00Z'), UUID('f47af10b-58cc-4372-a567-0f02b2f3d479'))"
                  ".mergeV([name: Cardinality.single('x')]).where(not(within('a')))", g, {})
    out = steps(t)
    assert out[0][1] == datetime.datetime(2023, 8, 8, tzinfo=datetime.UTC)
    assert out[0][2] == uuid.UUID("f47af10b-58cc-4372-a567-0f02b2f3d479")
    assert isinstance(out[1][1]["name"], CardinalityValue)
    assert out[2][1] == P.not_(P.within("a"))


def test_the_server_decodes_what_the_translator_builds(g):
    ir = to_ir(translate("g.V().has('age', P.between(20i, 30i)).order().by('age', desc).limit(2L)", g, {}).bytecode)
    assert [i.name for i in ir.steps] == ["V", "has", "order", "by", "limit"]
    assert ir.steps[3].args == ("age", EngineOrder.desc)
    assert type(ir.steps[4].args[0]) is Long


def test_untranslatable_text(g):
    with pytest.raises(Untranslatable):
        translate("x = 1; g.V()", g, {})
    with pytest.raises(Untranslatable):
        translate("g.V().foo()", g, {})


def test_typed_graphbinary_keeps_java_types():
    ser = typed_serializer()
    client_writer, reader = ser._graphbinary_writer, ser._graphbinary_reader
    server_writer = ResultWriter()  # what the server answers with

    def read(data: bytes | bytearray):
        return to_engine(reader.to_object(io.BytesIO(bytes(data))))

    sent = [to_gp(Long(5)), to_gp(Int(5)), to_gp(Short(5)), Float(0.5), 0.5]
    back = [read(client_writer.write_object(v)) for v in sent]
    assert [type(b).__name__ for b in back] == ["Long", "Int", "Short", "Float", "float"]
    answer = read(server_writer.to_dict({frozenset({"a"}): Long(1), ("x", "y"): Float(2.5)}))
    assert answer == {frozenset({"a"}): Long(1), ("x", "y"): 2.5}
    assert [type(v).__name__ for v in answer.values()] == ["Long", "Float"]
