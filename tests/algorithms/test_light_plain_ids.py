"""`light.plain_ids()`: inside it a light k-out / k-neighbor listing gives integer ids as
plain ints (what the REST handlers write as JSON), equal in value and order to the `Long`s
given outside it; string ids, counts and answers run on a worker thread (a copied context)
behave alike; and the block leaves nothing behind."""

from __future__ import annotations

import contextvars
import itertools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import pytest

from gremlin_engine.algorithms import light
from gremlin_engine.graph import Graph
from gremlin_engine.runtime import direct_algorithms
from gremlin_engine.structure.numbers import Long
from tests.algorithms.test_light_far_ids import _vid, graph  # noqa: F401  (the fixture: number and string ids)
from tests.algorithms.test_light_requests import ir_of


def _run(g: Graph, step: str, req: dict[str, Any]) -> Any:
    return direct_algorithms.traverse(g, ir_of(step, dict(req)))[0]


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_plain_ints_inside_longs_outside(graph: Graph, step: str) -> None:  # noqa: F811
    kind = graph.test_kind  # type: ignore[attr-defined]
    listed = 0
    for source, direction, depth, count_only in itertools.product((0, 3, 17), ("OUT", "IN", "BOTH"), (1, 2),
                                                                   (False, True)):
        req: dict[str, Any] = {"source": _vid(kind, source), "max_depth": depth, "direction": direction,
                               "count_only": count_only}
        typed = _run(graph, step, req)
        with light.plain_ids():
            plain = _run(graph, step, req)
        assert plain.keys() == typed.keys()
        if count_only:
            assert plain["vertices_size"] == typed["vertices_size"]
            continue
        assert plain["vertices"] == typed["vertices"]  # same values, same order
        assert orjson.dumps(plain["vertices"]) == orjson.dumps(typed["vertices"])
        want_typed, want_plain = (Long, int) if kind == "number" else (str, str)
        assert all(type(x) is want_typed for x in typed["vertices"])
        assert all(type(x) is want_plain for x in plain["vertices"])
        listed += len(plain["vertices"])
    assert listed > 50
    assert all(type(x) is (Long if kind == "number" else str)
               for x in _run(graph, step, {"source": _vid(kind, 0), "max_depth": 2})["vertices"])


def test_a_worker_thread_sees_the_block(graph: Graph) -> None:  # noqa: F811
    """As the REST handlers' pool runs: the context is copied at submission."""
    req = {"source": _vid(graph.test_kind, 0), "max_depth": 2}  # type: ignore[attr-defined]
    with ThreadPoolExecutor(1) as pool:
        with light.plain_ids():
            inside = pool.submit(contextvars.copy_context().run, _run, graph, "hg_kout", req).result()
        outside = pool.submit(contextvars.copy_context().run, _run, graph, "hg_kout", req).result()
    assert inside["vertices"] == outside["vertices"] and inside["vertices"]
    if graph.test_kind == "number":  # type: ignore[attr-defined]
        assert {type(x) for x in inside["vertices"]} == {int}
        assert {type(x) for x in outside["vertices"]} == {Long}


def test_checked_is_the_listed_int_list(graph: Graph) -> None:  # noqa: F811
    """`plain_ids.checked` is the very id list of a listing of plain ints (the REST body
    skips its type walk for it), None for string ids, counts and outside listings."""
    kind = graph.test_kind  # type: ignore[attr-defined]
    for step in ("hg_kout", "hg_kneighbor"):
        with light.plain_ids() as plain:
            got = _run(graph, step, {"source": _vid(kind, 0), "max_depth": 2})
        assert got["vertices"]
        if kind == "number":
            assert plain.checked is got["vertices"]
        else:
            assert plain.checked is None
        with light.plain_ids() as plain:
            _run(graph, step, {"source": _vid(kind, 0), "max_depth": 2, "count_only": True})
        assert plain.checked is None


@pytest.mark.parametrize("step", ["hg_kout", "hg_kneighbor"])
def test_limited_listings_keep_their_ids(graph: Graph, step: str) -> None:  # noqa: F811
    """A k-out's answer layer's ids come from the layer's own key -> id dict (cut to the
    limit); every limit gives the unlimited answer's prefix, plain ints or Longs alike."""
    kind = graph.test_kind  # type: ignore[attr-defined]
    for source, direction, depth in itertools.product((0, 3, 17), ("OUT", "BOTH"), (1, 2)):
        req: dict[str, Any] = {"source": _vid(kind, source), "max_depth": depth, "direction": direction,
                               "limit": -1, "capacity": -1}
        whole = _run(graph, step, req)["vertices"]
        for lim in (1, 2, 3, 5, len(whole) - 1, len(whole)):
            if lim < 1:
                continue
            typed = _run(graph, step, {**req, "limit": lim})["vertices"]
            with light.plain_ids():
                plain = _run(graph, step, {**req, "limit": lim})["vertices"]
            assert typed == plain
            if step == "hg_kout":
                assert typed == whole[:lim]
            else:
                assert len(typed) == min(lim, len(whole)) and typed == whole[:len(typed)]
