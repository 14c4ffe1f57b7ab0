"""`direct_scripts.find` answers a one-name script's signature inline: it must find exactly
the plan `learn` stored under `_signature` for every kind of binding (ints of each width
and Java type, strings, UUIDs, unslottable values, an unbound name, no bindings at all)."""

from __future__ import annotations

import uuid
from typing import Any

from gremlin_engine.graph import GraphConfig, GraphRegistry
from gremlin_engine.runtime import direct_scripts
from gremlin_engine.structure.numbers import Int, Long

VALUES: list[Any] = [0, 1, -1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, Int(5), Long(5), Long(2**40),
                     True, 1.5, "x", "", uuid.UUID(int=7), None, [1], {"a": 1}]


def test_inline_one_name_signature_finds_the_learnt_plan() -> None:
    registry = GraphRegistry(evaluation_timeout_ms=0)
    registry.open(GraphConfig(name="hugegraph", backend="memory"))
    try:
        table = registry.direct_scripts
        assert table is not None
        entry = direct_scripts._Entry(("v",))
        table[("s", "hugegraph", ())] = entry
        stored: dict[Any, Any] = {}
        for i, value in enumerate(VALUES):
            sig = direct_scripts._signature(("v",), {"v": value})
            stored.setdefault(sig, f"plan{i}")
            entry.plans.setdefault(sig, stored[sig])
        entry.plans[direct_scripts._signature(("v",), {})] = "unbound"
        for value in VALUES:
            want = stored[direct_scripts._signature(("v",), {"v": value})]
            assert direct_scripts.find(registry, "hugegraph", "s", {"v": value}, None) == want, value
            assert direct_scripts.find(registry, "hugegraph", "s", {"v": value, "w": 1}, {}) == want, value
        assert direct_scripts.find(registry, "hugegraph", "s", {"w": 1}, None) == "unbound"
        assert direct_scripts.find(registry, "hugegraph", "s", None, None) == "unbound"
        assert direct_scripts.find(registry, "hugegraph", "s", {}, None) == "unbound"
        assert direct_scripts.find(registry, "hugegraph", "other", {"v": 1}, None) is direct_scripts.LEARN
        assert direct_scripts.find(registry, "hugegraph", "s", {"v": 1}, {"g": "x"}) is direct_scripts.LEARN
        del entry.plans[direct_scripts._signature(("v",), {"v": "x"})]
        assert direct_scripts.find(registry, "hugegraph", "s", {"v": "y"}, None) is direct_scripts.LEARN
    finally:
        registry.close_all()
