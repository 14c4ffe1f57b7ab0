"""TinkerPop's `Operator` semantics and Java number arithmetic: what `fold(seed, op)`,
`sack(op)`, `sum()` and the bulk merging of sacks (`bulking.py`) share. A module of its own,
below the steps, so that `bulking` needs no step module (which would import it back)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure import numbers as num
from gremlin_engine.traversal.compare import order_compare
from gremlin_engine.traversal.tokens import Operator

_WIDER = {num.Byte: num.Short, num.Short: num.Int, num.Int: num.Long, num.Long: num.BigInt}
_BOUNDS = {num.Byte: 8, num.Short: 16, num.Int: 32, num.Long: 64}


def java_add(a: Any, b: Any) -> Any:
    """a + b in TinkerPop's NumberHelper typing: widest operand type, widened on overflow."""
    cls = num.promote(a, b)
    if cls in _BOUNDS:
        r = int(a) + int(b)
        while cls in _BOUNDS and not -(1 << (_BOUNDS[cls] - 1)) <= r < (1 << (_BOUNDS[cls] - 1)):
            cls = _WIDER[cls]
        return cls(r)
    if cls is num.BigInt:
        return num.BigInt(int(a) + int(b))
    if cls is num.Float:
        return num.Float(float(a) + float(b))
    return num.wrap(cls, (num.wrap(cls, a) + num.wrap(cls, b)))


def _widen(cls: type, r: int) -> Any:
    """An integral result in type `cls`, widened (Byte→Short→Int→Long→BigInteger) until it fits."""
    while cls in _BOUNDS and not -(1 << (_BOUNDS[cls] - 1)) <= r < (1 << (_BOUNDS[cls] - 1)):
        cls = _WIDER[cls]
    return cls(r)


def apply_operator(op: Any, a: Any, b: Any) -> Any:
    """`Operator` semantics shared by fold(seed, op), sack(op) and withSack merges."""
    if op is Operator.assign:
        return b
    if op in (Operator.sum, Operator.sumLong):
        return java_add(a, b)
    if op is Operator.minus:
        return java_add(a, -b if not isinstance(b, num.Byte | num.Short | num.Int | num.Long) else type(b)(-int(b)))
    if op is Operator.mult:
        cls = num.promote(a, b)
        if cls in _BOUNDS or cls is num.BigInt:
            return _widen(cls, int(a) * int(b))
        return num.wrap(cls, a * b)
    if op is Operator.div:
        cls = num.promote(a, b)
        if cls in _BOUNDS or cls is num.BigInt:
            q = abs(int(a)) // abs(int(b)) * (1 if (int(a) >= 0) == (int(b) >= 0) else -1)  # Java truncates
            return _widen(cls, q)
        return num.wrap(cls, a / b)
    if op is Operator.min:
        return a if order_compare(a, b) <= 0 else b
    if op is Operator.max:
        return a if order_compare(a, b) >= 0 else b
    if op is Operator.and_:
        return bool(a) and bool(b)
    if op is Operator.or_:
        return bool(a) or bool(b)
    if op is Operator.addAll:
        if isinstance(a, Mapping):
            return {**a, **b}
        if isinstance(a, set):
            return a | set(b)
        return list(a) + list(b)
    raise StepArgumentError(f"unsupported operator {op!r}")
