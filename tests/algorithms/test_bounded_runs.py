"""Bounded runs (`gremlin_engine/algorithms/budget.py`), the way a server tries a light
k-out / k-neighbor on its event loop:

* storage's capped reads `tx.adjacent_targets(..., max_rows=n)` give n rows of the full
  answer (or all of it), `tx.adjacent_keys(..., max_rows=n)` its first n pairs in order,
  and both refuse the one form they cannot cap ('both' with a per-vertex limit);
* a bounded run either answers exactly what the unbounded run answers (same result, same
  error) having read no more rows than its budget, or stops with `OverBudget`; a budget
  above every edge of the graph always lets it finish;
* a hub stops a small budget after reading at most budget + 1 rows.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gremlin_engine.algorithms.budget import OverBudget, bounded, current
from gremlin_engine.errors import HugeliteError
from storage.errors import StoreError
from tests.algorithms.conftest import run_step
from tests.algorithms.test_fast_paths import SETTINGS, build, multigraphs

_count = itertools.count()


@SETTINGS
@given(multigraphs(), st.sampled_from(["out", "in", "both"]), st.sampled_from([None, 1, 2]),
       st.integers(0, 12))
def test_capped_targets_are_part_of_the_full_answer(registry: Any, gr: Any, direction: str, limit: Any,
                                                    max_rows: int) -> None:
    n, edges = gr
    g = build(registry, f"c{next(_count)}", n, edges)
    with g.store.read() as tx:
        keys = [r.key for r in tx.vertices_by_ids(list(range(n)))]
        if direction == "both" and limit is not None:
            with pytest.raises(StoreError):
                tx.adjacent_targets(keys, direction, None, limit, max_rows=max_rows)
            return
        full = Counter(tx.adjacent_targets(keys, direction, None, limit))
        capped = Counter(tx.adjacent_targets(keys, direction, None, limit, max_rows=max_rows))
        assert sum(capped.values()) == min(max_rows, sum(full.values()))
        assert not capped - full


@SETTINGS
@given(multigraphs(), st.sampled_from(["out", "in", "both"]), st.sampled_from([None, 1, 2]),
       st.integers(0, 12))
def test_capped_pairs_are_the_first_of_the_ordered_answer(registry: Any, gr: Any, direction: str, limit: Any,
                                                          max_rows: int) -> None:
    """`tx.adjacent_keys(..., max_rows=n)`, the ordered read of a bounded listing run: the
    first n pairs of the full answer in its order (so n + 1 rows or fewer tell "more than
    n" from "all of it"), refused for 'both' with a per-vertex limit."""
    n, edges = gr
    g = build(registry, f"p{next(_count)}", n, edges)
    with g.store.read() as tx:
        keys = [r.key for r in tx.vertices_by_ids(list(range(n)))][::-1]
        if direction == "both" and limit is not None:
            with pytest.raises(StoreError):
                tx.adjacent_keys(keys, direction, None, limit, max_rows=max_rows)
            return
        full = tx.adjacent_keys(keys, direction, None, limit)
        assert tx.adjacent_keys(keys, direction, None, limit, max_rows=max_rows) == full[:max_rows]


def _requests() -> Any:
    get_form = st.fixed_dictionaries(
        {"source": st.integers(0, 6), "max_depth": st.integers(1, 3)},
        optional={
            "direction": st.sampled_from(["OUT", "IN", "BOTH"]),
            "label": st.sampled_from(["a", "b"]),
            "max_degree": st.sampled_from([-1, 1, 2, 3]),
            "skip_degree": st.sampled_from([0, 3, 4]),
            "count_only": st.booleans(),
            "nearest": st.booleans(),
            "limit": st.sampled_from([-1, 2, 5]),
            "capacity": st.sampled_from([-1, 4, 100]),
        })
    steps = st.fixed_dictionaries(
        {"direction": st.sampled_from(["OUT", "IN", "BOTH"])},
        optional={"edge_steps": st.sampled_from([[{"label": "a"}], [{"label": "a"}, {"label": "b"}]]),
                  "max_degree": st.sampled_from([-1, 2]), "skip_degree": st.sampled_from([0, 3])})
    post_form = st.fixed_dictionaries(
        {"source": st.integers(0, 6), "max_depth": st.integers(1, 3), "steps": steps},
        optional={"count_only": st.booleans(), "with_path": st.booleans(), "with_vertex": st.booleans(),
                  "with_edge": st.booleans(), "limit": st.sampled_from([-1, 3])})
    return st.one_of(get_form, post_form)


def _outcome(graph: Any, step: str, req: dict[str, Any]) -> Any:
    """The result (its timing left out), or the error's class and message."""
    try:
        got = run_step(graph, step, dict(req))
    except HugeliteError as e:
        return ("error", type(e).__name__, str(e))
    got.get("measure", {}).pop("cost(ns)", None)
    return got


@settings(SETTINGS, max_examples=80)
@given(multigraphs(), st.sampled_from(["hg_kout", "hg_kneighbor"]), _requests(),
       st.sampled_from([1, 2, 3, 5, 8, 1000]))
def test_a_bounded_run_answers_as_the_unbounded_run_or_stops(registry: Any, gr: Any, step: str,
                                                               req: dict[str, Any], budget: int) -> None:
    n, edges = gr
    g = build(registry, f"b{next(_count)}", n, edges)
    if req["source"] >= n:
        req["source"] = n - 1
    want = _outcome(g, step, req)
    try:
        with bounded(budget) as b:
            got = _outcome(g, step, req)
    except OverBudget:
        assert budget < 1000, req  # these graphs hold at most 28 edges: 1000 rows always fit
        return
    assert got == want
    assert b.left >= 0
    if isinstance(got, dict) and "measure" in got:
        assert got["measure"]["edge_iterations"] <= budget
    assert current() is None


def test_a_hub_stops_a_small_budget_after_a_capped_read(registry: Any) -> None:
    hub = [(0, i, "a") for i in range(1, 40)]
    g = build(registry, "hub", 40, hub)
    req = {"source": 0, "max_depth": 1, "direction": "OUT", "max_degree": -1, "count_only": True}
    assert run_step(g, "hg_kout", req)["vertices_size"] == 39
    with pytest.raises(OverBudget), bounded(10) as b:
        run_step(g, "hg_kout", req)
    assert b.left == 10  # the capped count (11 rows) found too many: nothing was spent
    with bounded(39) as b:
        assert run_step(g, "hg_kout", req)["vertices_size"] == 39
    assert b.left == 0
    # listing (ordered) reads: counted first, then read in adjacency order
    listed = run_step(g, "hg_kout", {**req, "count_only": False})["vertices"]
    with bounded(39):
        assert run_step(g, "hg_kout", {**req, "count_only": False})["vertices"] == listed
    # a caller's own per-vertex limit bounds the read in advance
    with bounded(5) as b:
        assert run_step(g, "hg_kneighbor", {**req, "max_degree": 5, "limit": -1})["vertices_size"] == 6
    assert b.left == 0


def test_property_rules_are_counted_on_storage_keys(make_graph: Any) -> None:
    g = make_graph(4, [(0, 1), (0, 2), (0, 3)], weights={(0, 1): 2.0, (0, 2): 0.5, (0, 3): 3.0})
    req = {"source": 0, "max_depth": 1, "steps": {"direction": "OUT",
                                                   "edge_steps": [{"label": "e", "properties": {"weight": "P.gt(1)"}}]}}
    assert run_step(g, "hg_kout", req)["kout"] == [1, 3]
    with bounded(3) as b:  # the rule is tested in Python on every edge: all three are read
        assert run_step(g, "hg_kout", req)["kout"] == [1, 3]
    assert b.left == 0
    with pytest.raises(OverBudget), bounded(2):
        run_step(g, "hg_kout", req)
