"""Deciding up front whether a script or traversal may write.

SQLite cannot upgrade a read transaction to a write transaction, and a write transaction
takes the store's single writer lock, so each call must choose before it starts. Reads are
the common case and should never queue behind writers, so we look for the method names that
can change a graph (`addV`, `property`, `drop`, `schema()`, `addVertex`, `tx()` ...) in the
parsed script or the IR, nested traversals included, and open a write transaction only when
one appears. The scan is conservative (`v.property('name')` reads but counts as a write);
should it ever miss a write, storage refuses it (`ReadOnlyTransaction`) and `api.py` runs the
call again in a write transaction, so a wrong guess costs time, never correctness.

Steps say themselves that they write: a step class with `mutating = True` (the HugeGraph
write steps, and any step that sets it) is added to the list from the step registry, so a new
writing step cannot be forgotten here. Arguments of `inject()` are data, never run, so big
REST batches (`inject(item x 500).hgAddVertices()`) are not walked item by item.

Neither answer is remembered here: the registry's prepared-traversal cache keeps each one with
what it derives from the same text or shape (`traversal/prepared.py`: an IR shape's entry
asks `ir_may_write` once, a script's text asks `script_may_write` once), since a server sends
the same few texts and REST shapes over and over.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.syntax import ast
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.registry import REGISTRY

#: steps and host methods that may change data or schema, named here
_NAMED = frozenset({
    # traversal steps
    "addV", "addE", "property", "drop", "mergeV", "mergeE", "io", "call",
    # graph / element / schema methods reached through the host
    "addVertex", "addEdge", "remove", "schema", "tx", "variables", "commit", "rollback",
    "create", "append", "eliminate", "rebuildIndex",
})


def _declared() -> frozenset[str]:
    """Registry steps whose factory declares `mutating = True`: the loaded part of the table
    (its lazily imported families hold no writer; `tests/runtime/test_intent.py` checks the
    whole table, so a writer added there fails that test instead of going unseen)."""

    return frozenset(name for name, spec in REGISTRY.loaded_items() if getattr(spec.factory, "mutating", False))


#: every name that makes a script or traversal a writer
MUTATING = _NAMED | _declared()

#: steps whose arguments are plain data (never run as traversals)
_DATA_ARGS = frozenset({"inject"})


def script_may_write(tree: ast.Script) -> bool:
    """True when any method call or property access in the script has a mutating name."""
    stack: list[ast.Node] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.MethodCall | ast.PropertyGet) and node.name in MUTATING:
            return True
        stack.extend(ast.children(node))
    return False


def ir_may_write(ir: TraversalIR) -> bool:
    """True when the IR or any traversal nested in its arguments has a mutating step."""
    return _scan_ir(ir)


def _scan_ir(ir: TraversalIR) -> bool:
    stack: list[Any] = [ir]
    while stack:
        item = stack.pop()
        if isinstance(item, TraversalIR):
            for ins in (*item.source, *item.steps):
                if ins.name in MUTATING:
                    return True
                if ins.name not in _DATA_ARGS:
                    stack.extend(ins.args)
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return False
