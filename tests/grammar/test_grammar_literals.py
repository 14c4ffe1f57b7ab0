"""Literal text -> typed values: Java number types by suffix and size, Groovy strings."""

from __future__ import annotations

import decimal
import math

import pytest

from gremlin_engine.errors import GremlinSyntaxError
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short
from gremlin_engine.syntax import ast, parse


def value_of(text: str) -> object:
    expr = parse(text).statements[0].expr
    assert isinstance(expr, ast.Literal), expr
    return expr.value


@pytest.mark.parametrize(
    ("text", "cls", "value"),
    [
        ("1", Int, 1),
        ("-1", Int, -1),
        ("2147483647", Int, 2147483647),
        ("2147483648", Long, 2147483648),
        ("-2147483648", Int, -2147483648),
        ("9223372036854775807", Long, 9223372036854775807),
        ("9223372036854775808", BigInt, 9223372036854775808),
        ("1b", Byte, 1),
        ("-128b", Byte, -128),
        ("127B", Byte, 127),
        ("2s", Short, 2),
        ("-32768s", Short, -32768),
        ("3i", Int, 3),
        ("4l", Long, 4),
        ("5L", Long, 5),
        ("6n", BigInt, 6),
        ("7N", BigInt, 7),
        ("2f", Float, 2.0),
        ("2F", Float, 2.0),
        ("2d", float, 2.0),
        ("9D", float, 9.0),
        ("1.5", float, 1.5),  # GremlinLang: an unsuffixed decimal is a Double
        (".5", float, 0.5),
        ("-.5f", Float, -0.5),
        ("1.5f", Float, 1.5),
        ("1.5d", float, 1.5),
        ("1e3", float, 1000.0),
        ("1.7976931348623157E+308d", float, 1.7976931348623157e308),
        ("0x1F", Int, 31),
        ("0x1Fl", Long, 31),
        ("0xFFFFFFFFFF", Long, 0xFFFFFFFFFF),
        ("-0x10", Int, -16),
        ("0b101", Int, 5),
        ("010", Int, 8),  # octal, as in Java and Groovy
        ("0", Int, 0),
    ],
)
def test_numbers_carry_java_types(text: str, cls: type, value: object) -> None:
    got = value_of(text)
    assert type(got) is cls
    assert got == value


@pytest.mark.parametrize(
    ("text", "value"), [("1.0m", "1.0"), ("3M", "3"), ("-2.50m", "-2.50"), ("1e2m", "1E+2")]
)
def test_big_decimals_keep_their_digits(text: str, value: str) -> None:
    got = value_of(text)
    assert isinstance(got, decimal.Decimal)
    assert str(got) == value


def test_special_values() -> None:
    assert math.isnan(value_of("NaN"))
    assert value_of("Infinity") == math.inf
    assert value_of("-Infinity") == -math.inf
    assert value_of("true") is True
    assert value_of("false") is False
    assert value_of("null") is None


@pytest.mark.parametrize("text", ["128b", "-129b", "32768s", "2147483648i", "9223372036854775808L", "08"])
def test_out_of_range_and_malformed_numbers_are_syntax_errors(text: str) -> None:
    with pytest.raises(GremlinSyntaxError) as info:
        parse(f"g.inject({text})")
    assert info.value.line == 1
    assert info.value.column == 10


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'plain'", "plain"),
        ('"double"', "double"),
        ("''", ""),
        (r"'tab\there'", "tab\there"),
        (r"'nl\n'", "nl\n"),
        (r"'q\'q'", "q'q"),
        (r'"q\"q"', 'q"q'),
        (r"'back\\slash'", "back\\slash"),
        (r"'\u00e9\u00A9'", "é©"),
        (r"'\$'", "$"),
        (r"'\101'", "A"),
        ("'''multi\nline'''", "multi\nline"),
        ('"""also\n"multi" line"""', 'also\n"multi" line'),
        ('"Outer$Inner"', "Outer$Inner"),  # a lone $ stays literal (GremlinLang class names)
        ("'${not interpolated}'", "${not interpolated}"),  # single quotes never interpolate
        ("'轉注 ✦ ♠'", "轉注 ✦ ♠"),
    ],
)
def test_strings_decode_escapes(text: str, value: str) -> None:
    assert value_of(text) == value


def test_interpolating_gstring_is_kept_as_a_gstring_node() -> None:
    expr = parse('"hello ${name}"').statements[0].expr
    assert isinstance(expr, ast.GString)
    assert expr.raw == '"hello ${name}"'
    assert isinstance(parse(r'"escaped \${name}"').statements[0].expr, ast.Literal)


def test_bad_escape_is_a_positioned_error() -> None:
    with pytest.raises(GremlinSyntaxError) as info:
        parse("x = 1\ny = 'a\\qb'")
    assert (info.value.line, info.value.column) == (2, 5)
    assert "\\q" in str(info.value)


def test_unary_minus_with_space_keeps_the_type() -> None:
    assert type(value_of("- 5L")) is Long
    assert value_of("- 5L") == -5
    assert isinstance(parse("-(5)").statements[0].expr, ast.UnaryOp)  # evaluated at run time
