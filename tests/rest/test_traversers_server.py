"""Every traverser and rank endpoint, its limits and its 400s, through httpx against a real
uvicorn server (sqlite store, strict schema), plus shards + scan over 100k elements."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from gremlin_engine.graph import GraphConfig, GraphRegistry
from gremlin_engine.runtime.access import StoreAccess
from tests.algorithms.example_graph import load_example
from tests.backends import sqlite_only

G = "/graphs/tg"
T = f"{G}/traversers"


@pytest.fixture(scope="module")
def http(server_factory: Any) -> Any:
    server = server_factory.start(graphs={"tg": "backend=sqlite\nstore=data/tg.db\nschema.mode=strict\n"})
    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        load_example(client.post, G)
        yield client


def ok(resp: httpx.Response, status: int = 200) -> Any:
    assert resp.status_code == status, resp.text
    return resp.json()


def bad(resp: httpx.Response, *words: str) -> str:
    assert resp.status_code == 400, resp.text
    message = resp.json()["message"]
    for w in words:
        assert w in message, message
    return message


GETS = [
    ('kout?source="1:marko"&max_depth=1', "vertices"),
    ('kneighbor?source="1:marko"&max_depth=1', "vertices"),
    ('sameneighbors?vertex="1:marko"&other="1:josh"', "same_neighbors"),
    ('jaccardsimilarity?vertex="1:marko"&other="1:josh"', "jaccard_similarity"),
    ('shortestpath?source="1:marko"&target="2:ripple"&max_depth=3', "path"),
    ('allshortestpaths?source="1:marko"&target="2:ripple"&max_depth=3', "paths"),
    ('weightedshortestpath?source="1:marko"&target="2:ripple"&weight=weight', "path"),
    ('singlesourceshortestpath?source="1:marko"', "paths"),
    ('paths?source="1:marko"&target="1:josh"&max_depth=3', "paths"),
    ('crosspoints?source="2:lop"&target="2:ripple"&max_depth=2&direction=IN', "crosspoints"),
    ('rings?source="1:marko"&max_depth=3', "rings"),
    ('rays?source="1:marko"&max_depth=2&direction=OUT', "rays"),
    ('adamicadar?vertex="1:marko"&other="1:peter"', "adamic_adar"),
    ('resourceallocation?vertex="1:marko"&other="1:peter"', "resource_allocation"),
    ('edgeexist?source="1:marko"&target="1:josh"', "edges"),
    ('vertices?ids="1:marko"', "vertices"),
    ("edges?ids=S1:josh>2>2>>S2:lop", "edges"),
    ("vertices/shards?split_size=1048576", "shards"),
    ("vertices/scan?start=0&end=100", "vertices"),
    ("edges/shards?split_size=1048576", "shards"),
    ("edges/scan?start=0&end=100", "edges"),
]


@pytest.mark.parametrize(("path", "key"), GETS)
def test_every_get_endpoint(http: httpx.Client, path: str, key: str) -> None:
    body = ok(http.get(f"{T}/{path}"))
    assert key in body and body[key] not in (None, [], {})
    same = ok(http.get(f"/graphspaces/DEFAULT{T}/{path}"))
    assert same[key] == body[key]


POSTS = [
    ("kout", {"source": "1:marko", "steps": {"direction": "OUT"}, "max_depth": 1}, 200, "kout"),
    ("kneighbor", {"source": "1:marko", "steps": {}, "max_depth": 1}, 200, "kneighbor"),
    ("sameneighbors", {"vertex_list": ["1:marko", "1:josh"]}, 200, "same_neighbors"),
    ("jaccardsimilarity", {"vertex": "1:marko", "step": {}}, 200, "jaccard_similarity"),
    ("multinodeshortestpath", {"vertices": {"ids": ["1:marko", "2:ripple"]}, "step": {}, "max_depth": 3}, 200, "paths"),
    ("paths", {"sources": {"ids": ["1:marko"]}, "targets": {"ids": ["2:ripple"]}, "step": {}, "max_depth": 3}, 200,
     "paths"),
    ("customizedpaths", {"sources": {"ids": ["1:marko"]}, "steps": [{"direction": "OUT"}]}, 201, "paths"),
    ("templatepaths", {"sources": {"ids": ["1:marko"]}, "targets": {"ids": ["2:ripple"]},
                       "steps": [{"direction": "OUT", "max_times": 2}]}, 200, "paths"),
    ("customizedcrosspoints", {"sources": {"ids": ["2:lop", "2:ripple"]},
                               "path_patterns": [{"steps": [{"direction": "IN"}]}]}, 201, "crosspoints"),
    ("fusiformsimilarity", {"sources": {"ids": ["1:josh"]}, "label": "created", "direction": "OUT",
                            "min_neighbors": 1, "alpha": 0.5}, 200, "similars"),
    ("count", {"source": "1:marko", "steps": [{"direction": "OUT"}, {"direction": "OUT"}]}, 200, "count"),
    ("personalrank", {"source": "1:marko", "label": "created"}, 200, "2:ripple"),
    ("neighborrank", {"source": "1:marko", "alpha": 0.9, "steps": [{"direction": "OUT"}]}, 200, "ranks"),
]


@pytest.mark.parametrize(("path", "body", "status", "key"), POSTS)
def test_every_post_endpoint(http: httpx.Client, path: str, body: dict[str, Any], status: int, key: str) -> None:
    got = ok(http.post(f"{T}/{path}", json=body), status)
    assert key in got and got[key] not in (None, [], {})


def test_measure_where_hugegraph_has_one(http: httpx.Client) -> None:
    assert "measure" in ok(http.get(f'{T}/kout?source="1:marko"&max_depth=1'))
    assert "measure" not in ok(http.post(f"{T}/count", json={"source": "1:marko", "steps": [{}]}))
    assert "measure" not in ok(http.get(f'{T}/vertices?ids="1:marko"'))


def test_max_degree_keeps_first_edges_in_adjacency_order(http: httpx.Client) -> None:
    # marko's OUT edges: knows (label 1) josh (date 2013), vadas (2016), then created lop
    body = ok(http.get(f'{T}/kout?source="1:marko"&max_depth=1&direction=OUT&max_degree=2'))
    assert body["vertices"] == ["1:josh", "1:vadas"]
    body = ok(http.get(f'{T}/kout?source="1:marko"&max_depth=1&direction=OUT&max_degree=-1'))
    assert body["vertices"] == ["1:josh", "1:vadas", "2:lop"]


def test_skip_degree_treats_super_nodes_as_edgeless(http: httpx.Client) -> None:
    # lop has 3 IN edges: with skip_degree 3 (>= max_degree 3) lop counts as having none
    base = f'{T}/shortestpath?source="1:peter"&target="1:marko"&max_depth=4'
    assert ok(http.get(base))["path"] == ["1:peter", "2:lop", "1:marko"]
    assert ok(http.get(f"{base}&max_degree=3&skip_degree=3"))["path"] == []
    bad(http.get(f"{base}&max_degree=3&skip_degree=2"), "skipped degree", "'2'", "max degree '3'")
    bad(http.get(f"{base}&skip_degree=900000"), "skipped degree must be in [0, 800000]")


def test_capacity_and_limit(http: httpx.Client) -> None:
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=3&capacity=2&limit=1'), "Reach capacity '2'")
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=1&capacity=5&limit=-1'),
        "Capacity can't be less than limit", "'5'", "'-1'")
    assert ok(http.get(f'{T}/kout?source="1:marko"&max_depth=1&capacity=-1&limit=-1'))["vertices"]
    assert len(ok(http.get(f'{T}/kout?source="1:marko"&max_depth=1&limit=2'))["vertices"]) == 2
    assert len(ok(http.get(f'{T}/kneighbor?source="1:marko"&max_depth=2&limit=3'))["vertices"]) == 3
    assert len(ok(http.get(f'{T}/paths?source="1:marko"&target="1:josh"&max_depth=3&limit=1'))["paths"]) == 1
    bad(http.get(f'{T}/rays?source="1:marko"&max_depth=3&capacity=2'), "Exceed capacity '2'", "rays")
    bad(http.get(f'{T}/paths?source="1:marko"&target="1:josh"&max_depth=3&capacity=0'), "capacity", "-1")
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=1&max_degree=0'), "max degree", "0")
    bad(http.get(f'{T}/rings?source="1:marko"&max_depth=2&limit=-5'), "limit", "-5")
    assert ok(http.post(f"{T}/kout", json={"source": "1:marko", "steps": {}, "max_depth": 2,
                                           "count_only": True}))["size"] == 2


def test_nearest_and_source_in_ring(http: httpx.Client) -> None:
    assert set(ok(http.get(f'{T}/kout?source="1:marko"&max_depth=2'))["vertices"]) == {"2:ripple", "1:peter"}
    far = set(ok(http.get(f'{T}/kout?source="1:marko"&max_depth=2&nearest=false'))["vertices"])
    assert far == {"2:ripple", "1:peter", "2:lop", "1:josh"}
    # lop <- josh, lop <- marko -> josh: under BOTH there are rings through josh/lop
    rings = ok(http.get(f'{T}/rings?source="1:marko"&max_depth=3'))["rings"]
    assert [r["objects"][0] == r["objects"][-1] == "1:marko" for r in rings] == [True] * len(rings)
    free = ok(http.get(f'{T}/rings?source="1:vadas"&max_depth=4&source_in_ring=false'))["rings"]
    assert free and all(r["objects"][0] == "1:vadas" and r["objects"][-1] != "1:vadas" for r in free)
    assert ok(http.get(f'{T}/rings?source="1:vadas"&max_depth=4'))["rings"] == []


def test_with_vertex_with_path_with_edge(http: httpx.Client) -> None:
    body = ok(http.post(f"{T}/kneighbor", json={"source": "1:marko", "steps": {"direction": "OUT"}, "max_depth": 2,
                                                "with_path": True, "with_vertex": True, "with_edge": True}))
    assert all(isinstance(v, dict) and v["type"] == "vertex" for v in body["vertices"])
    assert all(isinstance(e, dict) and e["type"] == "edge" for e in body["edges"])
    assert {tuple(p["objects"]) for p in body["paths"]} >= {("1:marko", "1:josh", "2:ripple")}
    bad(http.post(f"{T}/kout", json={"source": "1:marko", "steps": {}, "max_depth": 1, "count_only": True,
                                     "with_path": True}), "Can't return vertex, edge or path when count only")
    short = ok(http.get(f'{T}/shortestpath?source="1:marko"&target="2:ripple"&max_depth=3&with_vertex=true'
                        "&with_edge=true"))
    assert [v["id"] for v in short["vertices"]] == short["path"] and len(short["edges"]) == 2


def test_sort_by_weights_and_sample(http: httpx.Client) -> None:
    body = {"sources": {"ids": ["1:marko"]}, "steps": [{"direction": "OUT", "weight_by": "weight"}],
            "sort_by": "DECR", "limit": -1}
    got = ok(http.post(f"{T}/customizedpaths", json=body), 201)["paths"]
    assert [p["weights"] for p in got] == [[1.0], [0.5], [0.4]]
    body["sort_by"] = "INCR"
    assert [p["weights"][0] for p in ok(http.post(f"{T}/customizedpaths", json=body), 201)["paths"]] == [0.4, 0.5, 1.0]
    body["steps"] = [{"direction": "OUT", "weight_by": "weight", "default_weight": 2}]
    bad(http.post(f"{T}/customizedpaths", json=body), "weight_by", "default_weight")
    body["steps"] = [{"direction": "OUT", "sample": 1}]
    body["sort_by"] = "NONE"
    sampled = ok(http.post(f"{T}/customizedpaths", json=body), 201)["paths"]  # 1 of marko's 3 edges, at random
    assert len(sampled) == 1 and sampled[0]["objects"][0] == "1:marko"
    assert sampled[0]["objects"][1] in {"1:josh", "1:vadas", "2:lop"}
    assert ok(http.post(f"{T}/customizedpaths", json=body), 201)["paths"] == sampled  # seeded by the request
    body["steps"] = [{"direction": "OUT", "sample": 0}]
    bad(http.post(f"{T}/customizedpaths", json=body), "sample")


def test_rank_parameters(http: httpx.Client) -> None:
    base = {"source": "1:marko", "label": "created"}
    ranks = ok(http.post(f"{T}/personalrank", json={**base, "with_label": "SAME_LABEL"}))
    assert set(ranks) == {"1:josh", "1:peter"}
    assert len(ok(http.post(f"{T}/personalrank", json={**base, "limit": 1}))) == 1
    unsorted = ok(http.post(f"{T}/personalrank", json={**base, "sorted": False}))
    assert set(unsorted) == {"2:ripple", "1:josh", "1:peter"}
    bad(http.post(f"{T}/personalrank", json={**base, "alpha": 0}), "alpha", "(0, 1]")
    bad(http.post(f"{T}/personalrank", json={**base, "alpha": 1.5}), "alpha")
    bad(http.post(f"{T}/personalrank", json={**base, "max_depth": 1}), "max_depth", "[2, 50]")
    bad(http.post(f"{T}/personalrank", json={**base, "max_depth": 51}), "max_depth")
    bad(http.post(f"{T}/personalrank", json={**base, "max_diff": 2}), "max_diff")
    bad(http.post(f"{T}/personalrank", json={"source": "1:marko", "label": "knows"}), "different vertex labels")
    bad(http.post(f"{T}/personalrank", json={"source": "1:marko"}), "edge label")
    steps = [{"direction": "OUT", "top": 1}, {"direction": "BOTH", "top": 1}]
    layers = ok(http.post(f"{T}/neighborrank", json={"source": "1:marko", "alpha": 0.9, "steps": steps}))["ranks"]
    assert len(layers) == 3 and all(len(layer) <= 1 for layer in layers)
    bad(http.post(f"{T}/neighborrank", json={"source": "1:marko", "alpha": 0.9, "steps": [{"top": 1001}]}), "top")
    bad(http.post(f"{T}/neighborrank", json={"source": "1:marko", "steps": [{}]}), "alpha")
    top = ok(http.post(f"{T}/jaccardsimilarity", json={"vertex": "1:marko", "step": {}, "top": 2}))
    assert len(top["jaccard_similarity"]) == 2
    bad(http.post(f"{T}/jaccardsimilarity", json={"vertex": "1:marko", "step": {}, "top": -1}), "top")


def test_bad_parameters_name_the_parameter(http: httpx.Client) -> None:
    bad(http.get(f"{T}/kout?max_depth=1"), "source vertex id")
    bad(http.get(f'{T}/kout?source="1:nobody"&max_depth=1'), "source vertex", "1:nobody")
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=1&label=likes'), "Undefined edge label", "likes")
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=0'), "max_depth")
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=x'), "max_depth")
    bad(http.get(f'{T}/kout?source=1:marko&max_depth=1'), "source")
    bad(http.get(f'{T}/kout?source="1:marko"&max_depth=1&direction=UP'), "direction")
    bad(http.get(f'{T}/paths?source="1:marko"&target="1:josh"&max_depth=5001'), "depth", "5000")
    bad(http.get(f'{T}/shortestpath?source="1:marko"&target="1:ghost"&max_depth=2'), "target vertex")
    bad(http.get(f'{T}/weightedshortestpath?source="1:marko"&target="2:lop"'), "weight")
    bad(http.get(f'{T}/adamicadar?vertex="1:marko"&other="1:marko"'), "can't be same")
    bad(http.post(f"{T}/sameneighbors", json={"vertex_list": ["1:marko"]}), "vertex_list")
    bad(http.post(f"{T}/paths", json={"sources": {"ids": ["1:marko"], "label": "person"}, "targets": {"ids": ["2:lop"]},
                                      "max_depth": 2}), "Just provide one of ids or label")
    bad(http.post(f"{T}/kout", json={"source": "1:marko", "steps": {}, "max_depth": 1, "traverse_mode": "x"}),
        "traverse mode")
    bad(http.get(f"{T}/vertices"), "ids")
    bad(http.get(f"{T}/vertices/shards"), "split")
    bad(http.get(f"{T}/vertices/scan?start=0"), "end")
    assert http.get(f"{T}/edges?ids=nonsense").status_code == 404


# ---- shards + scan over 100k elements -------------------------------------------------------

N_VERTICES = 50_000
N_EDGES = 50_000


def _build_store(path: Path) -> None:
    cfg = GraphConfig(name="big", backend="sqlite", store=str(path), schema_mode="auto")
    GraphRegistry.init_store(cfg)
    reg = GraphRegistry()
    graph = reg.open(cfg)
    try:
        with graph.store.write() as tx:
            a = StoreAccess.for_graph(graph, tx)
            vs = [a.add_vertex("v", id=i) for i in range(N_VERTICES)]
            for i in range(N_EDGES):
                a.add_edge("e", vs[i], vs[(i * 7 + 1) % N_VERTICES])
    finally:
        reg.close_all()


@pytest.mark.slow
@sqlite_only("builds a store file in process, then serves it")
def test_shards_and_scan_visit_every_element_once(server_factory: Any, tmp_path: Path) -> None:
    cwd = tmp_path / "big"
    (cwd / "data").mkdir(parents=True)
    _build_store(cwd / "data" / "big.db")
    server = server_factory.start(graphs={"big": "backend=sqlite\nstore=data/big.db\nschema.mode=auto\n"},
                                  init=False, cwd=cwd)
    with httpx.Client(base_url=server.base_url, timeout=120) as client:
        for kind, total in (("vertices", N_VERTICES), ("edges", N_EDGES)):
            shards = ok(client.get(f"/graphs/big/traversers/{kind}/shards?split_size=1048576"))["shards"]
            assert len(shards) > 3
            assert all(a["end"] == b["start"] for a, b in zip(shards, shards[1:], strict=False))
            seen: list[Any] = []
            for s in shards:
                page = ""
                while page is not None:
                    body = ok(client.get(f"/graphs/big/traversers/{kind}/scan",
                                         params={"start": s["start"], "end": s["end"], "page": page,
                                                 "page_limit": 4000}))
                    seen += [x["id"] for x in body[kind]]
                    page = body["page"]
            assert len(seen) == total
            assert len(set(seen)) == total
