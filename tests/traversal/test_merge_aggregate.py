"""mergeV/mergeE find-or-create rules and aggregate with reducing side-effects."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.traversal.tokens import Cardinality, Direction, Merge, Operator, T

from .gremlin import __, g
from .helpers import r


class CardinalityValue:
    """The shape the script interpreter hands over for `Cardinality.set(31)`."""

    def __init__(self, cardinality: Cardinality, value: object) -> None:
        self.cardinality = cardinality
        self.value = value


def test_merge_v_matches_or_creates(graph):
    assert [v.id for v in r(g.mergeV({"name": "marko"}), graph)] == [1]
    created = r(g.mergeV({T.label: "person", "name": "zed"}).option(Merge.onCreate, {"age": 40}), graph)
    assert created[0].label == "person"
    assert r(g.V(created[0].id).values("age"), graph) == [40]


def test_merge_v_on_match_cardinality(graph):
    r(g.mergeV({"name": "marko"}).option(Merge.onMatch, {"age": CardinalityValue(Cardinality.list, 30)}), graph)
    assert sorted(r(g.V(1).values("age"), graph)) == [29, 30]
    r(g.mergeV({"name": "marko"}).option(Merge.onMatch, {"age": 31}), graph)
    assert r(g.V(1).values("age"), graph) == [31]


def test_merge_rejects_hidden_keys_and_overrides(graph):
    with pytest.raises(StepArgumentError, match="Property key can not be a hidden key: ~id"):
        r(g.mergeV({}).option(Merge.onCreate, {"~id": 1}), graph)
    with pytest.raises(StepArgumentError, match="Label can not be a hidden key: ~vertex"):
        r(g.mergeV({T.label: "~vertex"}), graph)
    with pytest.raises(StepArgumentError, match="cannot override values from merge"):
        r(g.mergeV({T.label: "a"}).option(Merge.onCreate, {T.label: "b"}), graph)


def test_merge_e_with_placeholders_and_errors(graph):
    search = {T.label: "self", Direction.OUT: Merge.outV, Direction.IN: Merge.inV}
    out = r(g.V(2).as_("v").mergeE(search).option(Merge.outV, __.select("v")).option(Merge.inV, __.select("v")), graph)
    assert out[0].out_v.id == 2 and out[0].in_v.id == 2
    again = r(g.V(2).as_("v").mergeE(search).option(Merge.outV, __.select("v")).option(Merge.inV, __.select("v")), graph)
    assert again == out  # matched, not created twice
    found = r(g.mergeE({T.label: "knows", Direction.OUT: 1, Direction.IN: 2}), graph)
    assert [e.id for e in found] == [7]
    with pytest.raises(TraversalError, match="Out Vertex not specified"):
        r(g.mergeE({T.label: "nothing"}), graph)
    with pytest.raises(TraversalError, match="Vertex id could not be resolved from mergeE"):
        r(g.mergeE({T.label: "x", Direction.OUT: 100, Direction.IN: 1}), graph)


def test_aggregate_reduces_with_the_side_effect_operator(graph):
    assert r(g.withSideEffect("a", 1, Operator.sum).V().aggregate("a").by("age").cap("a"), graph) == [124]
    assert r(g.withSideEffect("a", 100, Operator.min).V().aggregate("a").by("age").cap("a"), graph) == [27]
    assigned = r(g.withSideEffect("a", [1, 2], Operator.assign).V().aggregate("a").by("age").cap("a"), graph)
    assert sorted(assigned[0]) == [27, 29, 32, 35]
    into_set = r(g.withSideEffect("a", set()).V().both().values("name").aggregate("a").cap("a"), graph)
    assert into_set == [{"marko", "vadas", "lop", "josh", "ripple", "peter"}]
    with pytest.raises(StepArgumentError, match="Aggregate step can only have one by modulator"):
        r(g.V().aggregate("a").by("age").by("name"), graph)


def test_productive_by_strategy_keeps_nulls(graph):
    out = r(g.withStrategies("ProductiveByStrategy").V().aggregate("x").by("age").cap("x"), graph)
    assert sorted(out[0], key=lambda v: (v is None, v)) == [27, 29, 32, 35, None, None]
