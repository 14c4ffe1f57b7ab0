"""The size bounds of what a script computes and returns (`gremlin_engine/limits.py`).

A script's own arithmetic runs in the interpreter, between the traversal steps that poll a
CancelToken, so it is bounded here: every string or list an operator builds and every
collection literal is weighed (`MAX_VALUE_SIZE`, and `MAX_SCRIPT_VALUE_BUDGET` for the run),
and BigIntegers are bounded in bits (`MAX_BIGINT_BITS`); the results a script sends back are
weighed by `structure/result_size.py`, as every engine result is. A value shared N times weighs
N times its own weight: `a = [x, x, ...]; b = [a, a, ...]` is small in memory and
exponential once written out. Host handles (`graph.schema()`, schema builders) never leave
a script: they may not be arguments, and a result shows only their class name.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine import limits
from gremlin_engine.errors import LimitExceeded

_CONTAINERS = (list, tuple, set, frozenset, dict)


class ValueBounds:
    """One script run's weighing: the budget, and the weights of containers already seen."""

    def __init__(self, cancel: Any = None) -> None:
        self.budget = limits.ScriptBudget(cancel)
        # expanded sizes of the containers weighed so far, by id; the containers are kept
        # alive in `_weighed` so that an id is never reused for another object
        self._weights: dict[int, int] = {}
        self._weighed: list[Any] = []

    def weight(self, value: Any) -> int:
        """The expanded size of a value: characters of a string, 1 for a scalar, the sum of
        its items' weights for a container (keys and values for a map), counting a value
        shared N times N times. Stops counting past the larger of the two budgets."""
        if isinstance(value, str | bytes):
            return len(value)
        if not isinstance(value, _CONTAINERS):
            return 1
        known = self._weights.get(id(value))
        if known is not None:
            return known
        cap = self.budget.limit + 1
        total = 0 if value else 1
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        for item in items:
            if total >= cap:
                break
            total += self.weight(item)
        total = min(total, cap)
        self._weights[id(value)] = total
        self._weighed.append(value)
        return total

    def sized(self, value: Any, what: str) -> Any:
        """`value` once its weight is within MAX_VALUE_SIZE and the script's budget."""
        try:
            size = self.weight(value)
        except RecursionError:
            size = limits.MAX_VALUE_SIZE + 1
        if size > limits.MAX_VALUE_SIZE:
            raise LimitExceeded(
                f"{what} is too large: {min(size, self.budget.limit):,} characters and items "
                f"(MAX_VALUE_SIZE is {limits.MAX_VALUE_SIZE:,})"
            )
        self.budget.spend(size, what)
        return value

    def number(self, result: Any, what: str) -> Any:
        """An operator's numeric result once within MAX_BIGINT_BITS."""
        if isinstance(result, int) and not isinstance(result, bool) and result.bit_length() > limits.MAX_BIGINT_BITS:
            raise LimitExceeded(
                f"{what} makes a number of {result.bit_length():,} bits (MAX_BIGINT_BITS is {limits.MAX_BIGINT_BITS:,})"
            )
        self.budget.spend(1, what)
        return result


def is_handle(v: Any, plain: bool) -> bool:
    """An object of the runtime with Python's default repr (`plain`: whether it is a value
    the script language owns): what a script may call methods on, never what a result may
    show (`<...SchemaManager object at 0x7f...>` tells a client the module layout and a heap
    address)."""
    return type(v).__repr__ is object.__repr__ and not plain
