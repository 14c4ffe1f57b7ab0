"""`light.bounded_plain_ids(rows)`: one block that is `plain_ids()` and `budget.bounded(rows)`
at once (the REST handlers' inline attempt): inside it the answers and the budget are
those of the two nested blocks, `OverBudget` stops a run past the rows as `bounded` does,
and both context variables are back as they were after it, error or not."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gremlin_engine.algorithms import budget, light
from gremlin_engine.algorithms.budget import OverBudget
from gremlin_engine.graph import Graph
from gremlin_engine.runtime import direct_algorithms
from tests.algorithms.test_light_far_ids import _vid, graph  # noqa: F401  (the fixture: number and string ids)
from tests.algorithms.test_light_requests import ir_of


def _run(g: Graph, step: str, req: dict[str, Any]) -> Any:
    return direct_algorithms.traverse(g, ir_of(step, dict(req)))[0]


def _outcome(g: Graph, step: str, req: dict[str, Any], block: Any) -> Any:
    try:
        with block() as plain:
            got = _run(g, step, req)
            left = budget.current().left
        got.get("measure", {}).pop("cost(ns)", None)
        return got, left, plain.checked is not None
    except OverBudget:
        return "over budget"


def _nested(rows: int) -> Any:
    class Both:
        def __enter__(self) -> Any:
            self.plain = light.plain_ids()
            self.bounded = budget.bounded(rows)
            plain = self.plain.__enter__()
            self.bounded.__enter__()
            return plain

        def __exit__(self, *exc: object) -> None:
            self.bounded.__exit__(*exc)
            self.plain.__exit__(*exc)

    return Both()


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_one_block_is_the_two_nested(graph: Graph, step: str) -> None:  # noqa: F811
    kind = graph.test_kind  # type: ignore[attr-defined]
    over = 0
    for source, direction, depth, count_only, rows in itertools.product(
            (0, 3, 17), ("OUT", "IN", "BOTH"), (1, 2), (False, True), (2, 5, 2000)):
        req: dict[str, Any] = {"source": _vid(kind, source), "max_depth": depth, "direction": direction,
                               "count_only": count_only}
        one = _outcome(graph, step, req, lambda rows=rows: light.bounded_plain_ids(rows))
        two = _outcome(graph, step, req, lambda rows=rows: _nested(rows))
        assert one == two, req
        over += one == "over budget"
    assert over  # some runs were stopped by the budget
    assert budget.current() is None and light._PLAIN_IDS.get() is None
