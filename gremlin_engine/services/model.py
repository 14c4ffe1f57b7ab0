"""What a `call()` service is (see the package docstring): the one type the registry and its
families share, in a module of its own so that a family needs nothing of the registry."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: runs a service: (context, input objects (None for a start call), one params map per input
#: (one map for a start call)) -> one list of results per input (one list for a start call)
Runner = Callable[[Any, Sequence[Any] | None, Sequence[Mapping[str, Any]]], list[list[Any]]]


@dataclass(frozen=True)
class Service:
    name: str
    run: Runner
    start: bool = True  # may begin a traversal: g.call(name)
    streaming: bool = False  # may run mid-traversal: V().call(name)
    params: Mapping[str, str] = field(default_factory=dict)  # name -> what it means

    def describe(self) -> dict[str, Any]:
        kinds = [k for k, on in (("Start", self.start), ("Streaming", self.streaming)) if on]
        return {"type": kinds, "params": dict(self.params)}
