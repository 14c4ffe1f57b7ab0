"""`traversers._json_ready`'s shortcut for the light answers' two shapes (a count, an id
listing, each with its `measure`) says what its general walk says, and `_body` writes the
bytes `to_json` would, for those shapes and their near misses."""

from __future__ import annotations

from typing import Any

import pytest

from gremlin_engine.structure.numbers import Long
from rest_adapter.context import json_bytes
from rest_adapter.resources import traversers as trav
from rest_adapter.serializers.hugegraph_json import to_json

M = {"edge_iterations": 3, "vertice_iterations": 1, "cost(ns)": 1200}


def _walk(result: Any) -> bool:
    """The general walk alone (what `_json_ready` answered before its shortcut)."""
    return type(result) is dict and trav._json_ready_walk(result)


IDS = [1, 2, 3]
CASES = [
    {"vertices_size": 3, "measure": dict(M)},
    {"vertices_size": Long(3), "measure": dict(M)},
    {"vertices_size": 3, "measure": {**M, "cost(ns)": Long(5)}},
    {"vertices_size": 3.0, "measure": dict(M)},
    {"vertices_size": True, "measure": dict(M)},
    {"vertices_size": 3, "measure": {**M, "cost(ns)": 1.5}},
    {"vertices_size": 3, "measure": {"edge_iterations": 3, "vertice_iterations": 1}},
    {"vertices_size": 3, "measure": {**M, "extra": 1}},
    {"vertices_size": 3, "measure": [1]},
    {"vertices_size": 3, "other": dict(M)},
    {"vertices": [1, Long(2), "1:marko"], "measure": dict(M)},
    {"vertices": IDS, "measure": dict(M)},
    {"vertices": [1, 2.5], "measure": dict(M)},
    {"vertices": (1, 2), "measure": dict(M)},
    {"vertices": [1, None], "measure": dict(M)},
    {"vertices": [], "measure": dict(M)},
    {"vertices": [1], "measure": dict(M), "x": 1},
    {"size": 3, "measure": dict(M)},
    {1: 3, "measure": dict(M)},
    [1, 2],
    {"vertices": [2**70], "measure": dict(M)},
]


@pytest.mark.parametrize("result", CASES, ids=[str(i) for i in range(len(CASES))])
def test_shortcut_answers_as_the_walk(result: Any) -> None:
    assert trav._json_ready(result) == _walk(result)


@pytest.mark.parametrize("result", [c for c in CASES if isinstance(c, dict) and all(isinstance(k, str) for k in c)])
def test_body_is_to_json(result: Any) -> None:
    class _Schema:
        def property_key(self, key: str) -> None:
            return None

    graph = type("G", (), {"schema": _Schema()})()
    assert trav._body(result, graph) == json_bytes(to_json(result, lambda key: None))
