"""Batch loads from concurrent clients over a real server (each request is one write
transaction behind the store's one writer).

Four clients post their batches at once, again and again: every batch that is valid is
written whole, a batch holding one invalid element answers 400 naming it and leaves nothing
(only that one), and batches that share ids upsert them as one batch after the other would.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import httpx
import orjson
import pytest
from hg_elements import epath, error

from tests.runtime.together import run_together

G = "/graphs/cgraph"
V = f"{G}/graph/vertices"
E = f"{G}/graph/edges"
_JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def cserver(server_factory: Any) -> Any:
    return server_factory.start(graphs={"cgraph": "backend=sqlite\nschema.mode=strict\n"})


@pytest.fixture
def client(cserver: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=cserver.base_url, timeout=60) as c:
        assert c.delete(f"{G}/clear", params={"confirm_message": "I'm sure to delete all data"}).status_code == 204
        for name, dt in (("name", "TEXT"), ("age", "INT"), ("weight", "DOUBLE")):
            assert c.post(f"{G}/schema/propertykeys", json={"name": name, "data_type": dt}).status_code == 202
        assert c.post(f"{G}/schema/vertexlabels", json={
            "name": "person", "id_strategy": "PRIMARY_KEY", "primary_keys": ["name"], "properties": ["name", "age"],
            "nullable_keys": ["age"]}).status_code == 201
        assert c.post(f"{G}/schema/edgelabels", json={
            "name": "knows", "source_label": "person", "target_label": "person", "properties": ["weight"],
            "nullable_keys": ["weight"]}).status_code == 201
        yield c


def _post_together(url: str, path: str, bodies: list[list[dict[str, Any]]]) -> list[httpx.Response]:
    """Posts each body from its own client, all released at once (`run_together`)."""
    clients = [httpx.Client(base_url=url, timeout=60, headers=_JSON) for _ in bodies]
    try:
        return run_together([partial(c.post, path, content=orjson.dumps(b)) for c, b in zip(clients, bodies, strict=True)])
    finally:
        for c in clients:
            c.close()


def _knows(o: int, i: int, weight: Any) -> dict[str, Any]:
    return {"label": "knows", "outV": f"1:p{o}", "inV": f"1:p{i}", "outVLabel": "person", "inVLabel": "person",
            "properties": {"weight": weight}}


def test_one_invalid_batch_of_four_answers_400_and_leaves_nothing(client: httpx.Client, cserver: Any) -> None:
    people = [{"label": "person", "properties": {"name": f"p{i}", "age": i}} for i in range(200)]
    assert client.post(f"{V}/batch", json=people).status_code == 201
    for rnd in range(3):
        bodies = [[_knows(i, (i + 4 * rnd + k + 1) % 200, float(k)) for i in range(200)] for k in range(4)]
        bad = 1 + rnd  # a different client each round
        bodies[bad][120] = _knows(120, 7, "heavy")
        answers = _post_together(cserver.base_url, f"{E}/batch", bodies)
        message = error(answers[bad], 400)
        assert "heavy" in message
        for n, r in enumerate(answers):
            if n != bad:
                assert r.status_code == 201, r.text
                ids = r.json()
                assert len(ids) == 200 and ids[0] == f"S1:p0>1>1>>S1:p{(4 * rnd + n + 1) % 200}"
                assert client.get(epath(G, ids[-1])).status_code == 200
        for e in bodies[bad][:3]:  # the batch's valid elements were not kept either
            eid = f"S{e['outV']}>1>1>>S{e['inV']}"
            assert client.get(epath(G, eid)).status_code == 404
        # alone, the same batch fails the same way
        assert error(client.post(f"{E}/batch", content=orjson.dumps(bodies[bad]), headers=_JSON), 400) == message


def test_concurrent_batches_sharing_ids_upsert_them(client: httpx.Client, cserver: Any) -> None:
    a = [{"label": "person", "properties": {"name": f"s{i}", "age": 1}} for i in range(0, 300)]
    b = [{"label": "person", "properties": {"name": f"s{i}", "age": 2}} for i in range(150, 450)]
    answers = _post_together(cserver.base_url, f"{V}/batch", [a, b, a[:100], b[-100:]])
    assert [r.status_code for r in answers] == [201] * 4
    assert answers[0].json() == [f"1:s{i}" for i in range(300)]
    ages = {}
    for i in range(0, 450, 10):
        r = client.get(f'{V}/"1:s{i}"')
        assert r.status_code == 200, r.text
        ages[i] = r.json()["properties"]["age"]
    assert {ages[i] for i in ages if i < 150} == {1} and {ages[i] for i in ages if i >= 300} == {2}
    assert len({ages[i] for i in ages if 150 <= i < 300}) == 1  # one batch after the other, each whole
