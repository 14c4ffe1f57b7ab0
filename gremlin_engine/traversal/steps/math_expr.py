"""A small arithmetic expression parser for the `math()` step (exp4j's language subset).

Grammar: numbers, variables (`_` and step labels), `+ - * / % ^`, unary minus,
parentheses and the exp4j functions (abs, acos, asin, atan, cbrt, ceil, cos, cosh, exp,
floor, log, log10, log2, signum, sin, sinh, sqrt, tan, tanh). Parsed once into a tuple
tree, evaluated per traverser; nothing is ever passed to `eval`. Results are Doubles.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from gremlin_engine.errors import StepArgumentError, TraversalError
from gremlin_engine.structure.numbers import is_number

_FUNCS: dict[str, Callable[[float], float]] = {
    "abs": abs, "acos": math.acos, "asin": math.asin, "atan": math.atan, "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "ceil": math.ceil, "cos": math.cos, "cosh": math.cosh, "exp": math.exp, "floor": math.floor, "log": math.log,
    "log10": math.log10, "log2": math.log2, "signum": lambda x: x if x != x else float((x > 0) - (x < 0)), "sin": math.sin,
    "sinh": math.sinh, "sqrt": math.sqrt, "tan": math.tan, "tanh": math.tanh,
}
_TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


class MathExpression:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = [(m.group(1), m.group(2), m.group(3)) for m in _TOKEN.finditer(text) if m.group(0).strip()]
        self.pos = 0
        self.variables: list[str] = []
        self.tree = self._expr()
        if self.pos != len(self.tokens):
            raise StepArgumentError(f"math(): cannot parse {text!r}")

    # ---- parsing -------------------------------------------------------------------
    def _peek(self) -> str | None:
        if self.pos >= len(self.tokens):
            return None
        return self.tokens[self.pos][2]

    def _expr(self) -> Any:
        node = self._term()
        while self._peek() in ("+", "-"):
            op = self.tokens[self.pos][2]
            self.pos += 1
            node = (op, node, self._term())
        return node

    def _term(self) -> Any:
        node = self._unary()
        while self._peek() in ("*", "/", "%"):
            op = self.tokens[self.pos][2]
            self.pos += 1
            node = (op, node, self._unary())
        return node

    def _unary(self) -> Any:
        if self._peek() in ("-", "+"):
            op = self.tokens[self.pos][2]
            self.pos += 1
            operand = self._unary()
            return ("neg", operand) if op == "-" else operand
        return self._power()

    def _power(self) -> Any:
        base = self._atom()
        if self._peek() == "^":
            self.pos += 1
            return ("^", base, self._unary())
        return base

    def _atom(self) -> Any:
        if self.pos >= len(self.tokens):
            raise StepArgumentError(f"math(): unexpected end of {self.text!r}")
        number, name, sym = self.tokens[self.pos]
        self.pos += 1
        if number:
            return ("num", float(number))
        if name:
            if self._peek() == "(" and name in _FUNCS:
                self.pos += 1
                arg = self._expr()
                self._expect(")")
                return ("fn", name, arg)
            if name in _FUNCS and self.pos < len(self.tokens):
                return ("fn", name, self._unary())  # exp4j also takes `sin _` without parentheses
            if name == "pi":
                return ("num", math.pi)
            if name == "e":
                return ("num", math.e)
            if name not in self.variables:
                self.variables.append(name)
            return ("var", name)
        if sym == "(":
            node = self._expr()
            self._expect(")")
            return node
        raise StepArgumentError(f"math(): unexpected {sym!r} in {self.text!r}")

    def _expect(self, sym: str) -> None:
        if self._peek() != sym:
            raise StepArgumentError(f"math(): expected {sym!r} in {self.text!r}")
        self.pos += 1

    # ---- evaluation ----------------------------------------------------------------
    def evaluate(self, env: dict[str, Any]) -> float:
        return float(self._eval(self.tree, env))

    def _eval(self, node: Any, env: dict[str, Any]) -> float:
        kind = node[0]
        if kind == "num":
            num: float = node[1]
            return num
        if kind == "var":
            v = env[node[1]]
            if not is_number(v):
                raise TraversalError(f"math(): the variable {node[1]!r} is not a number: {v!r}")
            return float(v)
        if kind == "neg":
            return -self._eval(node[1], env)
        if kind == "fn":
            return _call(node[1], self._eval(node[2], env))
        a, b = self._eval(node[1], env), self._eval(node[2], env)
        if kind == "+":
            return a + b
        if kind == "-":
            return a - b
        if kind == "*":
            return a * b
        if kind == "/":
            if b == 0:
                return math.copysign(math.inf, a) if a else math.nan
            return a / b
        if kind == "%":
            return math.fmod(a, b) if b and not math.isinf(a) else math.nan  # Java: NaN for x % 0 and inf % y
        return _pow(a, b)


# ---- Java double semantics ----------------------------------------------------------
# exp4j computes in Java doubles, where an overflow is Infinity and a domain error is NaN
# (`2^10000000` is Infinity, `sqrt(-1)` NaN, `log(0)` -Infinity); Python raises instead
# (OverflowError, ValueError), which would reach a client as a raw server error.


def _pow(a: float, b: float) -> float:
    """`Math.pow(a, b)`."""
    if math.isnan(b) or (abs(a) == 1.0 and math.isinf(b)):
        return math.nan  # Java: NaN exponent, or |a| = 1 with an infinite one
    try:
        return math.pow(a, b)
    except OverflowError:
        odd = b.is_integer() and b % 2 == 1
        return -math.inf if a < 0 and odd else math.inf
    except ValueError:
        if a == 0.0:  # zero to a negative power: signed by the zero when b is an odd integer
            odd = b.is_integer() and b % 2 == 1
            return -math.inf if odd and math.copysign(1.0, a) < 0 else math.inf
        return math.nan  # a negative base to a non-integer power


def _call(name: str, x: float) -> float:
    """`Math.<name>(x)` with Java's answers where Python's `math` raises."""
    try:
        return float(_FUNCS[name](x))
    except OverflowError:
        if name in ("ceil", "floor"):
            return x  # of an infinity
        return math.copysign(math.inf, x) if name == "sinh" else math.inf
    except ValueError:
        if name in ("log", "log10", "log2") and x == 0.0:
            return -math.inf
        return math.nan  # of NaN, or outside the function's domain
