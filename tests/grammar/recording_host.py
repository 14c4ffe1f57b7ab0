"""A ScriptHost test double that records calls (shared by tests/grammar and tests/sandbox).

The double stands in for the *host seam* only (`gremlin_engine/syntax/host.py`): it hands
out traversal sources and bindings and records what the interpreter asks of the runtime,
so these unit tests can check the produced TraversalIR without a graph."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gremlin_engine.syntax.host import BoundTraversal, TraversalSourceRef


@dataclass
class HostObject:
    """An opaque runtime object (a graph, a schema builder, a vertex) for call_method."""

    path: tuple[str, ...]


@dataclass
class RecordingHost:
    bindings: dict[str, Any] = field(default_factory=dict)
    runs: list[tuple[BoundTraversal, str, tuple[Any, ...]]] = field(default_factory=list)
    calls: list[tuple[Any, str, tuple[Any, ...]]] = field(default_factory=list)
    props: list[tuple[Any, str]] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)

    def lookup(self, name: str) -> Any:
        if name in ("g", "__g_hugegraph"):
            return TraversalSourceRef("hugegraph")
        if name in ("graph", "hugegraph"):
            return HostObject((name,))
        if name in self.bindings:
            return self.bindings[name]
        raise KeyError(name)

    def run(self, traversal: BoundTraversal, terminal: str, args: tuple[Any, ...] = ()) -> Any:
        self.runs.append((traversal, terminal, args))
        default = {"toList": ["r1", "r2"], "next": "r1", "hasNext": True, "iterate": None, "toSet": {"r1"}}
        return self.results.get(terminal, default.get(terminal))

    def call_method(self, target: Any, name: str, args: tuple[Any, ...]) -> Any:
        self.calls.append((target, name, args))
        if isinstance(target, TraversalSourceRef):
            return HostObject((target.graph, name))
        return HostObject((*target.path, name))

    def get_property(self, target: Any, name: str) -> Any:
        self.props.append((target, name))
        return f"{'.'.join(target.path)}.{name}"

    @property
    def touched(self) -> bool:
        return bool(self.runs or self.calls or self.props)
