"""The traversal IR: the one form every entry point lowers into.

Script text (via the interpreter), gremlinpython bytecode and REST handlers all produce a
`TraversalIR`: a list of source instructions (`withSideEffect`, `withSack`, `with`) and a
list of step instructions (`V`, `out`, `has`, ...), each `[name, *args]` exactly like
gremlinpython's Bytecode. Arguments are already-evaluated runtime values:

* numbers as `gremlin_engine.structure.numbers` types, str, bool, None, list, dict, set;
* tokens from `gremlin_engine.traversal.tokens` (`T.id`, `Order.desc`, ...);
* predicates from `gremlin_engine.traversal.predicates` (`P`, `TextP`);
* nested `TraversalIR` for anonymous traversals (`__.out()`), with `anonymous=True`;
* elements (`Vertex`, `Edge`) where a client passed them.

Nothing past this boundary sees parser trees or gremlinpython objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Instruction:
    """One `[name, *args]` step or source instruction. Immutable by convention: nothing
    assigns to one after it is built. A slotted class with a plain `__init__` rather than a
    frozen dataclass (whose `__init__` goes through `object.__setattr__`): every bytecode
    and REST request builds several, and this one costs about half as much."""

    __slots__ = ("name", "args", "pos")

    def __init__(self, name: str, args: tuple[Any, ...] = (), pos: tuple[int, int] | None = None) -> None:
        self.name = name
        self.args = args
        # (line, column) in the script this came from, for error messages; None for
        # bytecode/REST; not part of equality
        self.pos = pos

    def __eq__(self, other: object) -> bool:
        if type(other) is not Instruction:
            return NotImplemented
        return self.name == other.name and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __repr__(self) -> str:
        return f"{self.name}({', '.join(map(repr, self.args))})"


@dataclass(frozen=True)
class TraversalIR:
    source: tuple[Instruction, ...] = ()
    steps: tuple[Instruction, ...] = ()
    anonymous: bool = False

    def then(self, name: str, *args: Any, pos: tuple[int, int] | None = None) -> TraversalIR:
        """A new traversal with one more step (IR values are immutable)."""
        return TraversalIR(self.source, (*self.steps, Instruction(name, tuple(args), pos)), self.anonymous)

    def with_source(self, name: str, *args: Any) -> TraversalIR:
        return TraversalIR((*self.source, Instruction(name, tuple(args))), self.steps, self.anonymous)

    def __repr__(self) -> str:
        head = "__" if self.anonymous else "g"
        return ".".join([head, *map(repr, self.source), *map(repr, self.steps)])


def anonymous(*steps: tuple[Any, ...]) -> TraversalIR:
    """Builds `__.a(x).b(y)` from `("a", x), ("b", y)`: handy for REST handlers and tests."""
    return TraversalIR((), tuple(Instruction(s[0], tuple(s[1:])) for s in steps), True)
