"""Light k-out / k-neighbor requests run on the event loop as bounded runs
(`rest_adapter/resources/traversers.py:_answer`), in-process over a sqlite store (the only
kind whose reads can start at once): which requests stay on the loop, which go to the
thread pool, and that an attempt stopped by its row budget answers, error or not, exactly
as the pool run does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rest_adapter.resources.traversers as trav
from tests.algorithms.example_graph import load_example
from tests.conftest import SyncASGIClient, sqlite_app

G = "/graphs/tg"
T = f"{G}/traversers"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncASGIClient]:
    with sqlite_app(tmp_path_factory.mktemp("inline"), {"tg": "strict"}) as (c, _registry):
        load_example(lambda path, json: c.post(path, json=json), G)
        yield c


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The traversals handed to the thread pool (their step names), recorded."""
    seen: list[str] = []
    real = trav.run

    async def recording(fn: Any, *args: Any) -> Any:  # (graph, step, req), or (ir,) without a direct plan
        seen.append(args[1] if len(args) == 3 else args[0].steps[-1].name)
        return await real(fn, *args)

    monkeypatch.setattr(trav, "run", recording)
    return seen


def _body(resp: Any) -> Any:
    data = resp.json()
    if isinstance(data, dict) and isinstance(data.get("measure"), dict):
        data["measure"].pop("cost(ns)", None)
    return resp.status_code, data


LIGHT = [
    ("GET", 'kout?source="1:marko"&max_depth=1', None),
    ("GET", 'kout?source="1:marko"&max_depth=2&direction=OUT&count_only=true', None),
    ("GET", 'kneighbor?source="1:marko"&max_depth=2', None),
    ("GET", 'kneighbor?source="1:josh"&max_depth=1&direction=IN&max_degree=1', None),
    ("POST", "kout", {"source": "1:marko", "max_depth": 2, "steps": {"direction": "BOTH"}, "with_path": True,
                      "with_vertex": True}),
    ("POST", "kneighbor", {"source": "1:marko", "max_depth": 1, "steps": {"direction": "OUT"}, "with_edge": True,
                           "with_path": True}),
    ("GET", 'kout?source="1:marko"&max_depth=2&capacity=2&limit=1', None),  # an error: capacity reached
    ("GET", 'kout?source="1:nobody"&max_depth=1', None),  # an error: no such vertex
]


def _call(client: SyncASGIClient, method: str, path: str, body: Any) -> Any:
    if method == "GET":
        return client.get(f"{T}/{path}")
    return client.post(f"{T}/{path}", json=body)


@pytest.mark.parametrize(("method", "path", "body"), LIGHT)
def test_light_requests_answer_alike_inline_and_after_a_stopped_attempt(
        client: SyncASGIClient, hops: list[str], monkeypatch: pytest.MonkeyPatch, method: str, path: str,
        body: Any) -> None:
    inline = _body(_call(client, method, path, body))
    went_to_pool = bool(hops)
    hops.clear()
    monkeypatch.setattr(trav, "INLINE_ROWS", 0)  # every read is over budget: the pool answers
    fallback = _body(_call(client, method, path, body))
    assert inline == fallback
    assert not went_to_pool
    if inline[0] == 200:
        assert hops == [f"hg_{path.split('?')[0]}"]


def test_what_runs_inline(client: SyncASGIClient, hops: list[str]) -> None:
    got = client.get(f'{T}/kout?source="1:marko"&max_depth=1').json()
    assert sorted(got["vertices"]) == ["1:josh", "1:vadas", "2:lop"]
    assert hops == []
    got = client.get(f'{T}/kneighbor?source="1:marko"&max_depth=3').json()  # too deep to try
    assert len(got["vertices"]) == 6
    assert hops == ["hg_kneighbor"]
    hops.clear()
    client.get(f'{T}/shortestpath?source="1:marko"&target="2:ripple"&max_depth=3')  # never tried
    assert hops == ["hg_shortestpath"]


def test_a_hub_over_the_budget_goes_to_the_pool(client: SyncASGIClient, hops: list[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trav, "INLINE_ROWS", 2)  # marko has three out-edges
    got = client.get(f'{T}/kout?source="1:marko"&max_depth=1&direction=OUT').json()
    assert sorted(got["vertices"]) == ["1:josh", "1:vadas", "2:lop"]
    assert hops == ["hg_kout"]
    hops.clear()
    got = client.get(f'{T}/kout?source="1:vadas"&max_depth=1&direction=IN').json()
    assert got["vertices"] == ["1:marko"]
    assert hops == []


def test_no_inline_without_a_ready_file_store(app_client: Any, tmp_path: Path, hops: list[str]) -> None:
    load_example(lambda path, json: app_client.post(path, json=json), "/graphs/hugegraph")
    got = app_client.get('/graphs/hugegraph/traversers/kout?source="1:marko"&max_depth=1').json()
    assert sorted(got["vertices"]) == ["1:josh", "1:vadas", "2:lop"]
    assert hops == ["hg_kout"]  # a memory store's reads may wait for its writer
