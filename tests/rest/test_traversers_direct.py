"""Traverser requests by their direct plan (`runtime/direct_algorithms.py`) answer exactly as
through the session pipeline (`HUGELITE_DIRECT_PLANS=off`, here `direct.ENABLED = False`):
every request family, errors included, on a strict and an auto-mode file store, and the
budget fallback of light requests (an inline attempt stopped by its row budget reruns in
the pool, by its direct plan again)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import rest_adapter.resources.traversers as trav
from gremlin_engine.runtime import direct
from tests.algorithms.conftest import load_edges
from tests.algorithms.example_graph import load_example
from tests.conftest import SyncASGIClient, sqlite_app

GRAPHS = ("tg", "ta")  # strict (HugeGraph's example graph), auto (numbered vertices, `AUTO_EDGES`)
AUTO_EDGES = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (1, 4), (4, 5), (5, 6), (0, 0), (2, 0)]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncASGIClient]:
    with sqlite_app(tmp_path_factory.mktemp("direct"), dict(zip(GRAPHS, ("strict", "auto"), strict=True))) as (c, registry):
        load_example(lambda path, json: c.post(path, json=json), "/graphs/tg")
        load_edges(registry.get("ta"), 8, AUTO_EDGES, weights={e: 0.5 for e in AUTO_EDGES}, edge_label="knows")
        yield c


def _body(resp: Any) -> tuple[int, Any]:
    data = resp.json()
    if isinstance(data, dict) and isinstance(data.get("measure"), dict):
        data["measure"].pop("cost(ns)", None)
    return resp.status_code, data


def _call(client: SyncASGIClient, graph: str, method: str, path: str, body: Any) -> tuple[int, Any]:
    url = f"/graphs/{graph}/traversers/{path}"
    return _body(client.get(url) if method == "GET" else client.post(url, json=body))


STEP = {"properties": {}, "max_degree": 10000, "skip_degree": 100000}

REQUESTS: list[tuple[str, str, Any]] = [
    # k-out / k-neighbor: GET and POST forms, counts, paths, vertices, edges
    ("GET", 'kout?source="1:marko"&max_depth=1', None),
    ("GET", 'kout?source="1:marko"&max_depth=2&direction=OUT&count_only=true', None),
    ("GET", 'kout?source="1:marko"&max_depth=2&nearest=false&direction=BOTH', None),
    ("GET", 'kout?source="1:marko"&max_depth=3&label=knows&direction=OUT', None),
    ("GET", 'kneighbor?source="1:marko"&max_depth=2', None),
    ("GET", 'kneighbor?source="1:josh"&max_depth=1&direction=IN&max_degree=1', None),
    ("GET", 'kneighbor?source="1:marko"&max_depth=3&limit=3', None),
    ("POST", "kout", {"source": "1:marko", "max_depth": 2, "steps": {"direction": "BOTH"}, "with_path": True,
                      "with_vertex": True}),
    ("POST", "kout", {"source": "1:marko", "max_depth": 1, "nearest": True, "limit": 10000, "with_vertex": True,
                      "with_path": True, "with_edge": True,
                      "steps": {"direction": "BOTH",
                                "edge_steps": [{"label": "knows", "properties": {"weight": "P.gt(0.1)"}},
                                               {"label": "created", "properties": {"weight": "P.gt(0.1)"}}],
                                "vertex_steps": [{"label": "person", "properties": {"age": "P.lt(32)"}},
                                                 {"label": "software", "properties": {}}],
                                "max_degree": 10000, "skip_degree": 100000}}),
    ("POST", "kneighbor", {"source": "1:marko", "max_depth": 1, "steps": {"direction": "OUT"}, "with_edge": True,
                           "with_path": True}),
    ("POST", "kneighbor", {"source": "1:marko", "max_depth": 2, "steps": {"direction": "BOTH"}, "count_only": True}),
    # the other families
    ("GET", 'sameneighbors?vertex="1:marko"&other="1:josh"', None),
    ("GET", 'jaccardsimilarity?vertex="1:marko"&other="1:josh"', None),
    ("POST", "jaccardsimilarity", {"vertex": "1:marko", "top": 3,
                                   "step": {"direction": "BOTH", "labels": [], "max_degree": 10000,
                                            "skip_degree": 100000}}),
    ("GET", 'shortestpath?source="1:marko"&target="2:ripple"&max_depth=3', None),
    ("GET", 'allshortestpaths?source="1:marko"&target="2:ripple"&max_depth=3', None),
    ("GET", 'weightedshortestpath?source="1:marko"&target="2:ripple"&weight="weight"&with_vertex=true', None),
    ("GET", 'singlesourceshortestpath?source="1:marko"&with_vertex=true', None),
    ("POST", "multinodeshortestpath", {"vertices": {"ids": ["1:marko", "1:josh", "1:vadas", "2:ripple"]},
                                       "step": {"direction": "BOTH", "properties": {}}, "max_depth": 10,
                                       "capacity": 100000000, "with_vertex": True}),
    ("GET", 'paths?source="1:marko"&target="1:josh"&max_depth=5', None),
    ("POST", "paths", {"sources": {"ids": ["1:marko"]}, "targets": {"ids": ["1:peter"]},
                       "step": {"direction": "BOTH", "properties": {"weight": "P.gt(0.01)"}},
                       "max_depth": 10, "capacity": 100000000, "limit": 10000000, "with_vertex": False}),
    ("POST", "customizedpaths", {"sources": {"ids": [], "label": "person", "properties": {"name": "marko"}},
                                 "steps": [{"direction": "OUT", "labels": ["knows"], "weight_by": "weight",
                                            "max_degree": -1},
                                           {"direction": "OUT", "labels": ["created"], "default_weight": 8,
                                            "max_degree": -1, "sample": 1}],
                                 "sort_by": "INCR", "with_vertex": True, "capacity": -1, "limit": -1}),
    ("POST", "templatepaths", {"sources": {"ids": [], "label": "person", "properties": {"name": "vadas"}},
                               "targets": {"ids": [], "label": "software", "properties": {"name": "ripple"}},
                               "steps": [{"direction": "IN", "labels": ["knows"], **STEP},
                                         {"direction": "OUT", "labels": ["created"], **STEP},
                                         {"direction": "IN", "labels": ["created"], **STEP},
                                         {"direction": "OUT", "labels": ["created"], **STEP}],
                               "capacity": 10000, "limit": 10, "with_vertex": True}),
    ("GET", 'crosspoints?source="2:lop"&target="2:ripple"&max_depth=5&direction=IN', None),
    ("POST", "customizedcrosspoints", {"sources": {"ids": ["2:lop", "2:ripple"]},
                                       "path_patterns": [{"steps": [{"direction": "IN", "labels": ["created"],
                                                                     "max_degree": -1}]}],
                                       "with_path": True, "with_vertex": True, "capacity": -1, "limit": -1}),
    ("GET", 'rings?source="1:marko"&max_depth=2', None),
    ("GET", 'rays?source="1:marko"&max_depth=2&direction=OUT', None),
    ("POST", "fusiformsimilarity", {"sources": {"ids": [], "label": "person", "properties": {}}, "label": "created",
                                    "direction": "OUT", "min_neighbors": 1, "alpha": 0.5, "min_similars": 1,
                                    "top": 0, "group_property": "city", "min_groups": 1, "max_degree": 10000,
                                    "capacity": -1, "limit": -1, "with_intermediary": True, "with_vertex": True}),
    ("GET", 'adamicadar?vertex="1:marko"&other="2:ripple"&direction=BOTH', None),
    ("GET", 'resourceallocation?vertex="1:marko"&other="2:ripple"&direction=BOTH', None),
    ("POST", "count", {"source": "1:marko", "steps": [{"labels": ["knows"], "direction": "OUT"}],
                       "contains_traversed": True}),
    ("GET", 'edgeexist?source="1:marko"&target="1:josh"&label=knows', None),
    ("GET", 'vertices?ids="1:marko"&ids="2:lop"', None),
    ("GET", 'edges?ids="S1:josh>2>2>>S2:lop"&ids=S1:josh>2>2>>S2:ripple', None),
    ("GET", "vertices/shards?split_size=400", None),
    ("POST", "personalrank", {"source": "1:marko", "label": "created", "max_depth": 3, "with_label": "BOTH_LABEL"}),
    ("POST", "neighborrank", {"source": "1:marko", "alpha": 0.9, "capacity": -1,
                              "steps": [{"direction": "OUT", "labels": ["knows"], "max_degree": -1, "top": 100},
                                        {"direction": "OUT", "labels": ["created"], "max_degree": -1, "top": 100}]}),
]

AUTO_REQUESTS: list[tuple[str, str, Any]] = [
    ("GET", "kout?source=0&max_depth=1", None),
    ("GET", 'kout?source="0"&max_depth=2&direction=OUT', None),  # auto mode: "0" finds vertex 0
    ("GET", "kout?source=0&max_depth=2&direction=OUT&count_only=true&label=knows", None),
    ("GET", "kneighbor?source=2&max_depth=2", None),
    ("POST", "kout", {"source": 0, "max_depth": 2, "steps": {"direction": "OUT"}, "with_path": True,
                      "with_vertex": True, "with_edge": True}),
    ("POST", "kneighbor", {"source": 1, "max_depth": 2, "with_vertex": True,
                           "steps": {"direction": "BOTH", "edge_steps": [{"label": "knows",
                                                                           "properties": {"weight": "P.gt(0.1)"}}]}}),
    ("GET", "shortestpath?source=0&target=6&max_depth=6", None),
    ("GET", "paths?source=0&target=4&max_depth=4", None),
    ("GET", "sameneighbors?vertex=0&other=1", None),
    ("POST", "count", {"source": 0, "steps": [{"direction": "OUT"}, {"direction": "OUT"}]}),
    ("GET", "rays?source=3&max_depth=3&direction=OUT", None),
]

ERRORS: list[tuple[str, str, Any]] = [
    ("GET", 'kout?source="1:nobody"&max_depth=1', None),  # no such vertex
    ("GET", 'kout?source="1:marko"&max_depth=2&capacity=2&limit=1', None),  # capacity reached
    ("GET", 'kneighbor?source="1:marko"&max_depth=1&label=nolabel', None),  # strict: undefined label
    ("GET", 'kout?source="1:marko"&max_depth=0', None),  # bad depth
    ("GET", 'kout?max_depth=1', None),  # no source
    ("POST", "kout", {"source": "1:marko", "max_depth": 1, "steps": {"direction": "SIDEWAYS"}}),
    ("POST", "kneighbor", {"source": "1:marko", "max_depth": 1, "steps": {}, "count_only": True,
                           "with_vertex": True}),
    ("GET", 'shortestpath?source="1:marko"&target="1:nobody"&max_depth=3', None),
    ("POST", "paths", {"sources": {"ids": ["1:nobody"]}, "targets": {"ids": ["1:peter"]}, "step": {},
                       "max_depth": 3}),
]

AUTO_ERRORS: list[tuple[str, str, Any]] = [
    ("GET", "kout?source=99&max_depth=1", None),
    ("GET", "kout?source=0&max_depth=3&capacity=2&limit=1&direction=OUT", None),
    ("GET", "kneighbor?source=0&max_depth=1&max_degree=0", None),
]


def _both_ways(client: SyncASGIClient, runs: list[str], monkeypatch: pytest.MonkeyPatch, graph: str, method: str,
               path: str, body: Any) -> tuple[tuple[int, Any], tuple[int, Any]]:
    fast = _call(client, graph, method, path, body)
    assert runs, "the direct plan answered"
    runs.clear()
    monkeypatch.setattr(direct, "ENABLED", False)
    slow = _call(client, graph, method, path, body)
    assert runs == []
    monkeypatch.setattr(direct, "ENABLED", True)
    return fast, slow


@pytest.mark.parametrize(("graph", "method", "path", "body"),
                         [("tg", *r) for r in REQUESTS] + [("ta", *r) for r in AUTO_REQUESTS])
def test_every_family_answers_alike(client: SyncASGIClient, runs: list[str], monkeypatch: pytest.MonkeyPatch,
                                    graph: str, method: str, path: str, body: Any) -> None:
    fast, slow = _both_ways(client, runs, monkeypatch, graph, method, path, body)
    assert fast[0] in (200, 201), fast
    assert fast == slow


@pytest.mark.parametrize(("graph", "method", "path", "body"),
                         [("tg", *r) for r in ERRORS] + [("ta", *r) for r in AUTO_ERRORS])
def test_errors_answer_alike(client: SyncASGIClient, runs: list[str], monkeypatch: pytest.MonkeyPatch, graph: str,
                             method: str, path: str, body: Any) -> None:
    fast, slow = _both_ways(client, runs, monkeypatch, graph, method, path, body)
    assert fast == slow
    assert fast[0] == 400 and fast[1]["message"], fast


def test_the_error_texts(client: SyncASGIClient) -> None:
    status, body = _call(client, "tg", "GET", 'kout?source="1:nobody"&max_depth=1', None)
    assert (status, body["message"]) == (400, "The source vertex with id '1:nobody' does not exist")
    status, body = _call(client, "tg", "GET", 'kout?source="1:marko"&max_depth=2&capacity=2&limit=1', None)
    assert (status, body["message"]) == (400, "Reach capacity '2' while remaining depth '1'")
    status, body = _call(client, "tg", "GET", 'kneighbor?source="1:marko"&max_depth=1&label=nolabel', None)
    assert (status, body["message"]) == (400, "Undefined edge label: 'nolabel'")


def test_shard_scans_answer_alike(client: SyncASGIClient, runs: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for kind in ("vertices", "edges"):
        _, shards = _call(client, "tg", "GET", f"{kind}/shards?split_size=400", None)
        for s in shards["shards"]:
            path = f"{kind}/scan?start={s['start']}&end={s['end']}"
            fast, slow = _both_ways(client, runs, monkeypatch, "tg", "GET", path, None)
            assert fast[0] == 200 and fast == slow


@pytest.mark.parametrize(("graph", "source", "reached"), [("tg", '"1:marko"', ["1:josh", "1:vadas", "2:lop"]),
                                                         ("ta", "0", [1, 2])])
def test_over_budget_reruns_in_the_pool_by_the_direct_plan(
        client: SyncASGIClient, runs: list[str], monkeypatch: pytest.MonkeyPatch, graph: str, source: str,
        reached: list[Any]) -> None:
    hops: list[str] = []
    real = trav.run

    async def recording(fn: Any, *args: Any) -> Any:  # (graph, step, req), or (ir,) without a direct plan
        hops.append(args[1] if len(args) == 3 else args[0].steps[-1].name)
        return await real(fn, *args)

    monkeypatch.setattr(trav, "run", recording)
    path = f"kout?source={source}&max_depth=1&direction=OUT"
    inline = _call(client, graph, "GET", path, None)
    assert (runs, hops) == (["hg_kout"], [])  # within the budget: one direct run on the loop
    runs.clear()
    monkeypatch.setattr(trav, "INLINE_ROWS", 2)  # the source has three out-edges (vertex 0: one a self-loop)
    fallback = _call(client, graph, "GET", path, None)
    assert (runs, hops) == (["hg_kout", "hg_kout"], ["hg_kout"])  # stopped on the loop, rerun in the pool
    runs.clear()
    hops.clear()
    monkeypatch.setattr(direct, "ENABLED", False)
    pipeline = _call(client, graph, "GET", path, None)
    assert (runs, hops) == ([], ["hg_kout"])
    assert inline == fallback == pipeline
    assert sorted(inline[1]["vertices"]) == reached
