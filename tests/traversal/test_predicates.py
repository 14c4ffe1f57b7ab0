"""P / TextP semantics against TinkerPop's Comparability and Equality tables."""

from __future__ import annotations

import decimal
import uuid

import pytest

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Long, Short
from gremlin_engine.traversal.predicates import P, TextP, make_predicate
from gremlin_engine.traversal.tokens import GType

NAN = float("nan")
INF = float("inf")


def p(name, *args):
    return make_predicate("P", name, args)


def t(name, *args):
    return make_predicate("TextP", name, args)


@pytest.mark.parametrize(
    ("value", "pred", "expected"),
    [
        (None, p("eq", None), True),
        (None, p("neq", None), False),
        (None, p("lt", None), False),
        (None, p("lte", None), True),
        (None, p("gte", None), True),
        (NAN, p("eq", NAN), False),
        (NAN, p("neq", NAN), True),
        (NAN, p("lte", NAN), False),
        (1.0, p("gt", NAN), False),
        (1.0, p("neq", NAN), True),
        (NAN, p("gte", None), False),
        ("foo", p("eq", 1.0), False),
        ("foo", p("neq", 1.0), True),
        ("foo", p("lt", 1.0), False),
        ("foo", p("gte", 1.0), False),
        (1.0, p("eq", 1).and_(p("gt", 0)), True),
        (1.0, p("eq", 1).and_(p("lt", NAN)), False),
        (1.0, p("eq", 1).or_(p("lt", NAN)), True),
        (1.0, p("lt", NAN).or_(p("gt", 2)), False),
        (INF, p("eq", INF), True),
        (INF, p("gt", -INF), True),
        (-INF, p("gt", INF), False),
    ],
)
def test_comparability_table(value, pred, expected):
    assert pred.test(value) is expected


def test_numbers_equal_across_java_types():
    for v in (Byte(1), Short(1), 1, Long(1), Float(1.0), 1.0, decimal.Decimal("1"), BigInt(1)):
        assert p("eq", 1).test(v), v
    assert not p("eq", 1).test(True)  # booleans are not numbers
    assert p("lt", decimal.Decimal("1.5")).test(1)
    assert p("gt", 29).test(Long(32))


def test_ranges_and_membership():
    assert p("between", 1, 3).test(1) and not p("between", 1, 3).test(3)
    assert p("inside", 1, 3).test(2) and not p("inside", 1, 3).test(1)
    assert p("outside", 1, 3).test(0) and p("outside", 1, 3).test(4) and not p("outside", 1, 3).test(2)
    assert not p("outside", 1, 3).test("x")
    assert p("within", [1, 2]).test(Long(2)) and p("within", 1, 2).test(1.0)
    assert p("without", "a", "b").test("c") and not p("without", ["a"]).test("a")
    assert p("within").test(1) is False


def test_negation():
    assert p("not", p("gt", 30)).test(29)
    assert not p("not", p("gt", 30)).test(31)
    assert not p("not", p("gt", 30)).test("x")  # an error stays an error
    assert p("not", p("inside", 1, 3)).test(1)
    assert p("not", p("within", [1])).op == "without"
    assert p("gt", 1).and_(p("lt", 5)).negate().test(7)


def test_text_predicates():
    assert t("containing", "ar").test("marko")
    assert t("notContaining", "ar").test("josh")
    assert t("startingWith", "ma").test("marko") and t("notStartingWith", "ma").test("vadas")
    assert t("endingWith", "ko").test("marko") and t("notEndingWith", "ko").test("lop")
    assert t("regex", "^r.*e$").test("ripple") and t("regex", "ar").test("marko")
    assert t("notRegex", "^r").test("lop")
    assert not t("containing", "1").test(1) and not t("notContaining", "1").test(1)
    assert isinstance(t("containing", "x").negate(), TextP)


def test_type_of():
    assert p("typeOf", GType.INT).test(29) and not p("typeOf", GType.INT).test(Long(29))
    assert p("typeOf", "String").test("x") and p("typeOf", GType.UUID).test(uuid.uuid4())
    assert p("typeOf", GType.NUMBER).test(Short(1)) and not p("typeOf", GType.NUMBER).test(True)
    with pytest.raises(StepArgumentError):
        p("typeOf", "non-registered-Name")


def test_bad_predicates_raise_step_argument_error():
    with pytest.raises(StepArgumentError):
        p("gt")
    with pytest.raises(StepArgumentError):
        p("nope", 1)
    with pytest.raises(StepArgumentError):
        t("containing", 1)


def test_map_values_and_inspection():
    pred = p("eq", "a").map_values(lambda x: {"a": 5}[x])
    assert pred.test(5) and pred.op == "eq" and pred.value == 5
    assert p("within", [1, 2]).values() == [1, 2]
    assert P("gt", 1) == p("gt", 1)
