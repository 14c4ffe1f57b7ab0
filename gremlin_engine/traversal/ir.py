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

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Instruction:
    name: str
    args: tuple[Any, ...] = ()
    # (line, column) in the script this came from, for error messages; None for bytecode/REST
    pos: tuple[int, int] | None = field(default=None, compare=False)

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
